// The building blocks of the schema table (schema_table*.cpp only): one constructor per
// value type, each binding a key path to the Scenario field it reads and writes and to
// the parser that checks it.
#pragma once
#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "scenario/schema.h"
#include "scenario/schema_values.h"

namespace fl::schema_build {

using namespace detail;

// A field accessor that works for const and non-const scenarios.
#define FIELD(member) [](auto& s) -> auto& { return s.member; }

struct Range {
  std::optional<double> min, max;
  bool minExclusive = false;
};
const Range kPositive{0, {}, true};
const Range kNonNegative{0, {}};

inline ParamSpec base(std::string path, std::string type, Range r, std::string doc, std::string source) {
  ParamSpec p;
  p.path = std::move(path);
  p.type = std::move(type);
  p.min = r.min;
  p.max = r.max;
  p.minExclusive = r.minExclusive;
  p.doc = std::move(doc);
  p.source = std::move(source);
  return p;
}

// The topology kinds a topology key's doc starts with ("mesh: ...", "nvswitch and mesh:
// ..."), as the GUI shows which keys apply: ParamSpec::topologyKinds.
inline std::vector<std::string> topologyKindsOfDoc(const std::string& doc) {
  const std::string scope = doc.substr(0, doc.find(':'));
  std::vector<std::string> kinds;
  if (scope.size() == doc.size()) return kinds;
  for (const char* kind : {"nvswitch", "mesh", "hierarchy"})
    if (scope.find(kind) != std::string::npos) kinds.emplace_back(kind);
  return kinds;
}

// A key whose 0 is a setting of its own rather than a quantity of nothing.
inline ParamSpec zeroMeans(ParamSpec p, std::string meaning) {
  p.zeroMeans = std::move(meaning);
  return p;
}

template <class F>
ParamSpec integer(std::string path, F field, Range r, std::string doc, std::string source = {}) {
  ParamSpec p = base(std::move(path), "int", r, std::move(doc), std::move(source));
  p.get = [field](const Scenario& s) { return std::to_string(field(s)); };
  p.set = [field, rules = p](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    using T = std::remove_reference_t<decltype(field(s))>;
    field(s) = static_cast<T>(readInteger(n, rules.path, rules, src));
  };
  return p;
}

template <class F>
ParamSpec real(std::string path, std::string type, F field, Range r, std::string doc,
               std::string source = {}) {
  ParamSpec p = base(std::move(path), type, r, std::move(doc), std::move(source));
  if (type == "fraction") p.quantity = QuantityKind::Fraction;
  p.get = [field](const Scenario& s) { return formatNumber(field(s)); };
  p.set = [field, rules = p](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    field(s) = readReal(n, rules.path, rules, src);
  };
  return p;
}

template <class F>
ParamSpec quantity(std::string path, QuantityKind kind, F field, Range r, std::string doc,
                   std::string source = {}) {
  static const char* types[] = {"bytes", "bandwidth", "time", "fraction", "int"};
  ParamSpec p = base(std::move(path), types[static_cast<int>(kind)], r, std::move(doc), std::move(source));
  p.quantity = kind;
  p.unit = siUnit(kind);
  if (kind == QuantityKind::Bandwidth) bandwidthRange(p, r.min == 0.0 && !r.minExclusive);
  p.get = [field, kind](const Scenario& s) {
    return formatQuantity(static_cast<double>(field(s)), kind);
  };
  p.set = [field, rules = p](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    using T = std::remove_reference_t<decltype(field(s))>;
    field(s) = static_cast<T>(readQuantity(n, rules.path, rules, src));
  };
  return p;
}

template <class F>
ParamSpec boolean(std::string path, F field, std::string doc, std::string source = {}) {
  ParamSpec p = base(std::move(path), "bool", {}, std::move(doc), std::move(source));
  p.choices = {"false", "true"};
  p.get = [field](const Scenario& s) { return std::string(field(s) ? "true" : "false"); };
  p.set = [field, path = p.path](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    field(s) = readBool(n, path, src);
  };
  return p;
}

template <class E, class F>
ParamSpec choice(std::string path, F field, std::vector<std::pair<std::string, E>> values,
                 std::string doc, std::string source = {}) {
  ParamSpec p = base(std::move(path), "enum", {}, std::move(doc), std::move(source));
  for (const auto& v : values) p.choices.push_back(v.first);
  p.get = [field, values](const Scenario& s) {
    for (const auto& v : values)
      if (v.second == field(s)) return v.first;
    return std::string("?");
  };
  p.set = [field, values, rules = p](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    std::string name = readChoice(n, rules.path, rules, src);
    for (const auto& v : values)
      if (v.first == name) field(s) = v.second;
  };
  return p;
}

// `oneLine`: a line break in the value is an error (ParamSpec::oneLine).
template <class F>
ParamSpec text(std::string path, F field, std::string doc, bool oneLine = false) {
  ParamSpec p = base(std::move(path), "string", {}, std::move(doc), {});
  p.oneLine = oneLine;
  p.get = [field](const Scenario& s) { return field(s); };
  p.set = [field, path = p.path, oneLine](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    std::string value = scalarText(n, path, src, "a text");
    if (oneLine) requireOneLine(static_cast<int>(std::count(value.begin(), value.end(), '\n')) + 1, path, src.at(n));
    field(s) = std::move(value);
  };
  return p;
}

// gpu.preset and workload.moe.model follow topology.preset's rule: switching keeps every
// filled key whose value differs from what the old preset gave (set explicitly) and takes
// the rest from the new one. `apply(name, s)` fills a scenario (and names the preset);
// `filled` lists the keys it fills; switching to `keepAll` ("custom") changes none of them.
template <class F>
ParamSpec fillingPreset(std::string path, std::vector<std::string> choices, std::string doc, std::string source,
                        F name, std::function<void(const std::string&, Scenario&)> apply,
                        std::vector<std::string> filled, std::string keepAll = {}) {
  ParamSpec p = base(std::move(path), "enum", {}, std::move(doc), std::move(source));
  p.choices = std::move(choices);
  p.get = [name](const Scenario& s) { return name(s); };
  p.set = [rules = p, name, apply, filled, keepAll](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    const std::string chosen = readChoice(n, rules.path, rules, src);
    Scenario before, after;
    apply(name(s), before);
    apply(chosen, after);
    for (const std::string& key : filled) {
      if (chosen == keepAll) break;
      const ParamSpec* q = findParam(key);
      const std::string old = q->get(before), fresh = q->get(after);
      if (old != fresh && q->get(s) == old) q->set(s, YAML::Node(fresh), src);
    }
    name(s) = chosen;
  };
  return p;
}

// The keys from workload on, in table order (schema_table_workload.cpp).
void addWorkloadSchemeRunKeys(std::vector<ParamSpec>& t);
// cross_dc_moe's keys (schema_table_xdc.cpp), after the run keys.
void addXdcKeys(std::vector<ParamSpec>& t);
// network.model, workload.wsc.* and mapping.* (schema_table_wsc.cpp), after the run keys.
void addWscKeys(std::vector<ParamSpec>& t);

}  // namespace fl::schema_build
