#include "gui/cmd_set_topology_kind.h"

#include "gui/scenario_document.h"
#include "scenario/schema.h"

namespace fl::gui {

std::vector<LevelSpec> SetTopologyKindCommand::starterLevels() {
  // A 400 Gb/s NIC per node (50 GB/s) and NVLink-class GPU links: a common cluster shape.
  return {{"node", 2, 50e9, 2 * kMicrosecond}, {"gpu", 8, 25e9, 500 * kNanosecond}};
}

SetTopologyKindCommand::SetTopologyKindCommand(ScenarioDocument* doc, const std::string& kind)
    : ScenarioCommand(doc, QString()), before_(doc->scenario().topology) {
  Scenario probe = doc->scenario();
  setValue(probe, "topology.kind", kind);
  if (probe.topology.kind != TopologyKind::NvSwitch) probe.topology.preset.clear();
  if (probe.topology.kind == TopologyKind::Hierarchy && probe.topology.levels.empty())
    probe.topology.levels = starterLevels();
  after_ = probe.topology;
  setText(QStringLiteral("Switch topology to %1")
              .arg(QString::fromStdString(getValue(probe, "topology.kind"))));
}

void SetTopologyKindCommand::apply(Scenario& s, bool forward) const {
  s.topology = forward ? after_ : before_;
}

}  // namespace fl::gui
