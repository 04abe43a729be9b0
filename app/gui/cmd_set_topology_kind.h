// Switching topology.kind (nvswitch / mesh / hierarchy). A preset only describes NVSwitch
// systems, so leaving nvswitch drops it (keeping its values as explicit ones), and a
// hierarchy without levels gets a small two-level starting point so that the result is
// a valid, runnable fabric. Undo restores the whole TopologySpec.
#pragma once
#include <string>

#include "gui/cmd_scenario_command.h"

namespace fl::gui {

class SetTopologyKindCommand : public ScenarioCommand {
 public:
  // Throws fl::InputError for an unknown kind.
  SetTopologyKindCommand(ScenarioDocument* doc, const std::string& kind);
  void apply(Scenario& s, bool forward) const override;

  // The levels a hierarchy starts with: 2 nodes x 8 GPUs.
  static std::vector<LevelSpec> starterLevels();

 private:
  TopologySpec before_, after_;
};

}  // namespace fl::gui
