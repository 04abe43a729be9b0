#include "topology/routing_xy.h"

#include <cassert>

namespace fl::topo {

XyRouting::XyRouting(const Topology& t, int rows, int cols)
    : rows_(rows), cols_(cols), routerPort_(static_cast<size_t>(rows) * cols) {
  // Classify each router port by where its peer sits, instead of trusting link order.
  for (int cell = 0; cell < rows * cols; ++cell) {
    auto& dirs = routerPort_[static_cast<size_t>(cell)];
    dirs.fill(-1);
    const NodeId router = 2 * cell + 1;
    const Node& self = t.node(router);
    const auto& ps = t.ports(router);
    for (int p = 0; p < static_cast<int>(ps.size()); ++p) {
      const Node& peer = t.node(ps[static_cast<size_t>(p)].peer);
      Dir d = peer.kind == NodeKind::Die ? Local
              : peer.col > self.col      ? East
              : peer.col < self.col      ? West
              : peer.row > self.row      ? South
                                         : North;
      dirs[d] = p;
    }
  }
}

void XyRouting::candidates(const Topology&, NodeId at, NodeId dst, std::vector<int>& ports) const {
  ports.clear();
  if (at == dst) return;
  if ((at & 1) == 0) {  // a die has one port: the Local link to its router
    ports.push_back(0);
    return;
  }
  const int cellAt = at >> 1, cellDst = dst >> 1;
  assert(cellDst < rows_ * cols_);
  const int rA = cellAt / cols_, cA = cellAt - rA * cols_;
  const int rD = cellDst / cols_, cD = cellDst - rD * cols_;
  Dir d = cD > cA   ? East
          : cD < cA ? West
          : rD > rA ? South
          : rD < rA ? North
                    : Local;  // dst is this router's own die
  const int p = routerPort_[static_cast<size_t>(cellAt)][d];
  assert(p >= 0);
  ports.push_back(p);
}

}  // namespace fl::topo
