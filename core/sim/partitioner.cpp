#include "sim/partitioner.h"

#include <algorithm>
#include <numeric>

namespace fl {

namespace {
int findRoot(std::vector<int>& parent, int x) {
  while (parent[static_cast<std::size_t>(x)] != x) {
    parent[static_cast<std::size_t>(x)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
    x = parent[static_cast<std::size_t>(x)];
  }
  return x;
}
}  // namespace

Partitioning partitionTopology(const topo::Topology& t, int wanted) {
  const auto n = t.nodes().size();
  Partitioning p;
  p.partitionOf.assign(n, 0);
  if (wanted <= 1 || n < 2) return p;

  // Atoms: nodes that must share a partition.
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (const topo::Link& l : t.links())
    if (l.latency <= 0) parent[static_cast<std::size_t>(findRoot(parent, l.a))] = findRoot(parent, l.b);

  // Walk nodes in id order, opening a new partition each time the running count passes
  // the next share, but never splitting an atom (its first node decides).
  std::vector<int> atomPart(n, -1);
  const double share = static_cast<double>(n) / wanted;
  int current = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto root = static_cast<std::size_t>(findRoot(parent, static_cast<int>(i)));
    if (atomPart[root] < 0) {
      current = std::min(wanted - 1, static_cast<int>(static_cast<double>(i) / share));
      atomPart[root] = current;
    }
    p.partitionOf[i] = atomPart[root];
  }
  p.parts = 1 + *std::max_element(p.partitionOf.begin(), p.partitionOf.end());
  for (const topo::Link& l : t.links())
    if (p.partitionOf[static_cast<std::size_t>(l.a)] != p.partitionOf[static_cast<std::size_t>(l.b)])
      p.lookahead = std::min(p.lookahead, l.latency);
  if (p.parts == 1 || p.lookahead <= 0) {
    p.parts = 1;
    std::fill(p.partitionOf.begin(), p.partitionOf.end(), 0);
    p.lookahead = kTimeNever;
  }
  return p;
}

}  // namespace fl
