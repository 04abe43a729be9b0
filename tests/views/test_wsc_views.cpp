// The wafer-scale inference views (seed 003, issue 20 "Views"), offscreen: the mapping
// editor on the canvas (die colours and FTDs from a hand-written explicit mapping, ring
// paths along XY routes, a swap handing the expected groups on, refused swaps with their
// reason), the hot/cold overlay (each lane's class recomputed here from its bytes, the
// link's capacity, the phase window and the threshold; inter-FTD links dashed; one
// scale for baseline vs ER) and the migration views (stages on the links of their hops,
// progress from the timeline, the load plot's points and marks). Expected values come
// from the tests' own arithmetic over the mesh, not from the views.
#include <QCheckBox>
#include <QLabel>
#include <QSignalSpy>
#include <QtTest>
#include <map>
#include <memory>
#include <set>

#include "../common/view_helpers.h"
#include "../common/xy_walk.h"
#include "scenario/scenario_io.h"
#include "topology/topology.h"
#include "views/hot_cold_overlay.h"
#include "views/hot_cold_panel.h"
#include "views/mapping_edit.h"
#include "views/mapping_panel.h"
#include "views/migration_animation.h"
#include "views/migration_load_plot.h"
#include "views/run_model.h"
#include "views/topology_canvas.h"
#include "views/wafer_mapping_overlay.h"
#include "views/wsc_drag_preview.h"
#include "views/wsc_expert_edit.h"
#include "wsc/wsc_run.h"

using namespace fl;
using views::DieLists;

namespace {

// Qwen3 TP 4 on the 4x4 wafer (the paper's example), Eq. 1 model.
QByteArray wafer4x4(const char* mapping, const char* extra = "") {
  return QByteArray("fabriclab: 1\nname: wsc views\ntopology: {preset: wsc-4x4}\ngpu: {preset: b200}\n"
                    "network: {model: analytical}\n"
                    "workload: {kind: wsc_inference, wsc: {model: qwen3-235b, tp: 4, tokens_per_group: 256, "
                    "gating: uniform_exact}}\nmapping: ") + mapping + "\n" + extra;
}

// Groups of our own: every group strided over the whole wafer, no two members on a row.
const DieLists kGroups = {{0, 5, 10, 15}, {1, 4, 11, 14}, {2, 7, 8, 13}, {3, 6, 9, 12}};
const char* kExplicit = "{kind: explicit, groups: [[0, 5, 10, 15], [1, 4, 11, 14], [2, 7, 8, 13], [3, 6, 9, 12]]}";

struct Run {
  Scenario scenario;
  std::shared_ptr<const topo::Topology> topology;
  std::shared_ptr<const Results> results;
};

Run run(const QByteArray& yaml) {
  Run r;
  r.scenario = parseScenario(yaml.toStdString(), "test.yaml");
  r.topology = std::shared_ptr<const topo::Topology>(topo::buildTopology(r.scenario.topology));
  r.results = std::make_shared<const Results>(wsc::runWscAnalytical(r.scenario, *r.topology));
  return r;
}

int dieOf(const topo::Topology& t, topo::NodeId n) { return t.node(n).row * t.meshCols + t.node(n).col; }

// Mesh links (router to router) by their end dies.
std::map<std::pair<int, int>, int> meshLinks(const topo::Topology& t) {
  std::map<std::pair<int, int>, int> out;
  for (const auto& l : t.links())
    if (l.kind == topo::LinkKind::Mesh || l.kind == topo::LinkKind::Border) {
      out[{dieOf(t, l.a), dieOf(t, l.b)}] = l.id;
      out[{dieOf(t, l.b), dieOf(t, l.a)}] = l.id;
    }
  return out;
}

}  // namespace

class TestWscViews : public QObject {
  Q_OBJECT
 private slots:
  void dieColoursFollowExplicitGroups();
  void ringPathsFollowXyRoutes();
  void swapHandsOnSwappedGroups();
  void refusedSwaps_data();
  void refusedSwaps();
  void hotColdClassFromBytes_data();
  void hotColdClassFromBytes();
  void baselineVsErOnOneScale();
  void migrationStagesOnTheirLinks();
  void migrationCaptionWraps_data();
  void migrationCaptionWraps();
  void expertDragMovesAndSwaps();
  void refusedExpertEdits_data();
  void refusedExpertEdits();
  void previewLanesIdleWhereNoWalk();
  void previewThrottleKeepsLatest();
  void previewInTwoRuns_data();
  void previewInTwoRuns();
  void hotColdStacksWhenNarrow_data();
  void hotColdStacksWhenNarrow();
  void hotColdControlsBesideWhenShort_data();
  void hotColdControlsBesideWhenShort();
};

void TestWscViews::dieColoursFollowExplicitGroups() {
  const Run r = run(wafer4x4(kExplicit));
  views::RunModel model;
  model.setTopology(r.topology);
  views::TopologyCanvas canvas(&model);
  canvas.resize(800, 700);
  canvas.show();
  QVERIFY(QTest::qWaitForWindowExposed(&canvas));
  views::MappingPanel panel(&model, &canvas);
  panel.setScenario(r.scenario);
  panel.showCheck()->setChecked(true);
  model.setResults(r.results, true);
  views::WaferMappingOverlay* o = panel.overlay();
  std::map<int, std::set<QRgb>> coloursOfGroup;
  std::map<QRgb, int> groupOfColour;
  for (int g = 0; g < 4; ++g)
    for (int k = 0; k < 4; ++k) {
      const int d = static_cast<int>(kGroups[g][k]);
      QCOMPARE(o->groupOf(d), g);
      QCOMPARE(o->ringIndexOf(d), k);
      QCOMPARE(o->ftdOf(d), k);  // FTD k: the k-th ring member of every group
      const QColor c = o->dieColour(d);
      QVERIFY(c.isValid());
      coloursOfGroup[g].insert(c.rgb());
      groupOfColour[c.rgb()] = g;
    }
  for (int g = 0; g < 4; ++g) QCOMPARE(coloursOfGroup[g].size(), size_t{1});  // one colour per group
  QCOMPARE(groupOfColour.size(), size_t{4});                                   // four distinct colours
  // FTD 0 = {0, 1, 2, 3}: row 0, a 1 x 4 tile; FTD 1 = {5, 4, 7, 6}: row 1 as well.
  QVERIFY(o->ftdIsTile(0));
  QVERIFY(o->ftdIsTile(1));
  // Hidden overlay: no colour drawn.
  panel.showCheck()->setChecked(false);
  QVERIFY(!o->dieColour(0).isValid());
  panel.showCheck()->setChecked(true);
  fl::test::saveArtefact(canvas, QStringLiteral("wsc-mapping-explicit"), QSize(800, 700));
}

// Every ring edge between dies on different rows and columns turns one corner (row first).
void TestWscViews::ringPathsFollowXyRoutes() {
  const Run r = run(wafer4x4(kExplicit));
  views::RunModel model;
  model.setTopology(r.topology);
  views::TopologyCanvas canvas(&model);
  canvas.show();
  views::MappingPanel panel(&model, &canvas);
  panel.setScenario(r.scenario);
  panel.showCheck()->setChecked(true);
  views::WaferMappingOverlay* o = panel.overlay();
  for (int g = 0; g < 4; ++g) {
    const auto& m = kGroups[static_cast<size_t>(g)];
    std::vector<int> expected = {static_cast<int>(m[0])};  // dies the path visits
    for (size_t k = 0; k < m.size(); ++k) {
      const int a = static_cast<int>(m[k]), b = static_cast<int>(m[(k + 1) % m.size()]);
      if (a / 4 != b / 4 && a % 4 != b % 4) expected.push_back((a / 4) * 4 + b % 4);
      expected.push_back(b);
    }
    const auto pts = o->ringPath(g);
    QCOMPARE(pts.size(), expected.size());
    const QPointF shift = pts[0] - o->dieSceneRect(expected[0]).center();
    for (size_t i = 0; i < pts.size(); ++i) QCOMPARE(pts[i] - shift, o->dieSceneRect(expected[i]).center());
  }
}

void TestWscViews::swapHandsOnSwappedGroups() {
  const Run r = run(wafer4x4(kExplicit));
  views::RunModel model;
  model.setTopology(r.topology);
  views::TopologyCanvas canvas(&model);
  canvas.show();
  QVERIFY(QTest::qWaitForWindowExposed(&canvas));
  views::MappingPanel panel(&model, &canvas);
  panel.setScenario(r.scenario);
  panel.showCheck()->setChecked(true);
  DieLists handed;
  panel.setApply([&](const DieLists& g, const QString&) {
    handed = g;
    return QString();
  });
  // Drag die 5 (group 0, ring position 1) onto die 4 (group 1, ring position 1).
  views::WaferMappingOverlay* o = panel.overlay();
  QVERIFY(o->pressAt(o->dieSceneRect(5).center()));
  o->moveTo(o->dieSceneRect(4).center());
  o->releaseAt(o->dieSceneRect(4).center());
  const DieLists expected = {{0, 4, 10, 15}, {1, 5, 11, 14}, {2, 7, 8, 13}, {3, 6, 9, 12}};
  QCOMPARE(handed, expected);
  QCOMPARE(o->groups(), expected);
  QCOMPARE(o->groupOf(4), 0);
  QCOMPARE(o->groupOf(5), 1);
  QVERIFY(panel.refusalLabel()->isHidden());
  // A click (press and release on one die) selects it, as on the canvas without the overlay.
  QVERIFY(o->pressAt(o->dieSceneRect(6).center()));
  o->releaseAt(o->dieSceneRect(6).center());
  QCOMPARE(model.selectionKind(), views::SelectionKind::Node);
  QCOMPARE(model.selectedId(), 12);  // die 6 is node 12 (die then router per cell)
  QCOMPARE(o->groups(), expected);
  // The edited scenario saves and reads back with the same groups.
  const Scenario edited = views::withExplicitGroups(r.scenario, expected);
  QCOMPARE(parseScenario(saveScenarioText(edited), "saved.yaml").mapping.groups, expected);
}

void TestWscViews::refusedSwaps_data() {
  QTest::addColumn<QByteArray>("yaml");
  QTest::addColumn<int>("a");
  QTest::addColumn<int>("b");
  QTest::addColumn<QString>("reason");  // what the refusal must name
  // Explicit FTDs = the k-th members: swapping die 0 (FTD 0, group 0) with die 4 (FTD 1,
  // group 1) leaves FTD 0 = {0, 1, 2, 3} with dies 0 and 1 both in group 1.
  QTest::newRow("ftd loses its group-0 die")
      << wafer4x4("{kind: explicit, groups: [[0, 5, 10, 15], [1, 4, 11, 14], [2, 7, 8, 13], [3, 6, 9, 12]], "
                  "ftds: [[0, 1, 2, 3], [5, 4, 7, 6], [10, 11, 8, 9], [15, 14, 13, 12]]}")
      << 0 << 4 << "mapping.ftds";
  QTest::newRow("sweep over tp") << wafer4x4("{kind: er}", "sweep:\n  - key: workload.wsc.tp\n    values: [2, 4]\n")
                                 << 0 << 1 << "workload.wsc.tp";
  QTest::newRow("die in no group") << wafer4x4(kExplicit) << 0 << 99 << "no TP group";
}

void TestWscViews::refusedSwaps() {
  QFETCH(QByteArray, yaml);
  QFETCH(int, a);
  QFETCH(int, b);
  QFETCH(QString, reason);
  const Scenario s = parseScenario(yaml.toStdString(), "test.yaml");
  auto topology = std::shared_ptr<const topo::Topology>(topo::buildTopology(s.topology));
  views::RunModel model;
  model.setTopology(topology);
  views::TopologyCanvas canvas(&model);
  canvas.show();
  views::MappingPanel panel(&model, &canvas);
  panel.setScenario(s);
  panel.overlay()->setMapping(kGroups);  // a sweep leaves the drawing to the run: give it the groups
  bool applied = false;
  panel.setApply([&](const DieLists&, const QString&) {
    applied = true;
    return QString();
  });
  const QString why = panel.requestSwap(a, b);
  QVERIFY2(why.contains(reason), qPrintable(why));
  QVERIFY(!applied);
  QVERIFY(!panel.refusalLabel()->isHidden());
  QVERIFY(panel.refusalLabel()->text().contains(reason));
  QCOMPARE(panel.overlay()->groups(), kGroups);  // unchanged
}

void TestWscViews::hotColdClassFromBytes_data() {
  QTest::addColumn<QByteArray>("mapping");
  QTest::addColumn<double>("threshold");  // < 0: the run's own (0.9)
  QTest::newRow("er, run's threshold") << QByteArray("{kind: er}") << -1.0;
  QTest::newRow("er, 50 %") << QByteArray("{kind: er}") << 0.5;
  QTest::newRow("baseline, 30 %") << QByteArray("{kind: baseline}") << 0.3;
  // workload.wsc.hot_threshold_kind relative: of the panel's busiest mesh lane.
  QTest::newRow("er, relative 90 %") << QByteArray("{kind: er}") << -2.0;
  QTest::newRow("baseline, relative 90 %") << QByteArray("{kind: baseline}") << -2.0;
}

// Class per lane: idle without bytes, else hot when bytes / capacity over the phase's
// window (its per-iteration time x iterations) reaches the threshold, else cold.
void TestWscViews::hotColdClassFromBytes() {
  QFETCH(QByteArray, mapping);
  QFETCH(double, threshold);
  const bool relative = threshold < -1;
  QByteArray yaml = wafer4x4(mapping.constData());
  if (relative) yaml.replace("gating: uniform_exact", "gating: uniform_exact, hot_threshold_kind: relative");
  const Run r = run(yaml);
  const WscResults& w = *r.results->wsc;
  views::HotColdOverlay view;
  view.setTopology(r.topology);
  view.setPanels({{r.results, "all_reduce", "all-reduce"}, {r.results, "dispatch", "dispatch"}});
  if (threshold >= 0) view.setHotThreshold(threshold);
  const double thr = threshold >= 0 ? threshold : 0.9;
  std::vector<int> ftdOf(16, -1);
  for (size_t f = 0; f < w.ftds.size(); ++f)
    for (int d : w.ftds[f].members) ftdOf[static_cast<size_t>(d)] = static_cast<int>(f);
  const Time windows[2] = {w.allreduce, w.dispatch};
  // Relative: the busiest mesh lane's utilisation per panel, from the bytes.
  double busiest[2] = {0, 0};
  for (const LinkDirectionResult& d : r.results->links)
    for (int panel = 0; panel < 2; ++panel)
      if (r.topology->link(d.link).kind == topo::LinkKind::Mesh)
        for (const auto& f : d.phases)
          if (f.phase == (panel ? "dispatch" : "all_reduce"))
            busiest[panel] = std::max(busiest[panel], static_cast<double>(f.bytes) / d.capacity_Bps /
                                                          (static_cast<double>(windows[panel]) * 1e-12));
  std::map<QString, int> seen;
  int checked = 0;
  for (const LinkDirectionResult& d : r.results->links) {
    const topo::Link& l = r.topology->link(d.link);
    if (l.kind != topo::LinkKind::Mesh) continue;
    const bool inter = ftdOf[static_cast<size_t>(dieOf(*r.topology, l.a))] != ftdOf[static_cast<size_t>(dieOf(*r.topology, l.b))];
    for (int panel = 0; panel < 2; ++panel) {
      QCOMPARE(view.laneDashed(panel, d.link), inter);
      std::int64_t bytes = 0;
      for (const auto& f : d.phases) bytes += f.phase == (panel ? "dispatch" : "all_reduce") ? f.bytes : 0;
      const double u = static_cast<double>(bytes) / d.capacity_Bps / (static_cast<double>(windows[panel]) * 1e-12);
      const double cutoff = relative ? thr * busiest[panel] : thr;
      const QString expected = bytes == 0 ? "idle" : u >= cutoff ? "hot" : "cold";
      QCOMPARE(view.laneClass(panel, d.link, d.direction), expected);
      ++seen[expected + (panel ? "/dispatch" : "/allreduce")];
      ++checked;
      // ER confines the all-to-all to FTDs: no dispatch byte on an inter-FTD link.
      if (mapping.contains("er") && panel == 1 && inter) QCOMPARE(expected, QString("idle"));
    }
  }
  QCOMPARE(checked, 2 * 2 * 24);  // 24 mesh links on 4 x 4, both directions, both panels
  if (mapping.contains("er") && threshold == 0.5) {  // inter-FTD all-reduce links at 77 % (scenario comment)
    QVERIFY(seen["hot/allreduce"] > 0);
    QVERIFY(seen["idle/dispatch"] > 0);
  }
  if (relative) {  // the complementary picture (spec §3.3, §3.4): counts of directed mesh links
    const bool er = mapping.contains("er");
    QCOMPARE(seen["hot/allreduce"], er ? 16 : 32);
    QCOMPARE(seen["hot/dispatch"], er ? 32 : 16);
    QCOMPARE(seen["idle/dispatch"], er ? 16 : 0);
  }
  fl::test::saveArtefact(view, QStringLiteral("wsc-hotcold-%1").arg(QString(QTest::currentDataTag()).replace(' ', '_').remove(',').remove('%')),
                         QSize(900, 420));
}

void TestWscViews::baselineVsErOnOneScale() {
  const Run base = run(wafer4x4("{kind: baseline}"));
  const Run er = run(wafer4x4("{kind: er}"));
  views::HotColdOverlay view;
  view.setTopology(base.topology);
  view.setPanels({{base.results, "dispatch", "baseline"}, {er.results, "dispatch", "ER"}});
  view.setColourBy(views::HotColdOverlay::ColourBy::Utilisation);
  double top = 0;
  for (const auto* r : {base.results.get(), er.results.get()})
    for (const auto& d : r->links)
      for (const auto& f : d.phases)
        if (f.phase == "dispatch" && r->links.size() && base.topology->link(d.link).kind == topo::LinkKind::Mesh)
          top = std::max(top, f.utilization);
  QCOMPARE(view.utilisationTop(), top);
  // Baseline's dispatch crosses FTDs; ER's never does.
  int baseInter = 0, erInter = 0;
  const views::WaferGrid grid(*base.topology);
  for (const auto& s : grid.segments())
    for (int dir = 0; dir < 2; ++dir) {
      baseInter += view.laneDashed(0, s.link) && view.laneClass(0, s.link, dir) != "idle";
      erInter += view.laneDashed(1, s.link) && view.laneClass(1, s.link, dir) != "idle";
    }
  QVERIFY(baseInter > 0);
  QCOMPARE(erInter, 0);
  // The same utilisation gets the same colour in both panels (one scale).
  fl::test::saveArtefact(view, QStringLiteral("wsc-hotcold-baseline-vs-er"), QSize(900, 420));
}

// The Migrations dock's caption in a narrow dock: broken at spaces into lines that each fit
// (at most three), the words kept in order, none cut unless the third line must be.
void TestWscViews::migrationCaptionWraps_data() {
  QTest::addColumn<int>("width");
  QTest::newRow("narrow 220 px") << 220;
  QTest::newRow("dock at 1024x768, 300 px") << 300;
  QTest::newRow("wide 1200 px") << 1200;
}
void TestWscViews::migrationCaptionWraps() {
  QFETCH(int, width);
  const Run r = run(QByteArray(
      "fabriclab: 1\nname: wsc migrations\ntopology: {preset: wsc-8x8}\ngpu: {preset: b200}\nnetwork: {model: analytical}\n"
      "workload: {kind: wsc_inference, wsc: {model: deepseek-v3, tp: 16, tokens_per_group: 256, iterations: 12}}\n"
      "mapping: {kind: er}\nbalancer: {kind: non_invasive, load: single, zipf_s: 0.5}\n"));
  QVERIFY(!r.results->wsc->migrations.empty());
  views::MigrationAnimation anim;
  anim.resize(width, 300);
  anim.setTopology(r.topology);
  anim.setResults(r.results);
  // The iteration with the most copies under way: the longest caption.
  const Time perIteration = r.results->makespan / 12;
  Time busiest = 0;
  int most = -1;
  for (int i = 0; i < 12; ++i) {
    anim.setTime(perIteration * i + perIteration / 2);
    if (anim.activeCount() > most) most = anim.activeCount(), busiest = perIteration * i + perIteration / 2;
  }
  anim.setTime(busiest);
  QVERIFY(most > 0);
  const QString whole = anim.caption();
  QVERIFY(whole.startsWith("Iteration "));
  QVERIFY(whole.contains(" → "));
  const QStringList lines = anim.captionLines(width - 16);
  QFont bold = anim.font();
  bold.setBold(true);
  const QFontMetrics fm(bold);
  QVERIFY(!lines.isEmpty() && lines.size() <= 3);
  for (const QString& l : lines) QVERIFY2(fm.horizontalAdvance(l) <= width - 16, qPrintable(l));
  const QString joined = lines.join(' ');
  if (fm.horizontalAdvance(whole) <= width - 16) {
    QCOMPARE(lines.size(), 1);
    QCOMPARE(joined, whole);
  } else {
    QVERIFY(lines.size() > 1);
    // Every word of the first lines is the caption's own, in order.
    const QString kept = joined.endsWith(QChar(0x2026)) ? joined.left(joined.lastIndexOf(' ')) : joined;
    QVERIFY2(whole.startsWith(kept), qPrintable(kept + " | " + whole));
  }
  fl::test::saveArtefact(anim, QStringLiteral("wsc-migration-caption-%1").arg(width), QSize(width, 300));
}

void TestWscViews::migrationStagesOnTheirLinks() {
  const Run r = run(QByteArray(
      "fabriclab: 1\nname: wsc migrations\ntopology: {preset: wsc-8x8}\ngpu: {preset: b200}\nnetwork: {model: analytical}\n"
      "workload: {kind: wsc_inference, wsc: {model: deepseek-v3, tp: 16, tokens_per_group: 256, iterations: 12}}\n"
      "mapping: {kind: er}\nbalancer: {kind: non_invasive, load: single, zipf_s: 0.5}\n"));
  const WscResults& w = *r.results->wsc;
  QVERIFY(!w.migrations.empty());
  views::MigrationAnimation anim;
  anim.setTopology(r.topology);
  anim.setResults(r.results);
  QCOMPARE(anim.migrationCount(), static_cast<int>(w.migrations.size()));
  const auto links = meshLinks(*r.topology);
  std::map<int, std::string> ftdTag;  // link -> intra | inter, from the results
  for (const auto& d : r.results->links) ftdTag[d.link] = d.ftd;
  int multiStage = 0;
  for (int i = 0; i < anim.migrationCount(); ++i) {
    const WscMigration& m = w.migrations[static_cast<size_t>(i)];
    const auto& st = anim.stages(i);
    QCOMPARE(st.size(), m.stages.size());
    multiStage += st.size() > 1;
    int at = m.from;
    for (size_t k = 0; k < st.size(); ++k) {
      QCOMPARE(st[k].global, m.stages[k].kind == "global");
      QCOMPARE(static_cast<int>(st[k].links.size()), m.stages[k].hops);
      QCOMPARE(st[k].dies.front(), at);
      for (size_t h = 0; h < st[k].links.size(); ++h) {
        const auto it = links.find({st[k].dies[h], st[k].dies[h + 1]});
        QVERIFY(it != links.end());  // neighbours on the mesh
        QCOMPARE(st[k].links[h], it->second);
        QCOMPARE(ftdTag[it->second], std::string(st[k].global ? "inter" : "intra"));
      }
      at = st[k].dies.back();
    }
    QCOMPARE(at, m.to);
  }
  QVERIFY(multiStage > 0);
  // Timeline: before a copy's first iteration nothing has moved; after its last, all has.
  const Time perIteration = r.results->makespan / static_cast<Time>(w.load_max_over_mean.size());
  // The copy with most stages among those that start after iteration 0 and end in the run.
  int last = -1;
  for (int i = 0; i < anim.migrationCount(); ++i) {
    const WscMigration& c = w.migrations[static_cast<size_t>(i)];
    if (c.start_iteration > 0 && c.end_iteration + 2 < 12 &&
        (last < 0 || c.stages.size() > w.migrations[static_cast<size_t>(last)].stages.size()))
      last = i;
  }
  QVERIFY(last >= 0);
  const WscMigration& m = w.migrations[static_cast<size_t>(last)];
  anim.setTime(perIteration * m.start_iteration - perIteration / 2);
  QCOMPARE(anim.progress(last), 0.0);
  anim.setTime(perIteration * (m.end_iteration + 1) + perIteration / 4);
  QCOMPARE(anim.progress(last), static_cast<double>(m.stages.size()));
  // Half way through its iterations: half its stages.
  anim.setTime(perIteration * m.start_iteration + perIteration * (m.end_iteration - m.start_iteration + 1) / 2);
  QVERIFY(std::abs(anim.progress(last) - m.stages.size() / 2.0) < 0.01 * m.stages.size() + 1e-6);

  views::MigrationLoadPlot plot;
  plot.setResults(r.results);
  QCOMPARE(plot.pointCount(), 12);
  QCOMPARE(plot.migrationMarkCount(), static_cast<int>(w.migrations.size()));
  anim.setTime(perIteration * 3 + perIteration / 2);
  fl::test::saveArtefact(anim, QStringLiteral("wsc-migrations"), QSize(700, 600));
  fl::test::saveArtefact(plot, QStringLiteral("wsc-load-plot"), QSize(700, 400));
}

namespace {

// A point on die d's label row, where no expert chip is (chips fill the lower part).
QPointF labelRow(const views::WaferMappingOverlay* o, int d) {
  const QRectF r = o->dieSceneRect(d);
  return {r.center().x(), r.top() + r.height() * 0.12};
}

void dragExpert(views::WaferMappingOverlay* o, int expert, const QPointF& to) {
  QVERIFY(o->pressAt(o->expertChipRect(expert).center()));
  QCOMPARE(o->draggedExpert(), expert);
  o->moveTo(to);
  o->releaseAt(to);
}

// Mixtral-8x22B (8 experts, top-2) at TP 1 on the 4x4: one FTD of all 16 dies, no
// all-reduce, so a link carries bytes exactly where an XY walk between a die and an
// expert's die goes.
const QByteArray kTp1 = "fabriclab: 1\nname: tp1\ntopology: {preset: wsc-4x4}\ngpu: {preset: b200}\n"
                        "network: {model: analytical}\nworkload: {kind: wsc_inference, wsc: {model: mixtral-8x22b, "
                        "tp: 1, tokens_per_group: 256, gating: uniform_exact}}\nmapping: {kind: baseline}\n";

}  // namespace

// Expert mode: every chip sits on its expert's die; a chip dropped on another die's label
// row moves the expert there, on another die's chip exchanges the two; a die beyond its
// slots refuses. Qwen3: 128 experts, modulo 16 = 8 per die, slots ceil(128/16) + 1 = 9.
void TestWscViews::expertDragMovesAndSwaps() {
  const Run r = run(wafer4x4("{kind: er}"));
  views::RunModel model;
  model.setTopology(r.topology);
  views::TopologyCanvas canvas(&model);
  canvas.show();
  QVERIFY(QTest::qWaitForWindowExposed(&canvas));
  views::MappingPanel panel(&model, &canvas);
  panel.setScenario(r.scenario);
  panel.showCheck()->setChecked(true);
  panel.setDragMode(views::WaferMappingOverlay::DragMode::Experts);
  views::ExpertDies handed;
  int applied = 0;
  panel.setApplyExperts([&](const views::ExpertDies& d, const QString&) {
    handed = d, ++applied;
    return QString();
  });
  auto* o = panel.overlay();
  for (int e = 0; e < 128; ++e) {
    const QRectF chip = o->expertChipRect(e);
    QVERIFY(!chip.isEmpty());
    QVERIFY(o->dieSceneRect(e % 16).contains(chip));
    QCOMPARE(o->expertAtScene(chip.center()), e);
  }
  QCOMPARE(o->expertAtScene(labelRow(o, 0)), -1);
  views::ExpertDies expected;
  for (int e = 0; e < 128; ++e) expected.push_back(e % 16);
  // Expert 15 (die 15) onto die 0.
  dragExpert(o, 15, labelRow(o, 0));
  expected[15] = 0;
  QCOMPARE(handed, expected);
  QCOMPARE(panel.expertDies(), expected);
  QCOMPARE(o->experts()[0].size(), size_t{9});
  QCOMPARE(o->experts()[15].size(), size_t{7});
  QCOMPARE(o->dieSceneRect(0).contains(o->expertChipRect(15)), true);
  // Expert 1 (die 1) onto expert 16's chip (die 0): they exchange dies.
  dragExpert(o, 1, o->expertChipRect(16).center());
  std::swap(expected[1], expected[16]);
  QCOMPARE(handed, expected);
  QCOMPARE(applied, 2);
  // Die 0 is full (9): a tenth expert is refused and names the slots key.
  dragExpert(o, 2, labelRow(o, 0));
  QCOMPARE(applied, 2);
  QVERIFY(!panel.refusalLabel()->isHidden());
  QVERIFY2(panel.refusalLabel()->text().contains("workload.wsc.expert_slots"), qPrintable(panel.refusalLabel()->text()));
  QCOMPARE(panel.expertDies(), expected);
  // The edited scenario saves and reads back with the same placement.
  const Scenario edited = views::withExplicitExperts(r.scenario, expected);
  const Scenario back = parseScenario(saveScenarioText(edited), "saved.yaml");
  QCOMPARE(back.workload.wsc.expert_dies, expected);
  QCOMPARE(back.workload.wsc.expert_placement, WscExpertPlacement::Explicit);
  fl::test::saveArtefact(canvas, QStringLiteral("wsc-expert-chips"), QSize(900, 800));
}

void TestWscViews::refusedExpertEdits_data() {
  QTest::addColumn<QByteArray>("yaml");
  QTest::addColumn<int>("expert");
  QTest::addColumn<int>("die");
  QTest::addColumn<QString>("reason");
  QTest::newRow("die out of range") << wafer4x4("{kind: er}") << 3 << 16 << "workload.wsc.expert_dies[3]";
  QTest::newRow("die full at 8 slots")
      << wafer4x4("{kind: er}").replace("gating: uniform_exact", "gating: uniform_exact, expert_slots: 8") << 3 << 4
      << "workload.wsc.expert_slots";
  QTest::newRow("sweep over the model")
      << wafer4x4("{kind: er}", "sweep:\n  - key: workload.wsc.model\n    values: [qwen3-235b, deepseek-v3]\n") << 3
      << 4 << "workload.wsc.model";
  QTest::newRow("no such expert") << wafer4x4("{kind: er}") << 128 << 4 << "no expert 128";
}

void TestWscViews::refusedExpertEdits() {
  QFETCH(QByteArray, yaml);
  QFETCH(int, expert);
  QFETCH(int, die);
  QFETCH(QString, reason);
  const Scenario s = parseScenario(yaml.toStdString(), "test.yaml");
  auto topology = std::shared_ptr<const topo::Topology>(topo::buildTopology(s.topology));
  views::RunModel model;
  model.setTopology(topology);
  views::TopologyCanvas canvas(&model);
  views::MappingPanel panel(&model, &canvas);
  panel.setScenario(s);
  bool applied = false;
  panel.setApplyExperts([&](const views::ExpertDies&, const QString&) {
    applied = true;
    return QString();
  });
  const views::ExpertDies before = panel.expertDies();
  QCOMPARE(before.size(), size_t{128});
  const QString why = panel.requestExpertMove(expert, die);
  QVERIFY2(why.contains(reason), qPrintable(why));
  QVERIFY(!applied);
  QVERIFY(panel.refusalLabel()->text().contains(reason));
  QCOMPARE(panel.expertDies(), before);
}

// The drag preview: computed off the GUI call (nothing is drawn on return from the hover),
// then every directed die-to-die link of the canvas drawn idle exactly where no XY walk
// between a die and an expert's die goes; the Hot/Cold dock shows the previewed run
// meanwhile (its dispatch panel idle where no dispatch walk goes) and the drawn run again
// after the drop.
void TestWscViews::previewLanesIdleWhereNoWalk() {
  const Run r = run(kTp1);
  views::RunModel model;
  model.setTopology(r.topology);
  model.setResults(r.results, true);
  views::TopologyCanvas canvas(&model);
  canvas.show();
  QVERIFY(QTest::qWaitForWindowExposed(&canvas));
  views::MappingPanel panel(&model, &canvas);
  views::HotColdPanel hot(&model);
  QObject::connect(&panel, &views::MappingPanel::previewResults, &hot, &views::HotColdPanel::setPreview);
  panel.setScenario(r.scenario);
  panel.showCheck()->setChecked(true);
  panel.setDragMode(views::WaferMappingOverlay::DragMode::Experts);
  panel.setApplyExperts([](const views::ExpertDies&, const QString&) { return QString(); });
  auto* o = panel.overlay();
  // Expert 7 (die 7) over die 0: experts on dies 0-6.
  QVERIFY(o->pressAt(o->expertChipRect(7).center()));
  o->moveTo(labelRow(o, 0));
  QVERIFY(o->previewLanes().empty());
  QVERIFY(!hot.showsPreview());
  QTRY_VERIFY_WITH_TIMEOUT(!o->previewLanes().empty(), 20000);
  std::set<std::pair<int, int>> dispatch, any;
  for (int u = 0; u < 16; ++u)
    for (int v = 0; v <= 6; ++v)
      if (u != v) {
        for (auto l : xyWalk(u, v, 4)) dispatch.insert(l), any.insert(l);
        for (auto l : xyWalk(v, u, 4)) any.insert(l);
      }
  QCOMPARE(o->previewLanes().size(), size_t{48});  // 24 links, both directions
  for (const auto& lane : o->previewLanes())
    QCOMPARE(lane.cls != "idle", any.count({lane.from, lane.to}) == 1);
  QVERIFY(o->previewCaption().contains("Expert 7"));
  QVERIFY(panel.previewLabel()->text().contains("communication"));
  QVERIFY(hot.showsPreview());
  QVERIFY(hot.overlay()->caption(1).contains("preview"));
  QCOMPARE(hot.overlay()->countOf(1, "idle"), 48 - static_cast<int>(dispatch.size()));
  fl::test::saveArtefact(canvas, QStringLiteral("wsc-expert-preview"), QSize(900, 800));
  o->releaseAt(labelRow(o, 0));
  QVERIFY(o->previewLanes().empty());
  QVERIFY(!hot.showsPreview());
  QVERIFY(!hot.overlay()->caption(1).contains("preview"));
}

// "Two runs" (one phase, baseline vs ER) during a drag: the preview takes the place of the
// run being edited (the shown one) in whichever panel draws it, or of the second run when
// neither does; the other panel keeps its run. Each panel's idle lanes are counted here
// from its run's own dispatch bytes (no bytes on a directed mesh link = idle).
void TestWscViews::previewInTwoRuns_data() {
  QTest::addColumn<int>("shown");     // runs: 0 baseline, 1 er, 2 explicit (not drawn)
  QTest::addColumn<int>("replaced");  // the panel showing the preview
  QTest::newRow("editing ER (second panel)") << 1 << 1;
  QTest::newRow("editing baseline (first panel)") << 0 << 0;
  QTest::newRow("editing a run not drawn") << 2 << 1;
}
void TestWscViews::previewInTwoRuns() {
  QFETCH(int, shown);
  QFETCH(int, replaced);
  const Run runs[3] = {run(wafer4x4("{kind: baseline}")), run(wafer4x4("{kind: er}")), run(wafer4x4(kExplicit))};
  // The preview: ER's groups {0, 2, 10, 8}, {1, 3, 11, 9}, ... with dies 0 and 3 swapped (a
  // drag on the ER wafer): FTDs {3, 1, 4, 5} and {2, 0, 6, 7} are no longer tiles.
  const Run preview = run(wafer4x4("{kind: explicit, groups: [[3, 2, 10, 8], [1, 0, 11, 9], [4, 6, 14, 12], [5, 7, 15, 13]]}"));
  views::RunModel model;
  model.setTopology(runs[0].topology);
  model.setResults(runs[shown].results, true);
  views::HotColdPanel hot(&model);
  hot.setRuns({"baseline", "er", "explicit"}, {runs[0].results, runs[1].results, runs[2].results});
  hot.modeCombo()->setCurrentIndex(1);
  hot.phaseACombo()->setCurrentIndex(1);  // dispatch
  QCOMPARE(hot.runACombo()->currentText(), QString("baseline"));
  QCOMPARE(hot.runBCombo()->currentText(), QString("er"));
  const auto idleLanes = [](const Results& r) {
    int n = 0;
    for (const auto& d : r.links)
      if (d.kind == "mesh")
        for (const auto& f : d.phases) n += f.phase == "dispatch" && f.bytes == 0;
    return n;
  };
  const Results* drawn[2] = {runs[0].results.get(), runs[1].results.get()};
  for (int p = 0; p < 2; ++p) QCOMPARE(hot.overlay()->countOf(p, "idle"), idleLanes(*drawn[p]));
  hot.setPreview(preview.results);
  QVERIFY(hot.showsPreview());
  QCOMPARE(hot.overlay()->panelCount(), 2);
  for (int p = 0; p < 2; ++p) {
    QCOMPARE(hot.overlay()->caption(p).contains("preview"), p == replaced);
    QCOMPARE(hot.overlay()->countOf(p, "idle"), idleLanes(p == replaced ? *preview.results : *drawn[p]));
  }
  // ER's dispatch never uses inter-FTD links (16 directed); the swap breaks that.
  QCOMPARE(idleLanes(*runs[1].results), 16);
  QVERIFY(idleLanes(*preview.results) != 16);
  fl::test::saveArtefact(hot, QStringLiteral("wsc-preview-two-runs-%1").arg(shown), QSize(900, 420));
  hot.setPreview(nullptr);
  for (int p = 0; p < 2; ++p) {
    QVERIFY(!hot.overlay()->caption(p).contains("preview"));
    QCOMPARE(hot.overlay()->countOf(p, "idle"), idleLanes(*drawn[p]));
  }
}

// Requests made without the event loop running collapse into one preview of the last.
void TestWscViews::previewThrottleKeepsLatest() {
  const Run r = run(wafer4x4("{kind: er}"));
  views::WscDragPreview preview;
  QSignalSpy ready(&preview, &views::WscDragPreview::ready);
  const DieLists tiles = {{0, 1, 5, 4}, {2, 3, 7, 6}, {8, 9, 13, 12}, {10, 11, 15, 14}};
  for (int i = 1; i <= 5; ++i) {
    Scenario after = views::withExplicitGroups(r.scenario, views::swapDies(tiles, 0, i));
    preview.request(views::withExplicitGroups(r.scenario, tiles), after, r.topology, QString::number(i));
  }
  QCOMPARE(preview.started(), 0);
  QVERIFY(ready.wait(20000));
  QCOMPARE(preview.started(), 1);
  QCOMPARE(ready.count(), 1);
  QCOMPARE(ready.front().front().value<views::WscDragPreview::Outcome>().label, QString("5"));
  // Swapping dies 0 and 5 in the baseline tiles keeps every group a tile (0 and 5 are in
  // one): the same communication time.
  QTRY_VERIFY(!preview.busy());
  preview.cancel();
}

// The Hot/Cold overlay's pair: stacked when that draws the (square) 4 x 4 larger. Hand
// arithmetic with 16 px gaps, a 22 px legend (+ 8) and 24 px captions: 300 x 600 side by
// side gives dies an area 126 px wide, stacked 268 x 257: stacked; 900 x 300 side by side
// 426 x 246, stacked 868 x 107: side by side.
void TestWscViews::hotColdStacksWhenNarrow_data() {
  QTest::addColumn<QSize>("size");
  QTest::addColumn<bool>("stacked");
  QTest::newRow("300x600") << QSize(300, 600) << true;
  QTest::newRow("360x700") << QSize(360, 700) << true;
  QTest::newRow("900x300") << QSize(900, 300) << false;
  QTest::newRow("1200x420") << QSize(1200, 420) << false;
}

void TestWscViews::hotColdStacksWhenNarrow() {
  QFETCH(QSize, size);
  QFETCH(bool, stacked);
  const Run r = run(wafer4x4("{kind: er}"));
  views::HotColdOverlay view;
  view.setTopology(r.topology);
  view.setPanels({{r.results, "all_reduce", "All-reduce · er"}, {r.results, "dispatch", "Dispatch · er"}});
  view.resize(size);
  QCOMPARE(view.stacked(), stacked);
  const auto rects = view.panelRects();
  QCOMPARE(rects.size(), size_t{2});
  QVERIFY(!rects[0].intersects(rects[1]));
  for (const QRectF& p : rects) QVERIFY(QRectF(0, 0, size.width(), size.height()).contains(p));
  if (stacked) QCOMPARE(rects[0].width(), size.width() - 32.0);
  else QCOMPARE(rects[0].height(), rects[1].height());
  fl::test::saveArtefact(view, QStringLiteral("wsc-hotcold-%1x%2").arg(size.width()).arg(size.height()), size);
}

// The dock's controls: a column left of the wafers when the panel is at least twice as
// wide as tall (and 480 px wide), else a row above them.
void TestWscViews::hotColdControlsBesideWhenShort_data() {
  QTest::addColumn<QSize>("size");
  QTest::addColumn<bool>("beside");
  QTest::newRow("900x300") << QSize(900, 300) << true;
  QTest::newRow("640x320") << QSize(640, 320) << true;
  QTest::newRow("560x300") << QSize(560, 300) << false;
  QTest::newRow("400x600") << QSize(400, 600) << false;
}

void TestWscViews::hotColdControlsBesideWhenShort() {
  QFETCH(QSize, size);
  QFETCH(bool, beside);
  const Run r = run(wafer4x4("{kind: er}"));
  views::RunModel model;
  model.setTopology(r.topology);
  model.setResults(r.results, true);
  views::HotColdPanel panel(&model);
  panel.resize(size);
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  QCOMPARE(panel.controlsBeside(), beside);
  const QRect overlay = panel.overlay()->geometry();
  const QRect mode(panel.modeCombo()->mapTo(&panel, QPoint(0, 0)), panel.modeCombo()->size());
  if (beside) QVERIFY(mode.right() < overlay.left());   // the controls left of the wafers
  else QVERIFY(mode.bottom() < overlay.top());           // above them
  fl::test::saveArtefact(panel, QStringLiteral("wsc-hotcold-panel-%1x%2").arg(size.width()).arg(size.height()), size);
}

QTEST_MAIN(TestWscViews)
#include "test_wsc_views.moc"
