// A partition's pending events, popped in (time, order) order.
//
// A calendar queue: the near future is a ring of buckets `width` picoseconds wide (most
// events are a serialisation time or a link latency ahead, and land there with an O(1)
// append); the bucket being processed is sorted once; events scheduled into the current
// bucket are inserted into it where they belong (they land a few places on, and the
// handled events before them leave room), or, failing that, go to a small heap beside
// it; events beyond the ring's horizon wait in a heap.
// The order is exactly that of one big heap, so results do not depend on the bucket width.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/event.h"

namespace fl {

class EventQueue {
 public:
  EventQueue() { configure(1 << 20); }

  // Sizes the ring so that `horizon` (the longest common scheduling distance, e.g. the
  // largest link latency) fits. Only while empty.
  void configure(Time horizon);

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  Time nextTime();  // kTimeNever when empty
  // Every scheduled event comes through here: the common case, an append to a ring
  // slot that has room, is inline; the rest (growth, current bucket, far future) is not.
  void push(const Event& e) {
    ++size_;
    if (e.time >= base_ + (Time{1} << shift_)) {
      const auto ahead = static_cast<std::uint64_t>((e.time - base_) >> shift_);
      if (ahead <= mask_) {
        const std::size_t slot = (cursor_ + ahead) & mask_;
        std::vector<Event>& bucket = ring_[slot];
        if (bucket.size() < bucket.capacity()) {
          bucket.push_back(e);
          occupied_[slot >> 6] |= std::uint64_t{1} << (slot & 63);
          ++inRing_;
          return;
        }
      }
    }
    pushSlow(e);
  }
  Event pop();      // requires !empty()
  // An event `ahead` places on in the current sorted bucket, or null: usually among the
  // next few to be handled (a hint for prefetching; events pushed meanwhile may come
  // first).
  const Event* peek(std::size_t ahead) const {
    return next_ + ahead < sorted_.size() ? &sorted_[next_ + ahead] : nullptr;
  }
  // Pops the next event into `out` if there is one before `end`: the event loop's one
  // call per event (nextTime() then pop() would find the bucket twice).
  bool popBefore(Time end, Event& out) {
    if (size_ == 0) return false;
    if (next_ == sorted_.size() && late_.empty()) advance();
    if (late_.empty() || (next_ < sorted_.size() && before(sorted_[next_], late_.front()))) {
      if (sorted_[next_].time >= end) return false;
      out = sorted_[next_++];
    } else {
      if (late_.front().time >= end) return false;
      out = heapPop(late_);
    }
    --size_;
    return true;
  }

 private:
  void advance();   // makes the current bucket non-empty (requires !empty())
  void pushLate(const Event& e);  // into the current bucket, after it was sorted
  void sortBucket();
  [[gnu::noinline]] void pushSlow(const Event& e);  // push() after ++size_
  bool countingSort();  // false: the bucket needs a comparison sort
  static bool insertionSort(Event* a, std::size_t n, std::size_t maxMoves);
  // Ring slots from `from` on (wrapping) to the next occupied one; requires inRing_ > 0.
  std::size_t distanceToOccupied(std::size_t from) const;
  static void heapPush(std::vector<Event>& h, const Event& e);
  static Event heapPop(std::vector<Event>& h);

  std::vector<std::vector<Event>> ring_;
  std::size_t mask_ = 0;
  int shift_ = 0;            // bucket width = 2^shift ps
  Time base_ = 0;            // start of the current bucket
  std::size_t cursor_ = 0;   // ring index of the current bucket
  std::vector<Event> sorted_;  // the current bucket, sorted; consumed from next_
  std::size_t next_ = 0;
  std::vector<Event> late_;    // heap: pushed into the current bucket after it was sorted,
                               // where pushLate() found no room near its place
  std::vector<Event> far_;     // heap: beyond the ring's horizon
  std::size_t inRing_ = 0;     // events in ring buckets other than the current one
  std::vector<std::uint64_t> occupied_;  // one bit per ring slot: holds events
  std::vector<Event> gathered_;          // scratch of countingSort()
  std::vector<std::uint32_t> counts_;    // scratch of countingSort()
  std::size_t size_ = 0;
};

}  // namespace fl
