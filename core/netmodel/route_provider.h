// The links a transfer crosses, taken from the topology's own routing (XY on meshes), so
// every network model loads exactly the links the packet model does. Deterministic: the
// first candidate at each hop, as the packet network picks on single-path fabrics.
#pragma once
#include <vector>

#include "topology/topology.h"

namespace fl::netmodel {

struct Hop {
  int link = -1;
  int direction = 0;  // 0: a -> b
};

class RouteProvider {
 public:
  explicit RouteProvider(const topo::Topology& t) : t_(t) {}
  // Endpoint to endpoint, Local (die <-> router) links included.
  const std::vector<Hop>& route(int srcEndpoint, int dstEndpoint) const;

 private:
  const topo::Topology& t_;
  mutable std::vector<Hop> hops_;
  mutable std::vector<int> ports_;
};

}  // namespace fl::netmodel
