// HybridEP's domain-based partition (seed 004 §IV-A): location renumbering (Eq. 13) and
// the pair classification of Algorithm 1. A cluster is a list of scaling factors SF^l
// (workers per level-(l-1) worker, outermost first; G = product) and, per level, an
// expert-domain size S_ED^l dividing SF^l. Inside a domain GPUs fetch each other's
// experts (all-gather, AG); across domains they send tokens (all-to-all, A2A).
#pragma once
#include <cstdint>
#include <vector>

namespace fl::xdc {

enum class PairKind { None, AllGather, AllToAll };

// Eq. 13: the mixed-radix digits of global rank m (PyTorch rank order), outermost
// level first, the last level varying fastest. The extracted text writes "/" where
// integer division is meant (spec 1.7): floors here.
std::vector<int> renumber(std::int64_t m, const std::vector<int>& sf);
// The inverse: m = sum_i x_i * prod_{j>i} SF^j.
std::int64_t globalRank(const std::vector<int>& location, const std::vector<int>& sf);

// Algorithm 1 for GPUs m and n at `level`, with the typos fixed (Loc_D/E -> Loc_m/n).
// Resolution of the paper's ambiguity (spec 1.8): the pseudocode compares only the
// inner levels l+1.., which at the last level would pair GPUs of different DCs; we use
// the prose's hierarchical reading, "all other levels equal" (every coordinate but l).
// Both readings agree at level 0 and for pairs sharing all outer coordinates.
PairKind classifyPair(std::int64_t m, std::int64_t n, int level, const std::vector<int>& sf,
                      const std::vector<int>& domains);

// The GPUs `m` exchanges with at `level` under `kind` (AG: its S_ED - 1 domain peers;
// A2A: the SF/S_ED - 1 GPUs at its offset in the other domains), ascending. Equal to
// enumerating classifyPair over all n, without the O(G) scan.
std::vector<std::int64_t> peers(std::int64_t m, int level, PairKind kind, const std::vector<int>& sf,
                                const std::vector<int>& domains);
// The same into `out` (cleared first), without allocating once `out` has grown: the
// communicator asks for millions of these.
void peers(std::int64_t m, int level, PairKind kind, const std::vector<int>& sf, const std::vector<int>& domains,
           std::vector<std::int64_t>& out);

// Directed pair counts per level (Table VII for one level): G*(SF^l/S^l - 1) A2A and
// G*(S^l - 1) AG.
struct PairCounts {
  std::int64_t a2a = 0, ag = 0;
};
PairCounts pairCounts(int level, const std::vector<int>& sf, const std::vector<int>& domains);

std::int64_t gpuCount(const std::vector<int>& sf);

}  // namespace fl::xdc
