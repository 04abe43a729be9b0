// The sweep points that have what a dock shows (merge units, in-switch reductions,
// expert migrations), for the dock's links to them (views/point_links.h).
#pragma once
#include <QString>
#include <functional>
#include <utility>
#include <vector>

#include "results/results.h"

namespace fl::gui {

class SweepResults;

// The finished points other than the selected one whose results `has`, with their labels.
std::vector<std::pair<int, QString>> pointsWith(const SweepResults& sweep, const std::function<bool(const Results&)>& has);

}  // namespace fl::gui
