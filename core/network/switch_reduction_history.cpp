// What the switch table inspector replays: each reduction buffer's occupancy over time,
// and the entry log, the first kEntryLogLimit entries of a run, each with when its
// contributions arrived (results.h: ReductionEntryRecord). Arrivals are appended to one
// stream (see SwitchNode::ArrivalNote) and filed by entry in batches.
#include <algorithm>
#include <bit>

#include "network/switch_node.h"

namespace fl::net {

// Most entries held per time bin, and evictions per bin. A change at `now` (an entry
// allocated, with `evictions` pushed out for it, or one completed) follows a stretch in
// which the buffer held `before` entries: so did every bin the stretch spanned without a
// change, and the current bin up to now. The peak also counts the state after the change
// (an entry allocated and completed at one instant counts once).
void SwitchNode::noteReductionOccupancy(int port, std::int64_t before, std::int64_t evictions) {
  if (reductionHistory_.empty()) reductionHistory_.resize(out_.size());
  Occupancy& o = reductionHistory_[static_cast<std::size_t>(port)];
  const auto bin = static_cast<std::int32_t>(now() / config().bin);
  if (bin != o.bin) {
    if (o.bin >= 0) {
      o.entries.add(o.bin, o.peak);
      if (o.evicted) o.evictions.add(o.bin, o.evicted);
      for (std::int32_t b = o.bin + 1; b < bin && before > 0; ++b) o.entries.add(b, before);
    }
    o.bin = bin;
    o.peak = before;
    o.evicted = 0;
  }
  o.peak = std::max({o.peak, before, buffers_[static_cast<std::size_t>(port)].entries()});
  o.evicted += evictions;
  o.total += evictions;
}

void SwitchNode::noteArrivals(ReductionEntry& e, int contributions) {
  if (entryLog_.size() >= kEntryLogLimit) return;  // it can no longer be logged
  const Time offset = now() - e.allocated;
  // The smallest unit that keeps the latest (largest) offset within 32 bits.
  e.arrivalShift = static_cast<std::uint8_t>(std::max(0, static_cast<int>(std::bit_width(static_cast<std::uint64_t>(offset))) - 32));
  const bool isLong = offset >= Time(kLongOffset);
  for (int k = 0; k < contributions; ++k) {
    arrivalNotes_.push_back({e.logId, isLong ? kLongOffset : static_cast<std::uint32_t>(offset)});
    if (isLong) longOffsets_.push_back(offset);
  }
  if (arrivalNotes_.size() >= kDrainNotes) drainArrivals();
}

void SwitchNode::logEntry(const ReductionEntry& e, bool evicted) {
  if (e.logId != kNotLogged && recordOf_.size() <= e.logId) recordOf_.resize(nextLogId_, kNotLogged);
  // An entry without a log id (allocated after the log filled) is not logged either, and
  // the shared offset array's 32-bit index must not wrap.
  if (entryLog_.size() >= kEntryLogLimit || e.logId == kNotLogged ||
      entryArrivals_.size() + e.arrived > UINT32_MAX) {
    if (e.logId != kNotLogged) recordOf_[e.logId] = kDropped;
    entryLogTruncated_ = true;
    return;
  }
  ReductionEntryRecord r;
  r.arrivals = static_cast<std::uint32_t>(entryArrivals_.size());  // one offset per contribution
  r.arrival_shift = e.arrivalShift;
  r.port = e.port;
  r.tag = e.tag;
  r.piece = e.piece;
  r.expected = e.expected;
  r.arrived = e.arrived;
  r.start = e.allocated;
  r.end = now();
  r.evicted = evicted;
  recordOf_[e.logId] = static_cast<std::uint32_t>(entryLog_.size());
  entryLog_.push_back(r);
  filed_.push_back(0);
  entryArrivals_.resize(entryArrivals_.size() + e.arrived);
}

// Files the notes of logged entries (in note order, so each entry's offsets stay in
// arrival order), keeps those of live entries at the front for the next drain, and drops
// those of entries that will never be logged.
void SwitchNode::drainArrivals() {
  const bool logFull = entryLog_.size() >= kEntryLogLimit;
  std::size_t kept = 0, longIn = 0, longKept = 0;
  for (const ArrivalNote n : arrivalNotes_) {
    const Time offset = n.offset == kLongOffset ? longOffsets_[longIn++] : Time(n.offset);
    const std::uint32_t rec = n.entry < recordOf_.size() ? recordOf_[n.entry] : kNotLogged;
    if (rec == kDropped || (rec == kNotLogged && logFull)) continue;
    if (rec == kNotLogged) {
      arrivalNotes_[kept++] = n;
      if (n.offset == kLongOffset) longOffsets_[longKept++] = offset;
      continue;
    }
    const ReductionEntryRecord& r = entryLog_[rec];
    entryArrivals_[r.arrivals + filed_[rec]++] = static_cast<std::uint32_t>(offset >> r.arrival_shift);
  }
  arrivalNotes_.resize(kept);
  longOffsets_.resize(longKept);
}

void SwitchNode::collectReductionHistory(SwitchResult& out, const topo::Topology& t) {
  out.reduction_ports.clear();
  for (std::size_t p = 0; p < reductionHistory_.size(); ++p) {
    const Occupancy& o = reductionHistory_[p];
    if (o.bin < 0) continue;
    ReductionPortResult r;
    r.port = static_cast<int>(p);
    r.peer = t.node(out_[p].peerNode).name;
    r.entries = o.entries;
    r.entries.add(o.bin, o.peak);  // the bin still open
    r.evictions = o.evictions;
    if (o.evicted) r.evictions.add(o.bin, o.evicted);
    r.peak_entries = buffers_[p].peakEntries();
    r.evictions_total = o.total;
    out.reduction_ports.push_back(std::move(r));
  }
  drainArrivals();
  out.entry_log = entryLog_;
  out.entry_arrivals = entryArrivals_;
  out.entry_log_truncated = entryLogTruncated_;
}

}  // namespace fl::net
