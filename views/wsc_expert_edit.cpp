#include "views/wsc_expert_edit.h"

#include <algorithm>

#include "scenario/input_error.h"
#include "scenario/validate.h"
#include "wsc/expert_placement.h"

namespace fl::views {

ExpertDies expertDiesOf(const Scenario& s) {
  if (s.workload.kind != WorkloadKind::WscInference) return {};
  ExpertDies out;
  for (const auto& hosts : wsc::expertPlacement(s.workload.wsc, endpointCount(s.topology)))
    out.push_back(hosts.empty() ? -1 : hosts.front());
  return out;
}

ExpertDies moveExpert(const ExpertDies& dies, int expert, int die) {
  ExpertDies out = dies;
  if (expert >= 0 && expert < static_cast<int>(out.size())) out[static_cast<std::size_t>(expert)] = die;
  return out;
}

ExpertDies swapExperts(const ExpertDies& dies, int a, int b) {
  ExpertDies out = dies;
  const int n = static_cast<int>(out.size());
  if (a >= 0 && b >= 0 && a < n && b < n) std::swap(out[static_cast<std::size_t>(a)], out[static_cast<std::size_t>(b)]);
  return out;
}

std::vector<std::vector<int>> expertsOnDies(const ExpertDies& dies, int count) {
  std::vector<std::vector<int>> out(static_cast<std::size_t>(std::max(0, count)));
  for (std::size_t e = 0; e < dies.size(); ++e)
    if (dies[e] >= 0 && dies[e] < count) out[static_cast<std::size_t>(dies[e])].push_back(static_cast<int>(e));
  return out;
}

Scenario withExplicitExperts(const Scenario& s, const ExpertDies& dies) {
  Scenario out = s;
  out.workload.wsc.expert_placement = WscExpertPlacement::Explicit;
  out.workload.wsc.expert_dies = dies;
  std::erase_if(out.sweep, [](const SweepAxis& a) { return a.key.rfind("workload.wsc.expert_", 0) == 0; });
  return out;
}

QString expertEditRefusal(const Scenario& s, const ExpertDies& dies) {
  if (s.workload.kind != WorkloadKind::WscInference)
    return QStringLiteral("not a wafer-scale inference scenario (workload.kind wsc_inference)");
  for (const SweepAxis& a : s.sweep)
    if (a.key == "workload.wsc.model" || a.key == "workload.wsc.experts" || a.key.rfind("topology.", 0) == 0)
      return QStringLiteral("the scenario sweeps %1: each point has its own experts or dies; remove that sweep axis "
                            "(Scenario dock, sweep) to place experts by hand")
          .arg(QString::fromStdString(a.key));
  try {
    validateScenario(withExplicitExperts(s, dies));
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace fl::views
