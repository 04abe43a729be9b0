#include "network/reduction_buffer.h"

#include <algorithm>

namespace fl::net {

ReductionEntry* ReductionBuffer::find(std::uint64_t key) {
  auto it = index_.find(key);
  return it == index_.end() ? nullptr : &*it->second;
}

ReductionEntry& ReductionBuffer::insert(const ReductionEntry& e,
                                        std::vector<ReductionEntry>& evicted) {
  while (!lru_.empty() && used_ + e.bytes > capacity_) {
    ReductionEntry& victim = lru_.front();
    evicted.push_back(victim);
    used_ -= victim.bytes;
    index_.erase(victim.key);
    lru_.pop_front();
    ++evictions_;
  }
  lru_.push_back(e);
  auto it = std::prev(lru_.end());
  index_[e.key] = it;
  used_ += e.bytes;
  peakEntries_ = std::max(peakEntries_, entries());
  peakBytes_ = std::max(peakBytes_, used_);
  return *it;
}

void ReductionBuffer::touch(std::uint64_t key) {
  auto it = index_.find(key);
  if (it != index_.end()) lru_.splice(lru_.end(), lru_, it->second);
}

void ReductionBuffer::erase(std::uint64_t key) {
  auto it = index_.find(key);
  if (it == index_.end()) return;
  used_ -= it->second->bytes;
  lru_.erase(it->second);
  index_.erase(it);
}

}  // namespace fl::net
