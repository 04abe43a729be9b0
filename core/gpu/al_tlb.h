// DySHARP's destination-hub memory manager (seed 000 §III-D3): the AL Table maps an
// algebraic block (the token's index in the algebraic tensor, per expert) to a layout
// block allocated densely on first touch during Dispatch; Combine translates through the
// same mapping. The AL TLB caches table entries (LRU, `entries` entries; 512 in the seed,
// §V-A); a miss reads the AL Table in DRAM. Hits and misses are counted.
//
// Looked up for every delivered packet of a dysharp run, so nothing allocates per
// lookup: the TLB is a fixed array of `entries` slots in an intrusive LRU list indexed
// by a flat hash map; the AL Table is a dense array when the block numbering allows
// (the three-argument constructor), else a flat hash map too.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/flat_map.h"

namespace fl {

class AlTlb {
 public:
  explicit AlTlb(int entries = 512) : capacity_(entries) {}
  // Blocks numbered (source << 32) | index with source < sources and index < perSource:
  // the AL Table becomes a dense array (a DeepSeek-V3 layer's 131 k blocks per GPU as a
  // hash map are megabytes of cache misses, one per delivered packet).
  AlTlb(int entries, std::uint32_t sources, std::uint32_t perSource)
      : capacity_(entries), perSource_(sources > 0 ? perSource : 0), dense_(std::size_t(sources) * perSource, kNone) {}

  // Dispatch: the token's block arrives; allocate a layout block on first touch.
  // `accesses` NVLink packets of the same block arrive back to back (a coarse simulated
  // packet stands for several): the first may miss, the rest hit. Returns true when the
  // first access hits.
  bool dispatch(std::uint64_t algebraicBlock, int accesses = 1);
  // Combine: translate an algebraic block, as above.
  bool combine(std::uint64_t algebraicBlock, int accesses = 1);

  std::int64_t hits() const { return hits_; }
  std::int64_t misses() const { return misses_; }
  std::int64_t allocatedBlocks() const { return allocated_; }

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  struct Line {
    std::uint64_t block = 0;
    std::uint32_t prev = kNone, next = kNone;  // LRU neighbours (towards oldest / newest)
  };
  bool lookup(std::uint64_t block);
  void toNewest(std::uint32_t line);

  int capacity_;
  FlatMap<std::uint32_t> table_;   // AL Table: algebraic -> layout block (16-byte slots)
  std::uint32_t perSource_ = 0;    // the dense AL Table instead, when set
  std::vector<std::uint32_t> dense_;  // layout block by source x perSource_ + index; kNone: none yet
  std::int64_t allocated_ = 0;
  std::vector<Line> lines_;        // TLB contents, up to capacity_
  std::uint32_t oldest_ = kNone, newest_ = kNone;
  FlatMap<std::uint32_t> cached_;  // block -> line
  std::int64_t hits_ = 0, misses_ = 0;
};

}  // namespace fl
