#include "gui/cmd_scenario_command.h"

#include "gui/scenario_document.h"

namespace fl::gui {

ScenarioCommand::ScenarioCommand(ScenarioDocument* doc, const QString& text)
    : QUndoCommand(text), doc_(doc) {}

void ScenarioCommand::redo() {
  Scenario s = doc_->scenario();
  apply(s, true);
  doc_->applyFromCommand(s);
}

void ScenarioCommand::undo() {
  Scenario s = doc_->scenario();
  apply(s, false);
  doc_->applyFromCommand(s);
}

}  // namespace fl::gui
