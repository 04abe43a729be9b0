// Splits a topology into simulator partitions: nodes joined by zero-latency links stay
// together (no lookahead across them); the rest is cut into contiguous, balanced runs of
// nodes (builders number nodes spatially, so runs are compact). The lookahead is the
// smallest latency of a cut link.
#pragma once
#include <vector>

#include "topology/topology.h"

namespace fl {

struct Partitioning {
  int parts = 1;
  std::vector<int> partitionOf;  // by node id
  Time lookahead = kTimeNever;
};

Partitioning partitionTopology(const topo::Topology& t, int wanted);

}  // namespace fl
