// Task spans and phases as Chrome trace event JSON (the "Trace Event Format" read by
// Perfetto and chrome://tracing), the common timeline format of this field: one process
// per GPU, one thread per SM group, complete ("X") events for pipeline tasks and
// phases, counter ("C") events for the uplink/downlink bytes per time bin.
#pragma once
#include <string>

#include "results/results.h"
#include "scenario/scenario.h"

namespace fl {

// The trace as JSON text (timestamps in microseconds, as the format wants).
std::string chromeTraceText(const Results& r, const Scenario& s);

// Writes it atomically (results/atomic_file.h); errors name `keyPathForErrors`, e.g. "--trace".
void writeChromeTrace(const std::string& path, const Results& r, const Scenario& s,
                      const std::string& keyPathForErrors = "--trace");

}  // namespace fl
