// NVSwitch fabrics: GPUs split into a top and a bottom row, switch chips in a row between
// them, so every GPU-chip bundle is a short line that crosses few others. Parallel links
// of a bundle fan out beside each other between the boxes (and meet at the centres, under
// the boxes), so each one is visible and clickable.
#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "layout/layout_internal.h"

namespace fl::layout::detail {

namespace {

constexpr double kMargin = 40;
constexpr double kGpuW = 100, kGpuH = 50;
constexpr double kChipW = 130, kChipH = 50;
constexpr double kGpuPitch = 140, kChipPitch = 170;
constexpr double kRowGap = 260;       // centre to centre, GPU rows to the chip row
constexpr double kParallelSpacing = 9;  // between the links of one bundle

// Distance from a w x h box's centre to its edge along unit direction (ux, uy).
double toEdge(double w, double h, double ux, double uy) {
  const double tx = std::abs(ux) > 1e-9 ? (w / 2) / std::abs(ux) : 1e18;
  const double ty = std::abs(uy) > 1e-9 ? (h / 2) / std::abs(uy) : 1e18;
  return std::min(tx, ty);
}

}  // namespace

TopologyLayout layoutNvSwitch(const topo::Topology& t) {
  TopologyLayout l = emptyLayout(t);
  std::vector<topo::NodeId> gpus, chips;
  for (const auto& n : t.nodes()) (topo::isEndpoint(n.kind) ? gpus : chips).push_back(n.id);

  const int top = static_cast<int>((gpus.size() + 1) / 2);
  const int bottom = static_cast<int>(gpus.size()) - top;
  const double width = std::max({top * kGpuPitch, bottom * kGpuPitch, chips.size() * kChipPitch});
  // Each row is centred on the widest one.
  auto rowX = [&](int count, double pitch, int i) {
    return kMargin + (width - count * pitch) / 2 + pitch * (i + 0.5);
  };
  const double yTop = kMargin + kGpuH / 2, yChips = yTop + kRowGap, yBottom = yChips + kRowGap;
  for (int i = 0; i < static_cast<int>(gpus.size()); ++i) {
    const bool upper = i < top;
    place(l.nodes[static_cast<size_t>(gpus[static_cast<size_t>(i)])],
          rowX(upper ? top : bottom, kGpuPitch, upper ? i : i - top), upper ? yTop : yBottom, kGpuW,
          kGpuH);
  }
  for (int c = 0; c < static_cast<int>(chips.size()); ++c)
    place(l.nodes[static_cast<size_t>(chips[static_cast<size_t>(c)])],
          rowX(static_cast<int>(chips.size()), kChipPitch, c), yChips, kChipW, kChipH);

  // Bundles: links between the same pair of nodes, in id order.
  std::map<std::pair<topo::NodeId, topo::NodeId>, std::vector<topo::LinkId>> bundles;
  for (const auto& k : t.links()) bundles[{std::min(k.a, k.b), std::max(k.a, k.b)}].push_back(k.id);
  for (const auto& [pair, ids] : bundles) {
    const int m = static_cast<int>(ids.size());
    for (int j = 0; j < m; ++j) {
      const topo::Link& k = t.link(ids[static_cast<size_t>(j)]);
      const auto& a = l.nodes[static_cast<size_t>(k.a)];
      const auto& b = l.nodes[static_cast<size_t>(k.b)];
      const double dx = b.center.x - a.center.x, dy = b.center.y - a.center.y;
      const double len = std::hypot(dx, dy);
      if (m == 1 || len < 1e-9) {
        straightPath(l, k);
        continue;
      }
      const double ux = dx / len, uy = dy / len, nx = -uy, ny = ux;
      const double off = (j - (m - 1) / 2.0) * kParallelSpacing;
      const double da = toEdge(a.width, a.height, ux, uy) + 4;
      const double db = toEdge(b.width, b.height, ux, uy) + 4;
      l.links[static_cast<size_t>(k.id)].points = {
          a.center,
          {a.center.x + ux * da + nx * off, a.center.y + uy * da + ny * off},
          {b.center.x - ux * db + nx * off, b.center.y - uy * db + ny * off},
          b.center};
    }
  }
  finishBounds(l, kMargin);
  return l;
}

}  // namespace fl::layout::detail
