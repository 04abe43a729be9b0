// A swept setting as data rather than text, for the machine-readable outputs (points.csv,
// the sweep JSON): a byte size, time or rate becomes its number under the key with the
// unit as a suffix ("workload.collective.size_bytes": 131072, "topology.link.latency_ns":
// 250, "topology.link.bandwidth_GBps": 0.125), whatever units the file wrote; other
// numbers stay numbers under the key; names keep the schema's text.
#pragma once
#include <optional>
#include <string>

namespace fl {

struct SettingValue {
  std::string column;            // the key, with a unit suffix for sizes, times and rates
  std::optional<double> number;  // in that unit; nullopt for a name (or text that is no number)
  std::string text;              // the schema's canonical text ("4 KiB", "125 MB/s", "cais")
};

// The column a swept key's number goes under: "key_bytes", "key_ns", "key_GBps" for a
// size, time or rate (hierarchy levels' bandwidth and latency included); "" otherwise.
std::string settingUnitColumn(const std::string& key);

SettingValue settingValue(const std::string& key, const std::string& value);

}  // namespace fl
