#include "network/reduction_buffer.h"

#include <algorithm>

namespace fl::net {

ReductionEntry* ReductionBuffer::find(std::uint64_t key) {
  const std::uint32_t* n = index_.find(key);
  return n == nullptr ? nullptr : &entries_[*n];
}

void ReductionBuffer::unlink(std::uint32_t n) {
  const Link& link = links_[n];
  (link.prev == kNone ? oldest_ : links_[link.prev].next) = link.next;
  (link.next == kNone ? newest_ : links_[link.next].prev) = link.prev;
}

void ReductionBuffer::linkNewest(std::uint32_t n) {
  links_[n] = Link{newest_, kNone};
  (newest_ == kNone ? oldest_ : links_[newest_].next) = n;
  newest_ = n;
}

void ReductionBuffer::release(std::uint32_t n) {
  links_[n].next = free_;
  free_ = n;
}

ReductionEntry& ReductionBuffer::insert(const ReductionEntry& e,
                                        std::vector<ReductionEntry>& evicted) {
  while (oldest_ != kNone && used_ + e.bytes > capacity_) {
    const std::uint32_t victim = oldest_;
    const ReductionEntry& v = entries_[victim];
    evicted.push_back(v);
    used_ -= v.bytes;
    index_.erase(v.key);
    unlink(victim);
    release(victim);
    ++evictions_;
  }
  std::uint32_t n = free_;
  if (n != kNone) {
    free_ = links_[n].next;
  } else {
    n = static_cast<std::uint32_t>(entries_.size());
    entries_.emplace_back();
    links_.emplace_back();
  }
  entries_[n] = e;
  linkNewest(n);
  index_[e.key] = n;
  used_ += e.bytes;
  peakEntries_ = std::max(peakEntries_, entries());
  peakBytes_ = std::max(peakBytes_, used_);
  return entries_[n];
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
  used_ -= entries_[n].bytes;
  unlink(n);
  release(n);
  index_.erase(key);
}

std::vector<ReductionEntry> ReductionBuffer::contents() const {
  std::vector<ReductionEntry> out;
  for (std::uint32_t n = oldest_; n != kNone; n = links_[n].next) out.push_back(entries_[n]);
  return out;
}

}  // namespace fl::net
