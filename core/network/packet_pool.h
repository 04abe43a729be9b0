// Per-partition packet storage with a free list; handles are indices, stable while the
// packet lives, so queues hold 4-byte handles instead of packets.
#pragma once
#include <cstdint>
#include <vector>

#include "network/packet.h"

namespace fl::net {

using PacketHandle = std::uint32_t;

class PacketPool {
 public:
  PacketHandle allocate(const Packet& p) {
    ++live_;
    if (live_ > peak_) peak_ = live_;
    if (!free_.empty()) {
      PacketHandle h = free_.back();
      free_.pop_back();
      slots_[h] = p;
      return h;
    }
    slots_.push_back(p);
    return static_cast<PacketHandle>(slots_.size() - 1);
  }
  void release(PacketHandle h) {
    --live_;
    free_.push_back(h);
  }
  // A packet kept outside the pool (an endpoint's queued response) that counts as live:
  // hold() when it is made, allocateHeld() when it enters the pool; unpool() moves a
  // pooled packet out while it stays live.
  void hold() {
    ++live_;
    if (live_ > peak_) peak_ = live_;
  }
  PacketHandle allocateHeld(const Packet& p) {
    --live_;
    return allocate(p);
  }
  void unpool(PacketHandle h) { free_.push_back(h); }
  Packet& operator[](PacketHandle h) { return slots_[h]; }
  const Packet& operator[](PacketHandle h) const { return slots_[h]; }
  // Starts loading packet `h` into the cache (a hint: nothing happens for a stale handle).
  void prefetch(PacketHandle h) const {
    if (h >= slots_.size()) return;
    __builtin_prefetch(&slots_[h]);  // one cache line (Packet is 64 B aligned)
  }
  std::int64_t live() const { return live_; }
  std::int64_t peak() const { return peak_; }

 private:
  std::vector<Packet> slots_;
  std::vector<PacketHandle> free_;
  std::int64_t live_ = 0, peak_ = 0;
};

}  // namespace fl::net
