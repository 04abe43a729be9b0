#include "netmodel/link_results.h"

#include <algorithm>
#include <limits>

#include "network/packet.h"
#include "topology/topology.h"

namespace fl::netmodel {

namespace {

// Spreads `bytes` evenly over [start, end) into dense bins of width `bin`.
void addToBins(std::vector<std::int64_t>& v, Time start, Time end, std::int64_t bytes, Time bin) {
  const auto add = [&v](Time b, std::int64_t x) {
    const auto i = static_cast<std::size_t>(b);
    if (v.size() <= i) v.resize(i + 1, 0);
    v[i] += x;
  };
  if (end <= start) {
    add(start / bin, bytes);
    return;
  }
  std::int64_t left = bytes;
  for (Time b = start / bin; b * bin < end; ++b) {
    const Time from = std::max(start, b * bin), to = std::min(end, (b + 1) * bin);
    const bool last = to >= end;
    const auto share = last ? left
                            : static_cast<std::int64_t>(static_cast<double>(bytes) * static_cast<double>(to - from) /
                                                        static_cast<double>(end - start));
    add(b, share);
    left -= share;
  }
}

}  // namespace

LinkTally::LinkTally(const topo::Topology& t, std::size_t planPhases, Time bin, std::int64_t recordedBinBudget)
    : links_(2 * t.links().size()),
      phaseBytes_(links_.size() * planPhases, 0),
      phases_(planPhases),
      bin_(bin),
      maxBins_(net::recordedBinsPerLink(recordedBinBudget, static_cast<std::int64_t>(links_.size()))) {}

void LinkTally::add(const LinkTransfer& x) {
  const auto i = static_cast<std::size_t>(2 * x.link + x.direction);
  Link& d = links_[i];
  d.bytes += x.bytes;
  d.transfers += 1;
  d.busy += x.end - x.start;
  // As the packet model tags them (plan_workload.cpp): phases past the counters go untagged.
  d.traffic[x.phase + 1 < net::kTrafficPhases ? static_cast<std::size_t>(x.phase + 1) : 0] += x.bytes;
  phaseBytes_[i * phases_ + x.phase] += x.bytes;
  addToBins(d.bins, x.start, x.end, x.bytes, bin_);
}

void fillLinkResults(const topo::Topology& t, const LinkTally& tally, const std::vector<std::string>& phaseNames,
                     Time makespan, Results& r) {
  const Time bin = tally.bin();
  r.links.clear();
  r.payload_bytes = r.wire_bytes = r.uplink_bytes = r.downlink_bytes = 0;
  r.uplink_payload_bytes = r.downlink_payload_bytes = 0;
  const auto& links = t.links();
  r.links.resize(2 * links.size());
  for (const topo::Link& l : links)
    for (int dir = 0; dir < 2; ++dir) {
      LinkDirectionResult& d = r.links[static_cast<std::size_t>(2 * l.id + dir)];
      d.link = l.id;
      d.direction = dir;
      d.id = std::to_string(l.id) + ":" + std::to_string(dir);
      const topo::NodeId from = dir == 0 ? l.a : l.b, to = dir == 0 ? l.b : l.a;
      d.from = t.node(from).name;
      d.to = t.node(to).name;
      d.kind = topo::toString(l.kind);
      d.uplink = topo::isEndpoint(t.node(from).kind);
      d.downlink = topo::isEndpoint(t.node(to).kind);
      d.capacity_Bps = l.bandwidth * l.efficiency;
    }
  // Bins accumulated densely per link (LinkTally), so the transfers' order (plan order, not
  // time order) does not matter; they are compressed into BinSeries here.
  for (std::size_t i = 0; i < r.links.size(); ++i) {
    LinkDirectionResult& d = r.links[i];
    const LinkTally::Link& x = tally.link(i);
    d.bytes = d.payload_bytes = x.bytes;
    d.packets = x.transfers;
    d.busy = x.busy;
    for (std::size_t p = 0; p < static_cast<std::size_t>(net::kTrafficPhases); ++p) d.phase_payload_bytes[p] = x.traffic[p];
    for (std::size_t b = 0; b < x.bins.size(); ++b)
      if (x.bins[b] != 0) {
        // As a packet channel: a link busy across more bins than its share of the budget.
        if (d.bin_bytes.bins.size() >= static_cast<std::size_t>(tally.maxBinsPerLink()))
          net::throwTooManyBins(tally.maxBinsPerLink(), bin, static_cast<Time>(b + 1) * bin);
        d.bin_bytes.add(static_cast<std::int32_t>(b), x.bins[b]);
      }
    d.utilization = makespan > 0 ? static_cast<double>(d.busy) / static_cast<double>(makespan) : 0;
    r.payload_bytes += d.payload_bytes;
    r.wire_bytes += d.bytes;
    if (d.uplink) r.uplink_bytes += d.bytes, r.uplink_payload_bytes += d.payload_bytes;
    if (d.downlink) r.downlink_bytes += d.bytes, r.downlink_payload_bytes += d.payload_bytes;
  }
  r.traffic_phases.clear();
  for (std::size_t p = 0; p < phaseNames.size() && p + 1 < static_cast<std::size_t>(net::kTrafficPhases); ++p)
    r.traffic_phases.push_back(phaseNames[p]);
  r.bin = bin;
  r.bins = static_cast<int>((makespan + bin - 1) / bin);
}

void fillPhaseMarks(const MessagePlan& plan, const PlanTiming& timing, Results& r) {
  r.phases.clear();
  for (std::size_t p = 0; p < plan.phases.size(); ++p) {
    Time s = std::numeric_limits<Time>::max(), e = -1;
    for (std::size_t i = 0; i < plan.items.size(); ++i)
      if (plan.items[i].phase == p) s = std::min(s, timing.start[i]), e = std::max(e, timing.end[i]);
    if (e >= 0) r.phases.push_back({plan.phases[p], s, e});
  }
}

}  // namespace fl::netmodel
