#include "sim/sweep_overrides.h"

#include <yaml-cpp/yaml.h>

#include "scenario/input_error.h"
#include "scenario/schema.h"
#include "scenario/schema_values.h"
#include "scenario/scenario_io.h"
#include "scenario/sweep.h"

namespace fl {

namespace {

// `inner` is `outer` or a part of it ("topology.levels[1]" in "topology.levels").
bool covers(const std::string& outer, const std::string& inner) {
  if (inner.size() < outer.size() || inner.compare(0, outer.size(), outer) != 0) return false;
  return inner.size() == outer.size() || inner[outer.size()] == '.' || inner[outer.size()] == '[';
}

std::string trimmed(std::string text) {
  while (!text.empty() && text.back() == ' ') text.pop_back();
  while (!text.empty() && text.front() == ' ') text.erase(0, 1);
  return text;
}

std::string joined(const std::vector<std::string>& values) {
  std::string text;
  for (const std::string& v : values) text += (text.empty() ? "" : ", ") + v;
  return text;
}

// A value as the file's loader keeps it: a scalar's text, anything else as flow YAML.
std::string valueText(const YAML::Node& v) {
  if (v.IsScalar()) return v.Scalar();
  YAML::Emitter e;
  e << YAML::Flow << v;
  return e.c_str();
}

}  // namespace

std::vector<std::string> dropAxesSetByOverrides(Scenario& s, const std::vector<std::string>& sets) {
  std::vector<std::string> notes;
  for (const std::string& assignment : sets) {
    const size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) continue;  // applyOverride reports it
    const std::string key = trimmed(assignment.substr(0, eq));
    for (size_t a = 0; a < s.sweep.size();) {
      if (!covers(key, s.sweep[a].key)) {
        ++a;
        continue;
      }
      notes.push_back("--set " + key + " replaces the sweep over " + s.sweep[a].key + " (" +
                      std::to_string(s.sweep[a].values.size()) + " values: " + joined(s.sweep[a].values) +
                      ") with the one value " + trimmed(assignment.substr(eq + 1)));
      s.sweep.erase(s.sweep.begin() + static_cast<std::ptrdiff_t>(a));
    }
  }
  return notes;
}

std::vector<std::string> applySweepFlags(Scenario& s, const std::vector<std::string>& sweeps) {
  std::vector<std::string> notes;
  if (sweeps.empty()) return notes;
  const InputLocation where{"--sweep", 0, 0};
  for (const std::string& flag : sweeps) {
    const size_t eq = flag.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError(where, "", "key.path=value,value,...", "'" + flag + "'");
    SweepAxis axis;
    axis.key = trimmed(flag.substr(0, eq));
    if (!isSettablePath(s, axis.key)) {
      try {
        (void)getValue(s, axis.key);  // throws with the did-you-mean hint
      } catch (const InputError& e) {
        throw InputError(where, axis.key, e.expected(), e.found(), e.hint());
      }
    }
    size_t index = s.sweep.size();
    for (size_t a = 0; a < s.sweep.size(); ++a)
      if (s.sweep[a].key == axis.key) index = a;
    const std::string path = "sweep[" + std::to_string(index) + "]";
    YAML::Node values;
    try {
      values = YAML::Load("[" + flag.substr(eq + 1) + "]");
    } catch (const YAML::Exception& e) {
      throw InputError(where, path + ".values", "values separated by commas (YAML flow items)",
                       "a syntax error (" + e.msg + ")");
    }
    if (!values.IsSequence() || values.size() == 0)
      throw InputError(where, path + ".values", "a non-empty list of values", "nothing after '='");
    for (size_t j = 0; j < values.size(); ++j) {
      const std::string vpath = path + ".values[" + std::to_string(j) + "]";
      axis.values.push_back(valueText(values[j]));
      Scenario copy = s;
      try {
        setValue(copy, axis.key, axis.values.back(), where);
      } catch (const InputError& e) {
        throw InputError(where, vpath, e.expected() + " for " + axis.key, e.found(), e.hint());
      }
    }
    if (index < s.sweep.size()) {
      notes.push_back("--sweep " + axis.key + " replaces the sweep's values (" + joined(s.sweep[index].values) +
                      ") with " + joined(axis.values));
      s.sweep[index] = std::move(axis);
    } else {
      s.sweep.push_back(std::move(axis));
    }
  }
  // The file's checks on the whole sweep (point count, every point valid, keys the
  // topology kind reads), through the loader itself so that the messages are the same.
  try {
    (void)parseScenario(saveScenarioText(s), "--sweep");
  } catch (const InputError& e) {
    throw InputError(where, e.keyPath(), e.expected(), e.found(), e.hint());
  }
  return notes;
}

Scenario keepSweepPoint(const Scenario& s, std::size_t index) {
  const size_t count = s.sweep.empty() ? 1 : sweepPointCount(s);
  if (index >= count)
    throw InputError({"--point", 0, 0}, "", "a point index from 0 to " + std::to_string(count - 1),
                     std::to_string(index),
                     s.sweep.empty() ? "the scenario has no sweep: its one run is point 0"
                                     : "the sweep has " + std::to_string(count) + " points");
  if (s.sweep.empty()) return s;
  try {
    return sweepPointScenario(s, sweepPoint(s, index));
  } catch (const InputError& e) {
    throw InputError({"--point", 0, 0}, e.keyPath(), e.expected(), e.found(), e.hint());
  }
}

}  // namespace fl
