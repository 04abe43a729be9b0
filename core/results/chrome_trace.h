// Task spans and phases as Chrome trace event JSON (the "Trace Event Format" read by
// Perfetto and chrome://tracing), the common timeline format of this field: one process
// per GPU, one thread per SM group, complete ("X") events for pipeline tasks and
// phases, counter ("C") events for the uplink/downlink bytes per time bin.
//
// Layout: process "layer" (Results::phases, merged over GPUs), one process "gpu<N>" per
// GPU with tasks (a "phases" thread: per layer pass and kind, first start to last end of
// that GPU's tasks; one thread per SM-group row of PipelineResults::groups; "host/launch"
// for launch gaps and barriers), and process "fabric" (counters "uplink"/"downlink" in
// GB/s per time bin). Tasks that overlap on one SM group go to extra lanes "<group> #2",
// ... since slices on one thread must nest. Flow events ("s"/"f", cat "dependency", id =
// the successor's task index) link each task to its `after` predecessor.
#pragma once
#include <cstddef>
#include <string>

#include "results/results.h"
#include "scenario/scenario.h"

namespace fl {

// The trace as JSON text (timestamps in microseconds, as the format wants).
std::string chromeTraceText(const Results& r, const Scenario& s);

// Writes it atomically (results/atomic_file.h); errors name `keyPathForErrors`, e.g. "--trace".
void writeChromeTrace(const std::string& path, const Results& r, const Scenario& s,
                      const std::string& keyPathForErrors = "--trace");

// A sweep's point gets its own trace: "dir/run.json" -> "dir/run-point-003.json" (the index
// as in the JSON's sweep array and the CSV's point-NNN directories).
std::string sweepPointTracePath(const std::string& path, std::size_t point);

}  // namespace fl
