// The flow model's per-link figures into Results (links[] and the traffic totals), laid
// out as the packet model lays them out (every link, both directions, index 2 x link +
// direction). Thin on purpose: to be replaced by the shared filler of all network models
// (netmodel/link_results.h on branch wsc) when both meet.
#pragma once
#include <vector>

#include "netmodel/flow_solver.h"
#include "results/results.h"
#include "topology/topology.h"

namespace fl::netmodel {

// Wire bytes = payload bytes (a flow has no framing); packets stay 0.
void fillFlowLinkResults(const topo::Topology& t, const std::vector<FlowLinkStats>& stats, Time bin,
                         Time makespan, Results& r);

}  // namespace fl::netmodel
