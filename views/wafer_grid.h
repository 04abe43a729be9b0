// The die grid of a wafer-scale mesh as the wafer views draw it (hot/cold overlay,
// migration animation, mapping editor): each die's box and each die-to-die link's
// segment, taken from core/layout (the canvas's own layout, so every view places a die
// at the same spot) and scaled into a target rectangle. Dies are numbered as core/mapping
// numbers them: id = row x columns + column over the whole system; die d is topology
// node 2d and its router node 2d + 1 (topology/mesh.cpp).
#pragma once
#include <QColor>
#include <QLineF>
#include <QRectF>
#include <vector>

#include "layout/topology_layout.h"
#include "topology/topology.h"

namespace fl::views {

class WaferGrid {
 public:
  struct Segment {
    int link = -1;       // topology link id (router to router)
    int dieA = -1, dieB = -1;  // its ends: link.a's die, link.b's die
    QLineF line;         // from dieA's centre to dieB's centre, in target coordinates
    bool border = false; // crosses a wafer edge
  };

  WaferGrid() = default;
  // Empty (dies() == 0) unless `t` is a mesh.
  explicit WaferGrid(const topo::Topology& t);

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  int dies() const { return rows_ * cols_; }
  int dieOfNode(int node) const { return node >= 0 ? node / 2 : -1; }
  // Scales the layout into `target` keeping its aspect ratio (centred).
  void fit(const QRectF& target);
  QRectF dieRect(int die) const;
  QPointF dieCentre(int die) const { return dieRect(die).center(); }
  const std::vector<Segment>& segments() const { return segments_; }
  const Segment* segmentOfLink(int link) const;
  // The link between two neighbouring dies (-1 if they are not neighbours).
  int linkBetween(int dieA, int dieB) const;
  // The die whose box holds `p` (target coordinates), -1 if none.
  int dieAt(const QPointF& p) const;
  double scale() const { return scale_; }
  // Wafer outlines in target coordinates.
  std::vector<QRectF> waferRects() const;

 private:
  int rows_ = 0, cols_ = 0;
  layout::TopologyLayout layout_;
  std::vector<Segment> segments_;
  std::vector<int> segmentOfLink_;  // by link id, -1 when none
  QRectF bounds_;  // layout units drawn: the wafer boxes
  double scale_ = 1, dx_ = 0, dy_ = 0;
  QRectF toTarget(double cx, double cy, double w, double h) const;
};

// A colour per TP group: hues spread by the golden angle with alternating lightness, so
// neighbouring group numbers (often neighbouring tiles) never look alike.
QColor groupColour(int group);

}  // namespace fl::views
