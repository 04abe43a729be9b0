#include "gpu/al_tlb.h"

namespace fl {

bool AlTlb::lookup(std::uint64_t block) {
  if (auto it = cached_.find(block); it != cached_.end()) {
    lru_.splice(lru_.end(), lru_, it->second);
    ++hits_;
    return true;
  }
  ++misses_;
  if (capacity_ > 0) {
    if (static_cast<int>(lru_.size()) >= capacity_) {
      cached_.erase(lru_.front());
      lru_.pop_front();
    }
    lru_.push_back(block);
    cached_[block] = std::prev(lru_.end());
  }
  return false;
}

bool AlTlb::dispatch(std::uint64_t block, int accesses) {
  // First touch allocates the next layout block (dense, in arrival order).
  if (table_.find(block) == table_.end()) table_.emplace(block, static_cast<std::int64_t>(table_.size()));
  return combine(block, accesses);
}

bool AlTlb::combine(std::uint64_t block, int accesses) {
  const bool hit = lookup(block);
  if (accesses > 1) hits_ += accesses - 1;  // the entry was just brought in
  return hit;
}

}  // namespace fl
