#include "scenario/sweep.h"

#include <cstdint>
#include <limits>

#include "scenario/schema.h"
#include "scenario/validate.h"

namespace fl {

size_t sweepPointCount(const Scenario& s) {
  size_t n = 1;
  for (const SweepAxis& a : s.sweep) {
    if (a.values.empty()) return 0;
    if (n > std::numeric_limits<size_t>::max() / a.values.size()) return std::numeric_limits<size_t>::max();
    n *= a.values.size();
  }
  return n;
}

std::vector<SweepSettings> sweepPoints(const Scenario& s) {
  std::vector<SweepSettings> points(1);
  for (const SweepAxis& a : s.sweep) {
    std::vector<SweepSettings> next;
    next.reserve(points.size() * a.values.size());
    for (const SweepSettings& p : points)
      for (const std::string& v : a.values) {
        next.push_back(p);
        next.back().emplace_back(a.key, v);
      }
    points = std::move(next);
  }
  return points;
}

SweepSettings sweepPoint(const Scenario& s, size_t index) {
  // Mixed radix, the last axis the least significant digit.
  SweepSettings point(s.sweep.size());
  for (size_t a = s.sweep.size(); a-- > 0;) {
    const auto& values = s.sweep[a].values;
    point[a] = {s.sweep[a].key, values[index % values.size()]};
    index /= values.size();
  }
  return point;
}

Scenario sweepPointScenario(const Scenario& base, const SweepSettings& settings) {
  Scenario s = base;
  s.sweep.clear();
  const InputLocation where{"sweep", 0, 0};
  for (const auto& [key, value] : settings) setValue(s, key, value, where);
  validateScenario(s, [&](std::string_view path) {
    for (const auto& kv : settings)
      if (kv.first == path) return true;
    return false;
  });
  return s;
}

}  // namespace fl
