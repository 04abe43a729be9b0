#include "network/reduction_buffer.h"

#include <algorithm>

namespace fl::net {

ReductionEntry* ReductionBuffer::find(std::uint64_t key) {
  const std::uint32_t* n = index_.find(key);
  return n == nullptr ? nullptr : &nodes_[*n].entry;
}

void ReductionBuffer::unlink(std::uint32_t n) {
  Node& node = nodes_[n];
  (node.prev == kNone ? oldest_ : nodes_[node.prev].next) = node.next;
  (node.next == kNone ? newest_ : nodes_[node.next].prev) = node.prev;
}

void ReductionBuffer::linkNewest(std::uint32_t n) {
  Node& node = nodes_[n];
  node.prev = newest_;
  node.next = kNone;
  (newest_ == kNone ? oldest_ : nodes_[newest_].next) = n;
  newest_ = n;
}

void ReductionBuffer::release(std::uint32_t n) {
  nodes_[n].next = free_;
  free_ = n;
}

ReductionEntry& ReductionBuffer::insert(const ReductionEntry& e,
                                        std::vector<ReductionEntry>& evicted) {
  while (oldest_ != kNone && used_ + e.bytes > capacity_) {
    const std::uint32_t victim = oldest_;
    const ReductionEntry& v = nodes_[victim].entry;
    evicted.push_back(v);
    used_ -= v.bytes;
    index_.erase(v.key);
    unlink(victim);
    release(victim);
    ++evictions_;
  }
  std::uint32_t n = free_;
  if (n != kNone) {
    free_ = nodes_[n].next;
  } else {
    n = static_cast<std::uint32_t>(nodes_.size());
    nodes_.emplace_back();
  }
  nodes_[n].entry = e;
  linkNewest(n);
  index_[e.key] = n;
  used_ += e.bytes;
  peakEntries_ = std::max(peakEntries_, entries());
  peakBytes_ = std::max(peakBytes_, used_);
  return nodes_[n].entry;
}

void ReductionBuffer::touch(std::uint64_t key) {
  const std::uint32_t* n = index_.find(key);
  if (n == nullptr || *n == newest_) return;
  unlink(*n);
  linkNewest(*n);
}

void ReductionBuffer::erase(std::uint64_t key) {
  const std::uint32_t* found = index_.find(key);
  if (found == nullptr) return;
  const std::uint32_t n = *found;
  used_ -= nodes_[n].entry.bytes;
  unlink(n);
  release(n);
  index_.erase(key);
}

std::vector<ReductionEntry> ReductionBuffer::contents() const {
  std::vector<ReductionEntry> out;
  for (std::uint32_t n = oldest_; n != kNone; n = nodes_[n].next) out.push_back(nodes_[n].entry);
  return out;
}

}  // namespace fl::net
