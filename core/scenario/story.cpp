#include "scenario/story.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

#include "scenario/did_you_mean.h"
#include "scenario/friendly_names.h"
#include "scenario/quantity.h"
#include "scenario/schema_values.h"
#include "scenario/sweep.h"

namespace fl {

namespace {

InputLocation locate(const YAML::Node& n, const std::string& file, const InputLocation& fallback) {
  const YAML::Mark m = n.Mark();
  return m.line < 0 ? fallback : InputLocation{file, m.line + 1, m.column + 1};
}

// A one-line, non-empty text, else an error at `path`.
std::string oneLineText(const YAML::Node& n, const std::string& path, const std::string& expected,
                        const InputLocation& at) {
  if (!n.IsScalar() || n.Scalar().empty()) throw InputError(at, path, expected, n.IsNull() ? "nothing" : detail::describeNode(n));
  const std::string text = n.Scalar();
  if (text.find('\n') != std::string::npos) throw InputError(at, path, expected + " on one line", "several lines");
  return text;
}

}  // namespace

const std::vector<std::string>& storyDockNames() {
  static const std::vector<std::string> names = {"Scenario", "Fusion scheme", "Inspector", "Heat",   "Plots",
                                                 "Traffic Breakdown", "Switch Tables", "AL TLB", "Pipeline",
                                                 "Sweep", "Story"};
  return names;
}

std::vector<std::string> sweepPointLabels(const Scenario& s) {
  std::vector<std::string> labels;
  const size_t n = sweepPointCount(s);
  for (size_t i = 0; i < n && i < 100000; ++i) {
    std::string label;
    size_t stride = n;
    for (const SweepAxis& a : s.sweep) {  // first axis outermost, as sweepPoint orders them
      stride /= a.values.size();
      const size_t v = (i / stride) % a.values.size();
      const auto dot = a.key.rfind('.');
      const std::string known = friendlyValueName(a.key, a.values[v]);  // "ER-Mapping"
      const std::string part = v < a.labels.size() ? a.labels[v]
                               : !known.empty()    ? known
                                                   : (dot == std::string::npos ? a.key : a.key.substr(dot + 1)) +
                                                         " = " + a.values[v];
      label += (label.empty() ? "" : ", ") + part;
    }
    labels.push_back(label.empty() ? "single run" : label);
  }
  return labels;
}

int storyPointIndex(const Scenario& s, const std::string& point) {
  const std::vector<std::string> labels = sweepPointLabels(s);
  for (size_t i = 0; i < labels.size(); ++i)
    if (labels[i] == point) return static_cast<int>(i);
  if (!point.empty() && point.find_first_not_of("0123456789") == std::string::npos && point.size() < 7) {
    const int n = std::stoi(point);
    if (n >= 1 && n <= static_cast<int>(labels.size())) return n - 1;
  }
  return -1;
}

std::vector<std::string> readSweepLabels(const YAML::Node& node, const SweepAxis& axis, const std::string& path,
                                         const InputLocation& at, const std::string& file) {
  if (!node.IsSequence() || node.size() != axis.values.size())
    throw InputError(node.IsNull() ? at : locate(node, file, at), path,
                     "a list of " + std::to_string(axis.values.size()) + " labels, one per value",
                     node.IsSequence() ? "a list of " + std::to_string(node.size()) : detail::describeNode(node));
  std::vector<std::string> labels;
  std::set<std::string> seen;
  for (size_t i = 0; i < node.size(); ++i) {
    const std::string p = path + "[" + std::to_string(i) + "]";
    const InputLocation where = locate(node[i], file, at);
    labels.push_back(oneLineText(node[i], p, "a short name for " + axis.values[i], where));
    if (!seen.insert(labels.back()).second)
      throw InputError(where, p, "a label no other value of the axis has", "'" + labels.back() + "' again");
  }
  return labels;
}

void readStory(const YAML::Node& node, const InputLocation& at, const std::string& file, Scenario& s) {
  if (!node.IsSequence() || node.size() == 0)
    throw InputError(node.IsNull() ? at : locate(node, file, at), "story",
                     "a list of steps, each a map with text and actions", detail::describeNode(node));
  static const std::vector<std::string> keys = {"text", "point", "dock", "at", "phase", "direction"};
  for (size_t i = 0; i < node.size(); ++i) {
    const std::string path = "story[" + std::to_string(i) + "]";
    const YAML::Node item = node[i];
    const InputLocation itemAt = locate(item, file, at);
    if (!item.IsMap()) throw InputError(itemAt, path, "a map {text, point, dock, at | phase, direction}", detail::describeNode(item));
    StoryStep step;
    std::set<std::string> seen;
    for (auto it = item.begin(); it != item.end(); ++it) {
      const InputLocation kat = locate(it->first, file, itemAt);
      const std::string k = it->first.IsScalar() ? it->first.Scalar() : std::string();
      const std::string p = path + "." + k;
      if (std::find(keys.begin(), keys.end(), k) == keys.end())
        throw InputError(kat, p, "one of text, point, dock, at, phase, direction", "'" + k + "'",
                         suggestionHint(k, keys, "keys"));
      if (!seen.insert(k).second) throw InputError(kat, p, "each key once", "a second '" + k + "'");
      const InputLocation vat = locate(it->second, file, kat);
      if (k == "text") {
        step.text = oneLineText(it->second, p, "a short text", vat);
      } else if (k == "point") {
        step.point = oneLineText(it->second, p, "a sweep point's label or number", vat);
        if (s.sweep.empty()) throw InputError(vat, p, "no point: this scenario has no sweep", "'" + step.point + "'");
        if (storyPointIndex(s, step.point) < 0) {
          const std::vector<std::string> labels = sweepPointLabels(s);
          throw InputError(vat, p,
                           "a sweep point: its number from 1 to " + std::to_string(labels.size()) + " or its label",
                           "'" + step.point + "'", suggestionHint(step.point, labels, "labels"));
        }
      } else if (k == "dock") {
        step.dock = oneLineText(it->second, p, "a dock's title", vat);
        const auto& docks = storyDockNames();
        if (std::find(docks.begin(), docks.end(), step.dock) == docks.end())
          throw InputError(vat, p, "a dock: " + [&] {
            std::string list;
            for (const auto& d : docks) list += (list.empty() ? "" : ", ") + d;
            return list;
          }(), "'" + step.dock + "'", suggestionHint(step.dock, docks, "docks"));
      } else if (k == "at") {
        step.at = parseTime(oneLineText(it->second, p, "a time such as '120 us'", vat), p, vat);
        if (step.at < 0) throw InputError(vat, p, "a time of 0 or more", it->second.Scalar());
      } else if (k == "phase") {
        step.phase = oneLineText(it->second, p, "a phase's name", vat);
      } else if (k == "direction") {
        step.direction = oneLineText(it->second, p, "both, up or down", vat);
        if (step.direction != "both" && step.direction != "up" && step.direction != "down")
          throw InputError(vat, p, "both, up or down", "'" + step.direction + "'",
                           suggestionHint(step.direction, {"both", "up", "down"}, "values"));
      }
    }
    if (!seen.count("text")) throw InputError(itemAt, path + ".text", "a short text for every step", "nothing");
    if (seen.count("at") && seen.count("phase"))
      throw InputError(locate(item["phase"], file, itemAt), path + ".phase", "either at or phase, not both",
                       "both");
    s.story.push_back(std::move(step));
  }
}

}  // namespace fl
