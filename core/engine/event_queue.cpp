#include "engine/event_queue.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace fl {

namespace {
// Buckets over the horizon (the link latency plus a packet's serialisation): 1 ns wide
// on NVLink, about a hundred events each in a busy MoE layer. Fewer, fuller buckets sort
// a little more per event but append to and read back from fewer, longer runs of
// memory: 4096 buckets (64 ps) made bench_moe 'dysharp, 256' 5-10 % slower (two
// simultaneous pairs, 75.3/67.7 and 70.1/66.5 s) and a 512-token run 9 % (six pairs);
// 64 and 128 were slower than 256, 512 no better.
constexpr std::size_t kBuckets = 256;
// How many of the current bucket's events an event pushed into it may land behind and
// still be inserted (each moved one place); past that it goes to the late heap.
constexpr std::size_t kMaxInsertMoves = 16;
constexpr std::size_t kKeepCapacity = 256;  // events a ring slot may keep allocated (8 KiB):
                                            // bursts of same-time events are common
// Function objects rather than function pointers, so that the sort and heap algorithms
// inline the comparison (a pointer call per comparison cost ~10 % of a run).
// std heaps are max-heaps: invert the order.
constexpr auto later = [](const Event& a, const Event& b) { return before(b, a); };
constexpr auto earlier = [](const Event& a, const Event& b) { return before(a, b); };
}  // namespace

void EventQueue::configure(Time horizon) {
  if (size_ != 0) throw std::logic_error("EventQueue::configure on a non-empty queue");
  const auto perBucket = static_cast<std::uint64_t>(std::max<Time>(1, horizon) / static_cast<Time>(kBuckets) + 1);
  shift_ = std::bit_width(perBucket - 1);  // smallest power of two >= perBucket
  ring_.assign(kBuckets, {});
  occupied_.assign(kBuckets / 64, 0);
  mask_ = kBuckets - 1;
  base_ = 0;
  cursor_ = 0;
  sorted_.clear();
  next_ = 0;
}

void EventQueue::heapPush(std::vector<Event>& h, const Event& e) {
  h.push_back(e);
  std::push_heap(h.begin(), h.end(), later);
}

Event EventQueue::heapPop(std::vector<Event>& h) {
  std::pop_heap(h.begin(), h.end(), later);
  Event e = h.back();
  h.pop_back();
  return e;
}

// Half the events of a wafer run land in the bucket being handled (a hop's serialisation,
// 19-76 ps, in 128-512 ps buckets), mostly within a few events of its front: they go
// into the sorted bucket itself, the events before them moving one place into the room
// the handled ones left, so that the pops need not compare with a heap (a heap push and
// pop cost ~150 instructions per such event). Pops come in the same order either way:
// the first of all pending events.
[[gnu::always_inline]] inline void EventQueue::pushLate(const Event& e) {
  if (next_ > 0) {
    const std::size_t n = sorted_.size();
    const std::size_t last = std::min(n, next_ + kMaxInsertMoves);
    Event* d = sorted_.data();
    std::size_t at = next_;
    // Times first: they seldom tie (a 128-bit comparison costs more).
    while (at < last && (d[at].time < e.time || (d[at].time == e.time && d[at].order < e.order))) ++at;
    if (at < last || at == n) {  // its place is found: before d[at] (or at the end)
      // A few moves: a loop, not a memmove call (the empty asm keeps the compiler from
      // turning the loop into one).
      for (std::size_t i = next_; i < at; ++i) {
        d[i - 1] = d[i];
        asm volatile("" ::: "memory");
      }
      d[at - 1] = e;
      --next_;
      return;
    }
  }
  heapPush(late_, e);
}

// Everything but an append to a ring slot with room (inline in the header).
void EventQueue::pushSlow(const Event& e) {
  const Time width = Time{1} << shift_;
  if (e.time < base_ + width) {
    pushLate(e);
    return;
  }
  const auto ahead = static_cast<std::uint64_t>((e.time - base_) >> shift_);
  if (ahead <= mask_) {
    const std::size_t slot = (cursor_ + ahead) & mask_;
    ring_[slot].push_back(e);
    occupied_[slot >> 6] |= std::uint64_t{1} << (slot & 63);
    ++inRing_;
  } else {
    heapPush(far_, e);
  }
}

std::size_t EventQueue::distanceToOccupied(std::size_t from) const {
  const std::size_t words = occupied_.size();
  std::size_t slot = from & mask_;
  std::size_t distance = 0;
  // The partial first word, then whole words, wrapping once around the ring.
  for (std::size_t n = 0; n <= words; ++n) {
    const std::uint64_t bits = occupied_[slot >> 6] >> (slot & 63);
    if (bits != 0) return distance + static_cast<std::size_t>(std::countr_zero(bits));
    const std::size_t skip = 64 - (slot & 63);
    distance += skip;
    slot = (slot + skip) & mask_;
  }
  return distance;  // not reached while inRing_ > 0
}

void EventQueue::advance() {
  const Time width = Time{1} << shift_;
  while (next_ == sorted_.size() && late_.empty()) {
    sorted_.clear();
    next_ = 0;
    // Jump straight to the next bucket with events: the next occupied ring slot, or the
    // far heap's first event if that comes sooner (empty buckets cost nothing).
    std::uint64_t steps = 0;
    if (inRing_ > 0) steps = distanceToOccupied(cursor_ + 1) + 1;
    if (!far_.empty()) {
      const Time t = far_.front().time;
      const auto farSteps = static_cast<std::uint64_t>((t - base_) >> shift_);
      if (inRing_ == 0 || farSteps < steps) steps = farSteps;
    }
    cursor_ = (cursor_ + static_cast<std::size_t>(steps & mask_)) & mask_;
    base_ += static_cast<Time>(steps) * width;
    sorted_.swap(ring_[cursor_]);
    occupied_[cursor_ >> 6] &= ~(std::uint64_t{1} << (cursor_ & 63));
    inRing_ -= sorted_.size();
    // The slot got the old (cleared) current bucket; drop unusually large capacity so a
    // burst does not pin memory in thousands of slots.
    if (ring_[cursor_].capacity() > kKeepCapacity) std::vector<Event>().swap(ring_[cursor_]);
    // Far events whose time has come join this bucket.
    while (!far_.empty() && far_.front().time < base_ + width) sorted_.push_back(heapPop(far_));
    sortBucket();
  }
}

// Sorts a[0, n) in place; gives up (false, a still a permutation) once more than
// `maxMoves` element moves were needed.
bool EventQueue::insertionSort(Event* a, std::size_t n, std::size_t maxMoves) {
  std::size_t moves = 0;
  for (std::size_t i = 1; i < n; ++i) {
    if (!before(a[i], a[i - 1])) continue;
    const Event e = a[i];
    std::size_t j = i;
    do {
      a[j] = a[j - 1];
      --j;
    } while (j > 0 && before(e, a[j - 1]));
    a[j] = e;
    moves += i - j;
    if (moves > maxMoves) return false;
  }
  return true;
}

// Small buckets: insertion sort beats std::sort's set-up. Large ones (bursts of events
// at a few instants, from a few dozen components): counting sorts, else std::sort.
void EventQueue::sortBucket() {
  const std::size_t n = sorted_.size();
  if (n > 24) {
    if (!countingSort()) std::sort(sorted_.begin(), sorted_.end(), earlier);
    return;
  }
  insertionSort(sorted_.data(), n, SIZE_MAX);
}

// A stable counting sort by source component, then stable ones by time, orders the
// bucket by (time, source, sequence) provided each source's events already stand in
// sequence order, which is how they were pushed (a source numbers events as it
// schedules them). A final insertion pass confirms the order and mends the few
// exceptions; many (e.g. events merged from the far heap) cost the fallback.
// Time goes in 8-bit digits, low then high: a bucket spans up to a few thousand ps, and
// one pass over that many counters (clearing them, then a prefix sum whose every step
// waits on the last) cost 12 % of a 4 KiB-packet DySHARP run for ~70 events a bucket.
// O(n + ranges) instead of O(n log n).
bool EventQueue::countingSort() {
  const std::size_t n = sorted_.size();
  std::uint64_t srcLo = UINT64_MAX, srcHi = 0;
  Time tLo = kTimeNever, tHi = 0;
  for (const Event& e : sorted_) {
    srcLo = std::min(srcLo, e.order >> kSequenceBits);
    srcHi = std::max(srcHi, e.order >> kSequenceBits);
    tLo = std::min(tLo, e.time);
    tHi = std::max(tHi, e.time);
  }
  constexpr std::uint64_t kMaxRange = 4096;  // source counters worth clearing per bucket
  constexpr std::uint64_t kMaxTimeRange = std::uint64_t{1} << 16;  // two time digits
  if (srcHi - srcLo >= kMaxRange || static_cast<std::uint64_t>(tHi - tLo) >= kMaxTimeRange) return false;
  gathered_.resize(n);
  const auto pass = [&](const std::vector<Event>& from, std::vector<Event>& to, std::size_t range,
                        auto digit) {
    counts_.assign(range + 1, 0);
    for (const Event& e : from) ++counts_[digit(e) + 1];
    std::uint32_t sum = 0;
    for (std::size_t d = 1; d <= range; ++d) counts_[d] = sum += counts_[d];
    for (const Event& e : from) to[counts_[digit(e)]++] = e;
  };
  pass(sorted_, gathered_, static_cast<std::size_t>(srcHi - srcLo + 1),
       [srcLo](const Event& e) { return static_cast<std::size_t>((e.order >> kSequenceBits) - srcLo); });
  const auto span = static_cast<std::size_t>(tHi - tLo);
  if (span == 0) {
    sorted_.swap(gathered_);  // one instant: sorted by source already
  } else if (span < 256) {
    pass(gathered_, sorted_, span + 1, [tLo](const Event& e) { return static_cast<std::size_t>(e.time - tLo); });
  } else {
    pass(gathered_, sorted_, 256, [tLo](const Event& e) { return static_cast<std::size_t>(e.time - tLo) & 255; });
    pass(sorted_, gathered_, (span >> 8) + 1,
         [tLo](const Event& e) { return static_cast<std::size_t>(e.time - tLo) >> 8; });
    sorted_.swap(gathered_);
  }
  // Finish with an insertion sort: it only checks an ordered bucket, and cheaply mends a
  // few stragglers (an event pushed after later ones of its source, e.g. a lazy credit's
  // wake-up with its reserved order). Too much disorder: the caller's comparison sort.
  return insertionSort(sorted_.data(), n, 4 * n);  // false: sorted_ still holds every event
}

Time EventQueue::nextTime() {
  if (size_ == 0) return kTimeNever;
  advance();
  if (next_ == sorted_.size()) return late_.front().time;
  if (late_.empty()) return sorted_[next_].time;
  return std::min(sorted_[next_].time, late_.front().time);
}

Event EventQueue::pop() {
  advance();
  --size_;
  if (next_ < sorted_.size() && (late_.empty() || before(sorted_[next_], late_.front())))
    return sorted_[next_++];
  return heapPop(late_);
}

}  // namespace fl
