#include "views/wafer_grid.h"

#include <algorithm>
#include <cmath>

namespace fl::views {

WaferGrid::WaferGrid(const topo::Topology& t) {
  if (t.kind != "mesh" || t.meshRows <= 0 || t.meshCols <= 0) return;
  rows_ = t.meshRows;
  cols_ = t.meshCols;
  layout_ = layout::layoutTopology(t);
  segmentOfLink_.assign(t.links().size(), -1);
  for (const topo::Link& l : t.links()) {
    if (l.kind != topo::LinkKind::Mesh && l.kind != topo::LinkKind::Border) continue;
    Segment s;
    s.link = l.id;
    s.dieA = dieOfNode(l.a);
    s.dieB = dieOfNode(l.b);
    s.border = l.kind == topo::LinkKind::Border;
    segmentOfLink_[static_cast<size_t>(l.id)] = static_cast<int>(segments_.size());
    segments_.push_back(s);
  }
  // The part worth drawing: the wafer boxes (dies, their padding and labels), without the
  // layout's outer margin, so small panels get bigger dies.
  for (const layout::GroupBox& g : layout_.groups) bounds_ |= QRectF(g.x, g.y, g.width, g.height);
  if (bounds_.isEmpty()) bounds_ = QRectF(0, 0, layout_.width, layout_.height);
  fit(bounds_);
}

QRectF WaferGrid::toTarget(double cx, double cy, double w, double h) const {
  return QRectF(dx_ + (cx - w / 2) * scale_, dy_ + (cy - h / 2) * scale_, w * scale_, h * scale_);
}

void WaferGrid::fit(const QRectF& target) {
  if (!dies() || bounds_.width() <= 0 || bounds_.height() <= 0) return;
  scale_ = std::min(target.width() / bounds_.width(), target.height() / bounds_.height());
  dx_ = target.left() + (target.width() - bounds_.width() * scale_) / 2 - bounds_.left() * scale_;
  dy_ = target.top() + (target.height() - bounds_.height() * scale_) / 2 - bounds_.top() * scale_;
  for (Segment& s : segments_) s.line = QLineF(dieCentre(s.dieA), dieCentre(s.dieB));
}

QRectF WaferGrid::dieRect(int die) const {
  if (die < 0 || die >= dies()) return {};
  const layout::NodePlacement& p = layout_.nodes[static_cast<size_t>(2 * die)];
  return toTarget(p.center.x, p.center.y, p.width, p.height);
}

const WaferGrid::Segment* WaferGrid::segmentOfLink(int link) const {
  if (link < 0 || link >= static_cast<int>(segmentOfLink_.size())) return nullptr;
  const int s = segmentOfLink_[static_cast<size_t>(link)];
  return s < 0 ? nullptr : &segments_[static_cast<size_t>(s)];
}

int WaferGrid::linkBetween(int dieA, int dieB) const {
  for (const Segment& s : segments_)
    if ((s.dieA == dieA && s.dieB == dieB) || (s.dieA == dieB && s.dieB == dieA)) return s.link;
  return -1;
}

int WaferGrid::dieAt(const QPointF& p) const {
  for (int d = 0; d < dies(); ++d)
    if (dieRect(d).contains(p)) return d;
  return -1;
}

std::vector<QRectF> WaferGrid::waferRects() const {
  std::vector<QRectF> out;
  for (const layout::GroupBox& g : layout_.groups)
    out.push_back(toTarget(g.x + g.width / 2, g.y + g.height / 2, g.width, g.height));
  return out;
}

QColor groupColour(int group) {
  if (group < 0) return QColor(200, 200, 200);
  const double hue = std::fmod(group * 137.508, 360.0);
  const int light = group % 2 ? 150 : 185;
  return QColor::fromHsl(static_cast<int>(hue), 170, light);
}

}  // namespace fl::views
