// Replacing the hierarchy's level list (add, remove or reorder levels) from YAML flow
// text such as "[{name: dc, count: 4, bandwidth: 10 Gb/s, latency: 1 ms}, ...]". One
// field of one level is a SetParameterCommand on "topology.levels[i].<field>".
#pragma once
#include <string>
#include <vector>

#include "gui/cmd_scenario_command.h"

namespace fl::gui {

class SetLevelsCommand : public ScenarioCommand {
 public:
  // Throws fl::InputError when the text is not a valid level list.
  SetLevelsCommand(ScenarioDocument* doc, const std::string& text);
  void apply(Scenario& s, bool forward) const override;

 private:
  std::vector<LevelSpec> before_, after_;
};

}  // namespace fl::gui
