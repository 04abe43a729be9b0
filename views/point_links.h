// The sweep points that have what a dock shows, as links: a view of a point without its
// data (the Merge Table on TP-NVLS, Migrations without a balancer) names the points that
// have it, and a click shows that point (pointRequested; the window selects it). Nothing
// switches by itself: the user's chosen point stands until they click.
#pragma once
#include <QLabel>
#include <utility>
#include <vector>

namespace fl::views {

class PointLinks : public QLabel {
  Q_OBJECT
 public:
  using Point = std::pair<int, QString>;  // sweep point index, its label
  explicit PointLinks(QWidget* parent = nullptr);

  // `lead` (may be empty) then the points' labels as links; hidden without points.
  void setPoints(const QString& lead, std::vector<Point> points);
  const std::vector<Point>& points() const { return points_; }

 signals:
  void pointRequested(int point);

 private:
  std::vector<Point> points_;
  QString lead_;
};

}  // namespace fl::views
