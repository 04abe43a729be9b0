#include "views/mapping_edit.h"

#include <algorithm>

#include "scenario/input_error.h"
#include "scenario/validate.h"

namespace fl::views {

DieLists groupsOf(const WscResults& w) {
  DieLists out;
  for (const WscTpGroupResult& g : w.tp_groups) out.emplace_back(g.members.begin(), g.members.end());
  return out;
}

DieLists swapDies(const DieLists& groups, int a, int b) {
  DieLists out = groups;
  std::int64_t* pa = nullptr;
  std::int64_t* pb = nullptr;
  for (auto& g : out)
    for (auto& d : g) {
      if (d == a && !pa) pa = &d;
      else if (d == b && !pb) pb = &d;
    }
  if (pa && pb && a != b) std::swap(*pa, *pb);
  return out;
}

std::vector<int> groupOfDies(const DieLists& groups, int dies) {
  std::vector<int> out(static_cast<std::size_t>(std::max(0, dies)), -1);
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (std::int64_t d : groups[g])
      if (d >= 0 && d < dies) out[static_cast<std::size_t>(d)] = static_cast<int>(g);
  return out;
}

Scenario withExplicitGroups(const Scenario& s, const DieLists& groups) {
  Scenario out = s;
  out.mapping.kind = MappingKind::Explicit;
  out.mapping.groups = groups;
  std::erase_if(out.sweep, [](const SweepAxis& a) { return a.key.rfind("mapping.", 0) == 0; });
  return out;
}

QString mappingEditRefusal(const Scenario& s, const DieLists& groups) {
  if (s.workload.kind != WorkloadKind::WscInference)
    return QStringLiteral("not a wafer-scale inference scenario (workload.kind wsc_inference)");
  if (s.mapping.kind == MappingKind::Her)
    return QStringLiteral("mapping.kind her: its inter-wafer all-gather among counterpart dies has no explicit "
                          "form (mapping.kind explicit runs every group's all-reduce on its own ring); set "
                          "mapping.kind to er or baseline to edit dies by hand");
  for (const SweepAxis& a : s.sweep)
    if (a.key == "workload.wsc.tp" || a.key == "workload.wsc.all_gather" || a.key.rfind("topology.", 0) == 0)
      return QStringLiteral("the scenario sweeps %1: each point has its own die grid or TP groups; remove that "
                            "sweep axis (Scenario dock, sweep) to edit the mapping by hand")
          .arg(QString::fromStdString(a.key));
  try {
    validateScenario(withExplicitGroups(s, groups));
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace fl::views
