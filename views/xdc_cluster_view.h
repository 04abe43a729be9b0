// HybridEP's cluster at any scale (seed 004 §IV-A, Fig. 8): the datacenters as wedges of
// one ring, coloured by their level-0 expert domain (consecutive DCs, domain = DC // S_ED),
// with the traffic between DCs aggregated per domain: all-gather (experts, solid green)
// as an arc along each domain, all-to-all (tokens, dashed orange) as one chord per pair
// of domains, or spokes to a hub when there are too many domains to draw pairs. A
// thousand DCs stay a thousand wedges, not 8000 nodes and millions of pairs. Clicking a
// DC zooms into its GPUs, coloured by their inner-level domain, with every pair that
// Algorithm 1 classifies drawn (AG solid, A2A dashed); Escape or the button goes back.
#pragma once
#include <QFont>
#include <QWidget>
#include <vector>

class QToolButton;

namespace fl::views {

class RunModel;

class XdcClusterView : public QWidget {
  Q_OBJECT
 public:
  explicit XdcClusterView(RunModel* model, QWidget* parent = nullptr);

  // Above this many level-0 domains the A2A chords become spokes to a central hub.
  static constexpr int kMaxChordDomains = 24;
  // Above this many GPUs in a DC its pairs are not drawn (only the GPUs).
  static constexpr int kMaxPairGpus = 64;

  bool hasCluster() const { return !workers_.empty(); }
  int dcCount() const;
  int gpusPerDc() const;
  int domainOf(int dc) const;  // level-0 expert domain
  QColor dcColour(int dc) const;
  // A palette index's colour: successive domains differ by the golden angle in hue.
  static QColor domainColour(int domain);

  int a2aChordCount() const;  // chords drawn between domains (0 when the hub is used)
  bool a2aHub() const;
  // The words in the ring's centre, fitted inside it (empty text: no room at all).
  struct CentreLabel {
    QString text;
    QFont font;
    QRectF plate;  // widget coordinates
  };
  CentreLabel centreLabel() const;
  double centreRadius() const;  // the circle the label must stay inside

  // The DC under a point of the widget (-1: none) and a point inside DC `dc`'s wedge.
  int dcAt(QPointF p) const;
  QPointF dcCentre(int dc) const;

  int zoomedDc() const { return zoomed_; }  // -1: the overview
  void zoomInto(int dc);
  void zoomOut();
  // The zoomed DC's GPUs (local index 0.. inside the DC) and their pairs.
  int innerDomainOf(int localGpu) const;  // mixed-radix index of the inner levels' domains
  QColor gpuColour(int localGpu) const;
  struct Pair {
    int a, b;  // local GPU indices, a < b
    bool allGather;
  };
  std::vector<Pair> gpuPairs() const;

 signals:
  void zoomChanged(int dc);

 protected:
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  bool event(QEvent* e) override;  // tooltips
  QSize sizeHint() const override { return {420, 380}; }
  QSize minimumSizeHint() const override { return {200, 180}; }

 private:
  void reload();
  struct Ring {
    QPointF centre;
    double outer = 0, inner = 0;
  };
  Ring ring() const;
  double angleOf(int dc) const;  // degrees, Qt convention (0 = 3 o'clock, counter-clockwise)
  void paintOverview(QPainter& p) const;
  void paintDc(QPainter& p) const;
  // The key under the ring: AG and A2A lines, then a note on colours; wrapped to the
  // widget's width (a 400 px dock cut "2.15 GiB i…"), as tall as that takes.
  QStringList legendTexts() const;
  int legendHeight() const;
  void paintLegend(QPainter& p) const;
  QPointF gpuPoint(int local) const;

  RunModel* model_;
  QToolButton* back_;
  std::vector<int> workers_, domains_;  // per level, outermost first
  double a2aBytes_[2] = {0, 0}, agBytes_[2] = {0, 0};  // iteration totals: [0] between DCs, [1] inside
  int zoomed_ = -1;
};

}  // namespace fl::views
