// Up/down routing on a tree (hierarchy.h): go down towards the child whose subtree
// holds the destination, else up to the parent. Uses the preorder layout, where the
// subtree of a depth-d node v is the id range [v, v + size[d]) and its children start
// at v + 1 + j * size[d + 1]; so per node it stores only its depth, not a routing table
// (1000 x 2 x 8 builds in microseconds and costs one byte per node).
//
// Per-GPU uplinks (rail-style levels): a GPU whose destination lies outside the member
// of such a level leaves by its own Nic link to the member's parent switch (the highest
// such jump that does not overshoot the lowest common ancestor), and a switch whose next
// level has per-GPU uplinks reaches a GPU below it by that GPU's Nic link. Switches
// below a per-GPU level are reachable only from inside their member (endpoints do not
// forward): candidates() is empty for such a destination from outside.
#pragma once
#include <cstdint>
#include <vector>

#include "topology/topology.h"

namespace fl {
struct LevelSpec;
}

namespace fl::topo {

class UpDownRouting final : public Routing {
 public:
  UpDownRouting(const Topology& t, const std::vector<LevelSpec>& levels);
  void candidates(const Topology& t, NodeId at, NodeId dst, std::vector<int>& ports) const override;
  const char* name() const override { return "up-down"; }
  bool endpointLinksInterchangeable() const override { return !anyPerGpu_; }

 private:
  bool below(NodeId v, NodeId dst) const {
    return dst > v && dst < v + subtreeSize_[depth_[static_cast<std::size_t>(v)]];
  }

  int gpuDepth_ = 0;                       // = number of levels
  bool anyPerGpu_ = false;
  std::vector<std::int32_t> subtreeSize_;  // [depth]: nodes in a depth-d subtree
  std::vector<std::uint8_t> firstPort_;    // [depth]: 1 after an uplink port, else 0
  std::vector<std::uint8_t> perGpu_;       // [depth d < gpuDepth_]: level d has per-GPU uplinks
  std::vector<std::uint8_t> nicPort_;      // [depth d]: a GPU's port of its Nic to depth d
  std::vector<std::uint8_t> depth_;        // [node]
};

}  // namespace fl::topo
