// An event: a timestamped message to one component. The total order is
// (time, source component, source sequence), packed as (time, order): it depends only on
// what each component did, never on how components are spread over partitions or
// threads, so a run is identical for any partitioning and thread count.
// 32 bytes, so that the event heap moves little memory.
#pragma once
#include <cstdint>

#include "engine/time.h"

namespace fl {

using ComponentId = std::uint32_t;

inline constexpr int kSequenceBits = 40;  // per-source events: up to 10^12
inline constexpr std::uint32_t kMaxComponents = 1u << (64 - kSequenceBits);

inline std::uint64_t eventOrder(ComponentId source, std::uint64_t sequence) {
  return (static_cast<std::uint64_t>(source) << kSequenceBits) | sequence;
}

struct Event {
  Time time = 0;
  std::uint64_t order = 0;   // eventOrder(source, sequence)
  std::uint64_t arg = 0;
  ComponentId target = 0;
  std::uint32_t kind : 8;    // meaning defined by the target component
  std::uint32_t arg32 : 24;  // e.g. a port index

  Event() : kind(0), arg32(0) {}
  Event(Time t, std::uint64_t o, ComponentId to, std::uint32_t k, std::uint32_t a32, std::uint64_t a)
      : time(t), order(o), arg(a), target(to), kind(k), arg32(a32) {}
};
static_assert(sizeof(Event) == 32);

// One 128-bit comparison of (time, order) rather than two dependent branches: bucket
// sorts compare events that mostly share their time. Times are never negative.
inline bool before(const Event& a, const Event& b) {
  using Key = unsigned __int128;
  const Key ka = (static_cast<Key>(static_cast<std::uint64_t>(a.time)) << 64) | a.order;
  const Key kb = (static_cast<Key>(static_cast<std::uint64_t>(b.time)) << 64) | b.order;
  return ka < kb;
}

}  // namespace fl
