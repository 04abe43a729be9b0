#include "gui/cmd_set_sweep.h"

#include <yaml-cpp/yaml.h>

#include "gui/scenario_document.h"
#include "scenario/bounded_yaml.h"
#include "scenario/input_error.h"
#include "scenario/scenario_io.h"

namespace fl::gui {

std::string SetSweepCommand::sweepText(const std::vector<SweepAxis>& sweep) {
  YAML::Emitter e;
  e << YAML::Flow << YAML::BeginSeq;
  for (const SweepAxis& a : sweep) {
    e << YAML::BeginMap << YAML::Key << "key" << YAML::Value << a.key;
    e << YAML::Key << "values" << YAML::Value << YAML::BeginSeq;
    for (const std::string& v : a.values) e << v;
    e << YAML::EndSeq << YAML::EndMap;
  }
  e << YAML::EndSeq;
  return e.c_str();
}

std::vector<SweepAxis> SetSweepCommand::parseSweep(const Scenario& base, const std::string& text) {
  // The loader owns the sweep rules (known keys, each value valid, every point valid):
  // append the sweep to the scenario's own text and read it back. Line numbers would
  // point into that synthetic text, so errors keep the key path and drop the location.
  Scenario plain = base;
  plain.sweep.clear();
  plain.story.clear();  // its steps name the old sweep's points; the command sets the sweep only
  try {
    const bool blank = text.find_first_not_of(" \t\r\n") == std::string::npos;
    YAML::Node node = loadBoundedYaml(blank ? std::string("[]") : text);  // malformed: below
    YAML::Emitter e;
    e << YAML::Flow << node;
    const std::string doc = saveScenarioText(plain) + "sweep: " + e.c_str() + "\n";
    return parseScenario(doc, "sweep").sweep;
  } catch (const YAML::Exception& e) {
    throw InputError({}, "sweep", "a YAML flow list such as " + sweepText({{"run.seed", {"1", "2"}}}),
                     "'" + text + "'", e.msg);
  } catch (const InputError& e) {
    throw InputError({}, e.keyPath(), e.expected(), e.found(), e.hint());
  }
}

SetSweepCommand::SetSweepCommand(ScenarioDocument* doc, const std::string& text)
    : ScenarioCommand(doc, QString()), before_(doc->scenario().sweep) {
  after_ = parseSweep(doc->scenario(), text);
  setText(after_.empty() ? QStringLiteral("Remove sweep")
                         : QStringLiteral("Set sweep (%1 axes)").arg(after_.size()));
}

void SetSweepCommand::apply(Scenario& s, bool forward) const {
  s.sweep = forward ? after_ : before_;
}

}  // namespace fl::gui
