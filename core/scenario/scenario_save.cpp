// Saving scenarios: short, readable files that load back to an equal Scenario.
#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "results/atomic_file.h"
#include "scenario/input_error.h"
#include "scenario/scenario_io.h"
#include "scenario/schema.h"
#include "scenario/schema_values.h"
#include "scenario/follow_selector.h"
#include "scenario/story.h"
#include "topology/presets.h"
#include "topology/wafer_presets.h"

namespace fl {
namespace {

// Keys to write, grouped into nested sections in schema order.
// Keys and sections side by side: a std::pair holding Section inside Section needs it
// complete, which Clang (unlike GCC) enforces; std::vector accepts the incomplete type.
struct Section {
  std::vector<std::string> keys;
  std::vector<Section> children;  // children[i] is keys[i]
  const ParamSpec* param = nullptr;

  Section& child(const std::string& key) {
    for (size_t i = 0; i < keys.size(); ++i)
      if (keys[i] == key) return children[i];
    keys.push_back(key);
    return children.emplace_back();
  }
};

void emitValue(YAML::Emitter& e, const ParamSpec& p, const Scenario& s) {
  if (p.type == "list of ints") {
    e << YAML::Flow << YAML::BeginSeq;
    for (int v : s.workload.traffic.hotspots) e << v;
    e << YAML::EndSeq;
  } else if (p.type == "list of levels") {
    e << YAML::BeginSeq;
    for (size_t i = 0; i < s.topology.levels.size(); ++i) {
      e << YAML::Flow << YAML::BeginMap;
      for (const std::string& f : detail::levelFieldNames(s.topology.levels[i]))
        e << YAML::Key << f << YAML::Value
          << getValue(s, "topology.levels[" + std::to_string(i) + "]." + f);
      e << YAML::EndMap;
    }
    e << YAML::EndSeq;
  } else if (p.type == "byte matrix") {
    e << YAML::BeginSeq;
    for (const auto& row : s.workload.collective.matrix) {
      e << YAML::Flow << YAML::BeginSeq;
      for (std::int64_t b : row) e << formatBytes(b);
      e << YAML::EndSeq;
    }
    e << YAML::EndSeq;
  } else {
    const std::string text = p.get(s);
    if (text.find('\n') != std::string::npos) e << YAML::Literal;
    e << text;
  }
}

void emitSection(YAML::Emitter& e, const Section& sec, const Scenario& s) {
  for (size_t i = 0; i < sec.keys.size(); ++i) {
    const Section& child = sec.children[i];
    e << YAML::Key << sec.keys[i] << YAML::Value;
    if (child.param) {
      emitValue(e, *child.param, s);
    } else {
      e << YAML::BeginMap;
      emitSection(e, child, s);
      e << YAML::EndMap;
    }
  }
}

}  // namespace

std::string saveScenarioText(const Scenario& s) {
  // What loading would give without any key but the preset.
  Scenario base;
  if (!s.topology.preset.empty()) applyTopologyPreset(s.topology.preset, base.topology);
  if (int d = waferPresetVcDepthFlits(s.topology.preset)) base.network.vc_depth_flits = d;
  // Keys the topology kind does not read are left out: the loader refuses them (unless
  // topology.kind is swept), and they mean nothing for this scenario.
  const std::string kind = getValue(s, "topology.kind");
  const bool kindSwept =
      std::any_of(s.sweep.begin(), s.sweep.end(), [](const SweepAxis& a) { return a.key == "topology.kind"; });
  Section root;
  for (const ParamSpec& p : schema()) {
    const bool keep = p.path == "topology.preset" ? !s.topology.preset.empty() : p.get(s) != p.get(base);
    const auto& read = p.topologyKinds;
    if (!keep || (!kindSwept && !read.empty() && std::find(read.begin(), read.end(), kind) == read.end())) continue;
    Section* sec = &root;
    for (size_t start = 0;;) {
      size_t dot = p.path.find('.', start);
      sec = &sec->child(p.path.substr(start, dot - start));
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    sec->param = &p;
  }
  YAML::Emitter e;
  e << YAML::BeginMap << YAML::Key << "fabriclab" << YAML::Value << 1;
  emitSection(e, root, s);
  if (!s.sweep.empty()) {
    e << YAML::Key << "sweep" << YAML::Value << YAML::BeginSeq;
    for (const SweepAxis& a : s.sweep) {
      e << YAML::BeginMap << YAML::Key << "key" << YAML::Value << a.key;
      e << YAML::Key << "values" << YAML::Value << YAML::Flow << a.values;
      if (!a.labels.empty()) e << YAML::Key << "labels" << YAML::Value << YAML::Flow << a.labels;
      e << YAML::EndMap;
    }
    e << YAML::EndSeq;
  }
  if (!s.story.empty()) {
    e << YAML::Key << "story" << YAML::Value << YAML::BeginSeq;
    for (const StoryStep& step : s.story) {
      e << YAML::BeginMap << YAML::Key << "text" << YAML::Value << step.text;
      // A point an edited sweep no longer has is left out: the file must load again.
      if (!step.point.empty() && storyPointIndex(s, step.point) >= 0)
        e << YAML::Key << "point" << YAML::Value << step.point;
      if (!step.dock.empty()) e << YAML::Key << "dock" << YAML::Value << step.dock;
      if (step.at >= 0) e << YAML::Key << "at" << YAML::Value << formatTime(step.at);
      if (!step.phase.empty()) e << YAML::Key << "phase" << YAML::Value << step.phase;
      if (!step.direction.empty()) e << YAML::Key << "direction" << YAML::Value << step.direction;
      if (!step.follow.empty() && storyFollowFits(s, step)) {
        const std::vector<std::string> selectors = splitFollowList(step.follow);
        e << YAML::Key << "follow" << YAML::Value;
        if (selectors.size() == 1) e << selectors.front();
        else e << selectors;  // a list, as it was read
      }
      e << YAML::EndMap;
    }
    e << YAML::EndSeq;
  }
  e << YAML::EndMap;
  return "# FabricLab scenario; keys and units: docs/scenario.md\n" + std::string(e.c_str()) + "\n";
}

void saveScenario(const Scenario& s, const std::string& path) {
  // As every output: a temporary file renamed over the target, a symbolic link kept, a
  // device written in place (results/atomic_file.h).
  try {
    writeFileAtomically(path, saveScenarioText(s), "");
  } catch (const InputError& e) {
    throw InputError({path, 0, 0}, "", "a writable scenario file", e.found());
  }
}

}  // namespace fl
