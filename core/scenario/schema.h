// The table of every scenario key: its path, type, unit, default, range, meaning and
// source, bound to the Scenario field it sets. Loading, --set overrides, sweeps, saving,
// docs/scenario.md and the GUI's editable tree all iterate this one table, so they
// accept the same text and report errors with the same messages.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/input_error.h"
#include "scenario/quantity.h"
#include "scenario/scenario.h"

namespace YAML {
class Node;
}

namespace fl {

// Where a YAML value came from, to turn node marks into 1-based InputLocations. Values
// given as text (--set, sweep values, GUI edits) have no useful marks: they report
// `fallback`, as do null nodes (whose marks point past the key).
struct ValueSource {
  std::string file;
  bool useMarks = true;
  InputLocation fallback;
  InputLocation at(const YAML::Node& node) const;
};

// The range of every bandwidth key (and level bandwidth): below 1 Mb/s a packet's time
// on the wire outgrows the picosecond clock and the time bins (1e-30 B/s overflowed and
// acted as unlimited, 1 B/s allocated tens of GB); above 1000 TB/s is no link. Keys
// whose 0 stands for a setting ("unlimited", "as topology.link.bandwidth") accept 0 too.
constexpr double kMinBandwidth = 125'000;  // 1 Mb/s
constexpr const char* kMinBandwidthText = "1 Mb/s";
constexpr double kMaxBandwidth = 1e15;     // 1000 TB/s

struct ParamSpec {
  std::string path;         // "topology.link.bandwidth"
  std::string type;         // int, float, fraction, bool, enum, string, bytes, bandwidth,
                            // time, list of ints, list of levels, byte matrix
  std::string unit;         // SI unit the value is held in ("B/s", "ps"); "" if none
  std::string defaultText;  // getValue() of a default Scenario
  std::string doc;          // one line
  std::string source;       // citation for the default
  std::optional<double> min, max;  // in the held unit (bytes, B/s, ps)
  bool minExclusive = false;       // min is a strict bound ("> 0")
  bool zeroAllowed = false;        // 0 is accepted besides [min, max] (bandwidths)
  std::vector<std::string> choices;        // enum values
  std::optional<QuantityKind> quantity;    // set for bytes, bandwidth, time, fraction
  bool scalar = true;  // one line of text; false: the text is a YAML flow list
  bool oneLine = false;  // a text that may not span lines (name)
  // The topology.kind values a topology key applies to, as its doc begins ("mesh: ...");
  // empty: every kind. A file may not write a key its kind ignores.
  std::vector<std::string> topologyKinds;
  std::string zeroMeans;  // what 0 stands for ("no limit"), when not a plain zero
  std::function<std::string(const Scenario&)> get;
  std::function<void(Scenario&, const YAML::Node&, const ValueSource&)> set;

  // "from 1 to 64", "greater than 0", "0 or from 1 Mb/s to 1000 TB/s"; "" when unbounded.
  std::string rangeText() const;
  // A bound as rangeText() writes it ("1 Mb/s", "250 ns", "64").
  std::string boundText(double v) const;
  // A value's text as shown to a reader: "0 B/s (no limit)" when 0 has a meaning of its
  // own (zeroMeans), else `valueText` itself.
  std::string describe(const std::string& valueText) const;
};

const std::vector<ParamSpec>& schema();
const ParamSpec* findParam(std::string_view path);
// The quantity kind of a key's values: its row's, or Bandwidth / Time for a hierarchy
// level's topology.levels[i].bandwidth / .latency (no row per level); nullopt otherwise.
std::optional<QuantityKind> keyQuantity(const std::string& path);
// A setting's value as a number in the schema's base unit (bytes, ps, B/s, a fraction, a
// count), through the schema's own parser (so "64 KiB", "30 %" and "4 TB/s" all work);
// nullopt for names such as "ring" and for text that is no number of its kind.
std::optional<double> settingNumber(const std::string& path, const std::string& text);

// Child key names under a section prefix ("" = top level, "topology.link" ->
// bandwidth, latency, efficiency), in schema order. Empty when `prefix` is no section.
std::vector<std::string> childKeys(std::string_view prefix);

// Formatted value text (quantities canonical: "25 GB/s"; lists as YAML flow text).
// Also accepts element paths "topology.levels[2].bandwidth". Throws InputError for an
// unknown path.
std::string getValue(const Scenario& s, std::string_view path);

// Parses `text` exactly as the loader parses a file value (lists as YAML flow text, e.g.
// "[0, 3]") and assigns it. Throws InputError naming `path` at `where`. Setting
// topology.preset keeps every topology value that differs from the old preset's (i.e.
// was set explicitly) and takes the rest from the new preset. Single-field validation
// only; validateScenario() checks combinations.
void setValue(Scenario& s, std::string_view path, std::string_view text,
              const InputLocation& where = {});
// The same for a YAML node from a file (errors point at the node's marks).
void setValue(Scenario& s, std::string_view path, const YAML::Node& value,
              const ValueSource& source);

// True for schema keys and for element paths "topology.levels[i].<field>" with i in
// range for `s` (used for sweep keys).
bool isSettablePath(const Scenario& s, std::string_view path);

// docs/scenario.md.
std::string schemaMarkdown();

}  // namespace fl
