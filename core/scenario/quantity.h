// Physical quantities in scenario text: one parser and one formatter for every key,
// so files, --set overrides, sweeps and GUI edits accept and print the same spellings.
//
//   Bytes      B KB MB GB TB (powers of 1000), KiB MiB GiB TiB (powers of 1024)
//   Bandwidth  B/s KB/s MB/s GB/s TB/s, KiB/s MiB/s GiB/s TiB/s,
//              bit rates b/s Kb/s Mb/s Gb/s Tb/s (also bps Kbps Mbps Gbps Tbps), / 8
//   Time       ps ns us (µs) ms s, held as integer picoseconds (rounded to nearest)
//   Fraction   a plain number or a percentage ("0.8", "80 %")
//   Count      a non-negative integer
//
// A unit is required for Bytes, Bandwidth and Time, except for a bare 0. Values are SI:
// bytes, bytes per second, picoseconds. formatQuantity is canonical and exact:
// parseQuantity(formatQuantity(x, k), k) == x for every x parseQuantity produces.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/time.h"
#include "scenario/input_error.h"

namespace fl {

enum class QuantityKind { Bytes, Bandwidth, Time, Fraction, Count };

// Throws InputError naming `keyPath` at `where`: expected e.g. "a bandwidth such as
// '450 GB/s'", found the text, and a hint (add a unit, valid units, bits vs bytes).
double parseQuantity(std::string_view text, QuantityKind kind, const std::string& keyPath = {},
                     const InputLocation& where = {});

// Exact integer forms (no detour through double): picoseconds and whole bytes.
Time parseTime(std::string_view text, const std::string& keyPath = {},
               const InputLocation& where = {});
std::int64_t parseBytes(std::string_view text, const std::string& keyPath = {},
                        const InputLocation& where = {});

// Canonical text: the largest unit whose number is at least 1 ("25 GB/s", "250 ns",
// "1.5 us"); byte sizes that are whole multiples of 1024 use binary units ("64 KiB").
std::string formatQuantity(double value, QuantityKind kind);
std::string formatTime(Time picoseconds);
std::string formatBytes(std::int64_t bytes);

// Shortest decimal text that reads back as exactly `value` ("0.98", "1e-07").
std::string formatNumber(double value);

// The unit words a kind accepts, for messages and docs ("B/s, KB/s, ...").
std::string validUnits(QuantityKind kind);
// The unit a kind is stored in, for docs ("B/s", "ps", "" for Fraction/Count).
const char* siUnit(QuantityKind kind);

}  // namespace fl
