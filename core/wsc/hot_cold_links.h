// Hot, cold and idle links per phase (seed 003 §V-A, spec moentwine.md §2.7): idle without
// bytes, hot at or above a cutoff utilisation, cold otherwise. The cutoff is
// workload.wsc.hot_threshold itself (absolute), or that fraction of the phase's busiest
// die-to-die link (relative: the paper's hot links are "busy all the time" in their
// phase, which at a hop latency of 20 ns is 77 % of the time on the 4x4, not 100 %).
// Shared by the run's results and the Hot/Cold dock, whose threshold the user can move.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "results/results.h"

namespace fl::wsc {

// The utilisation from which a link of `phase` is hot. Relative: of the busiest link other
// than a die's own port to its router (kind "local"), or of any link where all are such.
double hotCutoff(const std::vector<LinkDirectionResult>& links, const std::string& phase, bool relative,
                 double threshold);

const char* linkClass(std::int64_t bytes, double utilization, double cutoff);

// Sets every links[].phases[].cls.
void classifyLinks(std::vector<LinkDirectionResult>& links, bool relative, double threshold);

}  // namespace fl::wsc
