// Splits a topology into simulator partitions: nodes joined by zero-latency links stay
// together (atoms: no lookahead across them). Two candidate splits, the better kept:
// contiguous, balanced runs of atoms (builders number nodes spatially, so runs are
// compact: few cut links on meshes and trees), and, for stars, atoms dealt out by
// weight (ports), heaviest first, to the lightest partition, so that switches spread
// over the partitions with GPUs beside them (a contiguous split of 32 GPUs then 9
// switches put every switch in the last partitions: they did most of the work). The
// lookahead is the smallest latency of a cut link.
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

// The automatic partition count (run.partitions 0): enough for a workstation's cores and
// the same for any thread count (results do not depend on it, but the count is reported):
// 16, or one per two atoms on small fabrics.
int automaticPartitions(const topo::Topology& t);

}  // namespace fl
