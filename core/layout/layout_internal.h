// Helpers shared by the per-kind layout files (not part of the public layout API).
#pragma once
#include "layout/topology_layout.h"

namespace fl::layout::detail {

TopologyLayout layoutNvSwitch(const topo::Topology& t);
TopologyLayout layoutMesh(const topo::Topology& t);
TopologyLayout layoutHierarchy(const topo::Topology& t, const LayoutOptions& options);
TopologyLayout layoutGeneric(const topo::Topology& t);

// Empty placements and paths for every node and link of `t`, indexed by id.
TopologyLayout emptyLayout(const topo::Topology& t);

inline void place(NodePlacement& p, double cx, double cy, double w, double h) {
  p.center = {cx, cy};
  p.width = w;
  p.height = h;
}

// A straight link from a's centre to b's centre.
void straightPath(TopologyLayout& l, const topo::Link& link);

// Width and height of the bounding box of everything visible, plus `margin` on the
// right and bottom (everything is placed from (margin, margin) on).
void finishBounds(TopologyLayout& l, double margin);

}  // namespace fl::layout::detail
