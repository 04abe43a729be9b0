// A FIFO in a power-of-two ring that only grows: no allocation per element, elements
// stored inline and read in order (hot queues: credits on their way back, responses
// waiting for a link), with cache hints for the next element read or written.
#pragma once
#include <cstddef>
#include <vector>

namespace fl {

template <class T>
class RingQueue {
 public:
  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }
  T& front() { return ring_[head_]; }
  const T& at(std::size_t i) const { return ring_[(head_ + i) & (ring_.size() - 1)]; }
  void prefetchFront() const {  // the element front() returns
    if (count_ != 0) __builtin_prefetch(&ring_[head_]);
  }
  void prefetchBack() const {  // where the next push_back() goes
    if (count_ < ring_.size()) __builtin_prefetch(&ring_[(head_ + count_) & (ring_.size() - 1)]);
  }
  void pop_front() {
    head_ = (head_ + 1) & (ring_.size() - 1);
    --count_;
  }
  void push_back(const T& v) {
    if (count_ == ring_.size()) grow();
    ring_[(head_ + count_) & (ring_.size() - 1)] = v;
    ++count_;
  }

 private:
  void grow() {
    std::vector<T> bigger(ring_.empty() ? 16 : 2 * ring_.size());
    for (std::size_t k = 0; k < count_; ++k) bigger[k] = at(k);
    ring_.swap(bigger);
    head_ = 0;
  }

  std::vector<T> ring_;  // capacity a power of two
  std::size_t head_ = 0, count_ = 0;
};

}  // namespace fl
