// Expanding scenario.sweep into the scenarios of its points. Each value is applied with
// setValue(), exactly like a --set flag, in axis order.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "scenario/scenario.h"

namespace fl {

// key path -> value text of one point, in axis order.
using SweepSettings = std::vector<std::pair<std::string, std::string>>;

// The cartesian product of the axes, first axis outermost (the last axis varies
// fastest). A scenario without a sweep yields one point with no settings.
std::vector<SweepSettings> sweepPoints(const Scenario& s);

// Point `index` of sweepPoints(s) without building the others (a sweep may have more
// points than fit in memory); requires index < sweepPointCount(s).
SweepSettings sweepPoint(const Scenario& s, size_t index);

// Number of points without building them (saturates at SIZE_MAX).
size_t sweepPointCount(const Scenario& s);

// `base` with the settings applied (its own sweep cleared) and validated. Throws
// InputError naming the key (location "sweep").
Scenario sweepPointScenario(const Scenario& base, const SweepSettings& settings);

}  // namespace fl
