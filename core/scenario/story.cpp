#include "scenario/story.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

#include "scenario/did_you_mean.h"
#include "scenario/follow_selector.h"
#include "scenario/friendly_names.h"
#include "scenario/quantity.h"
#include "scenario/schema.h"
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

std::string sweepValueLabel(const SweepAxis& axis, std::size_t v) {
  if (v >= axis.values.size()) return {};
  if (v < axis.labels.size()) return axis.labels[v];
  const std::string& value = axis.values[v];
  if (std::string known = friendlyValueName(axis.key, value); !known.empty()) return known;  // "ER-Mapping"
  if (std::string numeric = friendlyNumericValue(axis.key, value); !numeric.empty()) return numeric;  // "Table 40 KiB"
  const auto dot = axis.key.rfind('.');
  return (dot == std::string::npos ? axis.key : axis.key.substr(dot + 1)) + " = " + value;
}

std::vector<std::string> sweepPointLabels(const Scenario& s) {
  // Axes over scheme.communication and scheme.fusion (without labels of their own) give
  // way to the seeds' name of the combination where it has one.
  int comm = -1, fusion = -1;
  for (size_t a = 0; a < s.sweep.size(); ++a) {
    if (s.sweep[a].key == "scheme.communication" && s.sweep[a].labels.empty()) comm = int(a);
    if (s.sweep[a].key == "scheme.fusion" && s.sweep[a].labels.empty()) fusion = int(a);
  }
  std::vector<std::string> labels;
  const size_t n = sweepPointCount(s);
  for (size_t i = 0; i < n && i < 100000; ++i) {
    std::vector<size_t> value(s.sweep.size());
    size_t stride = n;
    for (size_t a = 0; a < s.sweep.size(); ++a) {  // first axis outermost, as sweepPoint orders them
      stride /= s.sweep[a].values.size();
      value[a] = (i / stride) % s.sweep[a].values.size();
    }
    std::string scheme;
    if (comm >= 0 || fusion >= 0)
      scheme = friendlySchemeName(comm >= 0 ? s.sweep[size_t(comm)].values[value[size_t(comm)]] : getValue(s, "scheme.communication"),
                                  fusion >= 0 ? s.sweep[size_t(fusion)].values[value[size_t(fusion)]] : getValue(s, "scheme.fusion"));
    std::string label = scheme;
    for (size_t a = 0; a < s.sweep.size(); ++a) {
      if (!scheme.empty() && (int(a) == comm || int(a) == fusion)) continue;
      // A hierarchy level by its name ("100 datacenters"), not its position ("Level 1 count").
      std::string part = a < s.sweep.size() && value[a] >= s.sweep[a].labels.size()
                             ? friendlyLevelValue(s, s.sweep[a].key, s.sweep[a].values[value[a]])
                             : std::string();
      label += (label.empty() ? "" : ", ") + (part.empty() ? sweepValueLabel(s.sweep[a], value[a]) : part);
    }
    labels.push_back(label.empty() ? "single run" : label);
  }
  return labels;
}

Scenario storyStepScenario(const Scenario& s, const StoryStep& step) {
  const int point = step.point.empty() ? -1 : storyPointIndex(s, step.point);
  return point < 0 ? s : sweepPointScenario(s, sweepPoint(s, size_t(point)));
}

bool storyFollowFits(const Scenario& s, const StoryStep& step) {
  try {
    const std::optional<std::vector<FollowSelector>> sels = parseFollowSelectors(step.follow);
    if (!sels || sels->front().none()) return false;
    const Scenario point = storyStepScenario(s, step);
    for (const FollowSelector& sel : *sels)
      if (followMisfit(point, sel)) return false;
    return true;
  } catch (const std::exception&) {  // an edited sweep whose point no longer validates
    return false;
  }
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
  static const std::vector<std::string> keys = {"text", "point", "dock", "at", "phase", "direction", "follow"};
  for (size_t i = 0; i < node.size(); ++i) {
    const std::string path = "story[" + std::to_string(i) + "]";
    const YAML::Node item = node[i];
    const InputLocation itemAt = locate(item, file, at);
    if (!item.IsMap()) throw InputError(itemAt, path, "a map {text, point, dock, at | phase, direction, follow}", detail::describeNode(item));
    StoryStep step;
    std::set<std::string> seen;
    InputLocation followAt = itemAt;
    YAML::Node followItems;  // follow as a YAML list: where each selector stands
    for (auto it = item.begin(); it != item.end(); ++it) {
      const InputLocation kat = locate(it->first, file, itemAt);
      const std::string k = it->first.IsScalar() ? it->first.Scalar() : std::string();
      const std::string p = path + "." + k;
      if (std::find(keys.begin(), keys.end(), k) == keys.end())
        throw InputError(kat, p, "one of text, point, dock, at, phase, direction, follow", "'" + k + "'",
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
      } else if (k == "follow") {  // one selector, or a list of them as run.follow takes
        if (it->second.IsSequence()) {
          std::vector<std::string> texts;
          for (std::size_t j = 0; j < it->second.size(); ++j) {
            const std::string pj = p + "[" + std::to_string(j) + "]";
            texts.push_back(oneLineText(it->second[j], pj, "a selector, e.g. 'gpu 0, piece 0'",
                                        locate(it->second[j], file, vat)));
            if (texts.back().find(';') != std::string::npos)
              throw InputError(locate(it->second[j], file, vat), pj, "one selector per list entry",
                               "'" + texts.back() + "'", "give each selector its own entry");
          }
          if (texts.empty() || texts.size() > kMaxFollowSelectors)
            throw InputError(vat, p, "a list of 1 to " + std::to_string(kMaxFollowSelectors) + " selectors",
                             "a list of " + std::to_string(texts.size()));
          step.follow = joinFollowList(texts);
          followItems = it->second;
        } else {
          step.follow = oneLineText(it->second, p, "what to follow, e.g. 'gpu 0, piece 0'", vat);
        }
        followAt = vat;
      } else if (k == "direction") {
        step.direction = oneLineText(it->second, p, "both, up or down", vat);
        if (step.direction != "both" && step.direction != "up" && step.direction != "down")
          throw InputError(vat, p, "both, up or down", "'" + step.direction + "'",
                           suggestionHint(step.direction, {"both", "up", "down"}, "values"));
      }
    }
    if (!seen.count("text")) throw InputError(itemAt, path + ".text", "a short text for every step", "nothing");
    if (!step.follow.empty()) {  // in the words of the step's point's workload (ring or NVLS, say)
      const std::vector<std::string> texts = splitFollowList(step.follow);
      const Scenario point = storyStepScenario(s, step);
      for (std::size_t j = 0; j < texts.size(); ++j) {
        const bool listed = followItems.IsSequence();
        const std::string fp = path + ".follow" + (listed ? "[" + std::to_string(j) + "]" : std::string());
        const InputLocation fat = listed ? locate(followItems[j], file, followAt) : followAt;
        if (readFollowSelector(point, texts[j], fp, fat).none())
          throw InputError(fat, fp,
                           texts.size() > 1 ? "a selector in each place of the list"
                                            : "what to follow (leave the key out to follow nothing)",
                           "'" + texts[j] + "'");
      }
    }
    if (seen.count("at") && seen.count("phase"))
      throw InputError(locate(item["phase"], file, itemAt), path + ".phase", "either at or phase, not both",
                       "both");
    s.story.push_back(std::move(step));
  }
}

}  // namespace fl
