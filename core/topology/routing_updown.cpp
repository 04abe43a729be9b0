#include "topology/routing_updown.h"

#include "scenario/scenario.h"

namespace fl::topo {

UpDownRouting::UpDownRouting(const Topology& t, const std::vector<LevelSpec>& levels) {
  const size_t depths = levels.size() + 1;
  subtreeSize_.assign(depths, 1);
  for (size_t d = depths - 1; d-- > 0;)
    subtreeSize_[d] = 1 + levels[d].count * subtreeSize_[d + 1];
  depth_.reserve(t.nodes().size());
  for (const Node& n : t.nodes()) depth_.push_back(static_cast<std::uint8_t>(n.level));
}

void UpDownRouting::candidates(const Topology&, NodeId at, NodeId dst,
                               std::vector<int>& ports) const {
  ports.clear();
  if (at == dst) return;
  const int d = depth_[static_cast<size_t>(at)];
  if (dst > at && dst < at + subtreeSize_[static_cast<size_t>(d)]) {
    const int child = (dst - at - 1) / subtreeSize_[static_cast<size_t>(d) + 1];
    ports.push_back(at == 0 ? child : 1 + child);  // non-root: port 0 is the uplink
  } else {
    ports.push_back(0);  // not below us: up (the root never gets here)
  }
}

}  // namespace fl::topo
