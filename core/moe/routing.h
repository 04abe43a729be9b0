// Routing generators: for every token of every GPU, its top-k distinct experts.
//
//   uniform    each token picks k distinct experts uniformly at random
//   normal     expert popularity drawn once per run: share_e = max(0, 1/E + σ·Z_e),
//              renormalised (seed 000 §V-B: "token distribution across experts as a
//              normal distribution with a standard deviation of 0.032", after COMET)
//   power_law  popularity ∝ rank^-α, ranks assigned to experts by a random permutation
//              (seed 000 §VI-C3: inference routing, α 0.5-2.5)
//   trace      recorded rows (routing_trace.h), token t of GPU g replays row
//              (g·tokens_per_gpu + t) mod rows
//
// A popularity is a share per expert (sum 1): the expected fraction of all token-expert
// assignments that expert receives. Tokens then pick k distinct experts by systematic
// (Madow) sampling over a fresh random order of experts, which gives every expert exactly
// inclusion probability k·share -- so expert loads follow the popularity in expectation.
// An expert cannot be chosen twice by one token, so shares are capped at 1/k and the
// excess spread over the others in proportion (inclusionProbabilities).
//
// Deterministic: the popularity uses one RandomStream and GPU g's tokens another
// (seed, stream ids below), so the routing depends on (seed, parameters) only.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace fl {

struct RoutingParams {
  int gpus = 8;
  int tokens_per_gpu = 4096;
  int experts = 256;
  int top_k = 8;
  RoutingDistribution distribution = RoutingDistribution::Uniform;
  double sigma = 0.032;
  double alpha = 1.0;
  std::string trace;  // path (already resolved)
  std::uint64_t seed = 1;
};

// From a scenario: GPUs = endpointCount(topology), run.seed and workload.moe.
RoutingParams routingParams(const Scenario& s);

// RandomStream ids ("MoE" in the high bytes, so they never meet other components').
inline constexpr std::uint64_t kPopularityStream = 0x4D6F45ull << 40;
inline std::uint64_t tokenStream(int gpu) { return kPopularityStream + 1 + static_cast<std::uint64_t>(gpu); }

struct Routing {
  int gpus = 0, tokens_per_gpu = 0, experts = 0, top_k = 0;
  std::vector<double> popularity;     // share per expert (uniform: 1/E; trace: observed)
  std::vector<std::int32_t> choices;  // [(gpu·tokens_per_gpu + token)·top_k + j]

  std::span<const std::int32_t> chosen(int gpu, int token) const {
    const auto at = (static_cast<std::size_t>(gpu) * static_cast<std::size_t>(tokens_per_gpu) +
                     static_cast<std::size_t>(token)) * static_cast<std::size_t>(top_k);
    return {choices.data() + at, static_cast<std::size_t>(top_k)};
  }
};

// The popularity of `p.distribution` (uniform and trace: 1/E each; the trace's own
// shares are measured by generateRouting).
std::vector<double> expertPopularity(const RoutingParams& p);

// k·share capped at 1, the excess redistributed proportionally until none exceeds 1;
// sums to k. Requires at least k positive shares.
std::vector<double> inclusionProbabilities(const std::vector<double>& shares, int topK);

// Throws InputError for a bad trace (routing_trace.h).
Routing generateRouting(const RoutingParams& p);

}  // namespace fl
