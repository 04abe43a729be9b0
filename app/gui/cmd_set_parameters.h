// Setting several keys in one step: one user gesture that changes more than one key (an
// SM-partition drag sets four, a scheme preset two) is one undo entry. Redo parses each
// text with setValue() in order, as --set flags would. Undo restores the previous
// Scenario whole: the keys may interact (scheme.launch.baseline fills
// scheme.launch.kernels), so setting the old texts back would not always invert it.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "gui/cmd_scenario_command.h"

namespace fl::gui {

class SetParametersCommand : public ScenarioCommand {
 public:
  using Assignment = std::pair<std::string, std::string>;  // key path, value text

  // Throws fl::InputError when a text is not a valid value for its path. `text` names
  // the gesture in the Edit menu; empty: "Set <key> to <value>" or "Set n keys".
  SetParametersCommand(ScenarioDocument* doc, std::vector<Assignment> assignments, const QString& text = {});

  void apply(Scenario& s, bool forward) const override;

 private:
  Scenario before_, after_;
};

}  // namespace fl::gui
