// Greedy balancing as the paper describes EPLB (seed 003 §V-C, spec §2.11): copy the
// hottest expert (per replica) to the coldest die with a free slot, from its host nearest
// to that die; invasive: the iteration stalls for the copies.
#pragma once
#include <functional>
#include <vector>

#include "balance/expert_state.h"

namespace fl::balance {

using HopsFn = std::function<int(int, int)>;

// Applies the moves to `state` and returns them in order; at most `maxMoves` (< 0: no limit).
std::vector<Move> greedyBalance(ExpertState& state, const HopsFn& hops, int maxMoves = -1);

}  // namespace fl::balance
