#include "balance/greedy.h"

#include <algorithm>

namespace fl::balance {

std::vector<Move> greedyBalance(ExpertState& s, const HopsFn& hops, int maxMoves) {
  std::vector<Move> moves;
  const int E = static_cast<int>(s.load.size());
  while (maxMoves < 0 || static_cast<int>(moves.size()) < maxMoves) {
    const auto h = s.heat();
    const double hmax = *std::max_element(h.begin(), h.end());
    // 1. the hottest expert per replica (ties: lowest id)
    int e = -1;
    double best = -1;
    for (int x = 0; x < E; ++x) {
      const double share = s.load[static_cast<std::size_t>(x)] / static_cast<double>(s.hosts[static_cast<std::size_t>(x)].size());
      if (share > best) best = share, e = x;
    }
    if (e < 0) break;
    // 2. the coldest die with a free slot that does not host it (ties: lowest id)
    int target = -1;
    for (int d = 0; d < s.dies(); ++d)
      if (s.freeSlots[static_cast<std::size_t>(d)] > 0 && !s.hosts_(e, d) &&
          (target < 0 || h[static_cast<std::size_t>(d)] < h[static_cast<std::size_t>(target)]))
        target = d;
    const double n = static_cast<double>(s.hosts[static_cast<std::size_t>(e)].size());
    // 3. stop when nothing is free or the copy would raise the maximum
    if (target < 0 || h[static_cast<std::size_t>(target)] + s.load[static_cast<std::size_t>(e)] / (n + 1) > hmax) break;
    // 4. from the host nearest to the target (ties: lowest id)
    int from = -1;
    for (int d : s.hosts[static_cast<std::size_t>(e)])
      if (from < 0 || hops(d, target) < hops(from, target) || (hops(d, target) == hops(from, target) && d < from)) from = d;
    s.hosts[static_cast<std::size_t>(e)].push_back(target);
    --s.freeSlots[static_cast<std::size_t>(target)];
    moves.push_back({e, from, target});
  }
  return moves;
}

}  // namespace fl::balance
