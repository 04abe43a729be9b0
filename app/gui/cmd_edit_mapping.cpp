#include "gui/cmd_edit_mapping.h"

#include "gui/scenario_document.h"

namespace fl::gui {

EditMappingCommand::EditMappingCommand(ScenarioDocument* doc, const views::DieLists& groups, const QString& text)
    : ScenarioCommand(doc, text), before_(doc->scenario()), after_(views::withExplicitGroups(doc->scenario(), groups)) {}

void EditMappingCommand::apply(Scenario& s, bool forward) const { s = forward ? after_ : before_; }

}  // namespace fl::gui
