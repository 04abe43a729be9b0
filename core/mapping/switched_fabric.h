// Hops between GPUs of a switched fabric (DGX B200 nodes, GB200 NVL72) for a mapping built
// by buildSwitchedMapping: the fabric links (not the die wiring) on each pair's route, as
// the network models route it (netmodel/route_provider.h), e.g. 2 inside a DGX node
// (GPU - NVLink switch - GPU) and 2 between nodes (GPU - IB NIC - spine - GPU).
#pragma once
#include "mapping/mapping.h"
#include "topology/topology.h"

namespace fl::mapping {

void setFabricHops(Mapping& m, const topo::Topology& t);

}  // namespace fl::mapping
