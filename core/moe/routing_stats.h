// What a routing means for the network and the experts: per-expert loads, deduplicated
// per-GPU token counts (one copy per destination GPU, as DeepEP sends them), the mean
// number of distinct remote GPUs per token, and the closed forms tests check them against.
#pragma once
#include <cstdint>
#include <vector>

#include "moe/placement.h"
#include "moe/routing.h"

namespace fl {

// Token-expert assignments per expert (the rows of that expert's GEMMs); sums to
// gpus x tokens_per_gpu x top_k.
std::vector<std::int64_t> expertLoads(const Routing& r);

// counts[s][d]: tokens of GPU s that need GPU d, counted once however many of the
// token's experts d hosts. The diagonal holds tokens with a local expert (no traffic).
using TokenMatrix = std::vector<std::vector<std::int64_t>>;
TokenMatrix dispatchCounts(const Routing& r, const ExpertPlacement& placement);

// Per GPU: deduplicated tokens sent to / received from other GPUs (the row / column sums
// of dispatchCounts without the diagonal). Combine moves the same counts back.
std::vector<std::int64_t> tokensSent(const TokenMatrix& counts);
std::vector<std::int64_t> tokensReceived(const TokenMatrix& counts);

// Mean over all tokens of the number of distinct GPUs other than the token's own that
// host at least one of its experts (DySHARP's dispatch fan-out, seed 000 §II-B).
double meanRemoteGpus(const Routing& r, const ExpertPlacement& placement);

// C(n - m, k) / C(n, k): the chance that k distinct picks out of n all miss m given ones.
double missProbability(int n, int m, int k);

// Closed forms for uniform routing (k distinct experts uniformly out of E), for a token
// on `source`: D = sum over GPUs g != source of X_g, X_g = 1 when g hosts one of its
// experts. E[X_g] = 1 - C(E - m_g, k)/C(E, k) with m_g the experts on g, and
// E[X_g X_h] = 1 - q_g - q_h + C(E - m_g - m_h, k)/C(E, k) gives the variance.
double expectedRemoteGpusUniform(const ExpertPlacement& placement, int topK, int source);
double varianceRemoteGpusUniform(const ExpertPlacement& placement, int topK, int source);
// Equal split (E/G experts per GPU, e.g. contiguous): (G - 1)(1 - C(E - E/G, k)/C(E, k)).
double expectedRemoteGpusUniform(int gpus, int experts, int topK);

}  // namespace fl
