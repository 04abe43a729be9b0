// Which experts a die's tokens pick (seed 003 §VI-B balances the gating so every expert is
// equally likely; spec moentwine.md §1.2): uniform_exact gives every expert exactly
// tokens * k / E picks (exact byte counts), uniform and zipf sample tokens * k picks from
// a seeded distribution (zipf: Zipf(s) over a seeded permutation of the experts, "expert
// popularity bias"), trace replays per-expert token shares from a CSV (expert_load_trace.h).
#pragma once
#include <cstdint>
#include <vector>

#include "scenario/scenario.h"

namespace fl::wsc {

// Picks per expert for `tokens` tokens; `stream` seeds the sample (same stream, same picks).
std::vector<double> expertPicks(const WscSpec& w, double tokens, std::uint64_t seed, std::uint64_t stream,
                                const std::vector<double>& traceShares);

}  // namespace fl::wsc
