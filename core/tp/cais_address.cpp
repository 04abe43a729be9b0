#include "tp/cais_address.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fl::tp {

CaisAddressMap::CaisAddressMap(net::Network& net) {
  if (net.endpointCount() == 0) throw std::logic_error("cais: no endpoints");
  // Slots follow GPU 0's links; every GPU must reach the same switches with the same
  // number of links each (the hash is the same on every GPU).
  for (const auto& o : net.endpoint(0).outputs()) switchOfSlot_.push_back(o.peerNode);
  std::vector<topo::NodeId> sorted0 = switchOfSlot_;
  std::sort(sorted0.begin(), sorted0.end());
  for (int e = 1; e < net.endpointCount(); ++e) {
    std::vector<topo::NodeId> s;
    for (const auto& o : net.endpoint(e).outputs()) s.push_back(o.peerNode);
    std::sort(s.begin(), s.end());
    if (s != sorted0)
      throw std::logic_error("cais: GPU " + std::to_string(e) + "'s links lead to other switches than GPU 0's");
  }
  for (topo::NodeId sw : switchOfSlot_)
    if (topo::isEndpoint(net.topology().node(sw).kind))
      throw std::logic_error("cais: a GPU link that does not lead to a switch");
}

}  // namespace fl::tp
