#include "gui/cmd_set_preset.h"

#include "gui/scenario_document.h"
#include "scenario/schema.h"

namespace fl::gui {

SetPresetCommand::SetPresetCommand(ScenarioDocument* doc, const std::string& preset)
    : ScenarioCommand(doc, QString()), before_(doc->scenario().topology) {
  Scenario probe = doc->scenario();
  setValue(probe, "topology.preset", preset);
  after_ = probe.topology;
  setText(QStringLiteral("Switch preset to %1")
              .arg(QString::fromStdString(getValue(probe, "topology.preset"))));
}

void SetPresetCommand::apply(Scenario& s, bool forward) const {
  s.topology = forward ? after_ : before_;
}

}  // namespace fl::gui
