// Human-readable text for the CLI: one-line descriptions of a scenario's parts, units,
// the run summary and the sweep table. Pure functions of their inputs (no I/O besides
// the stream given), so tests and the GUI's status line can reuse them.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "report/report_format.h"
#include "report/report_text.h"
#include "results/results.h"
#include "scenario/scenario.h"
#include "sim/run.h"

namespace fl::cli {

// Byte, rate and count formats are the report's, so the CLI and reports read alike.
using report::formatBytes;  // "1.50 MiB"
using report::formatCount;  // "1,234,567"
using report::formatRate;   // "25.0 GB/s"

std::string formatTime(Time t);                 // "12.35 us"

// "all_reduce ring, 1 MiB per GPU", "MoE layer deepseek-v3 (256 experts, top-8, ...), ...":
// the report's wording.
using report::workloadOneLine;

// The summary of a finished (or cancelled) run. `topology` is the built fabric's
// one-line description.
void printRunSummary(std::ostream& out, const Scenario& s, const std::string& topology,
                     const Results& r);

// One row per sweep point: its settings and the key figures.
void printSweepTable(std::ostream& out, const Scenario& s, const std::string& topology,
                     const std::vector<SweepPoint>& points);

}  // namespace fl::cli
