// An event: a timestamped message to one component. The total order is
// (time, source component, source sequence): it depends only on what each component
// did, never on how components are spread over partitions or threads, so a run is
// identical for any partitioning and thread count.
#pragma once
#include <cstdint>

#include "engine/time.h"

namespace fl {

using ComponentId = std::uint32_t;

struct Event {
  Time time = 0;
  ComponentId source = 0;    // the component that scheduled it
  ComponentId target = 0;
  std::uint64_t sequence = 0;  // per-source counter
  std::uint32_t kind = 0;      // meaning defined by the target component
  std::uint32_t arg32 = 0;
  std::uint64_t arg = 0;
};

inline bool before(const Event& a, const Event& b) {
  if (a.time != b.time) return a.time < b.time;
  if (a.source != b.source) return a.source < b.source;
  return a.sequence < b.sequence;
}

}  // namespace fl
