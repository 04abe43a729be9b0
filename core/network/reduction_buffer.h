// The per-port reduction buffer of an NVSwitch: partial sums of in-flight reductions,
// keyed by (requester, key). Capacity is in bytes; when a new reduction needs room the
// least recently used partial result is evicted (the switch forwards it unreduced to
// its destination, which costs traffic and is counted).
//
// On the path of every reduction operand, so nothing allocates per entry: entries live
// in a pooled array (freed slots are reused), the LRU order is a doubly linked list of
// slot indices kept apart from the entries (so re-linking a touched entry's neighbours
// reads a small dense array, not two scattered entries), and the key index is a flat
// hash map.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/flat_map.h"
#include "engine/time.h"

namespace fl::net {

// One cache line, aligned: an operand's arrival reads its entry, mostly a cache miss.
struct alignas(64) ReductionEntry {
  std::uint64_t key = 0;
  std::int32_t requester = -1;    // node the result goes to
  std::int32_t group = -1;        // Red: result multicast group (-1: unicast to requester)
  std::uint32_t bytes = 0;        // size of the partial result
  std::uint16_t expected = 0;     // contributions still needed for this entry to complete
  std::uint16_t arrived = 0;      // contributions summed so far
  std::uint32_t piece = 0;
  std::uint64_t tag = 0;
  std::uint8_t phase = 0;         // traffic phase of the operands, kept by the result
  std::uint8_t arrivalShift = 0;  // entry log: unit of its offsets, 2^shift ps (so 32 bits fit)
  Time allocated = 0;
  bool push = false;              // multimem.red (push) rather than ld_reduce (pull)
  std::int16_t port = -1;         // port whose buffer holds it (the result leaves there)
  std::uint32_t logId = UINT32_MAX;  // the switch's number for its entry log (none: not logged)
};
static_assert(sizeof(ReductionEntry) == 64);

class ReductionBuffer {
 public:
  explicit ReductionBuffer(std::int64_t capacityBytes = 64 * 1024) : capacity_(capacityBytes) {}

  // Valid until the next insert().
  ReductionEntry* find(std::uint64_t key);
  // Makes room for `bytes` (evicting least recently used entries into `evicted`) and
  // inserts a new entry. An entry larger than the whole buffer is admitted alone.
  ReductionEntry& insert(const ReductionEntry& e, std::vector<ReductionEntry>& evicted);
  void touch(std::uint64_t key);  // marks as most recently used
  void prefetch(std::uint64_t key) const { index_.prefetch(key); }  // a cache hint for find()
  // A later hint, once the index slot is cached: the entry find() returns, if any.
  void prefetchEntry(std::uint64_t key) const {
    if (const std::uint32_t* n = index_.find(key)) __builtin_prefetch(&entries_[*n]);
  }
  void erase(std::uint64_t key);

  std::int64_t capacity() const { return capacity_; }
  std::int64_t usedBytes() const { return used_; }
  std::int64_t entries() const { return static_cast<std::int64_t>(index_.size()); }
  std::int64_t peakEntries() const { return peakEntries_; }
  std::int64_t peakBytes() const { return peakBytes_; }
  std::int64_t evictions() const { return evictions_; }
  // In LRU order, oldest first (for inspectors).
  std::vector<ReductionEntry> contents() const;

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  struct Link {
    std::uint32_t prev = kNone, next = kNone;  // LRU neighbours; next links the free list
  };
  void unlink(std::uint32_t n);
  void linkNewest(std::uint32_t n);
  void release(std::uint32_t n);  // unlinked node back to the free list

  std::int64_t capacity_;
  std::int64_t used_ = 0;
  std::int64_t peakEntries_ = 0, peakBytes_ = 0, evictions_ = 0;
  std::vector<ReductionEntry> entries_;  // by slot
  std::vector<Link> links_;              // by slot
  std::uint32_t oldest_ = kNone, newest_ = kNone, free_ = kNone;
  FlatMap<std::uint32_t> index_;  // key -> slot
};

}  // namespace fl::net
