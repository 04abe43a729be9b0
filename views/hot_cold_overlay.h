// Hot and cold links per phase on the wafer (seed 003 §V-A, issue 20 "Views"): the die
// grid drawn once or twice side by side, every die-to-die link as two directional lanes
// (right-hand side of travel, as on the canvas) coloured from the run's per-link phase
// figures (links[].phases): by class, hot (utilisation >= the hot threshold, or that fraction
// of the phase's busiest link: wsc/hot_cold_links.h), idle (no bytes) or cold, or by utilisation on one viridis scale shared by both panels. Intra-FTD
// links are drawn solid, inter-FTD links dashed. A panel is a run (a sweep point) and a
// phase, so the pair is either two phases of one run (all-reduce vs dispatch: the
// complementary hot and cold links) or one phase of two runs (baseline vs ER). The pair
// sits side by side or one above the other, whichever draws the dies larger (a narrow,
// tall dock stacks them).
#pragma once
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "results/results.h"
#include "topology/topology.h"
#include "views/wafer_grid.h"
#include "views/wafer_key.h"

namespace fl::views {

class HotColdOverlay : public QWidget {
  Q_OBJECT
 public:
  enum class ColourBy { Class, Utilisation };
  struct Panel {
    std::shared_ptr<const Results> results;
    QString phase;    // all_reduce | dispatch | combine | migration
    QString caption;  // drawn above the panel
  };

  explicit HotColdOverlay(QWidget* parent = nullptr);

  void setTopology(std::shared_ptr<const topo::Topology> topology);
  void setPanels(std::vector<Panel> panels);  // one or two
  // Hot threshold as a fraction; below 0: each run's own (wsc.hot_threshold).
  void setHotThreshold(double hot);
  void setColourBy(ColourBy c);

  int panelCount() const { return static_cast<int>(panels_.size()); }
  QString caption(int panel) const { return panel >= 0 && panel < panelCount() ? panels_[static_cast<size_t>(panel)].caption : QString(); }
  // What a lane is drawn as: "hot", "cold", "idle" ("" when the link has no figures).
  QString laneClass(int panel, int link, int direction) const;
  double laneUtilisation(int panel, int link, int direction) const;
  QColor laneColour(int panel, int link, int direction) const;
  bool laneDashed(int panel, int link) const;  // inter-FTD
  double utilisationTop() const;                // the shared scale's 100 %
  double hotThreshold(int panel) const;
  // Whether the panel's run reads its threshold relative to the phase's busiest link
  // (workload.wsc.hot_threshold_kind), and the utilisation from which a lane is hot.
  bool relativeThreshold(int panel) const;
  double hotCutoff(int panel) const;
  // Lane counts per class over a panel (both directions of every die-to-die link).
  int countOf(int panel, const QString& cls) const;

  // Where each panel is drawn (widget coordinates, caption included), and whether the
  // panels are stacked one above the other.
  std::vector<QRectF> panelRects() const;
  bool stacked() const;
  double diePixels() const;  // the width of a die's box as drawn, in widget pixels
  // The key under the panels, wrapped to the width, and the pixels it takes.
  WaferKey key() const;
  double legendHeight() const;
  // Whether every panel's title and counts fit on one line `panelWidth` wide, and the
  // caption's height over a panel drawn in `panel`: one line, or two (the counts under
  // the title) when they do not fit and the dies keep 20 px (room for their numbers).
  bool captionFits(double panelWidth) const;
  double captionHeight(const QRectF& panel) const;
  QString countsText(int panel) const;  // "32 hot · 0 cold · 16 idle"
  // The counts as drawn in `width` px: whole, else without idle, else hot alone, else ""
  // (never elided: "0 hot · 1…" hid the cold count it cut).
  QString countsFitting(int panel, double width) const;

  QSize minimumSizeHint() const override { return {240, 140}; }

 protected:
  void paintEvent(QPaintEvent* e) override;

 private:
  const LinkPhaseResult* figures(int panel, int link, int direction) const;
  void paintPanel(QPainter& p, int panel, const QRectF& area);
  double scaleIn(const QRectF& panel) const;

  std::shared_ptr<const topo::Topology> topology_;
  WaferGrid grid_;
  std::vector<Panel> panels_;
  std::vector<std::vector<int>> index_;  // per panel: link * 2 + direction -> results link index
  std::vector<double> cutoff_;           // per panel: hotCutoff, kept for painting
  void updateCutoffs();
  double hot_ = -1;
  ColourBy colourBy_ = ColourBy::Class;
};

QColor hotColour();
QColor coldColour();
QColor idleColour();

}  // namespace fl::views
