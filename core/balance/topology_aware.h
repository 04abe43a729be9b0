// Topology-aware balancing, Algorithm 1 of seed 003 (§V-C; symbols lost, spec §2.11 [R]):
// relieve the hottest die by copying its hottest expert (per replica) to the nearest die
// that can take it without exceeding the current maximum heat. Ties: hottest die lowest
// id; expert lowest id; target fewest hops, then lower heat, then lower id. It "focuses
// solely on reducing peak device load". Invasive on its own; NI-Balancer runs its moves
// on cold links (non_invasive.h).
#pragma once
#include <vector>

#include "balance/greedy.h"

namespace fl::balance {

std::vector<Move> topologyAwareBalance(ExpertState& state, const HopsFn& hops, int maxMoves = -1);

}  // namespace fl::balance
