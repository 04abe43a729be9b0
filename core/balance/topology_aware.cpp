#include "balance/topology_aware.h"

#include <algorithm>

namespace fl::balance {

std::vector<Move> topologyAwareBalance(ExpertState& s, const HopsFn& hops, int maxMoves) {
  std::vector<Move> moves;
  const int E = static_cast<int>(s.load.size());
  const auto share = [&](int e) {
    return s.load[static_cast<std::size_t>(e)] / static_cast<double>(s.hosts[static_cast<std::size_t>(e)].size());
  };
  while (maxMoves < 0 || static_cast<int>(moves.size()) < maxMoves) {
    const auto h = s.heat();
    // 1. the hottest die (ties: lowest id)
    const int src = static_cast<int>(std::max_element(h.begin(), h.end()) - h.begin());
    const double hmax = h[static_cast<std::size_t>(src)];
    // 2. its hottest expert per replica (ties: lowest id)
    int e = -1;
    for (int x = 0; x < E; ++x)
      if (s.hosts_(x, src) && (e < 0 || share(x) > share(e))) e = x;
    if (e < 0) break;
    const double added = s.load[static_cast<std::size_t>(e)] / static_cast<double>(s.hosts[static_cast<std::size_t>(e)].size() + 1);
    // 3-5. the nearest candidate that stays within the maximum (then colder, then lower id)
    int target = -1;
    for (int d = 0; d < s.dies(); ++d) {
      if (d == src || s.hosts_(e, d) || s.freeSlots[static_cast<std::size_t>(d)] <= 0 ||
          h[static_cast<std::size_t>(d)] + added > hmax)
        continue;
      if (target < 0) {
        target = d;
        continue;
      }
      const int hd = hops(src, d), ht = hops(src, target);
      if (hd < ht || (hd == ht && h[static_cast<std::size_t>(d)] < h[static_cast<std::size_t>(target)])) target = d;
    }
    if (target < 0) break;
    // 6. copy from the hottest die; every host's heat follows from n_e + 1
    s.hosts[static_cast<std::size_t>(e)].push_back(target);
    --s.freeSlots[static_cast<std::size_t>(target)];
    moves.push_back({e, src, target});
  }
  return moves;
}

}  // namespace fl::balance
