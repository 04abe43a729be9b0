// Loading scenario files and applying --set overrides (saving: scenario_save.cpp).
#include "scenario/scenario_io.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "scenario/bounded_yaml.h"
#include "scenario/did_you_mean.h"
#include "scenario/schema.h"
#include "scenario/schema_values.h"
#include "scenario/follow_selector.h"
#include "scenario/story.h"
#include "scenario/sweep.h"
#include "scenario/validate.h"
#include "tp/tp_model.h"

namespace fl {
namespace {

constexpr size_t kMaxSweepPointsChecked = 10'000;  // beyond this, points are checked at run time
constexpr size_t kMaxSweepPoints = 100'000;

// Keys applied before all others, and the key prefix each one fills.
constexpr const char* kPresetKeys[] = {"topology.preset", "gpu.preset", "workload.moe.model"};
constexpr const char* kPresetPrefixes[] = {"topology.", "gpu.", "workload.moe."};

std::string join(const std::string& prefix, const std::string& key) {
  return prefix.empty() ? key : prefix + "." + key;
}

// The path one level up: "a.b[2]" -> "a.b", "a.b" -> "a", "a" -> "".
std::string parentPath(const std::string& path) {
  size_t cut = path.find_last_of(".[");
  return cut == std::string::npos ? std::string() : path.substr(0, cut);
}

bool blankOrComment(const std::string& line) {
  const size_t b = line.find_first_not_of(" \t\r");
  return b == std::string::npos || line[b] == '#';
}

// True when `path` is `key` or inside it ("topology.levels[1].uplinks" in "topology.levels").
// The ancestors parentPath climbs through are the prefixes cut before a '.' or '[': one
// comparison, not a copy per level (a 60 KB --set key of dots took seconds).
bool within(std::string_view path, std::string_view key) {
  return !key.empty() && path.substr(0, key.size()) == key &&
         (path.size() == key.size() || path[key.size()] == '.' || path[key.size()] == '[');
}

class Loader {
 public:
  Loader(std::string file, const std::string& text) : file_(std::move(file)) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines_.push_back(line);
  }

  Scenario load(const YAML::Node& root) {
    if (!root.IsDefined() || root.IsNull())
      throw InputError({file_, 0, 0}, "fabriclab", "a scenario map starting with 'fabriclab: 1'",
                       "an empty file");
    if (!root.IsMap())
      throw InputError(locationOf(root), "", "a scenario map starting with 'fabriclab: 1'",
                       detail::describeNode(root));
    // Before anything else: an unclosed quote may have taken in the keys below it.
    for (auto it = root.begin(); it != root.end(); ++it)
      if (const ParamSpec* p = it->first.IsScalar() ? findParam(it->first.Scalar()) : nullptr; p && p->oneLine)
        detail::requireOneLine(valueLines(root, it), p->path, locationOf(it->second));
    checkVersion(root);
    applyPresetFirst(root);
    walk(root, "");
    // A TP layer on the GPU its model names, unless the file sizes the GPU itself: every
    // CAIS scenario ran on 132 SMs, not Table I's 66, before (tp/tp_model.h).
    if (s_.workload.kind == WorkloadKind::TpLayer && !keys_.count("gpu.sms") && !keys_.count("gpu.preset"))
      tp::fillTpModelSms(s_.workload.tp, s_.gpu);
    try {
      validateScenario(s_, [this](std::string_view p) { return keys_.count(std::string(p)) > 0; });
    } catch (const InputError& e) {
      throw InputError(locate(locateKeyOf(e)), e.keyPath(), e.expected(), e.found(), e.hint());
    }
    for (auto it = root.begin(); it != root.end(); ++it)
      if (it->first.Scalar() == "sweep") readSweep(it->second, locationOf(it->first));
    for (auto it = root.begin(); it != root.end(); ++it)  // after the sweep: steps name its points
      if (it->first.Scalar() == "story") readStory(it->second, locationOf(it->first), file_, s_);
    checkTopologyKeys();
    checkSweepPoints();
    try {
      (void)checkRunFollow(s_);  // the notes are the CLI's to print
    } catch (const InputError& e) {
      throw InputError(locate(e.keyPath()), e.keyPath(), e.expected(), e.found(), e.hint());
    }
    return s_;
  }

 private:
  InputLocation locationOf(const YAML::Node& n) const {
    const YAML::Mark m = n.Mark();
    return m.line < 0 ? InputLocation{file_, 0, 0} : InputLocation{file_, m.line + 1, m.column + 1};
  }

  // Where a validation error points: the key itself, or the list holding an element
  // ("matrix[3]" -> "matrix"); topology keys filled by a preset point at topology.preset;
  // keys left at their defaults point at the file alone (line 0).
  InputLocation locate(const std::string& path) const {
    for (std::string p = path; !p.empty(); p = parentPath(p)) {
      if (auto it = keys_.find(p); it != keys_.end()) return it->second;
      if (findParam(p)) break;  // never climb from a key to its section
    }
    for (size_t i = 0; i < std::size(kPresetKeys); ++i)
      if (path.rfind(kPresetPrefixes[i], 0) == 0)
        if (auto it = keys_.find(kPresetKeys[i]); it != keys_.end()) return it->second;
    return {file_, 0, 0};
  }

  void checkVersion(const YAML::Node& root) {
    for (auto it = root.begin(); it != root.end(); ++it) {
      if (it->first.Scalar() != "fabriclab") continue;
      const YAML::Node v = it->second;  // a copy: it->second belongs to the iterator's temporary
      if (!v.IsScalar() || v.Scalar() != "1")
        throw InputError(v.IsNull() ? locationOf(it->first) : locationOf(v), "fabriclab",
                         "schema version 1", detail::describeNode(v), "this FabricLab reads 'fabriclab: 1' files");
      return;
    }
    throw InputError({file_, 0, 0}, "fabriclab", "'fabriclab: 1' (the schema version) at the top level",
                     "no 'fabriclab' key", "add 'fabriclab: 1' as the first line");
  }

  // Presets fill their sections before any other key, whatever the key order.
  static bool isPresetKey(const std::string& path) {
    return std::find(std::begin(kPresetKeys), std::end(kPresetKeys), path) != std::end(kPresetKeys);
  }

  void applyPresetFirst(const YAML::Node& root) {
    for (const char* key : kPresetKeys) applyFirst(root, key, key);
  }

  // Finds `rest` (a dotted path) under `map` and sets `path` from it.
  void applyFirst(const YAML::Node& map, const std::string& path, std::string_view rest) {
    if (!map.IsMap()) return;
    const size_t dot = rest.find('.');
    const std::string_view key = rest.substr(0, dot);
    for (auto it = map.begin(); it != map.end(); ++it) {
      if (!it->first.IsScalar() || it->first.Scalar() != key) continue;
      if (dot == std::string_view::npos)
        setValue(s_, path, it->second, {file_, true, locationOf(it->first)});
      else
        applyFirst(it->second, path, rest.substr(dot + 1));
      return;
    }
  }

  void walk(const YAML::Node& map, const std::string& prefix) {
    std::map<std::string, InputLocation> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
      const InputLocation at = locationOf(it->first);
      if (!it->first.IsScalar())
        throw InputError(at, prefix, "a key name", detail::describeNode(it->first));
      const std::string key = it->first.Scalar();
      const std::string path = join(prefix, key);
      if (auto [dup, fresh] = seen.emplace(key, at); !fresh)
        throw InputError(at, path, "each key once", "a second '" + key + "'",
                         "the first is on line " + std::to_string(dup->second.line));
      keys_[path] = at;
      if (prefix.empty() && (key == "fabriclab" || key == "sweep" || key == "story")) continue;
      if (isPresetKey(path)) continue;  // applied first
      if (const ParamSpec* p = findParam(path)) {
        p->set(s_, it->second, {file_, true, at});
        recordNested(it->second, path);
      } else if (std::vector<std::string> children = childKeys(path); !children.empty()) {
        if (!it->second.IsMap())
          throw InputError(it->second.IsNull() ? at : locationOf(it->second), path,
                           "a map with keys " + joinList(children), detail::describeNode(it->second));
        walk(it->second, path);
      } else {
        std::vector<std::string> siblings = childKeys(prefix);
        if (prefix.empty()) siblings.insert(siblings.begin(), {"fabriclab", "sweep", "story"});
        throw InputError(at, path, "a key of " + (prefix.empty() ? std::string("the top level") : "'" + prefix + "'"),
                         "'" + key + "'", suggestionHint(key, siblings, "keys"));
      }
    }
  }

  // The lines the value of `entry` (in a block map) spans: from its first line to the
  // last line before the next key that holds more than a comment.
  int valueLines(const YAML::Node& map, YAML::const_iterator entry) const {
    const int first = entry->second.Mark().line;
    if (map.Style() == YAML::EmitterStyle::Flow || !entry->second.IsScalar() || first < 0) return 1;
    int last = static_cast<int>(lines_.size()) - 1;
    if (++entry != map.end()) last = entry->first.Mark().line - 1;
    while (last > first && blankOrComment(lines_[static_cast<size_t>(last)])) --last;
    return std::max(last - first + 1, 1);
  }

  // Remembers where list elements were written, for errors like topology.levels[2].count.
  void recordNested(const YAML::Node& n, const std::string& path) {
    if (n.IsSequence()) {
      for (size_t i = 0; i < n.size(); ++i) {
        const std::string p = path + "[" + std::to_string(i) + "]";
        keys_[p] = locationOf(n[i]);
        recordNested(n[i], p);
      }
    } else if (n.IsMap()) {
      for (auto it = n.begin(); it != n.end(); ++it) {
        const std::string p = path + "." + it->first.Scalar();
        keys_[p] = locationOf(it->first);
        recordNested(it->second, p);
      }
    }
  }

  static std::string valueText(const YAML::Node& v) {
    if (v.IsScalar()) return v.Scalar();
    YAML::Emitter e;
    e << YAML::Flow << v;
    return e.c_str();
  }

  void readSweep(const YAML::Node& node, const InputLocation& at) {
    const std::string entry = "a list of {key: <key path>, values: [...]}";
    if (!node.IsSequence()) throw InputError(node.IsNull() ? at : locationOf(node), "sweep", entry, detail::describeNode(node));
    for (size_t i = 0; i < node.size(); ++i) {
      const std::string path = "sweep[" + std::to_string(i) + "]";
      const YAML::Node item = node[i];
      if (!item.IsMap()) throw InputError(locationOf(item), path, "a map {key, values}", detail::describeNode(item));
      SweepAxis axis;
      YAML::Node values, labels;
      InputLocation labelsAt;
      bool hasLabels = false;
      std::set<std::string> seen;
      for (auto it = item.begin(); it != item.end(); ++it) {
        const std::string k = it->first.Scalar();
        const InputLocation kat = locationOf(it->first);
        if (k != "key" && k != "values" && k != "labels")
          throw InputError(kat, path + "." + k, "'key', 'values' or 'labels'", "'" + k + "'",
                           suggestionHint(k, {"key", "values", "labels"}, "keys"));
        if (!seen.insert(k).second) throw InputError(kat, path + "." + k, "each key once", "a second '" + k + "'");
        keys_[path + "." + k] = kat;
        if (k == "values") {
          values = it->second;
          continue;
        }
        if (k == "labels") {
          labels = it->second;
          labelsAt = kat;
          hasLabels = true;
          continue;
        }
        axis.key = detail::scalarText(it->second, path + ".key", {file_, true, kat}, "a key path");
        for (size_t a = 0; a < s_.sweep.size(); ++a)
          if (s_.sweep[a].key == axis.key)
            throw InputError(locationOf(it->second), path + ".key", "each sweep key once",
                             "a second axis over " + axis.key + " (the first is sweep[" + std::to_string(a) + "])",
                             "merge their values into one axis");
        if (!isSettablePath(s_, axis.key)) {
          try {
            (void)getValue(s_, axis.key);  // throws with the did-you-mean hint
          } catch (const InputError& e) {
            throw InputError(locationOf(it->second), path + ".key", e.expected(), e.found(), e.hint());
          }
        }
      }
      if (!seen.count("key")) throw InputError(locationOf(item), path + ".key", "a key path", "nothing");
      if (!values.IsSequence() || values.size() == 0)
        throw InputError(values.IsDefined() && !values.IsNull() ? locationOf(values) : locationOf(item),
                         path + ".values", "a non-empty list of values", detail::describeNode(values));
      for (size_t j = 0; j < values.size(); ++j) {
        const std::string vpath = path + ".values[" + std::to_string(j) + "]";
        axis.values.push_back(valueText(values[j]));
        keys_[vpath] = locationOf(values[j]);
        Scenario copy = s_;
        try {
          setValue(copy, axis.key, axis.values.back(), keys_[vpath]);
        } catch (const InputError& e) {
          throw InputError(keys_[vpath], vpath, e.expected() + " for " + axis.key, e.found(), e.hint());
        }
      }
      if (hasLabels) axis.labels = readSweepLabels(labels, axis, path + ".labels", labelsAt, file_);
      s_.sweep.push_back(axis);
    }
  }

  // A key the topology kind never reads, written in the file or swept, would be silently
  // unused: an error at that key (keys a preset filled do not count; with topology.kind
  // swept, a key read by any of its kinds is fine).
  void checkTopologyKeys() {
    const std::string kind = getValue(s_, "topology.kind");
    std::set<std::string> kinds = {kind};
    for (const SweepAxis& a : s_.sweep)
      if (a.key == "topology.kind") kinds.insert(a.values.begin(), a.values.end());
    for (const ParamSpec& p : schema()) {
      const auto& read = p.topologyKinds;
      if (read.empty() || std::any_of(read.begin(), read.end(), [&](const std::string& k) { return kinds.count(k); }))
        continue;
      const std::string expected = "no " + joinList(read, " or ") + " keys for " +
                                   (kind == "nvswitch" ? "an " : "a ") + kind + " topology";
      const std::string hint =
          "only " + joinList(read, " and ") + " topologies read " + p.path + ": remove it, or set topology.kind";
      if (auto it = keys_.find(p.path); it != keys_.end()) throw InputError(it->second, p.path, expected, p.path, hint);
      for (size_t a = 0; a < s_.sweep.size(); ++a)
        if (within(s_.sweep[a].key, p.path)) {
          const std::string path = "sweep[" + std::to_string(a) + "].key";
          throw InputError(keys_[path], path, expected, s_.sweep[a].key, hint);
        }
    }
  }

  // Every point must be a valid scenario: errors name the value that breaks it.
  void checkSweepPoints() {
    if (s_.sweep.empty()) return;
    const size_t points = sweepPointCount(s_);
    if (points > kMaxSweepPoints) {
      const auto it = keys_.find("sweep[0].key");
      std::string counts;
      for (const SweepAxis& a : s_.sweep) counts += (counts.empty() ? "" : " x ") + std::to_string(a.values.size());
      throw InputError(it == keys_.end() ? InputLocation{file_, 0, 0} : it->second, "sweep",
                       "at most " + std::to_string(kMaxSweepPoints) + " sweep points",
                       counts + " = " + std::to_string(points) + " points",
                       "every point is a full run, kept in memory for the report");
    }
    if (points > kMaxSweepPointsChecked) return;
    for (const SweepSettings& point : sweepPoints(s_)) {
      try {
        sweepPointScenario(s_, point);
      } catch (const InputError& e) {
        size_t axis = point.size() - 1;
        for (size_t a = 0; a < point.size(); ++a)
          if (within(locateKeyOf(e), point[a].first)) axis = a;
        const auto& values = s_.sweep[axis].values;
        size_t j = static_cast<size_t>(std::find(values.begin(), values.end(), point[axis].second) - values.begin());
        std::string with;
        for (const auto& [k, v] : point) with += (with.empty() ? "" : ", ") + k + "=" + v;
        const std::string vpath = "sweep[" + std::to_string(axis) + "].values[" + std::to_string(j) + "]";
        throw InputError(keys_[vpath], vpath, e.keyPath() + ": " + e.expected(), e.found(),
                         "at sweep point " + with + (e.hint().empty() ? "" : "; " + e.hint()));
      }
    }
  }

  std::string file_;
  std::vector<std::string> lines_;  // the file's text
  Scenario s_;
  std::map<std::string, InputLocation> keys_;  // every key path written, and where
};

}  // namespace

Scenario parseScenario(const std::string& yamlText, const std::string& fileNameForErrors) {
  YAML::Node root;
  try {
    root = loadBoundedYaml(yamlText);
  } catch (const BoundedYamlError& e) {
    throw InputError({fileNameForErrors, e.mark.line + 1, e.mark.column + 1}, "", e.expected(), e.msg, e.hint());
  } catch (const YAML::Exception& e) {
    throw InputError({fileNameForErrors, e.mark.line + 1, e.mark.column + 1}, "", "well-formed YAML",
                     "a syntax error (" + e.msg + ")");
  }
  try {
    return Loader(fileNameForErrors, yamlText).load(root);
  } catch (const YAML::Exception& e) {  // defensive: conversions inside yaml-cpp
    throw InputError({fileNameForErrors, e.mark.line + 1, e.mark.column + 1}, "", "valid YAML", e.msg);
  }
}

void requireReadableScenarioFile(const std::string& path, const std::string& keyPath) {
  const std::string expected = "a readable scenario file";
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (ec) throw InputError({path, 0, 0}, keyPath, expected, fileErrorText(ec.value()));
  if (std::filesystem::is_directory(status)) throw InputError({path, 0, 0}, keyPath, expected, "a directory");
  const std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) throw InputError({path, 0, 0}, keyPath, expected, fileErrorText(errno));
}

Scenario loadScenario(const std::string& path) {
  requireReadableScenarioFile(path);
  // At most one byte past the YAML size limit: /dev/zero or a huge file is refused by
  // parseScenario's size check instead of being read until memory runs out.
  std::ifstream in(path, std::ios::binary);
  std::string text(YamlLimits{}.maxBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad() || (!in && !in.eof()))
    throw InputError({path, 0, 0}, "", "a readable scenario file", "a file that cannot be read");
  text.resize(static_cast<size_t>(in.gcount()));
  return parseScenario(text, path);
}

void applyOverride(Scenario& s, std::string_view assignment) {
  const InputLocation where{"--set", 0, 0};
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw InputError(where, "", "key.path=value", "'" + std::string(assignment) + "'");
  std::string key(assignment.substr(0, eq));
  while (!key.empty() && key.back() == ' ') key.pop_back();
  for (size_t a = 0; a < s.sweep.size(); ++a)
    if (within(key, s.sweep[a].key))
      throw InputError(where, key, "a key no sweep axis sets",
                       key + ", which sweep[" + std::to_string(a) + "] sets at every point",
                       "the sweep's values would replace it: change sweep[" + std::to_string(a) + "].values instead");
  setValue(s, key, assignment.substr(eq + 1), where);
}

void applyOverrides(Scenario& s, const std::vector<std::string>& assignments) {
  std::set<std::string> keys;
  for (const std::string& a : assignments) {
    applyOverride(s, a);
    keys.insert(a.substr(0, a.find('=')));
  }
  try {
    validateScenario(s, [&](std::string_view p) { return keys.count(std::string(p)) > 0; });
  } catch (const InputError& e) {
    const auto flagged = [&](const std::string& k) { return within(locateKeyOf(e), k); };
    const bool set = std::any_of(keys.begin(), keys.end(), flagged);
    throw InputError(set ? InputLocation{"--set", 0, 0} : InputLocation{}, e.keyPath(), e.expected(), e.found(),
                     e.hint());
  }
}

}  // namespace fl
