// Up/down routing on a tree (hierarchy.h): go down towards the child whose subtree
// holds the destination, else up to the parent. Uses the preorder layout, where the
// subtree of a depth-d node v is the id range [v, v + size[d]) and its children start
// at v + 1 + j * size[d + 1]; so per node it stores only its depth, not a routing table
// (1000 x 2 x 8 builds in microseconds and costs one byte per node).
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

 private:
  std::vector<std::int32_t> subtreeSize_;  // [depth]: nodes in a depth-d subtree
  std::vector<std::uint8_t> depth_;        // [node]
};

}  // namespace fl::topo
