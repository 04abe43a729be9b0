#include "layout/layout_nic.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>

namespace fl::layout::detail {

void routeNics(TopologyLayout& l, const NodePlacement& parent, double topChannel, const std::vector<NicBox>& boxes,
               std::vector<NicRoute> routes) {
  const double spine = parent.center.x;
  const size_t n = routes.size();
  // Where each route drops: below its GPU; routes sharing a start (the GPUs of a
  // collapsed box all sit at its centre) fan out across what is drawn there.
  std::vector<double> drop(n);
  std::map<std::pair<double, double>, std::vector<size_t>> sharing;
  for (size_t i = 0; i < n; ++i) sharing[{routes[i].start.x, routes[i].start.y}].push_back(i);
  for (const auto& [at, ids] : sharing) {
    const double m = static_cast<double>(ids.size());
    const double d = m > 1 ? std::min(kNicLane, std::max(0.0, routes[ids[0]].startWidth - 16) / (m - 1)) : 0;
    for (size_t k = 0; k < ids.size(); ++k) drop[ids[k]] = at.first + (static_cast<double>(k) - (m - 1) / 2) * d;
  }

  std::vector<double> channel(n), lane(n);
  for (const bool left : {true, false}) {
    std::vector<size_t> side;
    for (size_t i = 0; i < n; ++i)
      if (boxes[static_cast<size_t>(routes[i].box)].leftOfSpine == left) side.push_back(i);
    // Earlier rows first, then nearest the spine first: that order takes the lanes from
    // the outermost (next to the boxes) inwards, and each row's channels from the top.
    auto key = [&](size_t i) {
      return std::make_tuple(boxes[static_cast<size_t>(routes[i].box)].row, std::abs(drop[i] - spine), routes[i].link);
    };
    std::sort(side.begin(), side.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
    const double lanes = static_cast<double>(side.size());
    int rank = 0, row = -1;
    for (size_t j = 0; j < side.size(); ++j) {
      const size_t i = side[j];
      const NicBox& box = boxes[static_cast<size_t>(routes[i].box)];
      rank = box.row == row ? rank + 1 : 0;
      row = box.row;
      channel[i] = box.bottom + kNicChannel + rank * kNicLane;
      const double out = kNicLane / 2 + (lanes - 1 - static_cast<double>(j)) * kNicLane;
      lane[i] = left ? spine - out : spine + out;
    }
  }

  // Into the parent from below, fanned across its width in lane order (so the last
  // stretches do not cross either).
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return lane[a] < lane[b]; });
  const double m = static_cast<double>(n);
  const double fan = m > 1 ? std::min(kNicLane, std::max(0.0, parent.width - 16) / (m - 1)) : 0;
  const double bottom = parent.center.y + parent.height / 2;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = order[k];
    const NicRoute& r = routes[i];
    const double target = spine + (static_cast<double>(k) - (m - 1) / 2) * fan;
    std::vector<Point> path{r.start,         {drop[i], channel[i]}, {lane[i], channel[i]},
                            {lane[i], topChannel}, {target, bottom},      parent.center};
    path.erase(std::unique(path.begin(), path.end(),
                           [](const Point& p, const Point& q) { return p.x == q.x && p.y == q.y; }),
               path.end());
    auto& link = l.links[static_cast<size_t>(r.link)];
    link.points = std::move(path);
    link.visible = true;
  }
}

}  // namespace fl::layout::detail
