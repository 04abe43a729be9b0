#include "views/link_item.h"

#include "views/colour_map.h"

#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>
#include <QtMath>
#include <algorithm>
#include <cmath>

namespace fl::views {

namespace {

double length(QPointF v) { return std::hypot(v.x(), v.y()); }
QPointF unit(QPointF v) {
  const double l = length(v);
  return l > 1e-9 ? v / l : QPointF(1, 0);
}
// Right-hand normal of a travel direction in y-down scene coordinates.
QPointF rightOf(QPointF t) { return {-t.y(), t.x()}; }

// The path shifted sideways by `d` (positive: right of travel from first to last point),
// with mitred corners so parallel lanes stay parallel around bends.
QPolygonF offsetPolyline(const QPolygonF& path, double d) {
  QPolygonF out;
  const int n = path.size();
  for (int i = 0; i < n; ++i) {
    const QPointF in = i > 0 ? rightOf(unit(path[i] - path[i - 1])) : QPointF();
    const QPointF outN = i + 1 < n ? rightOf(unit(path[i + 1] - path[i])) : QPointF();
    QPointF m = i == 0 ? outN : i + 1 == n ? in : unit(in + outN);
    const double cosHalf = QPointF::dotProduct(m, i == 0 ? outN : in);
    if (cosHalf > 0.3) m /= cosHalf;  // miter; sharp turns are not expected
    out << path[i] + m * d;
  }
  return out;
}

// Arc length at which a path starting inside `box` first leaves it (0 if it starts out).
double exitLength(const QPolygonF& path, const QRectF& box) {
  double s = 0;
  for (int i = 0; i + 1 < path.size(); ++i) {
    const QPointF p = path[i], v = path[i + 1] - path[i];
    const double len = length(v);
    if (!box.contains(p)) return s;
    double t = 1e18;
    if (v.x() > 1e-9) t = std::min(t, (box.right() - p.x()) / v.x());
    if (v.x() < -1e-9) t = std::min(t, (box.left() - p.x()) / v.x());
    if (v.y() > 1e-9) t = std::min(t, (box.bottom() - p.y()) / v.y());
    if (v.y() < -1e-9) t = std::min(t, (box.top() - p.y()) / v.y());
    if (t < 1) return s + t * len;
    s += len;
  }
  return s;
}

// Point and unit tangent at arc length s.
std::pair<QPointF, QPointF> pointAt(const QPolygonF& path, double s) {
  for (int i = 0; i + 1 < path.size(); ++i) {
    const QPointF v = path[i + 1] - path[i];
    const double len = length(v);
    if (s <= len || i + 2 == path.size()) return {path[i] + unit(v) * std::clamp(s, 0.0, len), unit(v)};
    s -= len;
  }
  return {path.isEmpty() ? QPointF() : path.first(), QPointF(1, 0)};
}

}  // namespace

LinkItem::LinkItem(int link, const std::vector<layout::Point>& points, const QRectF& boxA,
                   const QRectF& boxB, LaneGeometry geometry)
    : link_(link), geometry_(geometry) {
  QPolygonF path;
  for (const auto& p : points)
    if (path.isEmpty() || length(QPointF(p.x, p.y) - path.last()) > 1e-6) path << QPointF(p.x, p.y);
  if (path.size() < 2) path << path.value(0) + QPointF(1, 0);

  path_ = path;
  lanes_[0] = offsetPolyline(path, geometry.offset);
  QPolygonF reversed(path.rbegin(), path.rend());
  lanes_[1] = offsetPolyline(reversed, geometry.offset);

  // Chevrons: on the first visible stretch leaving a (a comb's own stub), if long
  // enough; else in the middle of the visible part.
  double total = 0;
  for (int i = 0; i + 1 < path.size(); ++i) total += length(path[i + 1] - path[i]);
  const double s0 = exitLength(path, boxA), s1 = total - exitLength(reversed, boxB);
  double mid = s1 > s0 ? (s0 + s1) / 2 : total / 2;
  double segEnd = 0;
  for (int i = 0; i + 1 < path.size() && segEnd <= s0; ++i) segEnd += length(path[i + 1] - path[i]);
  const double stub = std::min(segEnd, s1) - s0;
  if (stub >= 20 && stub < (s1 - s0) * 0.9) mid = s0 + stub / 2;
  const auto [at, tangent] = pointAt(path, mid);
  const double w = geometry.width, along = 0.45 * w, across = 0.3 * w;
  for (int d = 0; d < 2; ++d) {
    const QPointF t = d == 0 ? tangent : -tangent, n = rightOf(t);
    const QPointF tip = at + n * geometry.offset + t * along / 2;
    chevrons_[d] = QPolygonF{tip - t * along + n * across, tip, tip - t * along - n * across};
  }

  QPainterPath base;
  base.addPolygon(path);
  QPainterPathStroker stroker;
  stroker.setWidth(2 * geometry.offset + w + 2);
  stroker.setJoinStyle(Qt::MiterJoin);
  shape_ = stroker.createStroke(base);
  bounds_ = shape_.boundingRect().adjusted(-w, -w, w, w);
  colour_[0] = colour_[1] = QColor(110, 116, 128);
}

void LinkItem::setLane(int direction, const QColor& colour, LaneHeat heat) {
  colour_[direction] = colour;
  heat_[direction] = heat;
}

void LinkItem::setHighlighted(bool on) {
  if (on == highlighted_) return;
  highlighted_ = on;
  update();
}

int LinkItem::laneAt(const QPointF& pos) const {
  auto distance = [&](const QPolygonF& lane) {
    double best = 1e18;
    for (int i = 0; i + 1 < lane.size(); ++i) {
      const QPointF a = lane[i], v = lane[i + 1] - a;
      const double l2 = QPointF::dotProduct(v, v);
      const double t = l2 > 0 ? std::clamp(QPointF::dotProduct(pos - a, v) / l2, 0.0, 1.0) : 0;
      best = std::min(best, length(pos - (a + v * t)));
    }
    return best;
  };
  return distance(lanes_[1]) < distance(lanes_[0]) ? 1 : 0;
}

void LinkItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
  const double w = geometry_.width;
  // Chevrons only where they are big enough on screen to read (else they are noise).
  const bool chevrons = option->levelOfDetailFromTransform(p->worldTransform()) * w >= 7;
  p->setBrush(Qt::NoBrush);
  if (highlighted_) {  // selection: a magenta band under both lanes
    p->setPen(QPen(selectionColour(210), 2 * geometry_.offset + w + 6, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
    p->drawPolyline(path_);
  }
  // Hot lanes last, so a shared trunk segment shows the hot one.
  for (int pass = 0; pass < 2; ++pass)
    for (int d = 0; d < 2; ++d) {
      const bool hot = heat_[d] == LaneHeat::Hot && shown_[d];
      if (hot != (pass == 1)) continue;
      QColor c = colour_[d];
      if (!shown_[d]) {  // filtered out: a faint trace keeps the structure readable
        c.setAlphaF(0.12);
        p->setPen(QPen(c, w, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
        p->drawPolyline(lanes_[d]);
        continue;
      }
      if (heat_[d] == LaneHeat::Cold) c.setAlphaF(0.35);
      if (hot) {  // bright outline around a thicker stroke
        p->setPen(QPen(QColor(255, 255, 255), w * 1.5 + 3, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
        p->drawPolyline(lanes_[d]);
      }
      p->setPen(QPen(c, hot ? w * 1.5 : w, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
      p->drawPolyline(lanes_[d]);
      if (!chevrons) continue;
      // The chevron in a colour that contrasts with the lane (dark on light colours).
      const bool light = c.lightnessF() > 0.45;
      QColor ink = light ? QColor(0, 0, 0, 170) : QColor(255, 255, 255, 190);
      if (heat_[d] == LaneHeat::Cold) ink.setAlphaF(ink.alphaF() * 0.4);
      p->setPen(QPen(ink, std::max(1.0, w * 0.2), Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
      p->drawPolyline(chevrons_[d]);
    }
}

}  // namespace fl::views
