// Finding one's way on a large fabric and comparing two: TopologyCanvas's wheel zoom at
// the cursor and find box (Ctrl+F), the open view fitted and centred, and CompareCanvases
// (two sweep points' fabrics side by side on one colour scale at one time). Expected
// positions come from the zoom arithmetic (1.0015^delta) and the layout's own boxes;
// expected colours from the raw results (bytes / (capacity x bin)) through the colour map.
#include <QAction>
#include <QGraphicsScene>
#include <QLabel>
#include <QSlider>
#include <QWheelEvent>
#include <QtTest>
#include <array>
#include <cmath>
#include <memory>

#include "../common/recorded_runs.h"
#include "../common/topology_specs.h"
#include "../common/view_helpers.h"
#include "scenario/scenario_io.h"
#include "topology/presets.h"
#include "topology/topology.h"
#include "views/canvas_find_box.h"
#include "views/colour_legend.h"
#include "views/colour_map.h"
#include "views/compare_canvases.h"
#include "views/run_model.h"
#include "views/topology_canvas.h"

using namespace fl;
using namespace fl::views;

namespace {

std::shared_ptr<const topo::Topology> fabric(const QString& which) {
  TopologySpec s;
  if (which == "dgx-h100") applyTopologyPreset("dgx-h100", s);
  else if (which == "mesh 8x8") s = test::meshSpec(8, 8, 1, 1);
  else if (which == "hierarchy 10x10x4") s = test::hierarchySpec({10, 10, 4});  // 400 GPUs: collapsed
  else s = test::hierarchySpec({4, 4, 4});  // 64 GPUs: open
  return std::shared_ptr<const topo::Topology>(topo::buildTopology(s));
}

// A canvas of `size` showing `t`, shown and laid out.
struct Shown {
  RunModel model;
  TopologyCanvas canvas{&model};
  Shown(std::shared_ptr<const topo::Topology> t, QSize size) {
    model.setTopology(std::move(t));
    canvas.resize(size);
    canvas.show();
    QVERIFY(QTest::qWaitForWindowExposed(&canvas));
    QCoreApplication::processEvents();
  }
  QPointF toViewport(QPointF scene) const { return canvas.viewportTransform().map(scene); }
  QPointF toScene(QPointF view) const { return canvas.viewportTransform().inverted().map(view); }
};

void wheel(QWidget* viewport, QPointF at, int delta) {
  QWheelEvent e(at, viewport->mapToGlobal(at.toPoint()), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier,
                Qt::NoScrollPhase, false);
  QCoreApplication::sendEvent(viewport, &e);
}

}  // namespace

class TestCanvasNavigation : public QObject {
  Q_OBJECT

 private slots:
  void opensFittedAndCentred_data();
  void opensFittedAndCentred();
  void zoomKeepsPointUnderCursor_data();
  void zoomKeepsPointUnderCursor();
  void findSelectsAndCentres_data();
  void findSelectsAndCentres();
  void findBoxFromShortcut();
  void compareOnOneScale_data();
  void compareOnOneScale();
};

// Every fabric opens whole inside the viewport, clear of the caption at the top and of
// the colour legend (never under it), centred in the room they leave (horizontally: the
// viewport's middle, or the middle of the strip left of the legend), and large: at least
// half the free height or half the free width. 385x245 is the canvas a 1024x768 screen
// gives cais-4gpu, where the fabric used to be 60 px tall above the legend.
void TestCanvasNavigation::opensFittedAndCentred_data() {
  QTest::addColumn<QString>("which");
  QTest::addColumn<QSize>("size");
  for (const char* f : {"dgx-h100", "mesh 8x8", "hierarchy 4x4x4", "hierarchy 10x10x4"})
    for (QSize s : {QSize(385, 245), QSize(700, 450), QSize(1400, 800), QSize(600, 900)})
      QTest::newRow(qPrintable(QString("%1 %2x%3").arg(f).arg(s.width()).arg(s.height()))) << QString(f) << s;
}

void TestCanvasNavigation::opensFittedAndCentred() {
  QFETCH(QString, which);
  QFETCH(QSize, size);
  Shown v(fabric(which), size);
  const auto& l = v.canvas.currentLayout();
  const QRectF box(v.toViewport(QPointF(0, 0)), v.toViewport(QPointF(l.width, l.height)));
  const QRect port = v.canvas.viewport()->rect();
  const QString where = QString("fabric %1,%2 %3x%4 in %5x%6").arg(box.left()).arg(box.top()).arg(box.width())
                            .arg(box.height()).arg(port.width()).arg(port.height());
  QVERIFY2(box.left() >= -0.5 && box.right() <= port.width() + 0.5 && box.top() >= -0.5 && box.bottom() <= port.height() + 0.5,
           qPrintable(where + " outside the viewport"));
  const QRectF legend = v.canvas.legend()->geometry();
  QVERIFY(v.canvas.legend()->isVisible());
  QVERIFY2(!box.adjusted(1, 1, -1, -1).intersects(legend),
           qPrintable(where + QString(" under the legend at %1,%2 %3x%4").arg(legend.x()).arg(legend.y())
                                  .arg(legend.width()).arg(legend.height())));
  double captionBottom = 0;
  for (QLabel* label : v.canvas.viewport()->findChildren<QLabel*>(Qt::FindDirectChildrenOnly))
    if (label->isVisible() && label->y() < 20) {
      captionBottom = std::max(captionBottom, double(label->geometry().bottom()));
      QVERIFY2(box.top() >= label->geometry().bottom(), qPrintable(where + " under the caption"));
    }
  const bool centred = std::abs(box.center().x() - port.width() / 2.0) <= 1.5;
  const bool leftOfLegend = box.right() <= legend.left() && std::abs(box.center().x() - (legend.left() - 8) / 2.0) <= 4.5;
  QVERIFY2(centred || leftOfLegend, qPrintable(where + QString(", legend from x %1").arg(legend.left())));
  const double freeH = port.height() - captionBottom - 16, freeW = port.width() - 16;
  QVERIFY2(box.height() >= 0.5 * freeH || box.width() >= 0.5 * freeW,
           qPrintable(where + QString(": less than half of %1 x %2 free").arg(freeW).arg(freeH)));
}

// The wheel scales by 1.0015^delta and the scene point under the cursor stays under it
// (to within the scroll bars' whole pixels), step after step at different places.
void TestCanvasNavigation::zoomKeepsPointUnderCursor_data() {
  QTest::addColumn<QString>("which");
  QTest::addColumn<QPointF>("at1");
  QTest::addColumn<int>("delta1");
  QTest::addColumn<QPointF>("at2");
  QTest::addColumn<int>("delta2");
  QTest::newRow("dgx in, in") << "dgx-h100" << QPointF(0.3, 0.4) << 480 << QPointF(0.7, 0.6) << 240;
  QTest::newRow("dgx in, out") << "dgx-h100" << QPointF(0.8, 0.2) << 600 << QPointF(0.2, 0.8) << -360;
  QTest::newRow("mesh out, in") << "mesh 8x8" << QPointF(0.25, 0.75) << -240 << QPointF(0.5, 0.5) << 720;
  QTest::newRow("hierarchy in, in") << "hierarchy 10x10x4" << QPointF(0.9, 0.1) << 360 << QPointF(0.1, 0.9) << 360;
}

void TestCanvasNavigation::zoomKeepsPointUnderCursor() {
  QFETCH(QString, which);
  QFETCH(QPointF, at1);
  QFETCH(int, delta1);
  QFETCH(QPointF, at2);
  QFETCH(int, delta2);
  Shown v(fabric(which), QSize(900, 600));
  const QSize port = v.canvas.viewport()->size();
  for (auto [frac, delta] : {std::pair{at1, delta1}, std::pair{at2, delta2}}) {
    const QPointF at(frac.x() * port.width(), frac.y() * port.height());
    const QPointF anchor = v.toScene(at);
    const double s0 = v.canvas.transform().m11();
    wheel(v.canvas.viewport(), at, delta);
    QCOMPARE(v.canvas.transform().m11(), s0 * std::pow(1.0015, delta));
    const QPointF now = v.toViewport(anchor);
    QVERIFY2(std::abs(now.x() - at.x()) <= 1 && std::abs(now.y() - at.y()) <= 1,
             qPrintable(QString("point under (%1, %2) moved to (%3, %4)").arg(at.x()).arg(at.y()).arg(now.x()).arg(now.y())));
  }
}

// findNode: exact names and case-blind parts of names; the device ends up drawn (its
// groups opened), selected, centred, and at least 40 px tall on screen.
void TestCanvasNavigation::findSelectsAndCentres_data() {
  QTest::addColumn<QString>("which");
  QTest::addColumn<int>("endpoint");  // index into the endpoints: the device to find
  QTest::addColumn<bool>("upperCase");
  QTest::newRow("dgx gpu 5") << "dgx-h100" << 5 << false;
  QTest::newRow("mesh die 37, upper case") << "mesh 8x8" << 37 << true;
  QTest::newRow("hierarchy last gpu (collapsed)") << "hierarchy 10x10x4" << 399 << false;
  QTest::newRow("hierarchy gpu 123 (collapsed), upper") << "hierarchy 10x10x4" << 123 << true;
  QTest::newRow("open hierarchy gpu 17") << "hierarchy 4x4x4" << 17 << false;
}

void TestCanvasNavigation::findSelectsAndCentres() {
  QFETCH(QString, which);
  QFETCH(int, endpoint);
  QFETCH(bool, upperCase);
  Shown v(fabric(which), QSize(900, 600));
  const topo::Topology& t = *v.model.topology();
  const int id = t.endpoints()[static_cast<size_t>(endpoint)];
  const QString name = QString::fromStdString(t.node(id).name);
  QVERIFY(!v.canvas.findNode(QStringLiteral("no such device")));
  QCOMPARE(v.model.selectionKind(), SelectionKind::None);
  QVERIFY(v.canvas.findNode(upperCase ? name.toUpper() : name));
  QCOMPARE(v.model.selectionKind(), SelectionKind::Node);
  QCOMPARE(v.model.selectedId(), id);
  const auto& p = v.canvas.currentLayout().nodes[static_cast<size_t>(id)];
  QVERIFY(p.visible);
  const QPointF c = v.toViewport(QPointF(p.center.x, p.center.y));
  const QSize port = v.canvas.viewport()->size();
  QVERIFY2(std::abs(c.x() - port.width() / 2.0) <= 1.5 && std::abs(c.y() - port.height() / 2.0) <= 1.5,
           qPrintable(QString("centre at (%1, %2) in %3x%4").arg(c.x()).arg(c.y()).arg(port.width()).arg(port.height())));
  QVERIFY(std::min(p.width, p.height) * v.canvas.transform().m11() >= 40 - 1e-9 || v.canvas.transform().m11() == 8);
}

// Ctrl+F opens the box; typing a name and Enter selects it and closes the box.
void TestCanvasNavigation::findBoxFromShortcut() {
  Shown v(fabric("hierarchy 10x10x4"), QSize(900, 600));
  QVERIFY(v.canvas.findAction()->shortcut() == QKeySequence(QKeySequence::Find));
  v.canvas.findAction()->trigger();
  CanvasFindBox* box = v.canvas.findBox();
  QVERIFY(box->isVisible());
  const topo::Topology& t = *v.model.topology();
  const int id = t.endpoints()[250];
  box->setText(QString::fromStdString(t.node(id).name));
  QTest::keyClick(box, Qt::Key_Return);
  QCOMPARE(v.model.selectedId(), id);
  QVERIFY(!box->isVisible());
  test::saveArtefact(v.canvas, "canvas_find_hierarchy", QSize(900, 600));
  v.canvas.findAction()->trigger();
  QTest::keyClick(box, Qt::Key_Escape);
  QVERIFY(!box->isVisible());
}

// Ring vs NVLS side by side: both canvases at the bin holding the chosen time, each lane
// the colour of its own bytes over capacity x bin, one legend for both (same thresholds);
// past the shorter run's end it shows its last bin and says so.
void TestCanvasNavigation::compareOnOneScale_data() {
  QTest::addColumn<double>("fraction");  // of the longer run's duration
  QTest::newRow("start") << 0.0;
  QTest::newRow("a third") << 0.33;
  QTest::newRow("past the shorter run") << 0.97;
}

void TestCanvasNavigation::compareOnOneScale() {
  QFETCH(double, fraction);
  static const std::array<test::RecordedRun, 2> runs = [] {
    auto one = [](const char* algorithm) {
      Scenario s = loadScenario(FABRICLAB_SCENARIOS "/dgx-h100-allreduce-ring-vs-nvls.yaml");
      s.sweep.clear();
      applyOverrides(s, {std::string("workload.collective.algorithm=") + algorithm, "workload.collective.size=16 MiB",
                         "run.bin=2 us"});
      return test::record(s);
    };
    return std::array{one("ring"), one("nvls")};
  }();
  CompareCanvases view;
  view.resize(1400, 700);
  view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&view));
  view.setRuns("Ring", runs[0].topology, runs[0].results, "NVLS", runs[1].topology, runs[1].results);
  for (int side = 0; side < 2; ++side) view.canvas(side)->setBundlesExpanded(true);
  const Time longest = std::max(runs[0].results->bins * runs[0].results->bin, runs[1].results->bins * runs[1].results->bin);
  QCOMPARE(view.duration(), longest);
  const Time at = Time(fraction * double(longest));
  view.setTime(at);
  // One legend, outside both canvases; both fabrics as large as their canvas allows
  // without one, at one scale (the same fabric in columns of one width).
  QVERIFY(view.legend()->isVisible());
  QVERIFY(!view.canvas(0)->legend()->isVisible() && !view.canvas(1)->legend()->isVisible());
  QCOMPARE(view.canvas(0)->transform().m11(), view.canvas(1)->transform().m11());
  for (int side = 0; side < 2; ++side) {
    const TopologyCanvas& c = *view.canvas(side);
    const QRect fabric = c.mapFromScene(c.scene()->sceneRect()).boundingRect();
    const int vw = c.viewport()->width(), vh = c.viewport()->height();
    const QString what = QString("side %1: fabric %2..%3 x %4..%5 in %6 x %7").arg(side).arg(fabric.left())
                             .arg(fabric.right()).arg(fabric.top()).arg(fabric.bottom()).arg(vw).arg(vh);
    QVERIFY2(QRect(6, 6, vw - 12, vh - 12).contains(fabric), qPrintable(what));
    // It reaches the 8 px margins left and right, or the bottom one (under the caption,
    // centred in the rest): no room kept for a legend that is not there.
    QVERIFY2((fabric.left() <= 10 && fabric.right() >= vw - 11) || fabric.bottom() >= vh - 11, qPrintable(what));
  }
  QCOMPARE(view.model(0)->hotThreshold(), view.model(1)->hotThreshold());
  QCOMPARE(view.model(0)->coldThreshold(), view.model(1)->coldThreshold());
  for (int side = 0; side < 2; ++side) {
    const Results& r = *runs[side].results;
    const int bin = static_cast<int>(std::min<Time>(at / r.bin, r.bins - 1));
    QCOMPARE(view.model(side)->currentBin(), bin);
    QCOMPARE(view.header(side).contains("finished"), at >= r.bins * r.bin);
    int checked = 0;
    for (const auto& l : r.links) {
      if (l.capacity_Bps <= 0) continue;
      const double u = std::clamp(double(l.bin_bytes.at(bin)) / (l.capacity_Bps * toSeconds(r.bin)), 0.0, 1.0);
      QCOMPARE(view.canvas(side)->laneColour(l.link, l.direction), colourMap(u));
      ++checked;
    }
    QVERIFY(checked > 0);
  }
  if (fraction == 0.33) test::saveArtefact(view, "compare_canvases_ring_nvls", QSize(1400, 700));
}

QTEST_MAIN(TestCanvasNavigation)
#include "test_canvas_navigation.moc"
