// Numbers with units for the report's tables and captions (UTF-8: "µs"). Kept apart from
// the CLI's formatting (app/cli/summary.h) because core/ cannot depend on app/.
#pragma once
#include <cstdint>
#include <string>

#include "engine/time.h"

namespace fl::report {

std::string formatBytes(double bytes);          // "1.50 MiB", "512 B"
std::string formatRate(double bytesPerSecond);  // "371.2 GB/s" (powers of 1000, as GB/s figures)
std::string formatDuration(Time t);             // "12.35 µs", "250 ns", "1.200 ms"
std::string formatPercent(double fraction);     // "45.2%"
std::string formatCount(std::int64_t n);        // "1,234,567"
std::string formatFixed(double v, int decimals);  // "3.14"
std::string formatSeconds(double seconds);      // wall time: "0.123 s", "2 min 5 s"

// A time unit for plot axes: the largest of ps, ns, µs, ms, s that keeps `span` >= 1 unit.
struct TimeUnit {
  double picoseconds = 1;  // size of one unit
  const char* name = "ps";
};
TimeUnit timeUnitFor(Time span);

}  // namespace fl::report
