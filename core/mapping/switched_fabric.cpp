#include "mapping/switched_fabric.h"

#include "netmodel/route_provider.h"

namespace fl::mapping {

void setFabricHops(Mapping& m, const topo::Topology& t) {
  const int n = m.dies();
  netmodel::RouteProvider routes(t);
  m.pairHops.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      int hops = 0;
      for (const netmodel::Hop& h : routes.route(a, b)) hops += t.link(h.link).kind == topo::LinkKind::Local ? 0 : 1;
      m.pairHops[static_cast<std::size_t>(a) * static_cast<std::size_t>(n) + static_cast<std::size_t>(b)] = hops;
    }
}

}  // namespace fl::mapping
