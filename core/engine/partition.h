// A partition: a set of components with their own event queue and clock. Partitions
// run independently inside a time window no longer than the smallest latency of the
// links between them (the lookahead); events for other partitions wait in an outbox per
// destination until the window's barrier, and each partition takes in its own at the
// start of the next window (in parallel: no serial delivery between windows).
#pragma once
#include <array>
#include <atomic>
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "engine/event.h"
#include "engine/event_queue.h"

namespace fl {

class Component;

inline constexpr std::uint32_t kMaxCrossPayload = 128;
inline constexpr std::uint32_t kDirectPost = UINT32_MAX;  // payload size: Component::postDirect

// Events for one destination partition posted in one window; payloads back to back in
// `bytes` (8-byte aligned), so an event without one costs its 40 bytes only.
class Outbox {
 public:
  struct Entry {
    Event event;
    std::uint32_t payloadAt = 0;  // offset in bytes
    std::uint32_t payloadSize = 0;
  };
  std::vector<Entry> entries;
  // Appends `size` bytes (rounded up to 8) without zeroing them first; returns where.
  std::uint32_t append(const void* data, std::uint32_t size) {
    const std::size_t at = used, padded = (size + 7) & ~std::size_t{7};
    if (at + padded > bytes.size()) bytes.resize(std::max<std::size_t>(2 * bytes.size(), at + padded + 4096));
    std::memcpy(bytes.data() + at, data, size);
    used = at + padded;
    return static_cast<std::uint32_t>(at);
  }
  const std::byte* at(std::uint32_t offset) const { return bytes.data() + offset; }
  void clear() {
    entries.clear();
    used = 0;
  }

 private:
  std::vector<std::byte> bytes;  // grows only; the first `used` hold payloads
  std::size_t used = 0;
};

class Partition {
 public:
  Partition(int index, const std::vector<Component*>& components,
            const std::vector<int>& partitionOf)
      : index_(index), components_(components), partitionOf_(partitionOf) {}
  // Sizes the outboxes (one per partition and window parity); set by the Simulator.
  void setPartitionCount(int n) {
    for (auto& o : outboxes_) o.assign(static_cast<std::size_t>(n), Outbox{});
  }

  int index() const { return index_; }
  Time now() const { return now_; }
  // Order key of the event being handled: with now(), where "now" stands in the total order.
  std::uint64_t currentOrder() const { return order_; }
  std::int64_t eventsProcessed() const { return events_; }
  Time nextTime() { return queue_.nextTime(); }
  void configureQueue(Time horizon) { queue_.configure(horizon); }
  std::size_t pending() const { return queue_.size(); }

  void push(const Event& e) { queue_.push(e); }
  // An event for another partition's component, with `size` bytes of payload (0: none).
  void post(const Event& e, const void* payload, std::uint32_t size);
  bool owns(ComponentId c) const { return partitionOf_[c] == index_; }
  int partitionOf(ComponentId c) const { return partitionOf_[c]; }
  Time windowEnd() const { return windowEnd_; }

  // Processes events with time < end, at most maxEvents of them. Returns the number
  // processed.
  std::int64_t runUntil(Time end, std::int64_t maxEvents);

  // Parity of the window being run (0 before the first).
  int windowParity() const { return parity_; }
  // Earliest event posted to another partition in the current window (kTimeNever: none).
  Time earliestPosted() const { return earliestPosted_; }
  // Takes in the events that partitions posted to this one in the last window (parity
  // `window & 1`; the sources now post into the other parity), importing payloads.
  // Runs on this partition's thread; the sources' outboxes of that parity are idle.
  void takeIn(std::vector<std::unique_ptr<Partition>>& all, std::int64_t window);
  // Called at the start of window `window` before running: outboxes of its parity.
  void beginWindow(std::int64_t window) {
    parity_ = static_cast<int>(window & 1);
    earliestPosted_ = kTimeNever;
  }

 private:
  int index_;
  const std::vector<Component*>& components_;
  const std::vector<int>& partitionOf_;
  EventQueue queue_;
  std::array<std::vector<Outbox>, 2> outboxes_;  // [window parity][destination]
  int parity_ = 0;
  Time earliestPosted_ = kTimeNever;
  Time now_ = 0;
  std::uint64_t order_ = 0;
  Time windowEnd_ = kTimeNever;
  std::int64_t events_ = 0;
};

}  // namespace fl
