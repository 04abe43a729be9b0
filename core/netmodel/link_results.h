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

// Rebuilds r.links (both directions of every link, sorted by link then direction) and the
// traffic totals. Bytes are payload (no framing: wire bytes = payload). Busy time is the
// sum of serialisation times, which may exceed the makespan where a contention-free model
// overlaps transfers on one link; utilisation is busy / makespan as in the packet model.
// Plan phases 0-2 also go to phase_payload_bytes[1..3] (Results::traffic_phases).
void fillLinkResults(const topo::Topology& t, const std::vector<LinkTransfer>& transfers,
                     const std::vector<std::string>& phaseNames, Time bin, Time makespan, Results& r);

// r.phases: each plan phase's window [first start, last end] over its items.
void fillPhaseMarks(const MessagePlan& plan, const PlanTiming& timing, Results& r);

}  // namespace fl::netmodel
