// What the switch table inspector replays: each reduction buffer's occupancy over time,
// and the entry log, the first kEntryLogLimit entries of a run, each with when its
// contributions arrived (results.h: ReductionEntryRecord). During the run arrivals are
// only appended to one stream (see SwitchNode::ArrivalNote); collecting groups them by
// entry.
#include <algorithm>

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


void SwitchNode::noteArrivals(const ReductionEntry& e, int contributions) {
  if (entryLog_.size() >= kEntryLogLimit) return;  // it can no longer be logged
  const Time offset = now() - e.allocated;
  const bool isLong = offset >= Time(kLongOffset);
  for (int k = 0; k < contributions; ++k) {
    arrivalNotes_.push_back({e.logId, isLong ? kLongOffset : static_cast<std::uint32_t>(offset)});
    if (isLong) longOffsets_.push_back(offset);
  }
}

void SwitchNode::logEntry(const ReductionEntry& e, bool evicted) {
  // An entry without a log id (allocated after the log filled) is not logged either, and
  // the shared offset array's 32-bit index must not wrap.
  if (entryLog_.size() >= kEntryLogLimit || e.logId == kNotLogged || loggedArrivals_ + e.arrived > UINT32_MAX) {
    entryLogTruncated_ = true;
    return;
  }
  ReductionEntryRecord r;
  r.arrivals = static_cast<std::uint32_t>(loggedArrivals_);  // one offset per contribution
  loggedArrivals_ += e.arrived;
  r.port = e.port;
  r.tag = e.tag;
  r.piece = e.piece;
  r.expected = e.expected;
  r.arrived = e.arrived;
  r.start = e.allocated;
  r.end = now();
  r.evicted = evicted;
  entryLog_.push_back(r);
  loggedIds_.push_back(e.logId);
}

// Two passes over the stream: each logged entry's last offset sets its unit (32-bit
// offsets: picoseconds, or coarser for a life >= 4.29 ms), then its offsets go to its
// slice of entry_arrivals in arrival order. Notes of entries not logged are skipped.
void SwitchNode::collectEntryLog(SwitchResult& out) const {
  out.entry_log = entryLog_;
  out.entry_log_truncated = entryLogTruncated_;
  out.entry_arrivals.assign(loggedArrivals_, 0);
  std::vector<std::uint32_t> recordOf(nextLogId_, kNotLogged);
  for (std::size_t i = 0; i < loggedIds_.size(); ++i) recordOf[loggedIds_[i]] = static_cast<std::uint32_t>(i);
  const auto walk = [&](auto visit) {
    std::size_t longAt = 0;
    for (const ArrivalNote& n : arrivalNotes_) {
      const Time offset = n.offset == kLongOffset ? longOffsets_[longAt++] : Time(n.offset);
      if (recordOf[n.entry] != kNotLogged) visit(out.entry_log[recordOf[n.entry]], offset);
    }
  };
  walk([](ReductionEntryRecord& r, Time offset) {  // the last offset is the largest
    while ((offset >> r.arrival_shift) > Time(UINT32_MAX)) ++r.arrival_shift;
  });
  std::vector<std::uint32_t> filled(entryLog_.size(), 0);
  walk([&](ReductionEntryRecord& r, Time offset) {
    const std::size_t i = static_cast<std::size_t>(&r - out.entry_log.data());
    out.entry_arrivals[r.arrivals + filled[i]++] = static_cast<std::uint32_t>(offset >> r.arrival_shift);
  });
}

void SwitchNode::collectReductionHistory(SwitchResult& out, const topo::Topology& t) const {
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
  collectEntryLog(out);
}

}  // namespace fl::net
