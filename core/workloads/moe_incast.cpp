#include "workloads/moe_incast.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace fl::work {

std::int64_t maximalIncastVolume(std::int64_t tokens, int experts, int localExperts, int precisionBytes,
                                 int hidden, int remotePeers) {
  if (experts <= 0) return 0;
  // In doubles: tokens x hidden x n_rg can pass 2^63 for absurd inputs before the division.
  const double perPeer = static_cast<double>(tokens) / experts * localExperts;
  return std::llround(perPeer * precisionBytes * hidden * 2.0 * remotePeers);
}

int remotePeers(const topo::Topology& t) {
  bool nics = false;
  for (const topo::Link& l : t.links()) nics = nics || topo::isNicLink(t, l);
  if (!nics) return 0;
  std::vector<int> perLeaf(t.nodes().size(), 0);  // GPUs per leaf switch
  for (topo::NodeId n : t.endpoints())
    if (t.node(n).parent >= 0) ++perLeaf[static_cast<std::size_t>(t.node(n).parent)];
  int fewest = t.endpointCount();
  for (int n : perLeaf)
    if (n > 0) fewest = std::min(fewest, n);
  return t.endpointCount() - fewest;
}

}  // namespace fl::work
