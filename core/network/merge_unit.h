// CAIS's merge unit (seed 002 §III-A2..A4; specs/cais.md §2.2-2.5): one per GPU-facing
// port of a switch, i.e. per (switch, home GPU). It sees every ld.cais / red.cais whose
// address lives on that GPU and every load response coming back from it, so requests for
// one 128 B block from the other N-1 GPUs meet here (address-hashed routing sends them to
// the same switch).
//
// A CAM keyed by (block, type) indexes a merging table of `capacity` entries. Sessions:
// - Load-Wait: the first ld.cais was forwarded to the home; later ones are deferred
//   (their requester recorded in the entry's content array).
// - Load-Ready: the home's data came back and is cached; later ld.cais are answered here.
// - Reduction: red.cais operands summed; one write to the home when all have arrived.
// An entry is released when Count reaches Expected (participants - 1). Allocation into
// a full table evicts the least recently used entry by state: a Reduction flushes its
// partial sum to the home, a Load-Ready is dropped, a Load-Wait cannot go (it is marked
// evict-on-fill and the incoming request bypasses the unit, unmerged). The same rules
// apply past the timeout since an entry's last access. No request ever waits for a slot.
//
// Pure bookkeeping: the switch turns the unit's answers into packets.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "engine/flat_map.h"
#include "engine/time.h"
#include "results/results.h"

namespace fl::net {

enum class MergeState : std::uint8_t { LoadWait, LoadReady, Reduction };

struct MergeParams {
  std::int64_t capacity = 320;  // entries; <= 0: unbounded (required-table measurement)
  Time timeout = 0;             // since an entry's last access; 0: none (always so when unbounded)
  int records = 16;             // deferred requesters a Load-Wait content array holds
  bool merging = true;          // false: every request bypasses (plain loads and writes)
};

// A partial or complete sum the switch writes to the home (red write + contribution count).
struct MergeFlush {
  std::uint32_t block = 0;
  std::uint32_t bytes = 0;
  std::uint16_t contributions = 0;
  std::uint64_t tag = 0;
  std::uint8_t phase = 0;
};

// What the switch must do with an ld.cais.
enum class LoadOutcome : std::uint8_t {
  Fetch,     // new Load-Wait session: forward one fetch to the home
  Deferred,  // joined a Load-Wait session: answered at fill
  Hit,       // Load-Ready: answer the requester now from the cached copy
  Bypass,    // no slot (victim in Load-Wait) or merging off: forward unmerged, not cached
};

enum class ReduceOutcome : std::uint8_t {
  Absorbed,  // summed into an entry (new or existing), nothing sent
  Complete,  // the sum is complete: `flush` goes to the home
  Bypass,    // no slot: the operand goes to the home on its own
};

struct MergeUnitStats {
  std::int64_t loads = 0, reductions = 0;  // mergeable requests seen
  std::int64_t hits = 0;          // requests merged into a live session
  std::int64_t sessions = 0;      // distinct (block, type) first arrivals
  std::int64_t allocations = 0;
  std::int64_t bypasses = 0;
  std::int64_t evictions = 0;     // entries pushed out to make room (any state)
  std::int64_t timeouts = 0;      // entries expired by the timer (any state)
  std::int64_t partialFlushes = 0;  // reduction sums written before they were complete
  std::int64_t completions = 0;   // sessions that reached Count = Expected in the table
  std::int64_t fetches = 0;       // loads forwarded to the home (merged sessions)
  std::int64_t peakEntries = 0;
  double skewSumPs = 0;           // over completed arrival sets: latest - earliest arrival
  std::int64_t skewCount = 0;
};

// Entries and bypasses logged so far, against kEntryLogLimit (see MergeUnit::enableLog).
struct MergeLogRoom {
  std::size_t entries = 0, bypasses = 0;
};

class MergeUnit {
 public:
  // An unbounded table is the spec's required-table run (§2.13): no entry times out
  // either, so that its peak counts every session until it completes.
  explicit MergeUnit(const MergeParams& p = {}) : params_(p) {
    if (params_.capacity <= 0) params_.timeout = 0;
  }

  // ld.cais for `block` from `requester`; `expected` = participants - 1. On Fetch the
  // requester is recorded and answered at fill().
  LoadOutcome load(std::uint32_t block, std::int32_t requester, std::uint16_t expected, std::uint32_t bytes,
                   std::uint64_t tag, std::uint8_t phase, Time now, std::vector<MergeFlush>& flushes);
  // The home's data for `block` came back: the requesters to answer (appended to `out`).
  // False if no Load-Wait session awaited it.
  bool fill(std::uint32_t block, Time now, std::vector<std::int32_t>& out);
  // red.cais carrying `contributions` operands.
  ReduceOutcome reduce(std::uint32_t block, std::uint16_t contributions, std::uint16_t expected,
                       std::uint32_t bytes, std::uint64_t tag, std::uint8_t phase, Time now,
                       std::vector<MergeFlush>& flushes, MergeFlush& complete, std::int32_t source = -1);
  // Expires entries idle since before now - timeout; returns when to look again (-1: never).
  Time expire(Time now, std::vector<MergeFlush>& flushes);
  // The earliest time an entry can time out (-1: none).
  Time nextDeadline() const;

  std::int64_t entries() const { return static_cast<std::int64_t>(index_.size()); }
  const MergeUnitStats& stats() const { return stats_; }
  const MergeParams& params() const { return params_; }

  // Occupancy over time and the entries' lives, for inspectors (the switch fills port/peer).
  // `room`: shared by a switch's units, so that together they log no more than the
  // switch's result keeps (kEntryLogLimit entries and bypasses per switch); without one
  // the unit counts for itself.
  void enableLog(Time bin, std::int32_t port, MergeLogRoom* room = nullptr) {
    bin_ = bin;
    port_ = port;
    room_ = room;
  }
  const BinSeries& occupancy() const { return occupancy_; }
  std::vector<MergeEntryRecord>& log() { return log_; }
  bool logTruncated() const { return logTruncated_; }
  // The logged entries' requests (MergeEntryRecord::arrivals indexes them), the bypasses,
  // and the arrival sets by skew (kSkewHistogramBins).
  const std::vector<MergeArrival>& logArrivals() const { return logArrivals_; }
  const std::vector<MergeBypassRecord>& bypassLog() const { return bypassLog_; }
  const std::vector<std::int64_t>& skewHistogram() const { return skewHistogram_; }

 private:
  static constexpr std::uint32_t kNone = UINT32_MAX;
  static constexpr int kMaxRecords = 16;
  struct Entry {
    std::uint64_t key = 0;
    std::uint64_t tag = 0;
    Time allocated = 0, lastAccess = 0;
    std::uint32_t block = 0, bytes = 0;
    std::uint16_t count = 0, expected = 0;
    std::uint16_t contributions = 0;   // operands summed (reduction)
    std::uint16_t deferred = 0;        // requesters recorded (load)
    MergeState state = MergeState::Reduction;
    std::uint8_t phase = 0;
    bool evictOnFill = false;
    bool allArrived = false;           // the set's last request joined this entry
    bool inLru = false;
    std::array<std::int32_t, kMaxRecords> requesters{};
    Time ready = -1;                              // Load-Ready since (inspector log)
    std::uint32_t arrivalHead = kNone, arrivalTail = kNone;  // its requests in arrivalNodes_
  };
  struct ArrivalNode {
    Time time = 0;
    std::int32_t gpu = -1;
    std::uint32_t next = kNone;
  };
  struct Arrivals {
    Time first = 0;
    std::uint16_t seen = 0;
  };

  static std::uint64_t keyOf(std::uint32_t block, bool load) { return (std::uint64_t(block) << 1) | (load ? 1 : 0); }
  Entry* find(std::uint64_t key);
  // A free slot, evicting the LRU entry if full; kNone: bypass (victim in Load-Wait).
  std::uint32_t allocate(std::uint64_t key, Time now, std::vector<MergeFlush>& flushes);
  // A new session for the request's block in a slot from allocate(); kNone: the request
  // bypasses (counted and logged as such).
  std::uint32_t openEntry(std::uint64_t key, MergeState state, std::uint32_t block, std::uint32_t bytes,
                          std::uint16_t expected, std::uint64_t tag, std::uint8_t phase, std::int32_t gpu, Time now,
                          std::vector<MergeFlush>& flushes);
  // Evicts by state rules (eviction or timeout); true if the slot was freed.
  bool evict(std::uint32_t n, Time now, std::vector<MergeFlush>& flushes, MergeEndReason why);
  void free(std::uint32_t n, Time now, MergeEndReason why);
  void touch(std::uint32_t n, Time now);
  void unlink(std::uint32_t n);
  void linkNewest(std::uint32_t n);
  void noteArrival(std::uint64_t key, std::uint16_t expected, std::uint16_t n, Time now);
  void noteOccupancy(Time now);
  void noteEntryArrival(std::uint32_t n, std::int32_t gpu, Time now);  // inspector log only
  void noteBypass(std::uint32_t block, bool load, std::int32_t gpu, Time now);
  bool full() const { return params_.capacity > 0 && entries() >= params_.capacity; }

  MergeParams params_;
  std::vector<Entry> entries_;  // by slot
  struct Link {
    std::uint32_t prev = kNone, next = kNone;
  };
  std::vector<Link> links_;
  std::uint32_t oldest_ = kNone, newest_ = kNone, free_ = kNone;
  FlatMap<std::uint32_t> index_;  // CAM: key -> slot
  FlatMap<Arrivals> arrivals_;    // per (block, type): for the arrival skew
  MergeUnitStats stats_;

  MergeLogRoom& room() { return room_ != nullptr ? *room_ : ownRoom_; }

  Time bin_ = 0;
  std::int32_t port_ = -1;
  MergeLogRoom ownRoom_;
  MergeLogRoom* room_ = nullptr;
  std::int32_t currentBin_ = -1;
  std::int64_t binPeak_ = 0;
  BinSeries occupancy_;
  std::vector<MergeEntryRecord> log_;
  bool logTruncated_ = false;
  std::vector<ArrivalNode> arrivalNodes_;  // live entries' requests, chained per entry
  std::uint32_t freeArrival_ = kNone;
  std::vector<MergeArrival> logArrivals_;
  std::vector<MergeBypassRecord> bypassLog_;
  std::vector<std::int64_t> skewHistogram_ = std::vector<std::int64_t>(kSkewHistogramBins, 0);
};

}  // namespace fl::net
