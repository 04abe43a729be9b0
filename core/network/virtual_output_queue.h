// The requests waiting for one switch output port: one FIFO per input slot (input port,
// VC) and the arbiter over the slots: strict priority by VC level (NetworkConfig::
// vcPriority), round-robin within a level. Granting looks at each slot's oldest request
// only, so order per (input, VC, output) holds.
//
// Hot path of every switch hop, so nothing moves or allocates per request: the FIFOs
// are linked lists through a node pool that only grows to the output's peak backlog
// (requests and links in separate arrays), a slot's list is found by its id (a table
// sized on first use), and a bitmask of the non-empty slots lets the arbiter skip empty
// ones a word at a time. A slot's entry also holds the flit count of its head request
// (each node that of its successor), so that checking a head for credits reads the slot
// table only, not a node scattered in the pool: a port waiting for credits checks every
// head and grants none.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <stdexcept>
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
  // `slotCount` (not `slots`: a Qt macro): how many slot ids there are (input ports x
  // VCs); ids are below it. A slot's requests all have the VC `slot % vcs`.
  // `priority`: each VC's level, kLowest..kHighest (read, not copied: it may be set after
  // construction, up to the first push); null: all equal.
  static constexpr int kLowest = -1, kHighest = 1;
  explicit VirtualOutputQueue(std::uint32_t slotCount = 0, std::uint32_t vcs = 1,
                              const std::int8_t* priority = nullptr)
      : slots_(slotCount), vcs_(vcs), vcMask_(std::has_single_bit(vcs) ? vcs - 1 : kNone),
        priority_(priority != nullptr ? priority : kEqual.data()) {
    if (priority == nullptr && vcs > kEqual.size()) throw std::length_error("output queue: more VCs than levels");
  }

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  void push(std::uint32_t slot, const OutputRequest& r) {
    if (fifos_.empty()) {  // first use: most outputs of a large fabric never queue
      fifos_.assign(slots_, Fifo{});
      active_.assign((slots_ + 63) / 64, 0);
      levels_ = std::any_of(priority_, priority_ + vcs_, [&](std::int8_t l) { return l != priority_[0]; });
    }
    std::uint32_t n;
    if (free_ != kNone) {
      n = free_;
      free_ = links_[n].next;
    } else {
      n = static_cast<std::uint32_t>(requests_.size());
      requests_.emplace_back();
      links_.emplace_back();
    }
    requests_[n] = r;
    links_[n] = Link{kNone, 0};
    Fifo& f = fifos_[slot];
    if (f.head == kNone) {
      f.head = n;
      f.headFlits = r.flits;
      if (levels_) ++activeAt_[static_cast<std::size_t>(levelOf(vcOf(slot)) - kLowest)];
      active_[slot >> 6] |= std::uint64_t{1} << (slot & 63);
      if (slot >> 6 < 64) activeWords_ |= std::uint64_t{1} << (slot >> 6);
    } else {
      links_[f.tail] = Link{n, r.flits};
    }
    f.tail = n;
    ++size_;
  }

  // Cache hints: the request grant() will most likely look at first (the head of the
  // first non-empty slot from the round-robin position), and the FIFO a push to `slot`
  // appends to.
  void prefetchHead() const {
    if (size_ == 0) return;
    const std::uint32_t w = rr_ >> 6;
    const std::uint64_t bits = active_[w] & (~std::uint64_t{0} << (rr_ & 63));
    if (bits == 0) return;  // further on: not worth a scan for a hint
    const std::uint32_t head = fifos_[(w << 6) | static_cast<std::uint32_t>(std::countr_zero(bits))].head;
    __builtin_prefetch(&requests_[head]);
    __builtin_prefetch(&links_[head]);
  }
  // Earlier hints, one step before those: the slot-table entries they read.
  void prefetchHeadSlot() const {
    if (size_ == 0) return;
    const std::uint32_t w = rr_ >> 6;
    const std::uint64_t bits = active_[w] & (~std::uint64_t{0} << (rr_ & 63));
    if (bits != 0) __builtin_prefetch(&fifos_[(w << 6) | static_cast<std::uint32_t>(std::countr_zero(bits))]);
  }
  void prefetchSlot(std::uint32_t slot) const {
    if (!fifos_.empty()) __builtin_prefetch(&fifos_[slot]);
  }
  void prefetchTail(std::uint32_t slot) const {
    if (fifos_.empty()) return;
    const Fifo& f = fifos_[slot];
    __builtin_prefetch(&f);
    if (f.tail != kNone) __builtin_prefetch(&links_[f.tail]);
  }

  // Grants the head request that `eligible(vc, flits)` accepts (e.g. has downstream
  // credits) of the highest VC level, and within it of the first non-empty slot in
  // round-robin order from the slot after the last grant. One scan, which stops at the
  // first eligible head of the highest level any non-empty slot has.
  template <class Eligible>
  bool grant(Eligible eligible, OutputRequest& out) {
    if (size_ == 0) return false;
    return levels_ ? grantIn<true>(eligible, out) : grantIn<false>(eligible, out);
  }

 private:
  // grant(), with `Levels` false when every VC has the same level (the first eligible
  // head wins: the usual case, kept free of the levels' bookkeeping).
  template <bool Levels, class Eligible>
  bool grantIn(Eligible& eligible, OutputRequest& out) {
    Candidate c{Levels ? topLevel() : 0};
    const auto words = static_cast<std::uint32_t>(active_.size());
    // Slots rr_.. to the end, then 0..rr_-1: the words from rr_'s on, wrapping round to
    // rr_'s word again for its bits below rr_.
    const std::uint32_t w0 = rr_ >> 6;
    const std::uint64_t below = ~(~std::uint64_t{0} << (rr_ & 63));  // bits of w0 below rr_
    if (scan<Levels>(w0, active_[w0] & ~below, eligible, c)) return take(c.slot, out);
    if (words <= 64) {
      // The other words with requests, from the bitmask of them: w0's successors, then
      // its predecessors (empty words cost nothing).
      const std::uint64_t others = activeWords_ & ~(std::uint64_t{1} << w0);
      const std::uint64_t after = w0 == 63 ? 0 : others & (~std::uint64_t{0} << (w0 + 1));
      for (std::uint64_t ws : {after, others & ~after})
        for (; ws != 0; ws &= ws - 1) {
          const auto w = static_cast<std::uint32_t>(std::countr_zero(ws));
          if (scan<Levels>(w, active_[w], eligible, c)) return take(c.slot, out);
        }
    } else {
      for (std::uint32_t k = 1, w = w0 + 1 < words ? w0 + 1 : 0; k < words; ++k, w = w + 1 < words ? w + 1 : 0)
        if (scan<Levels>(w, active_[w], eligible, c)) return take(c.slot, out);
    }
    if (scan<Levels>(w0, active_[w0] & below, eligible, c) || c.slot != kNone) return take(c.slot, out);
    return false;
  }
  static constexpr std::uint32_t kNone = UINT32_MAX;
  static constexpr std::array<std::int8_t, 256> kEqual{};  // every VC at level 0
  // The best eligible head seen by a scan: the first in round-robin order of the highest
  // level so far.
  struct Candidate {
    int top;                      // the highest level of a non-empty slot: final if found
    int level = kLowest - 1;
    std::uint32_t slot = kNone;
  };
  // grant() within word `w`: the slots of `bits` (ascending) that `eligible` accepts
  // improve `c`; true once one of the top level is found.
  template <bool Levels, class Eligible>
  bool scan(std::uint32_t w, std::uint64_t bits, Eligible& eligible, Candidate& c) const {
    for (; bits != 0; bits &= bits - 1) {
      const std::uint32_t slot = (w << 6) | static_cast<std::uint32_t>(std::countr_zero(bits));
      const std::uint32_t vc = vcOf(slot);
      if (!eligible(vc, fifos_[slot].headFlits)) continue;
      if constexpr (!Levels) {
        c.slot = slot;
        return true;
      }
      const int level = levelOf(vc);
      if (level > c.level) {
        c.level = level;
        c.slot = slot;
        if (level == c.top) return true;
      }
    }
    return false;
  }
  // Pops the head of `slot`, which is not empty; it is where the next scan starts after.
  bool take(std::uint32_t slot, OutputRequest& out) {
    Fifo& f = fifos_[slot];
    const std::uint32_t n = f.head;
    out = requests_[n];
    f.head = links_[n].next;
    f.headFlits = links_[n].nextFlits;
    if (f.head == kNone) {
      const std::uint32_t w = slot >> 6;
      if (levels_) --activeAt_[static_cast<std::size_t>(levelOf(vcOf(slot)) - kLowest)];
      active_[w] &= ~(std::uint64_t{1} << (slot & 63));
      if (active_[w] == 0 && w < 64) activeWords_ &= ~(std::uint64_t{1} << w);
    }
    links_[n].next = free_;
    free_ = n;
    --size_;
    rr_ = slot + 1 < slots_ ? slot + 1 : 0;
    return true;
  }
  int topLevel() const {
    static_assert(kLowest == -1 && kHighest == 1);
    return activeAt_[2] != 0 ? 1 : activeAt_[1] != 0 ? 0 : -1;
  }
  int levelOf(std::uint32_t vc) const { return priority_[vc]; }
  // A node is a request and its link, in two arrays: appending to a FIFO writes its tail's
  // link, which a dense array of links more often has cached than one of whole nodes.
  struct Link {
    std::uint32_t next = kNone;  // next in its slot's FIFO, or in the free list
    std::int32_t nextFlits = 0;  // flits of the next request in its slot's FIFO
  };
  struct Fifo {
    std::uint32_t head = kNone, tail = kNone;
    std::int32_t headFlits = 0;  // flits of the head request
  };
  // A slot's VC: a mask for the usual power-of-two VC count (a division per head
  // checked otherwise).
  std::uint32_t vcOf(std::uint32_t slot) const { return vcMask_ != kNone ? slot & vcMask_ : slot % vcs_; }
  std::uint32_t slots_;
  std::uint32_t vcs_;
  std::uint32_t vcMask_;  // vcs_ - 1 when vcs_ is a power of two, else kNone
  std::array<std::uint32_t, kHighest - kLowest + 1> activeAt_{};  // non-empty slots by level - kLowest
  const std::int8_t* priority_;  // by VC
  std::vector<Fifo> fifos_;            // by slot id
  std::vector<std::uint64_t> active_;  // one bit per slot: its FIFO is non-empty
  std::uint64_t activeWords_ = 0;      // one bit per word of active_ (the first 64): non-zero
  std::vector<OutputRequest> requests_;  // by node
  std::vector<Link> links_;              // by node
  std::uint32_t free_ = kNone;
  std::uint32_t rr_ = 0;  // slot after the last grant (wrapped), where the next scan starts
  std::uint32_t size_ = 0;
  bool levels_ = false;  // some VCs' levels differ (from the first push on)
};

}  // namespace fl::net
