#include "results/packet_follow.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "network/packet.h"
#include "results/results.h"

namespace fl {

void sortHops(std::vector<FollowedHop>& hops) {
  std::sort(hops.begin(), hops.end(), [](const FollowedHop& a, const FollowedHop& b) {
    return std::tie(a.start, a.from, a.link, a.direction, a.op, a.piece, a.tag, a.source, a.requester) <
           std::tie(b.start, b.from, b.link, b.direction, b.op, b.piece, b.tag, b.source, b.requester);
  });
}

FollowSpec combineFollowSpecs(const std::vector<FollowSpec>& specs) {
  if (specs.size() == 1) return specs.front();
  FollowSpec all;
  all.maxHops = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    for (FollowKey k : specs[i].keys) {
      k.group = static_cast<std::int32_t>(i);
      if (k.piece < 0) k.piece = specs[i].piece;
      all.keys.push_back(k);
    }
    all.maxHops = std::max(all.maxHops, specs[i].maxHops);
  }
  all.piece = -1;  // each key says its own
  return all;
}

std::vector<NamedHop> namedHops(const Results& r) {
  std::vector<NamedHop> out;
  if (!r.follow) return out;
  std::map<std::pair<int, int>, const LinkDirectionResult*> byLink;
  for (const LinkDirectionResult& l : r.links) byLink[{l.link, l.direction}] = &l;
  for (const FollowedHop& h : r.follow->hops) {
    NamedHop n;
    n.hop = &h;
    const auto it = byLink.find({h.link, h.direction});
    n.from = it != byLink.end() ? it->second->from : "node " + std::to_string(h.from);
    n.to = it != byLink.end() ? it->second->to : "node " + std::to_string(h.to);
    n.op = net::toString(static_cast<net::Op>(h.op));
    out.push_back(std::move(n));
  }
  return out;
}

}  // namespace fl
