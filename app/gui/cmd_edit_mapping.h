// A mapping editor gesture (views/mapping_panel.h): dies swapped between TP groups on the
// canvas become mapping.kind explicit + mapping.groups, and a sweep axis over a mapping
// key is dropped (the edit fixes the mapping the shown point had) — one undo step that
// restores the previous Scenario whole.
#pragma once
#include "gui/cmd_scenario_command.h"
#include "views/mapping_edit.h"

namespace fl::gui {

class EditMappingCommand : public ScenarioCommand {
 public:
  EditMappingCommand(ScenarioDocument* doc, const views::DieLists& groups, const QString& text);
  void apply(Scenario& s, bool forward) const override;

 private:
  Scenario before_, after_;
};

}  // namespace fl::gui
