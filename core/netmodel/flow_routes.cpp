#include "netmodel/flow_routes.h"

#include <algorithm>
#include <stdexcept>

namespace fl::netmodel {

FlowTreeRoutes::FlowTreeRoutes(const topo::Topology& t) {
  if (t.kind != "hierarchy") throw std::invalid_argument("flow routes: a hierarchy topology is needed");
  const int n = t.endpointCount();
  if (n == 0) return;
  depth_ = t.node(t.endpointNode(0)).level;
  up_.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(depth_));
  above_.resize(up_.size());
  for (int e = 0; e < n; ++e) {
    topo::NodeId at = t.endpointNode(e);
    for (int k = 0; k < depth_; ++k) {
      const auto& ports = t.ports(at);
      if (ports.empty() || t.link(ports[0].link).kind == topo::LinkKind::Nic || ports[0].peer != t.node(at).parent)
        throw std::invalid_argument("flow routes: per-GPU uplinks are not supported");
      const std::size_t i = static_cast<std::size_t>(e) * static_cast<std::size_t>(depth_) + static_cast<std::size_t>(k);
      up_[i] = directedLink(ports[0].link, ports[0].direction);
      at = ports[0].peer;
      above_[i] = at;
    }
  }
}

void FlowTreeRoutes::route(int src, int dst, std::vector<std::int32_t>& out) const {
  out.clear();
  if (src == dst) return;
  const std::size_t d = static_cast<std::size_t>(depth_);
  const std::int32_t* us = up_.data() + static_cast<std::size_t>(src) * d;
  const std::int32_t* ud = up_.data() + static_cast<std::size_t>(dst) * d;
  const topo::NodeId* as = above_.data() + static_cast<std::size_t>(src) * d;
  const topo::NodeId* ad = above_.data() + static_cast<std::size_t>(dst) * d;
  std::size_t j = 0;  // hops up to the lowest common ancestor
  while (j < d && as[j] != ad[j]) ++j;
  ++j;
  for (std::size_t k = 0; k < j; ++k) out.push_back(us[k]);
  for (std::size_t k = j; k-- > 0;) out.push_back(ud[k] ^ 1);  // the same link, downward
}

void FlowTreeRoutes::fanOut(int src, const std::vector<std::int64_t>& dsts, std::vector<std::int32_t>& route,
                            std::vector<std::uint32_t>& counts) const {
  const std::size_t d = static_cast<std::size_t>(depth_);
  if (d > 64) throw std::invalid_argument("flow routes: a tree deeper than 64 levels");
  const std::int32_t* us = up_.data() + static_cast<std::size_t>(src) * d;
  const topo::NodeId* as = above_.data() + static_cast<std::size_t>(src) * d;
  std::uint32_t upCount[64] = {};
  std::size_t down = 0;
  for (const std::int64_t dst : dsts) {  // hops up to each lowest common ancestor
    if (dst == src) continue;
    const topo::NodeId* ad = above_.data() + static_cast<std::size_t>(dst) * d;
    std::size_t j = 0;
    while (j < d && as[j] != ad[j]) ++j;
    const std::size_t hops = std::min(j + 1, d);
    for (std::size_t k = 0; k < hops; ++k) ++upCount[k];
    down += hops;
  }
  std::size_t up = 0;
  while (up < d && upCount[up] > 0) ++up;
  route.resize(up + down);
  counts.resize(up + down);
  for (std::size_t k = 0; k < up; ++k) route[k] = us[k], counts[k] = upCount[k];
  std::size_t at = up;
  for (const std::int64_t dst : dsts) {
    if (dst == src) continue;
    const std::int32_t* ud = up_.data() + static_cast<std::size_t>(dst) * d;
    const topo::NodeId* ad = above_.data() + static_cast<std::size_t>(dst) * d;
    std::size_t j = 0;
    while (j < d && as[j] != ad[j]) ++j;
    for (std::size_t k = std::min(j + 1, d); k-- > 0;) route[at] = ud[k] ^ 1, counts[at++] = 1;
  }
}

}  // namespace fl::netmodel
