// A hand-checkable in-switch reduction: three GPUs on one switch by links of very
// different latency (100, 300, 700 ns; 1 TB/s, so a 256 B packet takes a fraction of a
// nanosecond), running an NVLS reduce-scatter whose chunks are `pieces` packets each.
// GPU i's ld_reduce reaches the switch after L_i; the switch's reads reach GPU j after
// L_j more, and j's data comes back after another L_j. So requester i's reduction entry
// (in the buffer of switch port i, the port its request came in by) receives j's
// contribution at about L_i + 2 L_j: 300, 700, 1500 ns for GPU 0; 500, 900, 1700 ns for
// GPU 1; 900, 1300, 2100 ns for GPU 2 (within a few ns of packet and header times).
// `scale` multiplies every latency (10'000: entries living over 4.29 ms, whose offsets
// no longer fit 32 bits of picoseconds).
#pragma once
#include <algorithm>
#include <memory>
#include <vector>

#include "scenario/scenario.h"
#include "topology/topology.h"

namespace fl::test {

inline constexpr Time kStarLatency[3] = {100 * kNanosecond, 300 * kNanosecond, 700 * kNanosecond};

// At a GPU: its one link; at the switch: the port whose peer is the destination.
class StarRouting : public topo::Routing {
 public:
  void candidates(const topo::Topology& t, topo::NodeId at, topo::NodeId dst, std::vector<int>& ports) const override {
    ports.clear();
    if (at == dst) return;
    const auto& own = t.ports(at);
    if (t.node(at).kind != topo::NodeKind::Switch) {
      ports.push_back(0);
      return;
    }
    for (int p = 0; p < int(own.size()); ++p)
      if (own[size_t(p)].peer == dst) ports.push_back(p);
  }
  const char* name() const override { return "star"; }
};

inline std::shared_ptr<topo::Topology> starTopology(Time scale = 1) {
  auto t = std::make_shared<topo::Topology>();
  const auto sw = t->addNode(topo::NodeKind::Switch, "sw0");
  for (int i = 0; i < 3; ++i) {
    const auto g = t->addNode(topo::NodeKind::Gpu, "gpu" + std::to_string(i));
    t->addLink(topo::LinkKind::Access, g, sw, 1e12, scale * kStarLatency[i]);  // switch port i
  }
  t->setRouting(std::make_unique<StarRouting>());
  t->kind = "nvswitch";
  return t;
}

inline Scenario starScenario(int pieces) {
  Scenario s;
  s.workload.kind = WorkloadKind::Collective;
  s.workload.collective.op = CollectiveOp::ReduceScatter;
  s.workload.collective.algorithm = CollectiveAlgorithm::Nvls;
  s.workload.collective.size = 3 * 256 * pieces;  // `pieces` 256 B packets per GPU's chunk
  s.network.packet_payload = 256;
  s.run.bin = 100 * kNanosecond;
  return s;
}

// When requester `port`'s entry receives its contributions (the header's arithmetic), in order.
inline std::vector<Time> starArrivals(int port, Time scale = 1) {
  std::vector<Time> a;
  for (Time l : kStarLatency) a.push_back(scale * (kStarLatency[port] + 2 * l));
  std::sort(a.begin(), a.end());
  return a;
}

// Brute force: how many of `arrivals` are at or before `t`.
inline int countUpTo(const std::vector<Time>& arrivals, Time t) {
  int n = 0;
  for (Time a : arrivals) n += a <= t;
  return n;
}

}  // namespace fl::test
