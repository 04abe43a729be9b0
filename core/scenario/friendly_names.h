// The seeds' names for the values of a few sweepable keys, so that sweep points read
// "ER-Mapping" or "TP-NVLS" rather than "kind = er" (seed 003 MoEntwine's mappings and
// balancers, seed 002 CAIS's tensor-parallel schemes). Used by the app's point labels
// and the report's comparison.
#pragma once
#include <string>

namespace fl {

struct Scenario;

// The name for `value` of `key` (a full key path, e.g. "mapping.kind"); "" when the
// seeds give none.
std::string friendlyValueName(const std::string& key, const std::string& value);

// The seeds' name for a scheme.communication x scheme.fusion combination: the Fusion
// scheme dock's presets ("DySHARP-Basic", "Full DySHARP", "FlashDMoE", seed 000 §VI,
// seed 001) and the baselines ("DeepEP", "COMET"); "" for none.
std::string friendlySchemeName(const std::string& communication, const std::string& fusion);

// A numeric sweep value as a short label with its unit: "Compression 50×", "Table
// 40 KiB", "64 experts", "Top-8"; quantities in the schema's canonical text. Keys not
// listed get their last segment ("Count 4"); "" for a value that is not a number.
std::string friendlyNumericValue(const std::string& key, const std::string& value);

// A swept value as the schema writes it, whatever the file wrote: byte sizes binary
// where whole ("131072 B" -> "128 KiB"), rates in decimal bytes per second ("1 Gb/s" ->
// "125 MB/s"), times in their largest unit ("1000 ns" -> "1 us"); so tables, charts and
// labels of one sweep read alike (issue 21's one byte-unit policy). Other keys, and text
// that does not parse, come back unchanged.
std::string canonicalValueText(const std::string& key, const std::string& value);

// An axis title for a swept key, as the seeds and the schema name it: "Mapping",
// "TP scheme", "Merge table size", "Tokens per GPU"; "" for keys not listed (a hierarchy
// level's keys: friendlyLevelTitle). Charts show it over the key path.
std::string friendlyKeyTitle(const std::string& key);

// Keys of a hierarchy level (topology.levels[i].count, .bandwidth, ...) named by the
// level's name in `s` ("dc" reads "Datacenters", "node" "Nodes", "gpu" "GPUs"; others
// as written), not its position: friendlyLevelTitle gives an axis title ("Datacenters",
// "Datacenter link bandwidth"), friendlyLevelValue a point's label ("100 datacenters",
// "Datacenter links 1.25 GB/s"); both "" for other keys or a level `s` lacks.
std::string friendlyLevelTitle(const Scenario& s, const std::string& key);
std::string friendlyLevelValue(const Scenario& s, const std::string& key, const std::string& value);

}  // namespace fl
