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
  const std::optional<std::vector<FollowSelector>> sels = parseFollowSelectors(s.run.follow);
  if (!sels || sels->front().none()) return runOnTopology(s, t, control);
  // A selector that does not fit this sweep point records nothing here (checkRunFollow said
  // so); the others keep their place in the list (their group, their colour).
  std::vector<FollowSpec> specs;
  std::vector<std::string> parts;
  bool any = false;
  for (const FollowSelector& sel : *sels) {
    if (followMisfit(s, sel)) {
      specs.emplace_back();
      parts.emplace_back("(nothing in this point)");
      continue;
    }
    const FollowChoice c = followChoice(sel);
    specs.push_back(followSpecFor(s, t, c.gpu, c.item, c.piece));
    parts.push_back(describeFollow(s, c.gpu, c.item, c.piece));
    any = true;
  }
  if (!any) return runOnTopology(s, t, control);
  if (s.workload.kind == WorkloadKind::CrossDcMoe && xdc::runsOnFlow(s, t))
    throw InputError({}, "run.follow", "a packet-level run (only packets have hops to follow)",
                     "cross_dc_moe on the flow model", "set network.model: packet");
  const FollowSpec spec = combineFollowSpecs(specs);
  PacketFollow recorded;
  Results r = runFollowing(s, t, &spec, &recorded, control);
  if (parts.size() == 1) {
    recorded.what = parts.front();
  } else {
    for (const std::string& p : parts) recorded.what += (recorded.what.empty() ? "" : " and ") + p;
    recorded.parts = std::move(parts);
  }
  r.follow = std::move(recorded);
  return r;
}

}  // namespace fl
