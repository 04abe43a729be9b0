// Switching topology.preset. The schema keeps explicitly set values and takes the rest
// from the new preset, which is not invertible by setting the old preset name again, so
// undo restores the whole TopologySpec.
#pragma once
#include <string>

#include "gui/cmd_scenario_command.h"

namespace fl::gui {

class SetPresetCommand : public ScenarioCommand {
 public:
  // Throws fl::InputError for an unknown preset.
  SetPresetCommand(ScenarioDocument* doc, const std::string& preset);
  void apply(Scenario& s, bool forward) const override;

 private:
  TopologySpec before_, after_;
};

}  // namespace fl::gui
