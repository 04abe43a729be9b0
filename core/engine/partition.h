// A partition: a set of components with their own event queue and clock. Partitions
// run independently inside a time window no longer than the smallest latency of the
// links between them (the lookahead); events for other partitions wait in an outbox
// until the window's barrier.
#pragma once
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/event.h"
#include "engine/event_queue.h"

namespace fl {

class Component;

inline constexpr std::uint32_t kMaxCrossPayload = 128;

struct CrossEvent {
  Event event;
  std::uint32_t payloadSize = 0;
  alignas(8) std::array<std::byte, kMaxCrossPayload> payload{};
};

class Partition {
 public:
  Partition(int index, const std::vector<Component*>& components,
            const std::vector<int>& partitionOf)
      : index_(index), components_(components), partitionOf_(partitionOf) {}

  int index() const { return index_; }
  Time now() const { return now_; }
  // Order key of the event being handled: with now(), where "now" stands in the total order.
  std::uint64_t currentOrder() const { return order_; }
  std::int64_t eventsProcessed() const { return events_; }
  Time nextTime() { return queue_.nextTime(); }
  void configureQueue(Time horizon) { queue_.configure(horizon); }
  std::size_t pending() const { return queue_.size(); }

  void push(const Event& e) { queue_.push(e); }
  void post(const CrossEvent& e);
  bool owns(ComponentId c) const { return partitionOf_[c] == index_; }
  int partitionOf(ComponentId c) const { return partitionOf_[c]; }
  Time windowEnd() const { return windowEnd_; }

  // Processes events with time < end, at most maxEvents of them. Returns the number
  // processed.
  std::int64_t runUntil(Time end, std::int64_t maxEvents);

  std::vector<CrossEvent>& outbox() { return outbox_; }

 private:
  int index_;
  const std::vector<Component*>& components_;
  const std::vector<int>& partitionOf_;
  EventQueue queue_;
  std::vector<CrossEvent> outbox_;
  Time now_ = 0;
  std::uint64_t order_ = 0;
  Time windowEnd_ = kTimeNever;
  std::int64_t events_ = 0;
};

}  // namespace fl
