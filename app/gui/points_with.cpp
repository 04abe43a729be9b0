#include "gui/points_with.h"

#include "gui/sweep_results.h"

namespace fl::gui {

std::vector<std::pair<int, QString>> pointsWith(const SweepResults& sweep, const std::function<bool(const Results&)>& has) {
  std::vector<std::pair<int, QString>> out;
  for (int i = 0; i < sweep.pointCount(); ++i) {
    const auto r = sweep.results(i);
    if (i == sweep.selectedPoint() || !r || !sweep.isFinal(i) || !has(*r)) continue;
    QString label = sweep.labels().value(i);
    out.emplace_back(i, label.isEmpty() ? SweepResults::tr("point %1").arg(i + 1) : label);
  }
  return out;
}

}  // namespace fl::gui
