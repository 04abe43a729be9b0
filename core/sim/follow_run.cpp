#include "sim/follow_run.h"

#include "scenario/follow_selector.h"
#include "scenario/input_error.h"
#include "topology/topology.h"
#include "xdc/cross_dc_run.h"
#include "workloads/moe_agent.h"

namespace fl {

FollowSpec followSpecFor(const Scenario& s, const topo::Topology& t, int gpu, int item, int piece) {
  FollowSpec f;
  const int n = t.endpointCount();
  if (n <= 0 || gpu < 0 || gpu >= n) return f;
  const auto node = [&](int index) { return t.endpointNode(((index % n) + n) % n); };
  f.piece = piece;
  if (s.workload.kind == WorkloadKind::MoeLayer) {
    f.piece = -1;  // a token's pieces are numbered from token x pieces: all of them
    for (int kind : {work::kTagDispatch, work::kTagCombine}) f.keys.push_back({work::moeTag(kind, gpu, item), -1});
    return f;
  }
  if (s.workload.kind == WorkloadKind::Collective) {
    switch (s.workload.collective.algorithm) {
      case CollectiveAlgorithm::Ring:  // rank r sends chunk (r - s) mod n at step s, tagged s
        for (int step = 0; step < 2 * (n - 1); ++step) f.keys.push_back({std::uint64_t(step), node(item + step)});
        return f;
      case CollectiveAlgorithm::Nvls:  // untagged; the GPU is the source or the requester
        f.keys.push_back({0, node(gpu)});
        return f;
      case CollectiveAlgorithm::Direct:  // tagged with the destination's index
        f.keys.push_back({std::uint64_t(item), node(gpu)});
        return f;
      default:
        break;
    }
  }
  f.keys.push_back({std::uint64_t(item), node(gpu)});
  return f;
}

std::string describeFollow(const Scenario& s, int gpu, int item, int piece) {
  const std::string g = "GPU " + std::to_string(gpu);
  const std::string p = ", piece " + std::to_string(piece);
  if (s.workload.kind == WorkloadKind::MoeLayer) return "token " + std::to_string(item) + " of " + g;
  if (s.workload.kind == WorkloadKind::Collective) switch (s.workload.collective.algorithm) {
      case CollectiveAlgorithm::Ring: return "chunk " + std::to_string(item) + " round the ring" + p;
      case CollectiveAlgorithm::Nvls: return "the chunk of " + g + p;
      case CollectiveAlgorithm::Direct: return g + "'s data for GPU " + std::to_string(item) + p;
      default: break;
    }
  return g + ", tag " + std::to_string(item) + p;
}

Results runWithFollow(const Scenario& s, const topo::Topology& t, const RunControl& control) {
  const std::optional<FollowSelector> sel = parseFollowSelector(s.run.follow);
  if (!sel || sel->none()) return runOnTopology(s, t, control);
  // A sweep point the selector does not fit records nothing (checkRunFollow said so).
  if (followMisfit(s, *sel)) return runOnTopology(s, t, control);
  if (s.workload.kind == WorkloadKind::CrossDcMoe && xdc::runsOnFlow(s, t))
    throw InputError({}, "run.follow", "a packet-level run (only packets have hops to follow)",
                     "cross_dc_moe on the flow model", "set network.model: packet");
  const FollowChoice c = followChoice(*sel);
  const FollowSpec spec = followSpecFor(s, t, c.gpu, c.item, c.piece);
  PacketFollow recorded;
  Results r = runFollowing(s, t, &spec, &recorded, control);
  recorded.what = describeFollow(s, c.gpu, c.item, c.piece);
  r.follow = std::move(recorded);
  return r;
}

}  // namespace fl
