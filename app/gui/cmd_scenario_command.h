// Base of the scenario edit commands (one subclass per kind of edit, cmd_*.h): each knows
// how to apply its edit, or undo it, to a Scenario value, so the document can check the
// result before pushing the command and redo/undo stay exact inverses.
#pragma once
#include <QUndoCommand>

#include "scenario/scenario.h"

namespace fl::gui {

class ScenarioDocument;

class ScenarioCommand : public QUndoCommand {
 public:
  ScenarioCommand(ScenarioDocument* doc, const QString& text);

  // Applies the edit (forward) or restores the previous state (!forward) in `s`.
  virtual void apply(Scenario& s, bool forward) const = 0;

  void redo() override;
  void undo() override;

 protected:
  ScenarioDocument* doc_;
};

}  // namespace fl::gui
