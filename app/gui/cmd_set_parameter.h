// Setting one key (or one field of one hierarchy level) from text. Redo parses the new
// text with setValue(), exactly as a file would; undo sets the old getValue() text,
// which the schema reads back to the same value (formatting is canonical and exact).
#pragma once
#include <string>

#include "gui/cmd_scenario_command.h"

namespace fl::gui {

class SetParameterCommand : public ScenarioCommand {
 public:
  // Throws fl::InputError when `text` is not a valid value for `path`.
  SetParameterCommand(ScenarioDocument* doc, std::string path, std::string text);

  void apply(Scenario& s, bool forward) const override;
  const std::string& path() const { return path_; }

 private:
  std::string path_, oldText_, newText_;
};

}  // namespace fl::gui
