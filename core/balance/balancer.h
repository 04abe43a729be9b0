// Expert balancing over the iterations of a wsc_inference run (seed 003 §V; spec
// moentwine.md §2.9-2.11): per iteration, loads from the generator, the Eq. 2 trigger, a
// balancer (greedy, topology_aware, or non_invasive = topology-aware choices run on cold
// links), and the placement in force. Invasive balancers stall the iteration for their
// copies (all at once on an idle network: the slowest copy's Eq. 1 time); NI's copies run
// stage by stage inside the phases (non_invasive.h) and never stall.
#pragma once
#include <vector>

#include "mapping/mapping.h"
#include "results/wsc_results.h"
#include "scenario/scenario.h"
#include "topology/topology.h"
#include "wsc/layer_plan.h"

namespace fl::balance {

struct BalancerInputs {
  Time allReduceWindow = 0, allToAllWindow = 0;  // one iteration's, from a run without balancing
  std::vector<double> utilAllReduce, utilAllToAll;  // per directed link (2 x link + direction)
};

struct BalancerPlan {
  std::vector<std::vector<std::vector<int>>> hosts;  // per iteration: per expert, its dies
  std::vector<std::vector<double>> shares;            // per iteration: expert shares of the picks
  std::vector<Time> stall;                            // per iteration
  std::vector<WscMigration> migrations;
  std::vector<std::int64_t> migrationBytes;           // invasive copies, per directed link (2 x link + direction)
  std::vector<wsc::IterationInputs::Copy> copies;     // NI copies, played as traffic by the layer plan
};

BalancerPlan planBalancing(const Scenario& s, const mapping::Mapping& m, const topo::Topology& t,
                           const BalancerInputs& in);

}  // namespace fl::balance
