#include "topology/routing_updown.h"

#include "scenario/scenario.h"

namespace fl::topo {

UpDownRouting::UpDownRouting(const Topology& t, const std::vector<LevelSpec>& levels) {
  gpuDepth_ = static_cast<int>(levels.size());
  const size_t depths = levels.size() + 1;
  subtreeSize_.assign(depths, 1);
  for (size_t d = depths - 1; d-- > 0;)
    subtreeSize_[d] = 1 + levels[d].count * subtreeSize_[d + 1];
  firstPort_.assign(depths, 0);
  perGpu_.assign(depths, 0);
  nicPort_.assign(depths, 0);
  std::uint8_t nics = 0;
  for (size_t d = 0; d < levels.size(); ++d) {
    perGpu_[d] = levels[d].uplinks == LevelUplinks::PerGpu;
    firstPort_[d + 1] = perGpu_[d] ? 0 : 1;  // level-d members have an uplink unless per-GPU
    if (perGpu_[d]) nicPort_[d] = ++nics;    // after the GPU's access link, outermost first
  }
  anyPerGpu_ = nics > 0;
  depth_.reserve(t.nodes().size());
  for (const Node& n : t.nodes()) depth_.push_back(static_cast<std::uint8_t>(n.level));
}

void UpDownRouting::candidates(const Topology& t, NodeId at, NodeId dst,
                               std::vector<int>& ports) const {
  ports.clear();
  if (at == dst) return;
  const int d = depth_[static_cast<size_t>(at)];
  if (d == gpuDepth_) {  // a GPU: by its own Nic when one skips towards the common ancestor
    if (anyPerGpu_) {
      NodeId lca = t.node(at).parent;
      while (lca != dst && !below(lca, dst)) lca = t.node(lca).parent;
      for (int i = depth_[static_cast<size_t>(lca)]; i + 1 < gpuDepth_; ++i)
        if (perGpu_[static_cast<size_t>(i)]) {
          ports.push_back(nicPort_[static_cast<size_t>(i)]);
          return;
        }
    }
    ports.push_back(0);  // its access link to the leaf switch
    return;
  }
  if (below(at, dst)) {
    if (!perGpu_[static_cast<size_t>(d)]) {
      const int child = (dst - at - 1) / subtreeSize_[static_cast<size_t>(d) + 1];
      ports.push_back(firstPort_[static_cast<size_t>(d)] + child);
    } else if (depth_[static_cast<size_t>(dst)] == gpuDepth_) {
      // The GPU's Nic port: GPUs of the subtree in endpoint order; the first one is the
      // leftmost leaf, gpuDepth_ - d preorder steps below.
      const int first = t.node(at + gpuDepth_ - d).endpoint;
      ports.push_back(firstPort_[static_cast<size_t>(d)] + t.node(dst).endpoint - first);
    }  // else a switch inside a member: no link leads down to it from here
  } else if (firstPort_[static_cast<size_t>(d)] != 0) {
    ports.push_back(0);  // not below us: up
  }  // else the root, or a member of a per-GPU level: no uplink
}

}  // namespace fl::topo
