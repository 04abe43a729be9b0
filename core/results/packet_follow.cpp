#include "results/packet_follow.h"

#include <algorithm>
#include <tuple>

namespace fl {

void sortHops(std::vector<FollowedHop>& hops) {
  std::sort(hops.begin(), hops.end(), [](const FollowedHop& a, const FollowedHop& b) {
    return std::tie(a.start, a.from, a.link, a.direction, a.op, a.piece, a.tag, a.source, a.requester) <
           std::tie(b.start, b.from, b.link, b.direction, b.op, b.piece, b.tag, b.source, b.requester);
  });
}

}  // namespace fl
