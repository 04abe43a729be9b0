// Lookup and text access over the schema table (schema_table.cpp).
#include "scenario/schema.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <exception>

#include "scenario/bounded_yaml.h"
#include "scenario/did_you_mean.h"
#include "scenario/schema_values.h"

namespace fl {

InputLocation ValueSource::at(const YAML::Node& node) const {
  if (!useMarks || !node.IsDefined() || node.IsNull()) return fallback;
  const YAML::Mark m = node.Mark();
  if (m.line < 0) return fallback;
  return {file, m.line + 1, m.column + 1};
}

std::string ParamSpec::boundText(double v) const {
  if (quantity == QuantityKind::Bandwidth && v == kMinBandwidth) return kMinBandwidthText;
  if (quantity && *quantity != QuantityKind::Fraction) return formatQuantity(v, *quantity);
  if (type == "int" || type == "list of ints") return std::to_string(static_cast<std::int64_t>(v));
  return formatNumber(v);
}

std::string ParamSpec::rangeText() const {
  const std::string zero = zeroAllowed ? "0 or " : "";
  if (min && max)
    return minExclusive ? "greater than " + boundText(*min) + " and at most " + boundText(*max)
                        : zero + "from " + boundText(*min) + " to " + boundText(*max);
  if (min) return zero + (minExclusive ? "greater than " : "at least ") + boundText(*min);
  if (max) return "at most " + boundText(*max);
  return {};
}

// Zero as getValue() prints it: "0", or "0" and a unit ("0 B/s", "0 ns").
std::string ParamSpec::describe(const std::string& valueText) const {
  const bool zero = valueText == "0" || valueText.starts_with("0 ");
  return zero && !zeroMeans.empty() ? valueText + " (" + zeroMeans + ")" : valueText;
}

const ParamSpec* findParam(std::string_view path) {
  for (const ParamSpec& p : schema())
    if (p.path == path) return &p;
  return nullptr;
}

std::optional<QuantityKind> keyQuantity(const std::string& path) {
  if (const ParamSpec* spec = findParam(path)) return spec->quantity;
  const std::string field = path.substr(path.rfind('.') + 1);
  if (path.rfind("topology.levels[", 0) == 0 && (field == "bandwidth" || field == "latency"))
    return field == "bandwidth" ? QuantityKind::Bandwidth : QuantityKind::Time;
  return std::nullopt;
}

std::optional<double> settingNumber(const std::string& path, const std::string& text) {
  const ParamSpec* spec = findParam(path);
  const std::string field = path.substr(path.rfind('.') + 1);
  try {
    if (const std::optional<QuantityKind> quantity = keyQuantity(path)) return parseQuantity(text, *quantity, path);
    if ((spec && (spec->type == "int" || spec->type == "float")) || (!spec && field == "count")) {  // levels[i].count
      std::size_t used = 0;
      const double v = std::stod(text, &used);
      if (used == text.size()) return v;
    }
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::vector<std::string> childKeys(std::string_view prefix) {
  std::vector<std::string> keys;
  const std::string start = prefix.empty() ? std::string() : std::string(prefix) + ".";
  for (const ParamSpec& p : schema()) {
    if (p.path.compare(0, start.size(), start) != 0 || p.path.size() == start.size()) continue;
    std::string rest = p.path.substr(start.size());
    std::string key = rest.substr(0, rest.find('.'));
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  }
  return keys;
}

namespace {

// "topology.levels[2].bandwidth" -> index 2, field "bandwidth" (any field name); false
// for other paths.
bool parseLevelPath(std::string_view path, size_t& index, std::string& field) {
  constexpr std::string_view head = "topology.levels[";
  if (path.substr(0, head.size()) != head) return false;
  path.remove_prefix(head.size());
  auto [p, ec] = std::from_chars(path.data(), path.data() + path.size(), index);
  if (ec != std::errc()) return false;
  path.remove_prefix(static_cast<size_t>(p - path.data()));
  if (path.substr(0, 2) != "].") return false;
  field = std::string(path.substr(2));
  return true;
}

bool isLevelField(const std::string& field) {
  const std::vector<std::string> names = detail::levelFieldNames();
  return std::find(names.begin(), names.end(), field) != names.end();
}

// An element path names a level field and a level `s` has: else an error suggesting the
// level's own fields, or saying how many levels there are.
void checkLevelPath(const Scenario& s, std::string_view path, size_t index, const std::string& field,
                    const InputLocation& where) {
  if (!isLevelField(field))
    throw InputError(where, std::string(path), "a field of a level (" + joinList(detail::levelFieldNames()) + ")",
                     "'" + field + "'", closeMatchHint(field, detail::levelFieldNames()));
  const size_t n = s.topology.levels.size();
  if (index >= n)
    throw InputError(where, std::string(path), "a level index below " + std::to_string(n), std::to_string(index),
                     "topology.levels has " + std::to_string(n) + (n == 1 ? " entry" : " entries"));
}

std::vector<std::string> allPaths() {
  std::vector<std::string> v;
  for (const ParamSpec& p : schema()) v.push_back(p.path);
  return v;
}

std::string lastSegment(std::string_view path) {
  size_t dot = path.rfind('.');
  return std::string(dot == std::string_view::npos ? path : path.substr(dot + 1));
}

// What exists near an unknown path: the keys under its longest known prefix (their next
// segments when there are many), else the top-level sections. Listing all ~100 keys
// would bury the answer.
std::string keysNear(std::string_view path) {
  size_t longest = 0;
  for (const std::string& k : allPaths()) longest = std::max(longest, k.size());
  std::string prefix(path);
  for (;;) {
    const size_t dot = prefix.rfind('.');
    prefix.resize(dot == std::string::npos ? 0 : dot);
    if (prefix.size() >= longest) continue;  // no key lies under it (a 64 KiB path of dots: linear, not quadratic)
    std::vector<std::string> under, next;
    for (const std::string& k : allPaths()) {
      if (!prefix.empty() && k.rfind(prefix + ".", 0) != 0) continue;
      under.push_back(k);
      const std::string rest = prefix.empty() ? k : k.substr(prefix.size() + 1);
      const std::string seg = rest.substr(0, rest.find('.'));
      if (std::find(next.begin(), next.end(), seg) == next.end()) next.push_back(seg);
    }
    if (under.empty()) continue;
    if (prefix.empty()) return "top-level sections: " + joinList(next) + " (sweep is set in the file)";
    if (under.size() <= 12) return "keys under " + prefix + ": " + joinList(under);
    return "under " + prefix + ": " + joinList(next);
  }
}

// A close full path, else a key whose last segment is close ("topology.bandwith" ->
// "topology.link.bandwidth"), else the list of keys.
[[noreturn]] void unknownPath(std::string_view path, const InputLocation& where) {
  std::string hint;
  if (auto s = didYouMean(path, allPaths())) {
    hint = "did you mean '" + *s + "'?";
  } else {
    std::vector<std::string> last;
    for (const ParamSpec& p : schema()) last.push_back(lastSegment(p.path));
    if (auto seg = didYouMean(lastSegment(path), last))
      hint = "did you mean '" + schema()[static_cast<size_t>(std::find(last.begin(), last.end(), *seg) - last.begin())].path + "'?";
    else
      hint = keysNear(path);
  }
  throw InputError(where, std::string(path), "a key from the schema (docs/scenario.md)",
                   "'" + std::string(path) + "'", hint);
}

}  // namespace

std::string getValue(const Scenario& s, std::string_view path) {
  if (const ParamSpec* p = findParam(path)) return p->get(s);
  size_t index = 0;
  std::string field;
  if (!parseLevelPath(path, index, field)) unknownPath(path, {});
  checkLevelPath(s, path, index, field, {});
  return detail::getLevelField(s.topology.levels[index], field);
}

void setValue(Scenario& s, std::string_view path, const YAML::Node& value, const ValueSource& src) {
  if (const ParamSpec* p = findParam(path)) return p->set(s, value, src);
  size_t index = 0;
  std::string field;
  if (!parseLevelPath(path, index, field)) unknownPath(path, src.fallback);
  checkLevelPath(s, path, index, field, src.fallback);
  detail::setLevelField(s.topology.levels[index], field, value, std::string(path), src);
}

void setValue(Scenario& s, std::string_view path, std::string_view text, const InputLocation& where) {
  const ValueSource src{where.file, false, where};
  const ParamSpec* p = findParam(path);
  if (p && !p->scalar) {
    YAML::Node node;
    try {
      node = loadBoundedYaml(std::string(text));
    } catch (const YAML::Exception& e) {
      throw InputError(where, std::string(path), "a YAML flow list such as " + p->defaultText,
                       "'" + std::string(text) + "'", e.msg);
    }
    return setValue(s, path, node, src);
  }
  setValue(s, path, YAML::Node(std::string(text)), src);
}

bool isSettablePath(const Scenario& s, std::string_view path) {
  if (findParam(path)) return true;
  size_t index = 0;
  std::string field;
  return parseLevelPath(path, index, field) && isLevelField(field) && index < s.topology.levels.size();
}

}  // namespace fl
