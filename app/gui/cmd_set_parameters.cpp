#include "gui/cmd_set_parameters.h"

#include "gui/scenario_document.h"
#include "scenario/schema.h"

namespace fl::gui {

SetParametersCommand::SetParametersCommand(ScenarioDocument* doc, std::vector<Assignment> assignments,
                                           const QString& text)
    : ScenarioCommand(doc, text), before_(doc->scenario()), after_(doc->scenario()) {
  for (const auto& [path, value] : assignments) setValue(after_, path, value);  // throws the schema's message
  if (!text.isEmpty()) return;
  if (assignments.size() == 1)
    setText(QStringLiteral("Set %1 to %2")
                .arg(QString::fromStdString(assignments[0].first),
                     QString::fromStdString(getValue(after_, assignments[0].first))));
  else
    setText(QStringLiteral("Set %1 keys").arg(assignments.size()));
}

// The stack is linear: redo always starts from before_ and undo from after_.
void SetParametersCommand::apply(Scenario& s, bool forward) const { s = forward ? after_ : before_; }

}  // namespace fl::gui
