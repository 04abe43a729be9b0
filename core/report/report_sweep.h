// The sweep section: one table row per point (its settings and key figures) and charts of
// the main figure against the first sweep axis, one series per combination of the other
// axes' values (e.g. busbw vs size for ring and nvls; accepted throughput and p99 latency
// vs offered load).
#pragma once
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "sim/run.h"

namespace fl::report {

// <section id="sweep">; "" when `points` is a single run without settings.
std::string sweepSection(const Scenario& s, const std::vector<SweepPoint>& points);

}  // namespace fl::report
