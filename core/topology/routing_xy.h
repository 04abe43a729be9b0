// Dimension-ordered XY routing on a 2-D mesh: first along the row to the destination
// column, then along the column to the destination row, then down the Local link into
// the die. Deterministic and deadlock-free on a mesh; one candidate per hop. Computed on
// the fly from coordinates (O(1) per hop), so it needs no routers x routers table.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "topology/topology.h"

namespace fl::topo {

class XyRouting final : public Routing {
 public:
  // Expects the mesh.h layout (die = node 2i, router = node 2i + 1 for cell i = r*cols + c).
  XyRouting(const Topology& t, int rows, int cols);
  void candidates(const Topology& t, NodeId at, NodeId dst, std::vector<int>& ports) const override;
  const char* name() const override { return "xy"; }

  enum Dir { Local = 0, East, West, South, North };

 private:
  int rows_, cols_;
  std::vector<std::array<std::int32_t, 5>> routerPort_;  // [cell][Dir], -1 where absent
};

}  // namespace fl::topo
