#include "gui/cmd_set_parameter.h"

#include "gui/scenario_document.h"
#include "scenario/schema.h"

namespace fl::gui {

SetParameterCommand::SetParameterCommand(ScenarioDocument* doc, std::string path, std::string text)
    : ScenarioCommand(doc, QString()), path_(std::move(path)), newText_(std::move(text)) {
  oldText_ = getValue(doc->scenario(), path_);
  Scenario probe = doc->scenario();
  setValue(probe, path_, newText_);  // throws the schema's message for a bad value
  setText(QStringLiteral("Set %1 to %2")
              .arg(QString::fromStdString(path_), QString::fromStdString(getValue(probe, path_))));
}

void SetParameterCommand::apply(Scenario& s, bool forward) const {
  setValue(s, path_, forward ? newText_ : oldText_);
}

}  // namespace fl::gui
