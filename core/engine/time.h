// Simulated time: integer picoseconds, so that event ordering never depends on
// floating-point rounding and runs are byte-identical across machines.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>

namespace fl {

using Time = std::int64_t;  // picoseconds

inline constexpr Time kPicosecond = 1;
inline constexpr Time kNanosecond = 1000;
inline constexpr Time kMicrosecond = 1000 * kNanosecond;
inline constexpr Time kMillisecond = 1000 * kMicrosecond;
inline constexpr Time kSecond = 1000 * kMillisecond;
inline constexpr Time kTimeNever = std::numeric_limits<Time>::max();

inline double toNs(Time t) { return static_cast<double>(t) / kNanosecond; }
inline double toSeconds(Time t) { return static_cast<double>(t) / kSecond; }

// Time to move `bytes` at `bytesPerSecond`, rounded to the nearest picosecond.
inline Time transferTime(double bytes, double bytesPerSecond) {
  return static_cast<Time>(std::llround(bytes / bytesPerSecond * 1e12));
}

}  // namespace fl
