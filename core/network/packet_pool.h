// Per-partition packet storage with a free list; handles are indices, stable while the
// packet lives, so queues hold 4-byte handles instead of packets. The count of live
// packets follows packets, not slots: a packet passed to another partition leaves its
// slot here (unpool) and takes one there (adopt) without being born or dying, so the
// sum over partitions is the single-partition count, and a PeakTracker samples it (the
// sum of each partition's peak depended on the partitioning).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/peak_tracker.h"
#include "network/packet.h"

namespace fl::net {

using PacketHandle = std::uint32_t;

class PacketPool {
 public:
  // Reports changes to `tracker` (its peak is the run's).
  void track(PeakTracker* tracker, const Partition* partition) {
    tracker_ = tracker;
    partition_ = partition;
  }
  PacketHandle allocate(const Packet& p) {
    count(1);
    return adopt(p);
  }
  // A packet that lives on from another partition, as bytes: copied straight into a slot.
  PacketHandle adopt(const std::byte* bytes) {
    PacketHandle h;
    if (!free_.empty()) {
      h = free_.back();
      free_.pop_back();
    } else {
      h = static_cast<PacketHandle>(slots_.size());
      slots_.emplace_back();
    }
    std::memcpy(static_cast<void*>(&slots_[h]), bytes, sizeof(Packet));
    return h;
  }
  // A packet that lives on from another partition: a slot, no birth.
  PacketHandle adopt(const Packet& p) {
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
    count(-1);
    free_.push_back(h);
  }
  // A packet kept outside the pool (an endpoint's queued response) that counts as live:
  // hold() when it is made, allocateHeld() when it enters the pool; unpool() moves a
  // pooled packet out while it stays live.
  void hold() { count(1); }
  PacketHandle allocateHeld(const Packet& p) { return adopt(p); }
  void unpool(PacketHandle h) { free_.push_back(h); }
  Packet& operator[](PacketHandle h) { return slots_[h]; }
  const Packet& operator[](PacketHandle h) const { return slots_[h]; }
  // Starts loading packet `h` into the cache (a hint: nothing happens for a stale handle).
  void prefetch(PacketHandle h) const {
    if (h >= slots_.size()) return;
    __builtin_prefetch(&slots_[h]);  // one cache line (Packet is 64 B aligned)
  }
  std::int64_t live() const { return live_; }
  std::int64_t peak() const { return peak_; }  // untracked pools (tests): this pool's own

 private:
  void count(int delta) {
    live_ += delta;
    if (tracker_ != nullptr) tracker_->change(*partition_, delta);
    else if (live_ > peak_) peak_ = live_;
  }

  std::vector<Packet> slots_;
  std::vector<PacketHandle> free_;
  std::int64_t live_ = 0, peak_ = 0;
  PeakTracker* tracker_ = nullptr;
  const Partition* partition_ = nullptr;
};

}  // namespace fl::net
