#include "gui/cmd_set_levels.h"

#include "gui/scenario_document.h"
#include "scenario/schema.h"

namespace fl::gui {

SetLevelsCommand::SetLevelsCommand(ScenarioDocument* doc, const std::string& text)
    : ScenarioCommand(doc, QString()), before_(doc->scenario().topology.levels) {
  Scenario probe = doc->scenario();
  setValue(probe, "topology.levels", text);
  after_ = probe.topology.levels;
  setText(QStringLiteral("Set hierarchy levels (%1)").arg(after_.size()));
}

void SetLevelsCommand::apply(Scenario& s, bool forward) const {
  s.topology.levels = forward ? after_ : before_;
}

}  // namespace fl::gui
