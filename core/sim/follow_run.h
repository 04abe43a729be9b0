// Follow one (results/packet_follow.h): a run that also records the hops of one token's or
// one chunk's packets, and what to follow in a workload's own words. The views re-run a
// point this way when the user picks something to follow; the results are those of the
// ordinary run (recording changes no event).
#pragma once
#include <string>

#include "results/packet_follow.h"
#include "sim/run.h"

namespace fl {

namespace topo {
class Topology;
}

// runOnTopology that records into `followed` the hops of packets matching `follow`
// (either may be null: an ordinary run). Flow-model runs (HybridEP, analytical wafer
// runs) have no packets: nothing is recorded.
Results runFollowing(const Scenario& scenario, const topo::Topology& topology, const FollowSpec* follow,
                     PacketFollow* followed, const RunControl& control = {});

// What "follow item `item` of GPU `gpu`" (an endpoint index) means for the scenario's
// workload, and how it is named:
//   MoE layer: token `item` of the GPU, its dispatch, combine and their acknowledgements
//              (every piece of the token vector; `piece` is ignored);
//   ring collective: chunk `item` as it goes round the ring (sent at step s by rank
//              item + s, numbered like the ring's own chunks), piece `piece` of it;
//   NVLS collective: the GPU's own chunk, piece `piece`: its ld_reduce request, the
//              switch's reads of every member, their contributions and the reduced
//              result, then its multimem.st and the replicas;
//   direct (all-to-all): the GPU's message to GPU `item`, piece `piece`;
//   anything else: the GPU's packets of tag `item`, piece `piece`.
FollowSpec followSpecFor(const Scenario& scenario, const topo::Topology& topology, int gpu, int item, int piece);
std::string describeFollow(const Scenario& scenario, int gpu, int item, int piece);

// runOnTopology with the hops of the packets scenario.run.follow names in Results::follow
// (an ordinary run when it is none). Throws InputError at run.follow when the point
// cannot follow them (a flow-model run has no packets).
Results runWithFollow(const Scenario& scenario, const topo::Topology& topology, const RunControl& control = {});

}  // namespace fl
