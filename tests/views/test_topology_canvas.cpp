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
#include <map>
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

// Node pairs joined by visible links, and those joined by more than one (bundles).
std::pair<int, int> independentPairs(const topo::Topology& t) {
  const bool collapsed = t.kind == "hierarchy" && t.endpointCount() >= 200;
  std::map<std::pair<int, int>, int> pairs;
  for (const auto& k : t.links()) {
    if (k.kind == topo::LinkKind::Local || (collapsed && k.level > 0)) continue;
    ++pairs[{std::min(k.a, k.b), std::max(k.a, k.b)}];
  }
  int bundles = 0;
  for (const auto& [pair, n] : pairs) bundles += n > 1;
  return {int(pairs.size()), bundles};
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
  void bundleLanes();
  void directionFilter();
  void deviceGlyphs();
  void liveShowsCompleteBin();
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

// Rows: drawn links one by one, and the node pairs they join (a bundle: a pair joined by
// more than one link). DGX-H100: each GPU's 18 links go 5, 4, 4, 5 to the 4 chips; NVL32:
// 2 to each of 9 chips.
void TestTopologyCanvas::counts_data() {
  QTest::addColumn<TopologySpec>("spec");
  QTest::addColumn<int>("devices");
  QTest::addColumn<int>("links");
  QTest::addColumn<int>("pairs");
  QTest::addColumn<int>("bundles");
  TopologySpec nvl32;
  applyTopologyPreset("gh200-nvl32", nvl32);
  QTest::newRow("nvswitch dgx-h100") << dgxH100() << 8 + 4 << 8 * 18 << 8 * 4 << 8 * 4;
  QTest::newRow("nvswitch gh200-nvl32") << nvl32 << 32 + 9 << 32 * 18 << 32 * 9 << 32 * 9;
  QTest::newRow("mesh 4x4") << mesh(4, 4) << 16 << 4 * 3 * 2 << 4 * 3 * 2 << 0;
  QTest::newRow("mesh 2x(4x4)") << mesh(4, 4, 1, 2) << 32 << 4 * 7 + 8 * 3 << 4 * 7 + 8 * 3 << 0;
  QTest::newRow("hierarchy 2x2x4") << hierarchy({2, 2, 4}) << 1 + 2 + 4 + 16 << 2 + 4 + 16 << 2 + 4 + 16 << 0;
  QTest::newRow("hierarchy 1000x2x4 collapsed") << hierarchy({1000, 2, 4}) << 1 + 1000 << 1000 << 1000 << 0;
}

void TestTopologyCanvas::counts() {
  QFETCH(TopologySpec, spec);
  QFETCH(int, devices);
  QFETCH(int, links);
  QFETCH(int, pairs);
  QFETCH(int, bundles);
  RunModel model;
  TopologyCanvas canvas(&model);
  const auto t = build(spec);
  QCOMPARE(independentDevices(*t), devices);  // the closed form agrees with the topology
  QCOMPARE(independentLinks(*t), links);
  const auto [p, b] = independentPairs(*t);
  QCOMPARE(p, pairs);
  QCOMPARE(b, bundles);
  model.setTopology(t);
  QCOMPARE(canvas.deviceItemCount(), devices);
  // Closed bundles: one item per pair; opened: one per link.
  QCOMPARE(canvas.linkItemCount(), pairs);
  QCOMPARE(canvas.bundleCount(), bundles);
  canvas.setBundlesExpanded(true);
  QCOMPARE(canvas.linkItemCount(), links);
  QCOMPARE(canvas.bundleCount(), 0);
  canvas.setBundlesExpanded(false);
  QCOMPARE(canvas.linkItemCount(), pairs);
}

// A bundle's lanes: as wide as its capacity in links (DGX-H100: 4 or 5 links of one
// bandwidth), set apart by a gap (the lanes' inner edges do not touch), each coloured by
// the bundle's bytes in the bin over its capacity, summed here from the raw results.
void TestTopologyCanvas::bundleLanes() {
  RunModel model;
  TopologyCanvas canvas(&model);
  const auto t = build(dgxH100());
  model.setTopology(t);
  const auto r = runP2p();
  model.setResults(r, true);
  const int bin = r->bins / 2;
  model.setCurrentBin(bin);
  std::map<std::pair<int, int>, std::vector<int>> pairs;
  for (const auto& k : t->links()) pairs[{std::min(k.a, k.b), std::max(k.a, k.b)}].push_back(k.id);
  QSet<int> widths;
  for (const auto& [pair, ids] : pairs) {
    const LinkItem* item = canvas.linkItem(ids.front());
    QVERIFY(item && item->isBundle());
    QCOMPARE(int(item->members.size()), int(ids.size()));
    for (int id : ids) QCOMPARE(canvas.linkItem(id), item);
    const LaneGeometry g = item->geometry();
    QVERIFY2(g.offset - g.width / 2 >= 0.75, "a visible gap between the two lanes");
    widths.insert(int(std::lround(g.width / ids.size() * 100)));  // width per link: one value
    for (int d = 0; d < 2; ++d) {
      double bytes = 0, capacity = 0;
      for (const auto& l : r->links)
        if (std::find(ids.begin(), ids.end(), l.link) != ids.end() && l.direction == d) {
          bytes += double(l.bin_bytes.at(bin));
          capacity += l.capacity_Bps * toSeconds(r->bin);
        }
      QCOMPARE(canvas.laneColour(ids.front(), d), colourMap(bytes / capacity));
    }
  }
  QCOMPARE(widths.size(), 1);
  // Double-clicking a bundle opens it into its own links; double-clicking one closes it.
  canvas.resize(900, 700);
  canvas.show();
  QVERIFY(QTest::qWaitForWindowExposed(&canvas));
  // A bundle whose middle no other item covers (bundles cross between the rows).
  std::vector<int> ids;
  QPointF mid;
  for (const auto& [pair, members] : pairs) {
    mid = canvas.linkItem(members.front())->boundingRect().center();
    const auto under = canvas.items(canvas.mapFromScene(mid));
    if (!under.isEmpty() && under.front() == canvas.linkItem(members.front())) {
      ids = members;
      break;
    }
  }
  QVERIFY(!ids.empty());
  const int before = canvas.linkItemCount();
  QTest::mouseDClick(canvas.viewport(), Qt::LeftButton, {}, canvas.mapFromScene(mid));
  QCOMPARE(canvas.linkItemCount(), before - 1 + int(ids.size()));
  QVERIFY(!canvas.linkItem(ids.front())->isBundle());
  canvas.toggleBundle(ids.back());
  QCOMPARE(canvas.linkItemCount(), before);
}

// The direction filter: the other direction's lanes are drawn faint, on every item.
void TestTopologyCanvas::directionFilter() {
  RunModel model;
  TopologyCanvas canvas(&model);
  const auto t = build(dgxH100());
  model.setTopology(t);
  model.setResults(runP2p(), true);
  auto shown = [&](int d) {
    int n = 0;
    for (const auto& k : t->links()) n += canvas.linkItem(k.id)->laneShown(d);
    return n;
  };
  const int links = int(t->links().size());
  QCOMPARE(shown(0), links);
  QCOMPARE(shown(1), links);
  model.setDirectionFilter(DirectionFilter::Up);
  QCOMPARE(shown(0), links);
  QCOMPARE(shown(1), 0);
  model.setDirectionFilter(DirectionFilter::Down);
  QCOMPARE(shown(0), 0);
  QCOMPARE(shown(1), links);
  // Up is the GPU's own sending direction: direction 0 of a GPU's link leaves the GPU.
  for (const auto& k : t->links()) QVERIFY(topo::isEndpoint(t->node(k.a).kind));
}

// Switch glyphs under NVLS: each switch's reductions in a bin equal the entries of its log
// that completed (not evicted) in that bin, counted here from the entry log; the replicas
// over the run equal the switch's total; GPU glyphs' bytes equal its links' bin bytes.
void TestTopologyCanvas::deviceGlyphs() {
  Scenario s = loadScenario(FABRICLAB_SCENARIOS "/default.yaml");
  s.sweep.clear();
  applyOverride(s, "workload.collective.algorithm=nvls");
  applyOverride(s, "workload.collective.size=8 MiB");
  applyOverride(s, "run.bin=2 us");
  const auto r = std::make_shared<Results>(runScenario(s));
  RunModel model;
  TopologyCanvas canvas(&model);
  const auto t = build(dgxH100());
  model.setTopology(t);
  model.setResults(r, true);
  QVERIFY(r->bins >= 4);
  std::int64_t seen = 0, replicas = 0;
  for (int bin = 0; bin < r->bins; ++bin) {
    model.setCurrentBin(bin);
    for (const SwitchResult& sw : r->switches) {
      QVERIFY(!sw.entry_log_truncated);
      std::int64_t completed = 0;
      for (const auto& e : sw.entry_log) completed += !e.evicted && e.end / r->bin == bin;
      const DeviceItem::Activity a = canvas.deviceActivity(sw.node);
      QCOMPARE(int(a.kind), int(DeviceItem::Activity::Kind::Switch));
      QCOMPARE(a.reductions, completed);
      seen += a.reductions;
      replicas += a.replicas;
      QVERIFY(a.fill >= 0 && a.fill <= 1);
    }
    for (int g = 0; g < t->endpointCount(); ++g) {
      const std::string name = t->node(t->endpointNode(g)).name;
      std::int64_t out = 0, in = 0;
      for (const auto& l : r->links) {
        if (l.from == name) out += l.bin_bytes.at(bin);
        if (l.to == name) in += l.bin_bytes.at(bin);
      }
      const DeviceItem::Activity a = canvas.deviceActivity(t->endpointNode(g));
      QCOMPARE(a.injected, double(out));
      QCOMPARE(a.received, double(in));
    }
  }
  std::int64_t total = 0, totalReplicas = 0;
  for (const SwitchResult& sw : r->switches) {
    total += sw.reductions;
    totalReplicas += sw.multicast_replicas;
  }
  QVERIFY(total > 0);
  QCOMPARE(seen, total);
  QCOMPARE(replicas, totalReplicas);
  canvas.resize(1000, 700);
  canvas.show();
  QVERIFY(QTest::qWaitForWindowExposed(&canvas));
  model.setCurrentBin(r->bins / 2);
  QVERIFY(canvas.grab().save(artefactPath("canvas-glyphs-nvls.png")));
}

// A live snapshot shows the newest complete bin, not the one still filling.
void TestTopologyCanvas::liveShowsCompleteBin() {
  RunModel model;
  const auto t = build(mesh(4, 4));
  model.setTopology(t);
  auto r = patternResults(*t, 7, 100 * kNanosecond);
  r->makespan = 650 * kNanosecond;  // bins 0-5 complete, bin 6 half filled
  model.setResults(r, false);
  QCOMPARE(model.currentBin(), 5);
  auto exact = patternResults(*t, 7, 100 * kNanosecond);  // 700 ns: bin 6 is complete
  model.setResults(exact, false);
  QCOMPARE(model.currentBin(), 6);
  model.setResults(r, true);  // final: every bin is in
  QCOMPARE(model.lastCompleteBin(), 6);
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
  canvas.setBundlesExpanded(true);  // each link's own lanes
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
  canvas.setBundlesExpanded(true);
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
