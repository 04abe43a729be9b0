// Dispatch on the topology kind, plus the helpers and the fallback layout every kind
// shares. Each kind's layout lives in its own file (layout_nvswitch/mesh/hierarchy.cpp).
#include "layout/topology_layout.h"

#include <algorithm>
#include <cmath>

#include "layout/layout_internal.h"

namespace fl::layout {

namespace detail {

TopologyLayout emptyLayout(const topo::Topology& t) {
  TopologyLayout l;
  l.nodes.resize(t.nodes().size());
  for (const auto& n : t.nodes()) l.nodes[static_cast<size_t>(n.id)].node = n.id;
  l.links.resize(t.links().size());
  for (const auto& k : t.links()) l.links[static_cast<size_t>(k.id)].link = k.id;
  return l;
}

void straightPath(TopologyLayout& l, const topo::Link& link) {
  auto& p = l.links[static_cast<size_t>(link.id)];
  p.points = {l.nodes[static_cast<size_t>(link.a)].center, l.nodes[static_cast<size_t>(link.b)].center};
}

void finishBounds(TopologyLayout& l, double margin) {
  double w = 0, h = 0;
  for (const auto& n : l.nodes)
    if (n.visible) {
      w = std::max(w, n.center.x + n.width / 2);
      h = std::max(h, n.center.y + n.height / 2);
    }
  for (const auto& g : l.groups)
    if (g.visible) {
      w = std::max(w, g.x + g.width);
      h = std::max(h, g.y + g.height);
    }
  for (const auto& p : l.links)
    if (p.visible)
      for (const auto& q : p.points) {
        w = std::max(w, q.x);
        h = std::max(h, q.y);
      }
  l.width = w + margin;
  l.height = h + margin;
}

// Unknown kinds (custom topologies built in code): nodes on a square grid in id order,
// straight links. Readable enough to inspect, and never fails.
TopologyLayout layoutGeneric(const topo::Topology& t) {
  TopologyLayout l = emptyLayout(t);
  const int n = static_cast<int>(t.nodes().size());
  const int cols = std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n)))));
  constexpr double kPitch = 140, kMargin = 40, kW = 96, kH = 44;
  for (const auto& node : t.nodes())
    place(l.nodes[static_cast<size_t>(node.id)], kMargin + kW / 2 + (node.id % cols) * kPitch,
          kMargin + kH / 2 + (node.id / cols) * kPitch, kW, kH);
  for (const auto& link : t.links()) straightPath(l, link);
  finishBounds(l, kMargin);
  return l;
}

}  // namespace detail

TopologyLayout layoutTopology(const topo::Topology& t, const LayoutOptions& options) {
  if (t.kind == "nvswitch") return detail::layoutNvSwitch(t);
  if (t.kind == "mesh" && t.meshRows > 0 && t.meshCols > 0) return detail::layoutMesh(t);
  if (t.kind == "hierarchy") return detail::layoutHierarchy(t, options);
  return detail::layoutGeneric(t);
}

}  // namespace fl::layout
