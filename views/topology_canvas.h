// The fabric drawn from core/layout: devices as labelled boxes, every link as two
// directional lanes coloured by RunModel::displayedUtilisation (viridis; hot lanes
// thicker with a bright outline, cold lanes dimmed), group boxes for wafers and
// datacenters. Rebuilds its items on topologyChanged; on results/bin/threshold/phase
// changes it only recolours (sets colours and repaints), so stepping bins stays smooth.
//
// Interaction: click selects (RunModel::select), double-click opens a collapsed
// hierarchy group (or closes an open one at its label), wheel zooms around the cursor,
// drag pans. The colour legend is an overlay in the viewport's bottom-right corner
// (legend()); a caption at the top-left says what the colours show (bin and time, or
// phase). Exports draw both under the fabric.
//
// Side by side: setSideBySidePhases(a, b) draws the fabric twice, left coloured by phase
// a's mean utilisation and right by phase b's, each under a caption; counts and
// laneColour() refer to the left copy.
#pragma once
#include <QGraphicsView>
#include <vector>

#include "layout/topology_layout.h"
#include "views/link_item.h"

class QGraphicsScene;
class QGraphicsSimpleTextItem;
class QLabel;

namespace fl::views {

class RunModel;
class ColourLegend;
class DeviceItem;
class GroupItem;

class TopologyCanvas : public QGraphicsView {
  Q_OBJECT
 public:
  explicit TopologyCanvas(RunModel* model, QWidget* parent = nullptr);
  ~TopologyCanvas() override;

  void fitToView();
  bool exportPng(const QString& path);
  bool exportSvg(const QString& path);

  int deviceItemCount() const;
  int linkItemCount() const;  // visible links (each one item with two lanes)
  // The device names drawn at the current zoom (the main copy's; a box too small on screen
  // for legible text goes unlabelled).
  QStringList drawnLabels() const;
  // Colour and hot/cold state of a lane as drawn now; invalid colour if the link is hidden.
  QColor laneColour(int link, int direction) const;
  LaneHeat laneHeat(int link, int direction) const;

  void setSideBySidePhases(int phaseA, int phaseB);
  void clearSideBySide();
  bool isSideBySide() const { return phaseA_ >= 0; }

  ColourLegend* legend() const { return legend_; }
  const layout::TopologyLayout& currentLayout() const { return layout_; }
  // Hierarchy groups by layout index; re-lays out and rebuilds.
  void expandGroup(int group);
  void collapseGroup(int group);
  // Recolour every lane from the model now (normally driven by the model's signals).
  void recolour();

 signals:
  void layoutRebuilt();

 protected:
  void wheelEvent(QWheelEvent* e) override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;
  void showEvent(QShowEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;
  bool viewportEvent(QEvent* e) override;

 private:
  void rebuild();
  void buildCopy(int copy, QPointF offset);
  void updateSelection();
  void placeLegend();
  void initialView();
  void fitScene(bool readable);
  void updateViewRect();
  void updateInfo();
  QString laneToolTip(int link, int direction, int copy) const;
  QString deviceToolTip(const DeviceItem& d) const;
  double laneUtilisation(int linkDirection, int copy) const;
  QString phaseCaption(int copy) const;
  int captionHeight() const;  // of a side-by-side caption, in pixels
  void updateCaptions();
  double overlayTop() const;  // pixels above the fabric kept clear for the captions
  void renderExport(QPainter& p, const QRectF& target, double ui);

  RunModel* model_;
  QGraphicsScene* scene_;
  ColourLegend* legend_;
  QLabel* info_;  // top-left caption: the fabric and what the colours show
  layout::TopologyLayout layout_;
  layout::LayoutOptions options_;
  std::vector<LinkItem*> links_[2];     // per copy, by link id (null when hidden)
  std::vector<DeviceItem*> devices_[2]; // per copy, by node id (null when hidden)
  LaneGeometry lanes_;
  int phaseA_ = -1, phaseB_ = -1;
  QGraphicsSimpleTextItem* captions_[2] = {nullptr, nullptr};  // side by side: A's and B's
  QString captionText_[2];
  enum class FitMode { Initial, Fit, User };  // what a resize does to the zoom
  FitMode fitMode_ = FitMode::Initial;
  bool shownOnce_ = false;
  QPoint pressPos_;
};

}  // namespace fl::views
