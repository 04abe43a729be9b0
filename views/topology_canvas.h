// The fabric drawn from core/layout: devices as labelled boxes, every link as two
// directional lanes coloured by RunModel::displayedUtilisation (viridis; hot lanes
// thicker with a bright outline, cold lanes dimmed), group boxes for wafers and
// datacenters. Rebuilds its items on topologyChanged; on results/bin/threshold/phase
// changes it only recolours (sets colours and repaints), so stepping bins stays smooth.
//
// Interaction: click selects (RunModel::select), double-click opens a collapsed
// hierarchy group (or closes an open one at its label), wheel zooms around the cursor
// (the scene point under it stays put: zoomAt), drag pans, Ctrl+F opens a find box
// that jumps to a device by name (findNode). The colour legend is an overlay in the viewport's bottom-right corner
// (legend()); a caption at the top-left says what the colours show (bin and time, or
// phase). Exports draw both under the fabric.
//
// Bundles: links between the same two nodes (an NVSwitch fabric's GPU-chip links) are
// one item whose two lanes are as wide as the bundle's capacity, set apart by a gap and
// coloured by the bundle's utilisation; double-click one (or setBundlesExpanded) to see
// its links. The RunModel's direction filter draws the other direction's lanes faint.
// Devices carry activity glyphs (DeviceItem::Activity) for the bin or phase shown.
//
// Side by side: setSideBySidePhases(a, b) draws the fabric twice, left coloured by phase
// a's mean utilisation and right by phase b's, each under a caption; counts and
// laneColour() refer to the left copy.
#pragma once
#include <QGraphicsView>
#include <QMarginsF>
#include <set>
#include <utility>
#include <vector>

#include "layout/topology_layout.h"
#include "results/packet_follow.h"
#include "views/device_item.h"
#include "views/link_item.h"

class QAction;
class QGraphicsScene;
class QGraphicsSimpleTextItem;
class QLabel;

namespace fl::views {

class RunModel;
class CanvasFindBox;
class ColourLegend;
class FollowItem;
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
  int linkItemCount() const;  // link items drawn (a bundle is one item with two lanes)
  int bundleCount() const;    // of them, bundles of more than one link
  // The item drawing a link (its bundle's while the bundle is closed); null if hidden.
  const LinkItem* linkItem(int link) const;
  void setBundlesExpanded(bool on);  // every bundle opened into its links, or closed
  bool bundlesExpanded() const { return bundlesExpanded_; }
  void toggleBundle(int link);       // opens or closes the bundle holding `link`
  // The activity a device's glyph shows now (kind None without results or when hidden).
  DeviceItem::Activity deviceActivity(int node) const;
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
  // A legend hidden by the owner (legend()->hide(): CompareCanvases draws one for both)
  // leaves its room to the fabric. Side by side with another canvas, a fit goes no larger
  // than setFitScaleLimit's scale, so both show one scale; fitScale() is what this
  // canvas's own room allows (fitted() follows each fit).
  void setFitScaleLimit(double scale);
  double fitScale() const { return fitScale_; }
  const layout::TopologyLayout& currentLayout() const { return layout_; }
  // Hierarchy groups by layout index; re-lays out and rebuilds.
  void expandGroup(int group);
  void collapseGroup(int group);
  // Recolour every lane from the model now (normally driven by the model's signals).
  void recolour();
  // Item sizes x `scale` (presentation mode: thicker lanes, larger glyphs); rebuilds.
  void setGlyphScale(double scale);

  // Zooms by `factor` (clamped to the zoom limits) keeping the scene point under
  // `viewportPos` where it is on screen: the wheel's zoom.
  void zoomAt(QPointF viewportPos, double factor);
  // Jumps to a device by name: the exact name, else the first whose name contains `name`
  // (case-insensitive). Opens the hierarchy groups hiding it, selects it, zooms in until
  // its box is readable if it is drawn smaller, and centres it. False when none matches.
  bool findNode(const QString& name);
  void openFindBox();
  CanvasFindBox* findBox() const { return findBox_; }
  QAction* findAction() const { return findAction_; }  // Ctrl+F, for the View menu

  // Follow one: the followed packets (null clears) drawn over the fabric at setFollowTime's
  // simulated time (views/follow_item.h); kept over rebuilds, on the main copy.
  void setFollow(std::shared_ptr<const PacketFollow> follow);
  void setFollowTime(Time t);
  const FollowItem* followItem() const { return followItem_; }

 signals:
  void layoutRebuilt();
  void fitted();

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
  void fitScene();
  void updateViewRect();
  void updateInfo();
  void placeFindBox();
  void addFollowItem();  // after a rebuild
  QString laneToolTip(int link, int direction, int copy) const;
  QString deviceToolTip(const DeviceItem& d) const;
  double laneUtilisation(int linkDirection, int copy) const;
  double itemUtilisation(const LinkItem& item, int direction, int copy) const;
  std::pair<int, int> binRange(int copy) const;  // bins the colours and glyphs cover
  void updateActivity();
  QString bundleToolTip(const LinkItem& item, int direction, int copy) const;
  QString phaseCaption(int copy) const;
  int captionHeight() const;  // of a side-by-side caption, in pixels
  void updateCaptions();
  double overlayTop() const;  // pixels above the fabric kept clear for the captions
  double legendMinimumUpright() const;
  void renderExport(QPainter& p, const QRectF& target, double ui);

  RunModel* model_;
  QGraphicsScene* scene_;
  ColourLegend* legend_;
  QLabel* info_;  // top-left caption: the fabric and what the colours show
  CanvasFindBox* findBox_;
  QAction* findAction_;
  std::shared_ptr<const PacketFollow> follow_;
  FollowItem* followItem_ = nullptr;  // owned by the scene
  Time followTime_ = 0;
  layout::TopologyLayout layout_;
  layout::LayoutOptions options_;
  std::vector<LinkItem*> links_[2];     // per copy, by link id (null when hidden)
  std::vector<DeviceItem*> devices_[2]; // per copy, by node id (null when hidden)
  std::vector<LinkItem*> items_[2];     // per copy, each link item once
  std::set<std::pair<int, int>> expandedBundles_;  // node pairs (lower id first) shown open
  bool bundlesExpanded_ = false;
  double glyphScale_ = 1;
  // Pixels the last fit kept clear around the fabric: room_ for the overlays (caption,
  // legend), slack_ centring the fabric in what is left.
  QMarginsF room_{8, 40, 8, 120}, slack_;
  LaneGeometry lanes_;
  int phaseA_ = -1, phaseB_ = -1;
  QGraphicsSimpleTextItem* captions_[2] = {nullptr, nullptr};  // side by side: A's and B's
  QString captionText_[2];
  enum class FitMode { Initial, Fit, User };  // what a resize does to the zoom
  FitMode fitMode_ = FitMode::Initial;
  bool shownOnce_ = false;
  double fitScale_ = 0, fitScaleLimit_ = 0;  // 0: none yet, no limit
  QPoint pressPos_;
};

}  // namespace fl::views
