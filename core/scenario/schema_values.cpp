#include "scenario/schema_values.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

#include "scenario/did_you_mean.h"

namespace fl::detail {
namespace {

std::string trimmed(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::string noun(const ParamSpec& r, const char* fallback) {
  if (!r.quantity) return fallback;
  switch (*r.quantity) {
    case QuantityKind::Bytes: return "a byte size";
    case QuantityKind::Bandwidth: return "a bandwidth";
    case QuantityKind::Time: return "a time";
    case QuantityKind::Fraction: return "a fraction";
    case QuantityKind::Count: return "an integer";
  }
  return fallback;
}

std::string withRange(const std::string& what, const ParamSpec& r) {
  std::string range = r.rangeText();
  return range.empty() ? what : what + " " + range;
}

void checkRange(double v, const std::string& text, const std::string& path, const ParamSpec& r,
                const InputLocation& loc, const char* fallbackNoun) {
  if (v == 0 && r.zeroAllowed) return;
  bool low = r.min && (r.minExclusive ? v <= *r.min : v < *r.min);
  bool high = r.max && v > *r.max;
  if (!low && !high) return;
  // A bandwidth names the bound it missed: the ceiling would only distract from the floor.
  const std::string expected =
      r.quantity != QuantityKind::Bandwidth
          ? withRange(noun(r, fallbackNoun), r)
          : noun(r, fallbackNoun) + " of " + (r.zeroAllowed ? "0 or " : "") +
                (low ? "at least " + r.boundText(*r.min) : "at most " + r.boundText(*r.max));
  throw InputError(loc, path, expected, "'" + text + "'");
}

template <class T>
bool parseWhole(const std::string& text, T& out) {
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && p == text.data() + text.size() && !text.empty();
}

ParamSpec spec(std::string path, std::string type, std::string doc) {
  ParamSpec p;
  p.path = std::move(path);
  p.type = std::move(type);
  p.doc = std::move(doc);
  return p;
}

}  // namespace

void bandwidthRange(ParamSpec& p, bool zeroAllowed) {
  p.min = kMinBandwidth;
  p.max = kMaxBandwidth;
  p.minExclusive = false;
  p.zeroAllowed = zeroAllowed;
}

std::string describeNode(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  if (node.IsMap()) return node.size() == 0 ? "an empty map" : "a map";
  if (node.IsSequence()) return node.size() == 0 ? "an empty list" : "a list";
  return "'" + node.Scalar() + "'";
}

void requireOneLine(int lines, const std::string& path, const InputLocation& at) {
  if (lines <= 1) return;
  const std::string what = path.substr(path.rfind('.') + 1);
  throw InputError(at, path, "a one-line " + what, "a " + what + " spanning " + std::to_string(lines) + " lines",
                   "an unclosed quote?");
}

std::string scalarText(const YAML::Node& node, const std::string& path, const ValueSource& src,
                       const std::string& expected) {
  if (!node.IsDefined() || !node.IsScalar())
    throw InputError(src.at(node), path, expected, describeNode(node));
  return node.Scalar();
}

std::int64_t readInteger(const YAML::Node& node, const std::string& path, const ParamSpec& r,
                         const ValueSource& src) {
  std::string text = trimmed(scalarText(node, path, src, withRange("an integer", r)));
  std::int64_t v = 0;
  if (!parseWhole(text, v))
    throw InputError(src.at(node), path, withRange("an integer", r), "'" + text + "'");
  checkRange(static_cast<double>(v), text, path, r, src.at(node), "an integer");
  return v;
}

std::uint64_t readUnsigned(const YAML::Node& node, const std::string& path, const ParamSpec& r,
                           const ValueSource& src) {
  const std::string expected = "a non-negative integer below 2^64";
  std::string text = trimmed(scalarText(node, path, src, expected));
  std::uint64_t v = 0;
  if (!parseWhole(text, v)) throw InputError(src.at(node), path, expected, "'" + text + "'");
  return v;
}

double readReal(const YAML::Node& node, const std::string& path, const ParamSpec& r,
                const ValueSource& src) {
  const bool fraction = r.quantity == QuantityKind::Fraction;
  std::string what = fraction ? "a fraction" : "a number";
  std::string text = trimmed(scalarText(node, path, src, withRange(what, r)));
  double v = 0;
  if (fraction) {
    v = parseQuantity(text, QuantityKind::Fraction, path, src.at(node));
  } else if (!parseWhole(text, v) || !std::isfinite(v)) {
    throw InputError(src.at(node), path, withRange(what, r), "'" + text + "'");
  }
  checkRange(v, text, path, r, src.at(node), "a number");
  return v;
}

bool readBool(const YAML::Node& node, const std::string& path, const ValueSource& src) {
  const std::string expected = "true or false";
  std::string text = trimmed(scalarText(node, path, src, expected));
  static const std::set<std::string> yes = {"true", "True", "TRUE", "yes", "Yes", "on", "On"};
  static const std::set<std::string> no = {"false", "False", "FALSE", "no", "No", "off", "Off"};
  if (yes.count(text)) return true;
  if (no.count(text)) return false;
  throw InputError(src.at(node), path, expected, "'" + text + "'");
}

std::string readChoice(const YAML::Node& node, const std::string& path, const ParamSpec& r,
                       const ValueSource& src) {
  const std::string expected = "one of " + joinList(r.choices);
  std::string text = trimmed(scalarText(node, path, src, expected));
  for (const std::string& c : r.choices)
    if (c == text) return c;
  throw InputError(src.at(node), path, expected, "'" + text + "'",
                   closeMatchHint(text, r.choices));
}

double readQuantity(const YAML::Node& node, const std::string& path, const ParamSpec& r,
                    const ValueSource& src) {
  const QuantityKind kind = r.quantity.value_or(QuantityKind::Count);
  std::string text = trimmed(scalarText(node, path, src, withRange(noun(r, "a number"), r)));
  double v = 0;
  if (kind == QuantityKind::Time)
    v = static_cast<double>(parseTime(text, path, src.at(node)));
  else if (kind == QuantityKind::Bytes)
    v = static_cast<double>(parseBytes(text, path, src.at(node)));
  else
    v = parseQuantity(text, kind, path, src.at(node));
  checkRange(v, text, path, r, src.at(node), "a number");
  return v;
}

std::vector<int> readIntList(const YAML::Node& node, const std::string& path, const ParamSpec& r,
                             const ValueSource& src) {
  if (!node.IsSequence())
    throw InputError(src.at(node), path, "a list of integers such as [0, 3]", describeNode(node));
  std::vector<int> out;
  for (size_t i = 0; i < node.size(); ++i)
    out.push_back(static_cast<int>(
        readInteger(node[i], path + "[" + std::to_string(i) + "]", r, src)));
  return out;
}

const std::vector<ParamSpec>& levelFieldSpecs() {
  static const std::vector<ParamSpec> specs = [] {
    std::vector<ParamSpec> v;
    v.push_back(spec("name", "string", "level name, shown in views and results (default level<i>)"));
    v.push_back(spec("count", "int", "children per parent at this level"));
    v.back().min = 1;
    v.back().max = 10'000'000;
    v.push_back(spec("bandwidth", "bandwidth", "per link, per direction, child to parent switch"));
    v.back().quantity = QuantityKind::Bandwidth;
    v.back().unit = "B/s";
    bandwidthRange(v.back(), false);
    v.push_back(spec("latency", "time", "per link, per direction"));
    v.back().quantity = QuantityKind::Time;
    v.back().unit = "ps";
    v.back().min = 0;
    // Optional (the others but name are required): rail-style boxes give every GPU its
    // own NIC to the network above the node (seed 001 §6.7: one 25 GB/s NIC per GPU).
    v.push_back(spec("uplinks", "enum",
                     "how each member joins the parent switch: shared (default), one link per member; per_gpu, "
                     "one link (a NIC) from every GPU inside the member straight to the parent switch, so only "
                     "traffic staying inside the member crosses its own switch (rail-style boxes, seed 001 §6.7; not on the "
                     "GPU level)"));
    v.back().choices = {"shared", "per_gpu"};
    v.back().defaultText = "shared";
    return v;
  }();
  return specs;
}

void setLevelField(LevelSpec& level, const std::string& field, const YAML::Node& node,
                   const std::string& path, const ValueSource& src) {
  const auto& f = levelFieldSpecs();
  if (field == "name") level.name = scalarText(node, path, src, "a name");
  else if (field == "count") level.count = static_cast<int>(readInteger(node, path, f[1], src));
  else if (field == "bandwidth") level.bandwidth = readQuantity(node, path, f[2], src);
  else if (field == "latency") level.latency = static_cast<Time>(readQuantity(node, path, f[3], src));
  else if (field == "uplinks")
    level.uplinks = readChoice(node, path, f[4], src) == "per_gpu" ? LevelUplinks::PerGpu : LevelUplinks::Shared;
}

std::vector<std::string> levelFieldNames() {
  std::vector<std::string> names;
  for (const ParamSpec& f : levelFieldSpecs()) names.push_back(f.path);
  return names;
}

std::vector<std::string> levelFieldNames(const LevelSpec& level) {
  std::vector<std::string> names = {"name", "count", "bandwidth", "latency"};
  if (level.uplinks != LevelUplinks::Shared) names.push_back("uplinks");  // shared: as before the key existed
  return names;
}

std::string getLevelField(const LevelSpec& level, const std::string& field) {
  if (field == "name") return level.name;
  if (field == "count") return std::to_string(level.count);
  if (field == "bandwidth") return formatQuantity(level.bandwidth, QuantityKind::Bandwidth);
  if (field == "uplinks") return level.uplinks == LevelUplinks::PerGpu ? "per_gpu" : "shared";
  return formatTime(level.latency);
}

std::vector<LevelSpec> readLevels(const YAML::Node& node, const std::string& path,
                                  const ValueSource& src) {
  const std::vector<std::string> fields = levelFieldNames();
  const std::string entry = "a map {name, count, bandwidth, latency[, uplinks]}";
  if (!node.IsSequence())
    throw InputError(src.at(node), path, "a list of levels, each " + entry, describeNode(node));
  std::vector<LevelSpec> out;
  for (size_t i = 0; i < node.size(); ++i) {
    const std::string at = path + "[" + std::to_string(i) + "]";
    const YAML::Node item = node[i];
    if (!item.IsMap()) throw InputError(src.at(item), at, entry, describeNode(item));
    LevelSpec level;
    level.name = "level" + std::to_string(i);
    std::set<std::string> seen;
    for (auto it = item.begin(); it != item.end(); ++it) {
      const std::string key = it->first.Scalar();
      ValueSource keySrc = src;
      if (src.useMarks) keySrc.fallback = src.at(it->first);
      if (std::find(fields.begin(), fields.end(), key) == fields.end())
        throw InputError(keySrc.fallback, at + "." + key, "one of the keys " + joinList(fields),
                         "'" + key + "'", suggestionHint(key, fields, "keys"));
      if (!seen.insert(key).second)
        throw InputError(keySrc.fallback, at + "." + key, "each key once", "a duplicate '" + key + "'");
      setLevelField(level, key, it->second, at + "." + key, keySrc);
    }
    for (const char* required : {"count", "bandwidth", "latency"})
      if (!seen.count(required))
        throw InputError(src.at(item), at + "." + required,
                         std::string("a '") + required + "' in every level", "nothing",
                         "each level is {name, count, bandwidth, latency[, uplinks]}");
    out.push_back(level);
  }
  return out;
}

std::vector<std::vector<std::int64_t>> readMatrix(const YAML::Node& node, const std::string& path,
                                                  const ValueSource& src) {
  static const ParamSpec bytes = [] {
    ParamSpec p = spec("", "bytes", "");
    p.quantity = QuantityKind::Bytes;
    p.min = 0;
    return p;
  }();
  const std::string expected = "a list of rows, each a list of byte sizes such as [0, 1 MiB]";
  if (!node.IsSequence()) throw InputError(src.at(node), path, expected, describeNode(node));
  std::vector<std::vector<std::int64_t>> out;
  for (size_t i = 0; i < node.size(); ++i) {
    const std::string row = path + "[" + std::to_string(i) + "]";
    if (!node[i].IsSequence()) throw InputError(src.at(node[i]), row, expected, describeNode(node[i]));
    out.emplace_back();
    for (size_t j = 0; j < node[i].size(); ++j)
      out.back().push_back(static_cast<std::int64_t>(
          readQuantity(node[i][j], row + "[" + std::to_string(j) + "]", bytes, src)));
  }
  return out;
}

std::string intListText(const std::vector<int>& v) {
  YAML::Emitter e;
  e << YAML::Flow << YAML::BeginSeq;
  for (int x : v) e << x;
  e << YAML::EndSeq;
  return e.c_str();
}

std::string levelsText(const std::vector<LevelSpec>& levels) {
  YAML::Emitter e;
  e << YAML::Flow << YAML::BeginSeq;
  for (const LevelSpec& l : levels) {
    e << YAML::BeginMap;
    for (const std::string& f : levelFieldNames(l)) e << YAML::Key << f << YAML::Value << getLevelField(l, f);
    e << YAML::EndMap;
  }
  e << YAML::EndSeq;
  return e.c_str();
}

std::string matrixText(const std::vector<std::vector<std::int64_t>>& m) {
  YAML::Emitter e;
  e << YAML::Flow << YAML::BeginSeq;
  for (const auto& row : m) {
    e << YAML::BeginSeq;
    for (std::int64_t b : row) e << formatBytes(b);
    e << YAML::EndSeq;
  }
  e << YAML::EndSeq;
  return e.c_str();
}

}  // namespace fl::detail
