// The mapping editor on the mesh canvas (seed 003 §IV, issue 20 "Views"): over the
// canvas's dies it paints each die in its TP group's colour (group and ring position
// written on it), outlines the Full Token Domains (a tile's outline where the FTD is a
// rectangle, as ER makes them; an FTD badge on each die where it is strided, as in the
// baseline) and draws every group's ring through its members in ring order along XY
// routes. While editing, pressing on a die and releasing on another asks to swap them
// (swapRequested); hovering shows the pair (swapHovered) so a panel can preview the
// result. In expert mode each die shows its experts as numbered chips instead: dragging a
// chip onto another die asks to move the expert there (expertMoveRequested), onto another
// die's chip to exchange the two (expertSwapRequested). While a drag is previewed, the
// preview's hot / cold / idle links are drawn over the canvas's (setPreviewLanes). It
// neither checks nor applies edits: the Mapping panel does (mapping_edit.h,
// wsc_expert_edit.h).
//
// The overlay is one item in the canvas's scene, rebuilt when the canvas rebuilds; it
// covers the main copy (the left one when the canvas shows two phases side by side).
#pragma once
#include <QObject>
#include <QPointF>
#include <QPointer>
#include <QRectF>
#include <QString>
#include <vector>

#include "views/mapping_edit.h"

class QGraphicsObject;

namespace fl::views {

class TopologyCanvas;
class MappingOverlayItem;

class WaferMappingOverlay : public QObject {
  Q_OBJECT
 public:
  explicit WaferMappingOverlay(TopologyCanvas* canvas);
  ~WaferMappingOverlay() override;

  // The mapping shown: TP groups in ring order and FTDs (empty: k-th ring member of every
  // group, as core/mapping/full_token_domain derives them).
  void setMapping(const DieLists& groups, const DieLists& ftds = {});
  const DieLists& groups() const { return groups_; }
  const DieLists& ftds() const { return ftds_; }
  void setShown(bool on);
  bool isShown() const { return shown_; }
  void setRingsShown(bool on);
  void setEditable(bool on) { editable_ = on; }
  // A message drawn over the canvas for a few seconds (a refused edit's reason).
  void flashMessage(const QString& text);

  // What is painted, for tests and tooltips.
  int groupOf(int die) const;   // -1 when not in the mapping
  int ringIndexOf(int die) const;
  int ftdOf(int die) const;
  QColor dieColour(int die) const;  // the fill drawn on the die (invalid when hidden)
  QRectF dieSceneRect(int die) const;  // the die's box in scene coordinates (empty if unknown)
  bool ftdIsTile(int ftd) const;       // drawn as one outline (a filled rectangle of dies)
  // Scene points of a group's ring as drawn: member to member along XY routes, closed.
  std::vector<QPointF> ringPath(int group) const;

  // What a drag moves: dies (swapped between TP groups) or experts (between dies).
  enum class DragMode { Dies, Experts };
  void setDragMode(DragMode mode);
  DragMode dragMode() const { return mode_; }
  // The experts each die hosts (index: die), drawn as chips in expert mode.
  void setExperts(const std::vector<std::vector<int>>& onDie);
  const std::vector<std::vector<int>>& experts() const { return experts_; }
  QRectF expertChipRect(int expert) const;  // scene rect of its chip; empty unless drawn
  int expertAtScene(const QPointF& scenePos) const;  // -1 when no chip is there
  int draggedExpert() const { return dragExpert_; }

  // Live preview of a drag: each directed die-to-die link's class ("hot", "cold",
  // "idle"), drawn over the canvas's lanes until cleared.
  struct PreviewLane {
    int from = -1, to = -1;
    QString cls;
  };
  void setPreviewLanes(std::vector<PreviewLane> lanes, const QString& caption);
  void clearPreviewLanes();
  const std::vector<PreviewLane>& previewLanes() const { return lanes_; }
  QString previewCaption() const { return laneCaption_; }

  // The drag, also for tests (scene coordinates; press, then release).
  bool pressAt(const QPointF& scenePos);
  void moveTo(const QPointF& scenePos);
  void releaseAt(const QPointF& scenePos);
  int dragSource() const { return dragFrom_; }
  int dieAtScene(const QPointF& scenePos) const;

 signals:
  void swapRequested(int dieA, int dieB);
  void swapHovered(int dieA, int dieB);  // dieB -1: not over another die
  void dragEnded();
  void dieClicked(int die);  // pressed and released on the same die
  void expertMoveRequested(int expert, int die);
  void expertSwapRequested(int expertA, int expertB);
  void expertHovered(int expert, int die, int otherExpert);  // die -1: over no other die

 protected:
  bool eventFilter(QObject* watched, QEvent* e) override;

 private:
  friend class MappingOverlayItem;
  void rebuild();  // after the canvas rebuilt its scene
  void collectDies();
  void refresh();
  std::vector<QRectF> chipRects(int die) const;

  TopologyCanvas* canvas_;
  QPointer<QGraphicsObject> item_;
  DieLists groups_, ftds_;
  std::vector<int> groupOf_, ringOf_, ftdOf_;
  std::vector<QRectF> dieRects_;  // scene rects of copy 0's dies
  int cols_ = 0;
  bool shown_ = false, rings_ = true, editable_ = true;
  int dragFrom_ = -1, dragTo_ = -1;
  DragMode mode_ = DragMode::Dies;
  std::vector<std::vector<int>> experts_;
  std::vector<int> dieOfExpert_;
  int dragExpert_ = -1, dragOther_ = -1;
  std::vector<PreviewLane> lanes_;
  QString laneCaption_;
  QPointF dragPos_;
  QString message_;
};

}  // namespace fl::views
