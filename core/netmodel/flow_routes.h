// Routes for the flow model on a hierarchy (tree) topology, as directed link ids
// (2 x link + direction, the order of Results::links): up from the source GPU to the
// lowest common ancestor, then down. Taken once per GPU from the tree's own uplinks
// (port 0 of every non-root node, hierarchy.h) so a route costs a copy, not a routing
// walk: 8 million GPU pairs in a 1000-DC all-to-all. Equal to the packet model's up-down
// routes (tests/core/test_flow_model.cpp checks by walking Topology::candidates).
#pragma once
#include <cstdint>
#include <vector>

#include "topology/topology.h"

namespace fl::netmodel {

inline std::int32_t directedLink(topo::LinkId link, int direction) { return 2 * link + direction; }

class FlowTreeRoutes {
 public:
  // Throws std::invalid_argument unless `t` is a hierarchy with shared uplinks.
  explicit FlowTreeRoutes(const topo::Topology& t);
  // Appends the route from endpoint `src` to endpoint `dst` to `out` (cleared first).
  void route(int src, int dst, std::vector<std::int32_t>& out) const;
  // The routes from `src` to every endpoint of `dsts` as one bundle (FlowSolver::addBundle):
  // each upward link once with the number of routes crossing it, then every route's
  // downward links with count 1 (a link two routes go down appears twice, which the
  // solver counts as two members). O(depth) per destination: no per-pair route copy.
  void fanOut(int src, const std::vector<std::int64_t>& dsts, std::vector<std::int32_t>& route,
              std::vector<std::uint32_t>& counts) const;

 private:
  int depth_ = 0;                    // links from a GPU to the root
  std::vector<std::int32_t> up_;     // [endpoint x depth]: upward directed links, GPU first
  std::vector<topo::NodeId> above_;  // [endpoint x depth]: the node each upward link reaches
};

}  // namespace fl::netmodel
