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

// network.model analytical: the whole run, without the packet engine.
Results runWscAnalytical(const Scenario& s, const topo::Topology& t);
// The same layer's makespan, nothing recorded: what sim/memory_estimate.cpp sizes the
// recorded time bins by (the analytical model is cheap; its bins are not).
Time analyticalMakespan(const Scenario& s, const topo::Topology& t);

// network.model packet: the workload for runOnTopology.
std::unique_ptr<work::Workload> makeWscWorkload(const Scenario& s, net::Network& net, Simulator& sim);

// Per-link per-phase payload (plan phase index) -> LinkPhaseResult and wsc.* summaries.
// `phaseBytes[link direction index in r.links][phase]`.
void annotateWsc(const Scenario& s, const WscSetup& setup, const netmodel::PlanTiming& timing,
                 const std::vector<std::vector<std::int64_t>>& phaseBytes, const topo::Topology& t, Results& r);

}  // namespace fl::wsc
