// A partition's pending events: a 4-ary min-heap on (time, source, sequence).
// 4-ary keeps the heap shallow and cache-friendly for the millions of events per second
// the engine targets.
#pragma once
#include <cstddef>
#include <vector>

#include "engine/event.h"

namespace fl {

class EventQueue {
 public:
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  const Event& top() const { return heap_.front(); }
  Time nextTime() const { return heap_.empty() ? kTimeNever : heap_.front().time; }

  void push(const Event& e) {
    heap_.push_back(e);
    siftUp(heap_.size() - 1);
  }

  Event pop() {
    Event top = heap_.front();
    heap_.front() = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) siftDown(0);
    return top;
  }

  void clear() { heap_.clear(); }

 private:
  static constexpr std::size_t kArity = 4;

  void siftUp(std::size_t i) {
    Event e = heap_[i];
    while (i > 0) {
      std::size_t parent = (i - 1) / kArity;
      if (!before(e, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }

  void siftDown(std::size_t i) {
    const std::size_t n = heap_.size();
    Event e = heap_[i];
    for (;;) {
      std::size_t first = i * kArity + 1;
      if (first >= n) break;
      std::size_t best = first;
      std::size_t last = first + kArity < n ? first + kArity : n;
      for (std::size_t c = first + 1; c < last; ++c)
        if (before(heap_[c], heap_[best])) best = c;
      if (!before(heap_[best], e)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = e;
  }

  std::vector<Event> heap_;
};

}  // namespace fl
