// Input checks shared by the topology builders: they throw fl::InputError naming the
// key path, so a bad value reaching a builder (e.g. through the API rather than the
// schema) reports the same way as a schema error.
#pragma once
#include <cstdint>
#include <string>

#include "scenario/input_error.h"

namespace fl::topo {

// Upper bound on the nodes of a built topology: keeps ids in range and memory sane
// (a node costs a few hundred bytes with its name and ports).
inline constexpr std::int64_t kMaxNodes = std::int64_t{1} << 22;

[[noreturn]] inline void inputError(const std::string& key, std::string expected,
                                    std::string found) {
  throw InputError({}, key, std::move(expected), std::move(found));
}

inline std::string numberText(double v) {
  std::string s = std::to_string(v);
  // to_string prints six decimals; trim trailing zeros for readable messages.
  if (s.find('.') != std::string::npos) {
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

inline void requireAtLeast(const std::string& key, std::int64_t value, std::int64_t min) {
  if (value < min) inputError(key, "an integer >= " + std::to_string(min), std::to_string(value));
}

inline void requirePositive(const std::string& key, double value) {
  if (!(value > 0)) inputError(key, "a positive number", numberText(value));
}

inline void requireNonNegative(const std::string& key, double value) {
  if (!(value >= 0)) inputError(key, "a number >= 0", numberText(value));
}

inline void requireEfficiency(const std::string& key, double value) {
  if (!(value > 0 && value <= 1)) inputError(key, "a number in (0, 1]", numberText(value));
}

// `count` nodes or links (`what`); links are bounded like nodes since each costs as much.
inline void requireBudget(const std::string& key, std::int64_t count, const char* what) {
  if (count > kMaxNodes)
    inputError(key, std::string("a topology of at most ") + std::to_string(kMaxNodes) + " " + what,
               std::to_string(count) + " " + what);
}

}  // namespace fl::topo
