// The requests waiting for one switch output port: one FIFO per input slot (input port,
// VC), kept only while non-empty, and the round-robin arbiter over the slots. Granting
// looks at each slot's oldest request only, so order per (input, VC, output) holds, and
// costs O(active slots) rather than O(waiting packets) on deep buffers.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "network/packet_pool.h"

namespace fl::net {

struct OutputRequest {
  PacketHandle handle = 0;
  std::int16_t inPort = 0;
  std::uint8_t vc = 0;
  std::int32_t replicaTo = -1;   // multicast replica destination node, -1 for the packet itself
  std::int32_t flits = 0;        // flits of what will be sent
  std::int32_t bufferedFlits = 0;// flits the packet holds in its input buffer
};

class VirtualOutputQueue {
 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  void push(std::uint32_t slot, const OutputRequest& r) {
    auto it = std::lower_bound(active_.begin(), active_.end(), slot,
                               [](const Slot& s, std::uint32_t id) { return s.id < id; });
    if (it == active_.end() || it->id != slot) {
      // Reuse an emptied slot's storage: slots come and go with every burst.
      std::vector<OutputRequest> fifo;
      if (!spare_.empty()) {
        fifo = std::move(spare_.back());
        spare_.pop_back();
      }
      it = active_.insert(it, Slot{slot, std::move(fifo), 0});
    }
    it->fifo.push_back(r);
    ++size_;
  }

  // Grants the head request of the first slot, in round-robin order from the slot after
  // the last grant, that `eligible(request)` accepts (e.g. has downstream credits).
  template <class Eligible>
  bool grant(Eligible eligible, OutputRequest& out) {
    if (size_ == 0) return false;
    const auto n = active_.size();
    const auto start = static_cast<std::size_t>(
        std::lower_bound(active_.begin(), active_.end(), rr_,
                         [](const Slot& s, std::uint32_t id) { return s.id < id; }) -
        active_.begin());
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t i = (start + k) % n;
      Slot& s = active_[i];
      if (!eligible(s.fifo[s.head])) continue;
      out = s.fifo[s.head++];
      --size_;
      rr_ = s.id + 1;
      if (s.head == s.fifo.size()) {
        s.fifo.clear();
        spare_.push_back(std::move(s.fifo));
        active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(i));
      }
      return true;
    }
    return false;
  }

 private:
  struct Slot {
    std::uint32_t id;
    std::vector<OutputRequest> fifo;
    std::size_t head;
  };
  std::vector<Slot> active_;  // sorted by slot id
  std::vector<std::vector<OutputRequest>> spare_;  // storage of emptied slots
  std::uint32_t rr_ = 0;
  std::size_t size_ = 0;
};

}  // namespace fl::net
