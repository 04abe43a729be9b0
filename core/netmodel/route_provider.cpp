#include "netmodel/route_provider.h"

#include <stdexcept>

namespace fl::netmodel {

const std::vector<Hop>& RouteProvider::route(int srcEndpoint, int dstEndpoint) const {
  hops_.clear();
  topo::NodeId at = t_.endpointNode(srcEndpoint);
  const topo::NodeId dst = t_.endpointNode(dstEndpoint);
  for (std::size_t guard = 0; at != dst; ++guard) {
    if (guard > t_.nodes().size()) throw std::logic_error("routing loop");
    t_.candidates(at, dst, ports_);
    if (ports_.empty()) throw std::logic_error("no route");
    const topo::Port& p = t_.ports(at)[static_cast<std::size_t>(ports_.front())];
    hops_.push_back({p.link, p.direction});
    at = p.peer;
  }
  return hops_;
}

}  // namespace fl::netmodel
