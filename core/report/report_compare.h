// The report's version of the app's Compare view: the detailed sweep points side by
// side on shared scales, so heights and lengths compare at a glance: each point's
// uplink/downlink bandwidth over time (one time axis, one rate scale), an MoE layer's
// traffic breakdown (one byte scale) and token pipeline Gantt (one time axis).
#pragma once
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "sim/run.h"

namespace fl::report {

// <section id="compare">; "" for fewer than two points in `detail` (0-based indices).
std::string compareSection(const Scenario& s, const std::vector<SweepPoint>& points, const std::vector<int>& detail);

}  // namespace fl::report
