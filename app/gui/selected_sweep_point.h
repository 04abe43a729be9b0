#pragma once
// The sweep point a form shows: the settings of the point selected under "Sweep point"
// (clamped to the sweep; none without a sweep) and the scenario that point runs. An
// invalid point shows the base scenario (the Scenario dock reports the error).
#include <algorithm>
#include <exception>

#include "scenario/scenario.h"
#include "scenario/sweep.h"

namespace fl::gui {

struct SelectedSweepPoint {
  SweepSettings settings;  // empty: no sweep, or an invalid point
  Scenario scenario;
};

inline SelectedSweepPoint selectedSweepPoint(const Scenario& base, int index) {
  SelectedSweepPoint out{{}, base};
  if (const std::size_t n = sweepPointCount(base); !base.sweep.empty() && n > 0)
    out.settings = sweepPoint(base, std::min(static_cast<std::size_t>(std::max(index, 0)), n - 1));
  try {
    if (!out.settings.empty()) out.scenario = sweepPointScenario(base, out.settings);
  } catch (const std::exception&) {
    out.settings.clear();
  }
  return out;
}

}  // namespace fl::gui
