// Seed 003's Eq. 1 (spec moentwine.md §2.6 [R]): a transfer of D bytes over h hops takes
// sum over hops of (D / B_hop + alpha_hop), store-and-forward, with no contention: each
// hop's link is taken as free. This is how the paper's magnitudes arise (an analytical
// ASTRA-sim backend). Local die <-> router links are on-die wiring: they carry the bytes
// (so per-link counts match the packet model) but take no time. Items start when their
// dependencies have ended; an item in a lane waits for its source's previous one there.
#pragma once
#include <functional>
#include <vector>

#include "netmodel/link_results.h"
#include "netmodel/message_plan.h"
#include "netmodel/route_provider.h"
#include "topology/topology.h"

namespace fl::netmodel {

struct AnalyticalRun {
  PlanTiming timing;
};

// Each transfer's time on each link of its route goes to `sink` as it is played (in plan
// order), e.g. LinkTally::add; nothing is kept per transfer.
using TransferSink = std::function<void(const LinkTransfer&)>;
AnalyticalRun playAnalytical(const MessagePlan& plan, const topo::Topology& t, const TransferSink& sink = {});

// Eq. 1 for one transfer along `route` (for tests and tooltips).
Time eq1Time(const topo::Topology& t, const std::vector<Hop>& route, std::int64_t bytes);

}  // namespace fl::netmodel
