// What an MoE layer has to move, worked out from the routing before anything runs: for
// every token, the distinct remote GPUs its top-k experts live on (and how many of its
// experts each hosts), the bytes of a dispatched token and of a combined output, and the
// "useful" volume per phase and direction: what must cross the links with ideal in-switch
// multicast and reduction (each needed token once up its source's link and once down each
// distinct destination's link in Dispatch; the mirror in Combine).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "gpu/tile_gemm.h"
#include "moe/placement.h"
#include "moe/routing.h"
#include "scenario/scenario.h"

namespace fl::work {

// Views into MoePlan's flat arrays (every token's lists back to back: one allocation,
// read in token order, instead of two small ones per token scattered over the heap).
struct TokenRoute {
  std::span<const std::int32_t> gpus;     // distinct remote destination GPUs, ascending
  std::span<const std::uint16_t> experts; // experts of this token on each of them
};

enum MoePhase : int { kDispatch = 0, kCombine = 1 };
enum Direction : int { kUplink = 0, kDownlink = 1 };

struct MoePlan {
  MoePlan() = default;
  MoePlan(MoePlan&&) = default;  // routes point into routeGpus / routeExperts: no copies
  MoePlan& operator=(MoePlan&&) = default;
  MoePlan(const MoePlan&) = delete;
  MoePlan& operator=(const MoePlan&) = delete;

  int gpus = 0, tokens = 0;
  std::int64_t dispatchBytes = 0;  // one token vector in the dispatch dtype
  std::int64_t combineBytes = 0;   // one expert output in the combine dtype
  std::vector<TokenRoute> routes;  // [gpu * tokens + token]
  std::vector<std::int32_t> routeGpus;      // what routes[].gpus view, token after token
  std::vector<std::uint16_t> routeExperts;  // what routes[].experts view
  std::vector<std::int64_t> tokensIn;    // per GPU: remote tokens it receives (deduplicated)
  std::vector<std::int64_t> localRows;   // per GPU: token rows its experts compute (all sources)
  std::vector<Time> gemm1, gemm2;        // per GPU: expert GEMM times
  // For token pipelines: every token's chosen experts, where experts live, and the token
  // rows each GPU's local experts compute.
  int topK = 0;
  std::vector<std::int32_t> chosen;             // [(gpu * tokens + token) * topK + j]
  std::vector<std::int32_t> expertGpu;          // host GPU per expert
  std::vector<std::int32_t> expertLocal;        // index among its host's local experts
  std::vector<std::vector<std::int32_t>> localExperts;  // per GPU, ascending
  std::vector<std::vector<std::int64_t>> expertRows;    // per GPU, per local expert
  double meanRemoteGpus = 0;             // d: distinct remote GPUs per token, mean over tokens
  std::int64_t useful[2][2] = {};        // [phase][direction], payload bytes

  const TokenRoute& route(int gpu, int token) const {
    return routes[static_cast<std::size_t>(gpu) * static_cast<std::size_t>(tokens) + static_cast<std::size_t>(token)];
  }
};

MoePlan planMoeLayer(const Scenario& s, int gpus);

}  // namespace fl::work
