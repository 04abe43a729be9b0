#include "gpu/al_tlb.h"

#include <stdexcept>

namespace fl {

// Moves a line (linked or not yet) to the most recently used end.
void AlTlb::toNewest(std::uint32_t n) {
  Line& l = lines_[n];
  if (n == newest_) return;
  if (l.prev != kNone || oldest_ == n) {  // linked: unlink it
    (l.prev == kNone ? oldest_ : lines_[l.prev].next) = l.next;
    lines_[l.next].prev = l.prev;  // not the newest, so it has a successor
  }
  l.prev = newest_;
  l.next = kNone;
  (newest_ == kNone ? oldest_ : lines_[newest_].next) = n;
  newest_ = n;
}

bool AlTlb::lookup(std::uint64_t block) {
  if (const std::uint32_t* n = cached_.find(block)) {
    toNewest(*n);
    ++hits_;
    return true;
  }
  ++misses_;
  if (capacity_ > 0) {
    std::uint32_t n;
    if (static_cast<int>(lines_.size()) < capacity_) {
      n = static_cast<std::uint32_t>(lines_.size());
      lines_.push_back(Line{});
    } else {  // full: the least recently used line takes the new block
      n = oldest_;
      cached_.erase(lines_[n].block);
    }
    lines_[n].block = block;
    toNewest(n);
    cached_[block] = n;
  }
  return false;
}

bool AlTlb::dispatch(std::uint64_t block, int accesses) {
  // First touch allocates the next layout block (dense, in arrival order).
  if (perSource_ > 0) {
    const std::uint64_t at = (block >> 32) * perSource_ + (block & 0xffffffffu);
    if ((block & 0xffffffffu) >= perSource_ || at >= dense_.size())
      throw std::logic_error("AL TLB: block outside the dense table's sources x blocks");
    std::uint32_t& layout = dense_[at];
    if (layout == kNone) layout = static_cast<std::uint32_t>(allocated_++);
  } else {
    bool inserted = false;
    table_.findOrInsert(block, static_cast<std::uint32_t>(allocated_), inserted);
    if (inserted) ++allocated_;
  }
  return combine(block, accesses);
}

bool AlTlb::combine(std::uint64_t block, int accesses) {
  const bool hit = lookup(block);
  if (accesses > 1) hits_ += accesses - 1;  // the entry was just brought in
  return hit;
}

}  // namespace fl
