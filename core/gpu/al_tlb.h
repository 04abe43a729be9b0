// DySHARP's destination-hub memory manager (seed 000 §III-D3): the AL Table maps an
// algebraic block (the token's index in the algebraic tensor, per expert) to a layout
// block allocated densely on first touch during Dispatch; Combine translates through the
// same mapping. The AL TLB caches table entries (LRU, `entries` entries; 512 in the seed,
// §V-A); a miss reads the AL Table in DRAM. Hits and misses are counted.
#pragma once
#include <cstdint>
#include <list>
#include <unordered_map>

namespace fl {

class AlTlb {
 public:
  explicit AlTlb(int entries = 512) : capacity_(entries) {}

  // Dispatch: the token's block arrives; allocate a layout block on first touch.
  // `accesses` NVLink packets of the same block arrive back to back (a coarse simulated
  // packet stands for several): the first may miss, the rest hit. Returns true when the
  // first access hits.
  bool dispatch(std::uint64_t algebraicBlock, int accesses = 1);
  // Combine: translate an algebraic block, as above.
  bool combine(std::uint64_t algebraicBlock, int accesses = 1);

  std::int64_t hits() const { return hits_; }
  std::int64_t misses() const { return misses_; }
  std::int64_t allocatedBlocks() const { return static_cast<std::int64_t>(table_.size()); }

 private:
  bool lookup(std::uint64_t block);

  int capacity_;
  std::unordered_map<std::uint64_t, std::int64_t> table_;  // AL Table: algebraic -> layout block
  std::list<std::uint64_t> lru_;                           // TLB contents, front = oldest
  std::unordered_map<std::uint64_t, std::list<std::uint64_t>::iterator> cached_;
  std::int64_t hits_ = 0, misses_ = 0;
};

}  // namespace fl
