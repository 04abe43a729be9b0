// Meshes: the global die grid with a wider gap at wafer borders, each wafer outlined as a
// group. A die and its router share a spot; the router and the die-router Local link are
// not drawn (the die stands for both), so only router-router links show between dies.
#include <string>

#include "layout/layout_internal.h"

namespace fl::layout::detail {

namespace {
constexpr double kMargin = 30;
constexpr double kDie = 60;         // die box side
constexpr double kPitch = 110;      // die centre to die centre inside a wafer
constexpr double kWaferGap = 70;    // extra space across a wafer border
constexpr double kPad = 22;         // wafer box around its dies
constexpr double kLabel = 22;       // room for the wafer label above the dies
}  // namespace

TopologyLayout layoutMesh(const topo::Topology& t) {
  TopologyLayout l = emptyLayout(t);
  const int wr = std::max(1, t.waferRows), wc = std::max(1, t.waferCols);
  const int rowsPerWafer = std::max(1, t.meshRows / wr), colsPerWafer = std::max(1, t.meshCols / wc);
  const double x0 = kMargin + kPad + kDie / 2, y0 = kMargin + kLabel + kPad + kDie / 2;
  auto cx = [&](int c) { return x0 + c * kPitch + (c / colsPerWafer) * kWaferGap; };
  auto cy = [&](int r) { return y0 + r * kPitch + (r / rowsPerWafer) * (kWaferGap + kLabel); };

  for (int r = 0; r < wr; ++r)
    for (int c = 0; c < wc; ++c) {
      GroupBox g;
      g.label = "wafer (" + std::to_string(r) + "," + std::to_string(c) + ")";
      const double left = cx(c * colsPerWafer) - kDie / 2 - kPad;
      const double right = cx((c + 1) * colsPerWafer - 1) + kDie / 2 + kPad;
      const double topY = cy(r * rowsPerWafer) - kDie / 2 - kPad - kLabel;
      const double bottomY = cy((r + 1) * rowsPerWafer - 1) + kDie / 2 + kPad;
      g.x = left;
      g.y = topY;
      g.width = right - left;
      g.height = bottomY - topY;
      l.groups.push_back(g);
    }

  for (const auto& n : t.nodes()) {
    auto& p = l.nodes[static_cast<size_t>(n.id)];
    place(p, cx(n.col), cy(n.row), kDie, kDie);
    p.group = n.wafer;
    if (n.kind == topo::NodeKind::Router) {
      p.visible = false;  // drawn as its die
      p.width = p.height = 0;
    }
  }
  for (const auto& k : t.links()) {
    straightPath(l, k);
    l.links[static_cast<size_t>(k.id)].visible = k.kind != topo::LinkKind::Local;
  }
  finishBounds(l, kMargin);
  return l;
}

}  // namespace fl::layout::detail
