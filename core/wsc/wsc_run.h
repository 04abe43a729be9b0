// Runs workload.kind wsc_inference under either network model (network.model): the
// analytical model plays the layer plan directly (no engine); the packet model plays it
// through netmodel::PlanWorkload on the simulated network. Both end in annotateWsc, which
// fills Results::wsc and the per-link ftd tag and per-phase hot/cold figures.
#pragma once
#include <memory>

#include "mapping/mapping.h"
#include "netmodel/message_plan.h"
#include "results/results.h"
#include "scenario/scenario.h"
#include "topology/topology.h"
#include "workloads/workload.h"
#include "wsc/layer_plan.h"

namespace fl::wsc {

// The mapping and layer plan of a wsc_inference scenario.
struct WscSetup {
  mapping::Mapping mapping;
  LayerPlan layer;
  std::vector<WscMigration> migrations;      // from the balancer (core/balance/balancer.h)
  std::vector<std::int64_t> migrationBytes;  // per directed link (2 x link + direction)
  Time migrationStall = 0;
  IterationInputs inputs;                    // what the layer plan was built from
};
// With a balancer (or a synthetic load), a one-iteration probe in the analytical model
// gives the phase windows and link utilisations the balancer plans NI stages with.
WscSetup prepareWsc(const Scenario& s, const topo::Topology& t);

// network.model analytical: the whole run, without the packet engine; its links keep at
// most their share of `recordedBinBudget` time bins (sim/memory_estimate.h's budget).
Results runWscAnalytical(const Scenario& s, const topo::Topology& t,
                         std::int64_t recordedBinBudget = net::kRecordedBinBudget);
// One iteration of the layer (workload.wsc.iterations = 1) in the analytical model,
// nothing recorded: its plan's size and its makespan, which sim/memory_estimate.cpp
// multiplies by the iteration count. The whole plan grows with the iterations: building
// it only to size it would cost the memory and time the run does.
struct IterationProbe {
  std::int64_t items = 0;  // plan items (transfers and tasks)
  std::int64_t deps = 0;   // their dependencies, summed
  Time makespan = 0;
};
IterationProbe probeOneIteration(const Scenario& s, const topo::Topology& t);

// network.model packet: the workload for runOnTopology.
std::unique_ptr<work::Workload> makeWscWorkload(const Scenario& s, net::Network& net, Simulator& sim);

// Per-link per-phase payload (plan phase index) -> LinkPhaseResult and wsc.* summaries.
// `phaseBytes[link direction index in r.links][phase]`.
void annotateWsc(const Scenario& s, const WscSetup& setup, const netmodel::PlanTiming& timing,
                 const std::vector<std::vector<std::int64_t>>& phaseBytes, const topo::Topology& t, Results& r);

}  // namespace fl::wsc
