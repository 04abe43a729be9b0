#include "network/merge_unit.h"

#include <algorithm>

namespace fl::net {

MergeUnit::Entry* MergeUnit::find(std::uint64_t key) {
  const std::uint32_t* n = index_.find(key);
  return n == nullptr ? nullptr : &entries_[*n];
}

void MergeUnit::unlink(std::uint32_t n) {
  Entry& e = entries_[n];
  if (!e.inLru) return;
  const Link& l = links_[n];
  (l.prev == kNone ? oldest_ : links_[l.prev].next) = l.next;
  (l.next == kNone ? newest_ : links_[l.next].prev) = l.prev;
  e.inLru = false;
}

void MergeUnit::linkNewest(std::uint32_t n) {
  links_[n] = Link{newest_, kNone};
  (newest_ == kNone ? oldest_ : links_[newest_].next) = n;
  newest_ = n;
  entries_[n].inLru = true;
}

void MergeUnit::touch(std::uint32_t n, Time now) {
  Entry& e = entries_[n];
  e.lastAccess = now;
  if (!e.inLru || n == newest_) return;  // an evict-on-fill entry is no longer a candidate
  unlink(n);
  linkNewest(n);
}

void MergeUnit::noteOccupancy(Time now) {
  stats_.peakEntries = std::max(stats_.peakEntries, entries());
  if (bin_ <= 0) return;
  const auto b = static_cast<std::int32_t>(now / bin_);
  if (b != currentBin_) {  // the previous bin's peak is already in the series
    currentBin_ = b;
    binPeak_ = 0;
  }
  binPeak_ = std::max(binPeak_, entries());
  // Kept current in place, so the series is complete whenever it is read.
  if (!occupancy_.bins.empty() && occupancy_.bins.back() == b) occupancy_.bytes.back() = binPeak_;
  else if (binPeak_ > 0) occupancy_.add(b, binPeak_);
}

// The arrival skew of a (block, type) set: latest minus earliest arrival, whatever became
// of the merge, filed once all `expected` requests have been seen.
void MergeUnit::noteArrival(std::uint64_t key, std::uint16_t expected, std::uint16_t n, Time now) {
  bool inserted = false;
  Arrivals& a = arrivals_.findOrInsert(key, Arrivals{now, 0}, inserted);
  if (inserted) ++stats_.sessions;
  a.seen = static_cast<std::uint16_t>(a.seen + n);
  if (a.seen < expected) return;
  stats_.skewSumPs += static_cast<double>(now - a.first);
  ++stats_.skewCount;
  ++skewHistogram_[static_cast<std::size_t>(skewHistogramBin(now - a.first))];
  arrivals_.erase(key);
}

// The inspector's record of who joined an entry and when, chained until the entry ends.
void MergeUnit::noteEntryArrival(std::uint32_t n, std::int32_t gpu, Time now) {
  if (bin_ <= 0 || room().entries >= kEntryLogLimit) return;
  std::uint32_t a = freeArrival_;
  if (a != kNone) freeArrival_ = arrivalNodes_[a].next;
  else {
    a = static_cast<std::uint32_t>(arrivalNodes_.size());
    arrivalNodes_.emplace_back();
  }
  arrivalNodes_[a] = ArrivalNode{now, gpu, kNone};
  Entry& e = entries_[n];
  (e.arrivalTail == kNone ? e.arrivalHead : arrivalNodes_[e.arrivalTail].next) = a;
  e.arrivalTail = a;
}

void MergeUnit::noteBypass(std::uint32_t block, bool load, std::int32_t gpu, Time now) {
  ++stats_.bypasses;
  if (bin_ > 0 && room().bypasses < kEntryLogLimit) {
    bypassLog_.push_back({now, port_, block, gpu, load});
    ++room().bypasses;
  }
}

void MergeUnit::free(std::uint32_t n, Time now, MergeEndReason why) {
  Entry& e = entries_[n];
  const auto firstArrival = static_cast<std::uint32_t>(logArrivals_.size());
  const bool logged = bin_ > 0 && room().entries < kEntryLogLimit;
  for (std::uint32_t a = e.arrivalHead; a != kNone;) {  // to the log (if it has room), nodes recycled
    ArrivalNode& node = arrivalNodes_[a];
    if (logged)
      logArrivals_.push_back({static_cast<std::uint32_t>(std::min<Time>((node.time - e.allocated) / 1000, UINT32_MAX)),
                              node.gpu});
    const std::uint32_t next = node.next;
    node.next = freeArrival_;
    freeArrival_ = a;
    a = next;
  }
  e.arrivalHead = e.arrivalTail = kNone;
  unlink(n);
  index_.erase(e.key);
  links_[n].next = free_;
  free_ = n;
  if (bin_ > 0) {
    if (logged) {
      MergeEntryRecord r;
      r.port = port_;
      r.block = e.block;
      r.load = e.state != MergeState::Reduction;
      r.start = e.allocated;
      r.end = now;
      r.arrived = e.count;
      r.expected = e.expected;
      r.reason = why;
      r.waiting = e.state == MergeState::LoadWait;
      r.ready = e.ready;
      r.arrivals = firstArrival;
      log_.push_back(r);
      ++room().entries;
    } else {
      logTruncated_ = true;
    }
  }
  noteOccupancy(now);
}

bool MergeUnit::evict(std::uint32_t n, Time now, std::vector<MergeFlush>& flushes, MergeEndReason why) {
  Entry& e = entries_[n];
  switch (e.state) {
    case MergeState::LoadWait:  // cannot go: it owes its requesters the data
      e.evictOnFill = true;
      unlink(n);
      return false;
    case MergeState::Reduction:
      flushes.push_back({e.block, e.bytes, e.contributions, e.tag, e.phase});
      ++stats_.partialFlushes;
      break;
    case MergeState::LoadReady:  // only a copy: later requesters re-fetch
      break;
  }
  free(n, now, why);
  return true;
}

std::uint32_t MergeUnit::allocate(std::uint64_t key, Time now, std::vector<MergeFlush>& flushes) {
  if (full()) {
    if (oldest_ == kNone) return kNone;  // every entry waits for its fill
    const std::uint32_t victim = oldest_;
    ++stats_.evictions;
    if (!evict(victim, now, flushes, MergeEndReason::Evicted)) return kNone;
  }
  std::uint32_t n = free_;
  if (n != kNone) {
    free_ = links_[n].next;
  } else {
    n = static_cast<std::uint32_t>(entries_.size());
    entries_.emplace_back();
    links_.emplace_back();
  }
  Entry& e = entries_[n];
  e = Entry{};
  e.key = key;
  e.allocated = e.lastAccess = now;
  linkNewest(n);
  index_[key] = n;
  ++stats_.allocations;
  noteOccupancy(now);
  return n;
}

std::uint32_t MergeUnit::openEntry(std::uint64_t key, MergeState state, std::uint32_t block, std::uint32_t bytes,
                                   std::uint16_t expected, std::uint64_t tag, std::uint8_t phase, std::int32_t gpu,
                                   Time now, std::vector<MergeFlush>& flushes) {
  const std::uint32_t n = allocate(key, now, flushes);
  if (n == kNone) {
    noteBypass(block, state != MergeState::Reduction, gpu, now);
    return kNone;
  }
  Entry& e = entries_[n];
  e.block = block;
  e.bytes = bytes;
  e.tag = tag;
  e.phase = phase;
  e.state = state;
  e.expected = expected;
  return n;
}

LoadOutcome MergeUnit::load(std::uint32_t block, std::int32_t requester, std::uint16_t expected, std::uint32_t bytes,
                            std::uint64_t tag, std::uint8_t phase, Time now, std::vector<MergeFlush>& flushes) {
  ++stats_.loads;
  const std::uint64_t key = keyOf(block, true);
  noteArrival(key, expected, 1, now);
  const bool last = !arrivals_.contains(key);  // the set's last request: nothing more will hit
  if (!params_.merging) {
    noteBypass(block, true, requester, now);
    return LoadOutcome::Bypass;
  }
  if (const std::uint32_t* slot = index_.find(key)) {
    const std::uint32_t n = *slot;
    Entry& e = entries_[n];
    if (e.state == MergeState::LoadWait && e.deferred >= std::min(params_.records, kMaxRecords)) {
      noteBypass(block, true, requester, now);  // the content array is full
      return LoadOutcome::Bypass;
    }
    ++stats_.hits;
    ++e.count;
    noteEntryArrival(n, requester, now);
    e.allArrived = e.allArrived || last;
    touch(n, now);
    if (e.state == MergeState::LoadWait) {
      e.requesters[e.deferred++] = requester;
      return LoadOutcome::Deferred;
    }
    if (e.count >= e.expected || e.allArrived) {
      ++stats_.completions;
      free(n, now, MergeEndReason::Completed);
    }
    return LoadOutcome::Hit;
  }
  const std::uint32_t n = openEntry(key, MergeState::LoadWait, block, bytes, expected, tag, phase, requester, now, flushes);
  if (n == kNone) return LoadOutcome::Bypass;
  Entry& e = entries_[n];
  e.count = 1;
  noteEntryArrival(n, requester, now);
  e.allArrived = last;
  e.requesters[e.deferred++] = requester;
  ++stats_.fetches;
  return LoadOutcome::Fetch;
}

bool MergeUnit::fill(std::uint32_t block, Time now, std::vector<std::int32_t>& out) {
  const std::uint64_t key = keyOf(block, true);
  const std::uint32_t* slot = index_.find(key);
  if (slot == nullptr) return false;
  const std::uint32_t n = *slot;
  Entry& e = entries_[n];
  if (e.state != MergeState::LoadWait) return false;
  out.insert(out.end(), e.requesters.begin(), e.requesters.begin() + e.deferred);
  e.deferred = 0;
  e.ready = now;
  if (e.count >= e.expected || e.allArrived) {  // the last request arrived while it waited
    ++stats_.completions;
    free(n, now, MergeEndReason::Completed);
  } else if (e.evictOnFill) {
    free(n, now, MergeEndReason::EvictedOnFill);
  } else {
    e.state = MergeState::LoadReady;
    touch(n, now);
  }
  return true;
}

ReduceOutcome MergeUnit::reduce(std::uint32_t block, std::uint16_t contributions, std::uint16_t expected,
                                std::uint32_t bytes, std::uint64_t tag, std::uint8_t phase, Time now,
                                std::vector<MergeFlush>& flushes, MergeFlush& complete, std::int32_t source) {
  ++stats_.reductions;
  const std::uint64_t key = keyOf(block, false);
  noteArrival(key, expected, contributions, now);
  if (!params_.merging) {
    noteBypass(block, false, source, now);
    return ReduceOutcome::Bypass;
  }
  std::uint32_t n = kNone;
  if (const std::uint32_t* slot = index_.find(key)) {
    n = *slot;
    ++stats_.hits;
    touch(n, now);
  } else {
    n = openEntry(key, MergeState::Reduction, block, bytes, expected, tag, phase, source, now, flushes);
    if (n == kNone) return ReduceOutcome::Bypass;
  }
  Entry& e = entries_[n];
  e.count = static_cast<std::uint16_t>(e.count + 1);
  noteEntryArrival(n, source, now);
  e.contributions = static_cast<std::uint16_t>(e.contributions + contributions);
  // A flushed partial lowers what the rest of the set can bring: complete on Expected
  // operands summed here or on the set's last arrival, whichever the entry sees.
  if (e.contributions < e.expected) {
    const Arrivals* a = arrivals_.find(key);
    if (a != nullptr) return ReduceOutcome::Absorbed;
  }
  complete = {e.block, e.bytes, e.contributions, e.tag, e.phase};
  ++stats_.completions;
  free(n, now, MergeEndReason::Completed);
  return ReduceOutcome::Complete;
}

Time MergeUnit::nextDeadline() const {
  if (params_.timeout <= 0 || oldest_ == kNone) return -1;
  return entries_[oldest_].lastAccess + params_.timeout;
}

Time MergeUnit::expire(Time now, std::vector<MergeFlush>& flushes) {
  if (params_.timeout <= 0) return -1;
  while (oldest_ != kNone && entries_[oldest_].lastAccess + params_.timeout <= now) {
    ++stats_.timeouts;
    evict(oldest_, now, flushes, MergeEndReason::TimedOut);
  }
  return nextDeadline();
}

}  // namespace fl::net
