// The packet-level network of one run: a node component per topology node (switches
// and endpoints), the packet pools of each partition, multicast groups, and the
// statistics gathered into Results at the end.
#pragma once
#include <memory>
#include <span>
#include <vector>

#include "engine/simulator.h"
#include "network/endpoint_node.h"
#include "network/network_config.h"
#include "network/packet_pool.h"
#include "network/switch_node.h"
#include "topology/topology.h"

namespace fl {
struct NetworkSpec;
struct Results;
}  // namespace fl

namespace fl::net {

class Network {
 public:
  // `partitionOf[node]` places each topology node in a simulator partition.
  // `recordedBinBudget`: time bins all channels together may record (at most
  // kRecordedBinBudget; a run's share of run.memory_limit, see sim/memory_estimate.h).
  Network(const topo::Topology& topology, const NetworkSpec& spec, Time bin, Simulator& sim,
          const std::vector<int>& partitionOf, std::int64_t recordedBinBudget = kRecordedBinBudget);
  ~Network();

  const topo::Topology& topology() const { return topology_; }
  const NetworkConfig& config() const { return config_; }
  // Set by the tp_layer workload before the run (seed 002 §III-B2, §III-C2).
  void setCaisControl(int throttleOn, int throttleOff, bool trafficControl) {
    config_.caisThrottleOn = throttleOn;
    config_.caisThrottleOff = throttleOff;
    config_.caisTrafficControl = trafficControl;
    if (config_.virtualChannels >= 4) {  // a response VC stays
      config_.caisControlVc = config_.virtualChannels - 1;
      config_.vcPriority[static_cast<std::size_t>(config_.caisControlVc)] = NetworkConfig::kHighPriority;
    }
  }
  // Reserves the last request VC for background messages (Message::background), which
  // every port then sends at strict low priority. Set by a workload before the run
  // (PlanWorkload, when its plan holds background items); needs two request VCs.
  void enableBackgroundClass();
  PacketPool& pool(int partition) { return pools_[static_cast<std::size_t>(partition)]; }
  ComponentId componentOf(topo::NodeId n) const { return componentOf_[static_cast<std::size_t>(n)]; }
  int partitionOf(topo::NodeId n) const { return partitionOf_[static_cast<std::size_t>(n)]; }
  NetworkNode& node(topo::NodeId n) { return *nodes_[static_cast<std::size_t>(n)]; }
  // Events left out by lazy delivery (credits, idle switch ports freed), had the run
  // handled them (see NetworkNode::elidedEvents).
  std::int64_t elidedEvents(Time limit, Time& last) const;

  EndpointNode& endpoint(int index) { return *endpoints_[static_cast<std::size_t>(index)]; }
  int endpointCount() const { return static_cast<int>(endpoints_.size()); }
  const std::vector<SwitchNode*>& switches() const { return switches_; }

  // Multicast groups: NVLS multicast objects (static, every member), or the per-request
  // target sets of dynamic multimem addressing. `targets[i]` counts the targets (e.g.
  // experts) member i stands for: a replica towards member i carries a target list of
  // that length (`trimmedTargets`), encoded `targetsPerFlit` per extension flit.
  struct MulticastGroup {
    std::vector<topo::NodeId> members;
    std::vector<std::uint16_t> targets;  // empty: no target lists in replicas
    int targetsPerFlit = 8;
  };
  int addGroup(std::vector<topo::NodeId> members);
  int addGroup(const MulticastGroup& g);
  // Valid until the next addGroup().
  std::span<const topo::NodeId> group(int id) const {
    const StoredGroup& g = groups_[static_cast<std::size_t>(id)];
    return {groupMembers_.data() + g.first, g.size};
  }
  // Cache hint: where group(id) is found (its members are found from there).
  void prefetchGroup(int id) const {
    if (static_cast<std::size_t>(id) < groups_.size()) __builtin_prefetch(&groups_[static_cast<std::size_t>(id)]);
  }
  // Extension flits of the replica towards member `index` of group `id`.
  int replicaExtensionFlits(int id, std::size_t index) const;

  // Link, switch, traffic and invariant statistics, as of now.
  void collect(Results& r, Time makespan) const;
  void collectCais(Results& r) const;
  std::int64_t peakLivePackets() const;

  // Follow one: every node records the hops of packets matching `spec` (kept by the
  // caller for the run); followed() gathers them in the canonical order.
  void setFollow(const FollowSpec* spec);
  PacketFollow followed() const;

 private:
  const topo::Topology& topology_;
  NetworkConfig config_;
  std::vector<int> partitionOf_;
  std::vector<PacketPool> pools_;
  std::unique_ptr<PeakTracker> liveTracker_;  // partitioned runs
  std::vector<std::unique_ptr<NetworkNode>> nodes_;  // by topology node id
  std::vector<ComponentId> componentOf_;
  std::vector<EndpointNode*> endpoints_;
  std::vector<SwitchNode*> switches_;
  // Groups back to back in two flat arrays (a dysharp layer has one per token and GPU:
  // 131 k at 4096 tokens on 32 GPUs, read by every multicast packet).
  struct StoredGroup {
    std::uint32_t first = 0, size = 0;  // in groupMembers_ / groupTargets_
    bool targeted = false;
    int targetsPerFlit = 8;
  };
  std::vector<StoredGroup> groups_;
  std::vector<topo::NodeId> groupMembers_;
  std::vector<std::uint16_t> groupTargets_;  // beside groupMembers_; 0 for untargeted groups
};

}  // namespace fl::net
