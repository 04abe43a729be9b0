// One way for every network model to fill Results from per-link transfers: links[] (bytes,
// busy, utilisation, bins, per-phase payload) and the totals, so the canvas, plots and
// reports work with any model. The packet model fills the same fields from its channels
// (Network::collect); per-link payload bytes agree because both use RouteProvider's routes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/time.h"
#include "netmodel/message_plan.h"
#include "network/channel.h"
#include "network/packet.h"
#include "results/results.h"
#include "topology/topology.h"

namespace fl::netmodel {

// Bytes crossing one directed link during [start, end) (serialisation time).
struct LinkTransfer {
  int link = -1, direction = 0;
  Time start = 0, end = 0;
  std::int64_t bytes = 0;
  std::uint8_t phase = 0;  // MessagePlan phase index
};

// What a model's transfers add up to per directed link (index 2 x link + direction): the
// figures fillLinkResults writes, and payload per plan phase. A model adds each transfer as
// it plays it, so memory grows with links x time bins, not with transfers x hops (a
// 100-iteration wafer study made ~10^7 records).
class LinkTally {
 public:
  // `recordedBinBudget`: the bins all links together may keep in Results (each link its
  // share, net::recordedBinsPerLink); fillLinkResults stops with run.bin's error past it.
  LinkTally(const topo::Topology& t, std::size_t planPhases, Time bin,
            std::int64_t recordedBinBudget = net::kRecordedBinBudget);
  void add(const LinkTransfer& x);

  struct Link {
    std::int64_t bytes = 0, transfers = 0;
    Time busy = 0;
    std::int64_t traffic[net::kTrafficPhases] = {};  // as phase_payload_bytes
    std::vector<std::int64_t> bins;                  // dense, from bin 0
  };
  std::size_t size() const { return links_.size(); }
  const Link& link(std::size_t i) const { return links_[i]; }
  // Payload of plan phase `phase` on directed link `i`.
  std::int64_t phaseBytes(std::size_t i, std::size_t phase) const { return phaseBytes_[i * phases_ + phase]; }
  Time bin() const { return bin_; }
  std::int32_t maxBinsPerLink() const { return maxBins_; }

 private:
  std::vector<Link> links_;
  std::vector<std::int64_t> phaseBytes_;
  std::size_t phases_;
  Time bin_;
  std::int32_t maxBins_;
};

// Rebuilds r.links (both directions of every link, sorted by link then direction) and the
// traffic totals. Bytes are payload (no framing: wire bytes = payload). Busy time is the
// sum of serialisation times, which may exceed the makespan where a contention-free model
// overlaps transfers on one link; utilisation is busy / makespan as in the packet model.
// Plan phases 0-2 also go to phase_payload_bytes[1..3] (Results::traffic_phases).
void fillLinkResults(const topo::Topology& t, const LinkTally& tally, const std::vector<std::string>& phaseNames,
                     Time makespan, Results& r);

// r.phases: each plan phase's window [first start, last end] over its items.
void fillPhaseMarks(const MessagePlan& plan, const PlanTiming& timing, Results& r);

}  // namespace fl::netmodel
