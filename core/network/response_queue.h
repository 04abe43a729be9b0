// An endpoint's queue of responses waiting for a link. Responses (LdReduceData above all)
// can queue by the hundred thousand; kept as pooled packets, every injection attempt
// read a packet slot written long before (a cache miss per attempt, the largest single
// stall in big NVLS runs). Here the packets themselves sit in a ring, read in order, and
// enter the pool only when sent. They still count as live packets meanwhile
// (PacketPool::hold), so peak_live_packets is what it was.
#pragma once
#include <cstddef>
#include <vector>

#include "network/packet.h"

namespace fl::net {

class ResponseQueue {
 public:
  bool empty() const { return count_ == 0; }
  std::size_t size() const { return count_; }
  Packet& front() { return ring_[head_]; }
  // Cache hint: the packet front() returns.
  void prefetchFront() const {
    if (count_ != 0) __builtin_prefetch(&ring_[head_]);
  }
  void pop_front() {
    head_ = (head_ + 1) & (ring_.size() - 1);
    --count_;
  }
  void push_back(const Packet& p) {
    if (count_ == ring_.size()) grow();
    ring_[(head_ + count_) & (ring_.size() - 1)] = p;
    ++count_;
  }

 private:
  void grow() {
    std::vector<Packet> bigger(ring_.empty() ? 16 : 2 * ring_.size());
    for (std::size_t k = 0; k < count_; ++k) bigger[k] = ring_[(head_ + k) & (ring_.size() - 1)];
    ring_.swap(bigger);
    head_ = 0;
  }

  std::vector<Packet> ring_;  // capacity a power of two
  std::size_t head_ = 0, count_ = 0;
};

}  // namespace fl::net
