// Replacing the sweep (its axes and values) from YAML flow text such as
// "[{key: workload.collective.algorithm, values: [ring, nvls]}]", read by the scenario
// loader itself so that keys, values and every point are checked as in a file.
#pragma once
#include <string>
#include <vector>

#include "gui/cmd_scenario_command.h"

namespace fl::gui {

class SetSweepCommand : public ScenarioCommand {
 public:
  // Throws fl::InputError when the text is not a valid sweep for the scenario.
  SetSweepCommand(ScenarioDocument* doc, const std::string& text);
  void apply(Scenario& s, bool forward) const override;

  // The flow text of a sweep ("[]" when empty), readable back by the constructor.
  static std::string sweepText(const std::vector<SweepAxis>& sweep);
  // Parses sweep text against `base` (its own sweep ignored). Throws fl::InputError.
  static std::vector<SweepAxis> parseSweep(const Scenario& base, const std::string& text);

 private:
  std::vector<SweepAxis> before_, after_;
};

}  // namespace fl::gui
