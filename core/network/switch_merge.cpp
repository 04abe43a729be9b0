// The switch's CAIS path (seed 002 §III-A; specs/cais.md §2.3-2.5): ld.cais and red.cais
// are addressed to this switch (the requester hashed the block address to it), so they
// end here and meet in the merge unit of the port towards their home GPU; so does the
// home's data, which comes back by the link its fetch went out on. Only packets that end
// here take this path: forwarding is unchanged.
#include <stdexcept>

#include "network/network.h"
#include "network/switch_node.h"

namespace fl::net {

// The port a unit is named after: the first of the links towards its GPU (asked of the
// topology, so the switch's rotating choice among parallel links is left alone).
int SwitchNode::firstPortTowards(topo::NodeId home) {
  net_.topology().candidates(node_, home, candidates_);
  return candidates_.empty() ? -1 : candidates_.front();
}

int SwitchNode::mergeUnitFor(topo::NodeId home) {
  if (mergeOf_.empty()) mergeOf_.assign(net_.topology().nodes().size(), -1);
  std::int32_t& u = mergeOf_[static_cast<std::size_t>(home)];
  if (u >= 0) return u;
  u = static_cast<std::int32_t>(merge_.size());
  MergeParams p;
  const std::int64_t entryBytes = std::max<std::int64_t>(1, config().packetPayload);
  p.capacity = config().mergeTable > 0 ? std::max<std::int64_t>(1, config().mergeTable / entryBytes) : 0;
  p.timeout = config().mergeTimeout;
  p.records = config().mergeRecords;
  p.merging = config().merging;
  merge_.emplace_back(p);
  merge_.back().enableLog(config().bin, firstPortTowards(home), &mergeLogRoom_);
  mergeHome_.push_back(home);
  mergeTimer_.push_back(-1);
  return u;
}

// A packet made here, sent through the internal port like a reduction result.
void SwitchNode::emitCais(Op op, topo::NodeId to, std::int32_t requester, const Packet& like, std::uint32_t bytes,
                          std::uint16_t contributions) {
  Packet r;
  r.tag = like.tag;
  r.phase = like.phase;
  r.created = now();
  r.source = node_;
  r.destination = to;
  r.requester = requester;
  r.piece = like.piece;
  r.expected = like.expected;
  r.size = bytes;
  r.contributions = contributions;
  r.op = op;
  r.vc = static_cast<std::uint8_t>(config().vcFor(isResponseClass(op), vcSpread_++));
  if (config().caisTrafficControl && (op == Op::CaisRead || op == Op::CaisWrite))  // specs/cais.md §2.11
    r.vc = static_cast<std::uint8_t>(config().caisVcBase(op) + static_cast<int>(vcSpread_ % config().caisVcCount(op)));
  if ((op == Op::CaisRelease || op == Op::CaisThrottle) && config().caisControlVc >= 0)
    r.vc = static_cast<std::uint8_t>(config().caisControlVc);
  r.wireBytes = static_cast<std::uint32_t>(config().wire.wireBytes(op, r.payload()));
  ++stats_.packetsCreated;
  schedule(now(), id(), kEmit, 0, pool().allocate(r));
}

// Partial sums the unit pushed out (eviction, timeout) go to the home with their count.
void SwitchNode::flushMerged(topo::NodeId home, const Packet& like) {
  for (const MergeFlush& f : flushes_) {
    Packet l = like;
    l.tag = f.tag;
    l.phase = f.phase;
    l.piece = f.block;
    emitCais(Op::CaisWrite, home, home, l, f.bytes, f.contributions);
  }
  flushes_.clear();
}

void SwitchNode::cais(int inPort, PacketHandle h) {
  const Packet p = pool()[h];
  pool().release(h);
  ++stats_.packetsConsumed;
  release(inPort, p.vc, flitsOf(p));
  // The home: the address's owner for requests, the sender for its data.
  const topo::NodeId home = p.op == Op::CaisData ? p.source : p.requester;
  const int u = mergeUnitFor(home);
  MergeUnit& unit = merge_[static_cast<std::size_t>(u)];
  flushes_.clear();
  switch (p.op) {
    case Op::CaisLoad: {
      switch (unit.load(p.piece, p.source, p.expected, p.size, p.tag, p.phase, now(), flushes_)) {
        case LoadOutcome::Fetch:
          emitCais(Op::CaisRead, home, -1, p, p.size, 0);
          break;
        case LoadOutcome::Deferred:
          break;
        case LoadOutcome::Hit:
          emitCais(Op::CaisResponse, p.source, home, p, p.size, 0);
          break;
        case LoadOutcome::Bypass:  // a plain load: the home's answer is passed on, not cached
          emitCais(Op::CaisRead, home, p.source, p, p.size, 0);
          break;
      }
      break;
    }
    case Op::CaisData: {
      if (p.requester >= 0) {  // a bypassed load's answer
        emitCais(Op::CaisResponse, p.requester, home, p, p.size, 0);
        break;
      }
      answer_.clear();
      if (!unit.fill(p.piece, now(), answer_))
        throw std::logic_error("switch: CAIS data for a block no Load-Wait entry awaits");
      for (const std::int32_t r : answer_) emitCais(Op::CaisResponse, r, home, p, p.size, 0);
      break;
    }
    case Op::CaisRed: {
      MergeFlush done;
      switch (unit.reduce(p.piece, p.contributions, p.expected, p.size, p.tag, p.phase, now(), flushes_, done,
                          p.source)) {
        case ReduceOutcome::Absorbed:
          break;
        case ReduceOutcome::Complete:
          flushes_.push_back(done);
          break;
        case ReduceOutcome::Bypass:
          emitCais(Op::CaisWrite, home, home, p, p.size, p.contributions);
          break;
      }
      break;
    }
    default:
      throw std::logic_error("switch: not a CAIS packet");
  }
  flushMerged(home, p);
  armMergeTimer(u);
}

void SwitchNode::armMergeTimer(int unit) {
  const auto u = static_cast<std::size_t>(unit);
  if (mergeTimer_[u] >= 0) return;  // pending, and never later than any deadline
  const Time at = merge_[u].nextDeadline();
  if (at < 0) return;
  mergeTimer_[u] = at;
  schedule(std::max(at, now()), id(), kMergeTimeout, static_cast<std::uint32_t>(unit));
}

void SwitchNode::mergeTimeout(int unit) {
  const auto u = static_cast<std::size_t>(unit);
  mergeTimer_[u] = -1;
  flushes_.clear();
  merge_[u].expire(now(), flushes_);
  Packet like;
  flushMerged(mergeHome_[u], like);
  armMergeTimer(unit);
}

void SwitchNode::collectMergeUnits(SwitchResult& out, const topo::Topology& t) {
  out.merge_ports.clear();
  out.merge_log.clear();
  out.merge_arrivals.clear();
  out.merge_bypasses.clear();
  for (std::size_t u = 0; u < merge_.size(); ++u) {
    MergeUnit& m = merge_[u];
    const MergeUnitStats& s = m.stats();
    MergePortResult r;
    r.port = firstPortTowards(mergeHome_[u]);
    r.peer = t.node(mergeHome_[u]).name;
    r.entries = m.occupancy();
    r.peak_entries = s.peakEntries;
    r.loads = s.loads;
    r.reductions = s.reductions;
    r.hits = s.hits;
    r.bypasses = s.bypasses;
    r.evictions = s.evictions;
    r.timeouts = s.timeouts;
    r.partial_flushes = s.partialFlushes;
    r.capacity = m.params().capacity;
    r.skew_histogram = m.skewHistogram();
    out.merge_ports.push_back(std::move(r));
    for (const MergeEntryRecord& e : m.log()) {
      if (out.merge_log.size() >= kEntryLogLimit) {
        out.merge_log_truncated = true;
        break;
      }
      out.merge_log.push_back(e);
      out.merge_log.back().arrivals = static_cast<std::uint32_t>(out.merge_arrivals.size());
      const auto first = m.logArrivals().begin() + e.arrivals;
      out.merge_arrivals.insert(out.merge_arrivals.end(), first, first + e.arrived);
    }
    for (const MergeBypassRecord& b : m.bypassLog())
      if (out.merge_bypasses.size() < kEntryLogLimit) out.merge_bypasses.push_back(b);
    out.merge_log_truncated = out.merge_log_truncated || m.logTruncated();
  }
}

}  // namespace fl::net
