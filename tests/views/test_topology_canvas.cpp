// TopologyCanvas (views/topology_canvas.h). Expected counts come from closed forms checked
// against independent walks over the topology; expected colours and hot/cold states are
// computed here from the raw results (bytes / (capacity x bin)), never read back from the
// canvas or the RunModel. Screenshots go to <build>/tests/artefacts/ for people to look at.
#include <QDir>
#include <QElapsedTimer>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QImage>
#include <QSet>
#include <QtTest>

#include <cmath>
#include <memory>

#include "scenario/scenario_io.h"
#include "sim/run.h"
#include "topology/presets.h"
#include "topology/topology.h"
#include "views/colour_map.h"
#include "views/link_item.h"
#include "views/run_model.h"
#include "views/topology_canvas.h"
#include "../common/topology_specs.h"

using namespace fl;
using namespace fl::views;

Q_DECLARE_METATYPE(fl::TopologySpec)

namespace {

TopologySpec mesh(int rows, int cols, int waferRows = 1, int waferCols = 1) {
  return fl::test::meshSpec(rows, cols, waferRows, waferCols);
}

TopologySpec hierarchy(std::vector<int> counts) { return fl::test::hierarchySpec(counts); }

TopologySpec dgxH100() {
  TopologySpec s;
  applyTopologyPreset("dgx-h100", s);
  return s;
}

std::shared_ptr<const topo::Topology> build(const TopologySpec& s) {
  return std::shared_ptr<const topo::Topology>(topo::buildTopology(s));
}

// Drawn devices counted from the topology alone: every node but mesh routers; in a
// hierarchy of >= 200 GPUs (collapsed by default) the root and its children only.
int independentDevices(const topo::Topology& t) {
  int n = 0;
  const bool collapsed = t.kind == "hierarchy" && t.endpointCount() >= 200;
  for (const auto& node : t.nodes()) {
    if (node.kind == topo::NodeKind::Router) continue;
    if (collapsed && node.level > 1) continue;
    ++n;
  }
  return n;
}
int independentLinks(const topo::Topology& t) {
  int n = 0;
  const bool collapsed = t.kind == "hierarchy" && t.endpointCount() >= 200;
  for (const auto& k : t.links()) {
    if (k.kind == topo::LinkKind::Local) continue;
    if (collapsed && k.level > 0) continue;
    ++n;
  }
  return n;
}

// Utilisation of a link direction in a bin, straight from the results.
double binUtil(const Results& r, const LinkDirectionResult& l, int bin) {
  const double capacity = l.capacity_Bps * toSeconds(r.bin);
  return std::clamp(static_cast<double>(l.bin_bytes.at(bin)) / capacity, 0.0, 1.0);
}

LaneHeat expectedHeat(double u, double cold, double hot) {
  return u >= hot && u > 0 ? LaneHeat::Hot : u <= cold ? LaneHeat::Cold : LaneHeat::Normal;
}

std::shared_ptr<const Results> runP2p() {
  Scenario s = loadScenario(FABRICLAB_SCENARIOS "/dgx-h100-p2p.yaml");
  applyOverride(s, "workload.collective.size=64 MiB");  // ~180 us: about 18 bins of 10 us
  return std::make_shared<Results>(runScenario(s));
}

// Synthetic results on a topology: every direction busy with a pattern that changes with
// the bin (for timing and phase tests, where the pattern matters and a run would not).
std::shared_ptr<Results> patternResults(const topo::Topology& t, int bins, Time bin) {
  auto r = std::make_shared<Results>();
  r->bin = bin;
  r->bins = bins;
  r->makespan = Time(bins) * bin;
  for (const auto& k : t.links())
    for (int d = 0; d < 2; ++d) {
      LinkDirectionResult l;
      l.link = k.id;
      l.direction = d;
      l.from = t.node(d == 0 ? k.a : k.b).name;
      l.to = t.node(d == 0 ? k.b : k.a).name;
      l.capacity_Bps = k.bandwidth * k.efficiency;
      for (int b = 0; b < bins; ++b) {
        const double fraction = ((k.id * 7 + d * 5 + b * 3) % 11) / 10.0;
        l.bin_bytes.add(b, static_cast<std::int64_t>(fraction * l.capacity_Bps * toSeconds(bin)));
      }
      r->links.push_back(l);
    }
  r->phases = {{"first half", 0, r->makespan / 2}, {"second half", r->makespan / 2, r->makespan}};
  return r;
}

QString artefactPath(const QString& name) {
  QDir().mkpath(QDir::currentPath() + "/artefacts");
  return QDir::currentPath() + "/artefacts/" + name;
}

}  // namespace

class TestTopologyCanvas : public QObject {
  Q_OBJECT

 private slots:
  void counts_data();
  void counts();
  void screenshot_data() { counts_data(); }
  void screenshot();
  void timelineColours();
  void thresholds_data();
  void thresholds();
  void sideBySide();
  void sideBySideCaptionsReadable();
  void nodeLabels_data();
  void nodeLabels();
  void doubleClickExpands();
  void clickSelects();
  void exports();
  void recolourTiming();
};

void TestTopologyCanvas::counts_data() {
  QTest::addColumn<TopologySpec>("spec");
  QTest::addColumn<int>("devices");
  QTest::addColumn<int>("links");
  QTest::newRow("nvswitch dgx-h100") << dgxH100() << 8 + 4 << 8 * 18;
  QTest::newRow("mesh 4x4") << mesh(4, 4) << 16 << 4 * 3 * 2;
  QTest::newRow("mesh 2x(4x4)") << mesh(4, 4, 1, 2) << 32 << 4 * 7 + 8 * 3;
  QTest::newRow("hierarchy 2x2x4") << hierarchy({2, 2, 4}) << 1 + 2 + 4 + 16 << 2 + 4 + 16;
  QTest::newRow("hierarchy 1000x2x4 collapsed") << hierarchy({1000, 2, 4}) << 1 + 1000 << 1000;
}

void TestTopologyCanvas::counts() {
  QFETCH(TopologySpec, spec);
  QFETCH(int, devices);
  QFETCH(int, links);
  RunModel model;
  TopologyCanvas canvas(&model);
  const auto t = build(spec);
  QCOMPARE(independentDevices(*t), devices);  // the closed form agrees with the topology
  QCOMPARE(independentLinks(*t), links);
  model.setTopology(t);
  QCOMPARE(canvas.deviceItemCount(), devices);
  QCOMPARE(canvas.linkItemCount(), links);
}

// A grab of each kind is not blank: several colours, much of it not background.
void TestTopologyCanvas::screenshot() {
  QFETCH(TopologySpec, spec);
  RunModel model;
  TopologyCanvas canvas(&model);
  model.setTopology(build(spec));
  canvas.resize(1000, 700);
  canvas.show();
  QVERIFY(QTest::qWaitForWindowExposed(&canvas));
  const QImage image = canvas.grab().toImage();
  const QString name = QString(QTest::currentDataTag()).replace(' ', '-');
  QVERIFY(image.save(artefactPath("canvas-" + name + ".png")));
  const QRgb background = image.pixel(image.width() / 2, 2);
  QSet<QRgb> colours;
  qint64 foreground = 0;
  for (int y = 0; y < image.height(); y += 2)
    for (int x = 0; x < image.width(); x += 2) {
      colours.insert(image.pixel(x, y));
      foreground += image.pixel(x, y) != background;
    }
  const double share = double(foreground) / (double(image.width() / 2) * (image.height() / 2));
  qInfo("%s: %lld distinct colours, %.0f %% not background", qPrintable(name), qint64(colours.size()), share * 100);
  QVERIFY(colours.size() >= 10);
  QVERIFY(share > 0.10);
}

// p2p gpu0 -> gpu1 on dgx-h100: lanes follow the data bin by bin, and links touching
// neither GPU stay at the cold end of the colour map.
void TestTopologyCanvas::timelineColours() {
  RunModel model;
  TopologyCanvas canvas(&model);
  const auto t = build(dgxH100());
  model.setTopology(t);
  const auto r = runP2p();
  model.setResults(r, true);
  QVERIFY(r->bins >= 4);
  const topo::NodeId g0 = t->endpointNode(0), g1 = t->endpointNode(1);
  bool changed = false;
  for (int bin : {r->bins / 2, r->bins - 1}) {
    model.setCurrentBin(bin);
    int busy = 0;
    for (const auto& l : r->links) {
      const auto& k = t->link(l.link);
      const QColor expected = colourMap(binUtil(*r, l, bin));
      QCOMPARE(canvas.laneColour(l.link, l.direction), expected);
      if (k.a != g0 && k.b != g0 && k.a != g1 && k.b != g1)
        QCOMPARE(canvas.laneColour(l.link, l.direction), colourMap(0));
      else
        busy += expected != colourMap(0);
      changed |= colourMap(binUtil(*r, l, bin)) != colourMap(binUtil(*r, l, r->bins / 2));
    }
    QVERIFY2(busy >= 18, "gpu0's 18 links carry the copy");  // at least one lane per link of gpu0
  }
  QVERIFY2(changed, "moving the timeline changes some busy lane's colour");
}

void TestTopologyCanvas::thresholds_data() {
  QTest::addColumn<double>("cold");
  QTest::addColumn<double>("hot");
  QTest::newRow("defaults 5/70") << 0.05 << 0.7;
  QTest::newRow("0/30") << 0.0 << 0.3;
  QTest::newRow("50/99") << 0.5 << 0.99;
  QTest::newRow("99/100") << 0.99 << 1.0;
}

void TestTopologyCanvas::thresholds() {
  QFETCH(double, cold);
  QFETCH(double, hot);
  RunModel model;
  TopologyCanvas canvas(&model);
  const auto t = build(dgxH100());
  model.setTopology(t);
  const auto r = runP2p();
  model.setResults(r, true);
  const int bin = r->bins / 2;
  model.setCurrentBin(bin);
  model.setThresholds(cold, hot);
  int counts[3] = {0, 0, 0};
  for (const auto& l : r->links) {
    const LaneHeat expected = expectedHeat(binUtil(*r, l, bin), cold, hot);
    QCOMPARE(int(canvas.laneHeat(l.link, l.direction)), int(expected));
    ++counts[int(expected)];
  }
  qInfo("cold %d, normal %d, hot %d lanes", counts[0], counts[1], counts[2]);
  QVERIFY(counts[int(LaneHeat::Cold)] > 0);  // idle links are always cold
  if (hot <= 0.3) QVERIFY(counts[int(LaneHeat::Hot)] >= 18);  // gpu0's uplinks at full rate
}

// Two phases side by side: two copies of every link, captions naming both phases, the
// left copy coloured by phase A's mean.
void TestTopologyCanvas::sideBySide() {
  RunModel model;
  TopologyCanvas canvas(&model);
  const auto t = build(mesh(4, 4));
  model.setTopology(t);
  const auto r = patternResults(*t, 20, 100 * kNanosecond);
  model.setResults(r, true);
  canvas.setSideBySidePhases(0, 1);
  QVERIFY(canvas.isSideBySide());
  int lanes = 0, captions = 0;
  for (QGraphicsItem* item : canvas.scene()->items()) {
    lanes += item->type() == LinkItem::Type;
    if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item))
      captions += text->text().contains("first half") || text->text().contains("second half");
  }
  QCOMPARE(lanes, 2 * canvas.linkItemCount());
  QCOMPARE(captions, 2);
  for (const auto& l : r->links) {
    if (t->link(l.link).kind == topo::LinkKind::Local) continue;
    std::int64_t bytes = 0;  // phase A = bins 0..9
    for (int b = 0; b < 10; ++b) bytes += l.bin_bytes.at(b);
    const double mean = double(bytes) / (l.capacity_Bps * toSeconds(10 * r->bin));
    QCOMPARE(canvas.laneColour(l.link, l.direction), colourMap(mean));
  }
  canvas.clearSideBySide();
  lanes = 0;
  for (QGraphicsItem* item : canvas.scene()->items()) lanes += item->type() == LinkItem::Type;
  QCOMPARE(lanes, canvas.linkItemCount());
}

// Two NVL32s side by side in a dock-sized canvas: each caption is text of the canvas's own
// size on screen (not a scene-sized font shrunk with the fabric), whole or elided, in view,
// above its own copy and clear of the other's.
void TestTopologyCanvas::sideBySideCaptionsReadable() {
  TopologySpec spec;
  applyTopologyPreset("gh200-nvl32", spec);
  RunModel model;
  TopologyCanvas canvas(&model);
  const auto t = build(spec);
  model.setTopology(t);
  model.setResults(patternResults(*t, 20, 100 * kNanosecond), true);
  canvas.resize(680, 480);
  canvas.show();
  QVERIFY(QTest::qWaitForWindowExposed(&canvas));
  canvas.setSideBySidePhases(0, 1);
  QList<QRectF> onScreen;
  QStringList texts;
  for (QGraphicsItem* item : canvas.scene()->items(Qt::AscendingOrder))
    if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item)) {
      onScreen << text->deviceTransform(canvas.viewportTransform()).mapRect(text->boundingRect());
      texts << text->toolTip();
    }
  QCOMPARE(onScreen.size(), 2);
  QVERIFY(texts.contains("A: phase 1, first half (0 – 1.00 µs)"));
  QVERIFY(texts.contains("B: phase 2, second half (1.00 µs – 2.00 µs)"));
  const QRectF view(QPointF(0, 0), canvas.viewport()->size());
  const int lineHeight = QFontMetrics(canvas.font()).height();
  for (const QRectF& r : onScreen) {
    QVERIFY2(r.height() >= lineHeight, qPrintable(QString("caption %1 px high").arg(r.height())));
    QVERIFY(view.contains(r));
  }
  QVERIFY(!onScreen[0].intersects(onScreen[1]));
  QVERIFY(canvas.grab().save(artefactPath("canvas-side-by-side-nvl32.png")));
}

// Every GPU and switch is named on the canvas whenever its box has room for legible text
// on screen: an NVL32 fitted in a canvas of the size it gets beside the docks (its boxes
// about 29 x 14 px) included; in a canvas a third that wide, none is.
void TestTopologyCanvas::nodeLabels_data() {
  QTest::addColumn<QString>("preset");
  QTest::addColumn<QSize>("size");
  QTest::addColumn<int>("gpus");
  QTest::addColumn<int>("switches");
  QTest::newRow("gh200-nvl32 680x480") << "gh200-nvl32" << QSize(680, 480) << 32 << 9;
  QTest::newRow("gh200-nvl32 1000x700") << "gh200-nvl32" << QSize(1000, 700) << 32 << 9;
  QTest::newRow("dgx-h100 680x480") << "dgx-h100" << QSize(680, 480) << 8 << 4;
  QTest::newRow("gh200-nvl32 240x300: no room") << "gh200-nvl32" << QSize(240, 300) << 0 << 0;
}

void TestTopologyCanvas::nodeLabels() {
  QFETCH(QString, preset);
  QFETCH(QSize, size);
  QFETCH(int, gpus);
  QFETCH(int, switches);
  TopologySpec spec;
  applyTopologyPreset(preset.toStdString(), spec);
  RunModel model;
  TopologyCanvas canvas(&model);
  model.setTopology(build(spec));
  canvas.resize(size);
  canvas.show();
  QVERIFY(QTest::qWaitForWindowExposed(&canvas));
  QStringList expected;
  for (int i = 0; i < gpus; ++i) expected << QString("gpu%1").arg(i);
  for (int i = 0; i < switches; ++i) expected << QString("sw%1").arg(i);
  QStringList drawn = canvas.drawnLabels();
  drawn.sort();
  expected.sort();
  QCOMPARE(drawn, expected);
  const QString name = QString(QTest::currentDataTag()).replace(' ', '-').replace(':', "");
  QVERIFY(canvas.grab().save(artefactPath("canvas-labels-" + name + ".png")));
}

// Double-clicking dc17's collapsed box opens it: its two node boxes and their trunks appear.
void TestTopologyCanvas::doubleClickExpands() {
  RunModel model;
  TopologyCanvas canvas(&model);
  const auto t = build(hierarchy({1000, 2, 4}));
  model.setTopology(t);
  canvas.resize(900, 600);
  canvas.show();
  QVERIFY(QTest::qWaitForWindowExposed(&canvas));
  topo::NodeId dc17 = -1;
  int children = 0;
  for (const auto& n : t->nodes()) dc17 = n.name == "dc17" ? n.id : dc17;
  for (const auto& n : t->nodes()) children += n.parent == dc17;
  QCOMPARE(children, 2);
  const auto& p = canvas.currentLayout().nodes[size_t(dc17)];
  canvas.centerOn(p.center.x, p.center.y);
  const int before = canvas.deviceItemCount(), linksBefore = canvas.linkItemCount();
  QTest::mouseDClick(canvas.viewport(), Qt::LeftButton, {}, canvas.mapFromScene(p.center.x, p.center.y));
  QCOMPARE(canvas.deviceItemCount(), before + children);
  QCOMPARE(canvas.linkItemCount(), linksBefore + children);
}

void TestTopologyCanvas::clickSelects() {
  RunModel model;
  TopologyCanvas canvas(&model);
  const auto t = build(dgxH100());
  model.setTopology(t);
  canvas.resize(900, 700);
  canvas.show();
  QVERIFY(QTest::qWaitForWindowExposed(&canvas));
  const topo::NodeId gpu3 = t->endpointNode(3);
  const auto& p = canvas.currentLayout().nodes[size_t(gpu3)];
  QTest::mouseClick(canvas.viewport(), Qt::LeftButton, {}, canvas.mapFromScene(p.center.x, p.center.y));
  QCOMPARE(int(model.selectionKind()), int(SelectionKind::Node));
  QCOMPARE(model.selectedId(), gpu3);
}

void TestTopologyCanvas::exports() {
  RunModel model;
  TopologyCanvas canvas(&model);
  model.setTopology(build(dgxH100()));
  model.setResults(runP2p(), true);
  const QString svg = artefactPath("canvas-dgx-h100.svg"), png = artefactPath("canvas-dgx-h100-export.png");
  QVERIFY(canvas.exportSvg(svg));
  QFile f(svg);
  QVERIFY(f.open(QIODevice::ReadOnly));
  const QByteArray content = f.readAll();
  QVERIFY(content.contains("<svg"));
  QVERIFY2(!content.contains("<image"), "devices are vectors in the SVG, not pasted bitmaps");
  QVERIFY(content.contains("gpu0") && content.contains("link utilisation"));
  QVERIFY(canvas.exportPng(png));
  QImage image(png);
  QVERIFY(!image.isNull() && image.width() >= 800);
}

// Stepping bins on a 16 x 16 mesh: recolour plus a synchronous repaint, per frame.
void TestTopologyCanvas::recolourTiming() {
  RunModel model;
  TopologyCanvas canvas(&model);
  const auto t = build(mesh(16, 16));
  model.setTopology(t);
  const int bins = 60;
  model.setResults(patternResults(*t, bins, 100 * kNanosecond), true);
  canvas.resize(1200, 900);
  canvas.show();
  QVERIFY(QTest::qWaitForWindowExposed(&canvas));
  QElapsedTimer timer;
  timer.start();
  for (int b = 0; b < bins; ++b) canvas.recolour();
  const double recolourMs = timer.nsecsElapsed() / 1e6 / bins;
  timer.restart();
  for (int b = 0; b < bins; ++b) {
    model.setCurrentBin(b);
    canvas.viewport()->repaint();
  }
  const double frameMs = timer.nsecsElapsed() / 1e6 / bins;
  qInfo("16x16 mesh (%d link items): recolour %.2f ms, recolour + repaint %.2f ms per bin = %.0f frames/s",
        canvas.linkItemCount(), recolourMs, frameMs, 1000 / frameMs);
  QCOMPARE(canvas.linkItemCount(), 2 * 16 * 15);
}

QTEST_MAIN(TestTopologyCanvas)
#include "test_topology_canvas.moc"
