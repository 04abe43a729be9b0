// A workload: builds its agents on a network, and turns what they recorded into
// Results once the engine has run.
#pragma once
#include <memory>
#include <vector>

#include "engine/simulator.h"
#include "network/network.h"
#include "results/results.h"
#include "scenario/scenario.h"
#include "workloads/agent.h"

namespace fl::work {

class Workload {
 public:
  virtual ~Workload() = default;
  // Fraction of the work done, read between engine batches.
  virtual double progress() const;
  // Completion time: the last agent's finish (or the last delivery).
  virtual Time makespan() const;
  virtual void finish(Results& r) const;
  // Called once the network has filled r.links (finish runs before that).
  virtual void annotate(Results& r) const {}

  const std::vector<std::unique_ptr<Agent>>& agents() const { return agents_; }

  // Creates one agent per endpoint with `make(endpoint)`, registers it in its endpoint's
  // partition and schedules its start at time 0.
  template <class Make>
  void createAgents(net::Network& net, Simulator& sim, Make make) {
    for (int i = 0; i < net.endpointCount(); ++i) {
      net::EndpointNode& ep = net.endpoint(i);
      agents_.push_back(make(ep));
      const ComponentId id = sim.add(*agents_.back(), net.partitionOf(ep.node()));
      sim.scheduleInitial(0, id, kStart);
    }
  }
 protected:
  std::vector<std::unique_ptr<Agent>> agents_;
};

// The workload the scenario asks for.
std::unique_ptr<Workload> makeWorkload(const Scenario& s, net::Network& net, Simulator& sim);

// Merges agents' phase marks by name: earliest start, latest end, in first-seen order.
std::vector<PhaseMark> mergePhases(const std::vector<std::unique_ptr<Agent>>& agents);

}  // namespace fl::work
