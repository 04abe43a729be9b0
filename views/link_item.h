// One link on the canvas: two directional lanes drawn as parallel strokes either side of
// the link's path, each on the right-hand side of its direction of travel (like traffic
// driving on the right) and with a chevron inside pointing the way it flows, so direction
// reads without a legend. Recolouring only stores colours and schedules a repaint.
#pragma once
#include <QColor>
#include <QGraphicsItem>
#include <QPainterPath>
#include <QPolygonF>
#include <QString>
#include <vector>

#include "layout/topology_layout.h"

namespace fl::views {

enum class LaneHeat { Cold, Normal, Hot };
// Hot at or above `hot` (an idle lane never is), cold at or below `cold`.
inline LaneHeat heatOf(double u, double cold, double hot) {
  return u >= hot && u > 0 ? LaneHeat::Hot : u <= cold ? LaneHeat::Cold : LaneHeat::Normal;
}
inline QString heatName(LaneHeat h) {
  return h == LaneHeat::Hot ? QStringLiteral("hot") : h == LaneHeat::Cold ? QStringLiteral("cold") : QStringLiteral("normal");
}

struct LaneGeometry {
  double offset = 3;  // lane centre line from the link's path
  double width = 4;   // stroke width of one lane
};

class LinkItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 2 };
  // `points` from link.a to link.b; `boxA`/`boxB` are the end nodes' boxes (the
  // chevrons go on a visible stretch outside them).
  LinkItem(int link, const std::vector<layout::Point>& points, const QRectF& boxA, const QRectF& boxB,
           LaneGeometry geometry);

  int type() const override { return Type; }
  int link() const { return link_; }
  int copy = 0;  // which side-by-side copy (0 = the main one)
  // A bundle: every link between the same two nodes drawn as one item (link() is the
  // first), lanes as wide as the bundle's capacity; empty for a single link.
  std::vector<int> members;
  bool isBundle() const { return members.size() > 1; }
  LaneGeometry geometry() const { return geometry_; }

  void setLane(int direction, const QColor& colour, LaneHeat heat);
  QColor laneColour(int direction) const { return colour_[direction]; }
  LaneHeat laneHeat(int direction) const { return heat_[direction]; }
  void setHighlighted(bool on);
  // A lane the direction filter leaves out is drawn faint, without chevron or outline.
  void setLaneShown(int direction, bool shown) { shown_[direction] = shown; }
  bool laneShown(int direction) const { return shown_[direction]; }
  // The lane nearer to a point in item coordinates.
  int laneAt(const QPointF& pos) const;

  QRectF boundingRect() const override { return bounds_; }
  QPainterPath shape() const override { return shape_; }
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  int link_;
  LaneGeometry geometry_;
  QPolygonF path_;  // the link's own path, a to b
  QPolygonF lanes_[2];
  QPolygonF chevrons_[2];  // open ">" polylines, one per lane
  QColor colour_[2];
  LaneHeat heat_[2] = {LaneHeat::Normal, LaneHeat::Normal};
  bool highlighted_ = false;
  bool shown_[2] = {true, true};
  QRectF bounds_;
  QPainterPath shape_;
};

}  // namespace fl::views
