// The wafer views in narrow docks and what Hot/Cold Links opens on (issue 20 "Views"),
// offscreen: the keys of Hot/Cold Links and Migrations wrap into rows that fit instead of
// being cut (each entry's text whole, nothing overlapping, a single row exactly when the
// entries' own widths add up to the room), the hot/cold captions put their counts on a
// second line when title and counts do not fit side by side, and "Two phases" shows a
// mapping sweep's ER point until the user picks one. Widths are measured here with the
// views' fonts, not read from the layout under test.
#include <QFontMetricsF>
#include <QtTest>
#include <memory>

#include "../common/view_helpers.h"
#include "scenario/scenario_io.h"
#include "topology/topology.h"
#include "views/hot_cold_overlay.h"
#include "views/hot_cold_panel.h"
#include "views/migration_animation.h"
#include "views/run_model.h"
#include "views/wafer_key.h"
#include "wsc/wsc_run.h"

using namespace fl;

namespace {

struct Run {
  std::shared_ptr<const topo::Topology> topology;
  std::shared_ptr<const Results> results;
};

// Qwen3 TP 4 on the 4x4 wafer (the paper's example, hot relative to the busiest link), Eq. 1.
Run wafer4x4(const char* mapping) {
  const Scenario s = parseScenario(
      std::string("fabriclab: 1\nname: fit\ntopology: {preset: wsc-4x4}\ngpu: {preset: b200}\nnetwork: {model: analytical}\n"
                  "workload: {kind: wsc_inference, wsc: {model: qwen3-235b, tp: 4, tokens_per_group: 256, "
                  "gating: uniform_exact, hot_threshold_kind: relative}}\nmapping: {kind: ") + mapping + "}\n",
      "fit.yaml");
  Run r;
  r.topology = std::shared_ptr<const topo::Topology>(topo::buildTopology(s.topology));
  r.results = std::make_shared<const Results>(wsc::runWscAnalytical(s, *r.topology));
  return r;
}

constexpr double kSwatchGap = 6, kEntryGap = 16;  // the key's spacing (views/wafer_key.cpp)

double entryWidth(const views::WaferKeyEntry& e, const QFontMetricsF& fm) {
  const bool swatch = e.line.style() != Qt::NoPen || e.bar.style() != Qt::NoBrush;
  return (swatch ? e.swatch + kSwatchGap : 0) + fm.horizontalAdvance(e.text);
}
// A swatch is drawn at most a quarter of the key's width (26 px at least).
double swatchShown(const views::WaferKeyEntry& e, double width) { return std::min(e.swatch, std::max(26.0, width / 4)); }

// Every entry inside the width, whole (its lines joined give its text), no two overlapping,
// and one row exactly when the entries and their gaps add up to no more than the width.
void checkKey(const views::WaferKey& key, double width) {
  const QFontMetricsF fm(key.font());
  const auto places = key.layout(width);
  const auto& entries = key.entries();
  QCOMPARE(places.size(), entries.size());
  double total = -kEntryGap;
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto& pl = places[i];
    views::WaferKeyEntry shown = entries[i];
    shown.swatch = swatchShown(shown, width);
    total += entryWidth(shown, fm) + kEntryGap;
    QVERIFY2(pl.x >= 0 && pl.x + pl.width <= width + 0.5, qPrintable(entries[i].text));
    QCOMPARE(pl.swatch, swatchShown(entries[i], width));
    QCOMPARE(pl.lines.join(QLatin1Char(' ')), entries[i].text);
    for (size_t j = 0; j < i; ++j) {
      const auto& q = places[j];
      const bool rowsMeet = pl.row < q.row + q.lines.size() && q.row < pl.row + pl.lines.size();
      QVERIFY2(!rowsMeet || q.x + q.width <= pl.x || pl.x + pl.width <= q.x,
               qPrintable(entries[j].text + " / " + entries[i].text));
    }
  }
  QCOMPARE(key.rows(width) == 1, total <= width);
  QCOMPARE(key.height(width), key.rows(width) * key.rowHeight());
}

}  // namespace

class TestWscViewFit : public QObject {
  Q_OBJECT
 private slots:
  void hotColdKeyWraps_data();
  void hotColdKeyWraps();
  void migrationKeyWraps_data();
  void migrationKeyWraps();
  void hotColdCaptionCountsBelow_data();
  void hotColdCaptionCountsBelow();
  void twoPhasesOpenOnErPoint();
};

void TestWscViewFit::hotColdKeyWraps_data() {
  QTest::addColumn<int>("width");
  QTest::addColumn<bool>("byUtilisation");
  QTest::newRow("wide, by class") << 1400 << false;
  QTest::newRow("dock at 1024x768, by class") << 380 << false;
  QTest::newRow("narrow, by class") << 200 << false;
  QTest::newRow("dock at 1024x768, by utilisation") << 380 << true;
  QTest::newRow("narrow, by utilisation") << 200 << true;
}

void TestWscViewFit::hotColdKeyWraps() {
  QFETCH(int, width);
  QFETCH(bool, byUtilisation);
  const Run r = wafer4x4("er");
  views::HotColdOverlay view;
  view.setTopology(r.topology);
  view.setPanels({{r.results, "all_reduce", "All-reduce · er"}, {r.results, "dispatch", "Dispatch · er"}});
  if (byUtilisation) view.setColourBy(views::HotColdOverlay::ColourBy::Utilisation);
  view.resize(width, 400);
  const views::WaferKey key = view.key();
  // The intra/inter-FTD distinction is in the key itself, not only in the tooltip.
  QStringList texts;
  for (const auto& e : key.entries()) texts << e.text;
  QVERIFY(texts.contains("intra-FTD link") && texts.contains("inter-FTD link"));
  checkKey(key, width - 16);
  QCOMPARE(view.legendHeight(), key.height(width - 16) + 4);
  // The panels end above the key.
  for (const QRectF& p : view.panelRects()) QVERIFY(p.bottom() <= 400 - view.legendHeight());
  fl::test::saveArtefact(view, QStringLiteral("wsc-hotcold-key-%1%2").arg(width).arg(byUtilisation ? "-util" : ""),
                         QSize(width, 400));
}

void TestWscViewFit::migrationKeyWraps_data() {
  QTest::addColumn<int>("width");
  QTest::newRow("wide 1200 px") << 1200;
  QTest::newRow("dock at 1024x768, 190 px") << 190;
  QTest::newRow("narrow 160 px") << 160;
}

void TestWscViewFit::migrationKeyWraps() {
  QFETCH(int, width);
  views::MigrationAnimation anim;
  anim.resize(width, 300);
  checkKey(anim.key(), width - 16);
}

// Counts beside the title where both fit in a panel's width; under it otherwise, unless
// that would shrink the dies below 20 px (their numbers need 18; then one line).
void TestWscViewFit::hotColdCaptionCountsBelow_data() {
  QTest::addColumn<QSize>("size");
  QTest::newRow("wide 1400x400") << QSize(1400, 400);
  QTest::newRow("dock at 1024x768, 556x217") << QSize(556, 217);
  QTest::newRow("narrow and tall 260x700") << QSize(260, 700);
  QTest::newRow("narrow and short 300x160") << QSize(300, 160);
}

void TestWscViewFit::hotColdCaptionCountsBelow() {
  QFETCH(QSize, size);
  const Run r = wafer4x4("er");
  views::HotColdOverlay view;
  view.setTopology(r.topology);
  view.setPanels({{r.results, "all_reduce", "All-reduce · er point"}, {r.results, "dispatch", "Dispatch · er point"}});
  view.resize(size);
  QFont bold = view.font();
  bold.setBold(true);
  const QFontMetricsF fb(bold), fm(view.font());
  // ER on 4x4 (spec §3.4, §3.3): the all-reduce loads the 16 inter-FTD lanes twice as much
  // as the 32 intra-FTD ones; the dispatch loads every intra-FTD lane alike and no inter-FTD one.
  QCOMPARE(view.countsText(0), QStringLiteral("16 hot · 32 cold · 0 idle"));
  QCOMPARE(view.countsText(1), QStringLiteral("32 hot · 0 cold · 16 idle"));
  const QRectF panel = view.panelRects().front();
  bool oneLine = true;
  for (int i = 0; i < 2; ++i)
    oneLine = oneLine && fb.horizontalAdvance(view.caption(i) + "  ") + fm.horizontalAdvance(view.countsText(i)) <= panel.width();
  QCOMPARE(view.captionFits(panel.width()), oneLine);
  const double caption = view.captionHeight(panel);
  if (oneLine) QCOMPARE(caption, 20.0);
  else if (caption == 40.0) QVERIFY2(view.diePixels() >= 20, qPrintable(QString::number(view.diePixels())));
  else QCOMPARE(caption, 20.0);
  if (size.width() == 1400) QVERIFY(oneLine);
  if (size.width() == 260) QCOMPARE(caption, 40.0);  // stacked, room to spare
  if (size.height() == 160) QCOMPARE(caption, 20.0);  // no room for a second line
  // Short of room the counts drop idle, then cold, whole each time; never "16 hot · 3…".
  QCOMPARE(view.countsFitting(0, fm.horizontalAdvance("16 hot · 32 cold · 0 idle")), QStringLiteral("16 hot · 32 cold · 0 idle"));
  QCOMPARE(view.countsFitting(0, fm.horizontalAdvance("16 hot · 32 cold") + 1), QStringLiteral("16 hot · 32 cold"));
  QCOMPARE(view.countsFitting(1, fm.horizontalAdvance("32 hot · 0 cold") - 1), QStringLiteral("32 hot"));
  QCOMPARE(view.countsFitting(1, fm.horizontalAdvance("32 hot") - 1), QString());
  fl::test::saveArtefact(view, QStringLiteral("wsc-hotcold-caption-%1x%2").arg(size.width()).arg(size.height()), size);
}

// A mapping sweep opens on its baseline point: "Two phases" shows the ER point (captioned
// "er point") until told to follow the shown run; a shown ER run or a sweep without ER
// shows the shown run.
void TestWscViewFit::twoPhasesOpenOnErPoint() {
  const Run base = wafer4x4("baseline"), er = wafer4x4("er");
  views::RunModel model;
  model.setTopology(base.topology);
  model.setResults(base.results, true);
  views::HotColdPanel panel(&model);
  panel.setRuns({"Baseline mapping", "ER mapping"}, {base.results, er.results});
  QCOMPARE(panel.modeCombo()->currentIndex(), 0);
  QCOMPARE(panel.phasesRun(), er.results);
  QCOMPARE(panel.overlay()->caption(0), QStringLiteral("All-reduce · er point"));
  QCOMPARE(panel.overlay()->countOf(0, "hot"), 16);  // the inter-FTD lanes (spec §3.4)
  panel.setFollowShown(true);
  QCOMPARE(panel.phasesRun(), base.results);
  QCOMPARE(panel.overlay()->caption(1), QStringLiteral("Dispatch · baseline"));
  panel.setFollowShown(false);
  model.setResults(er.results, true);
  QCOMPARE(panel.phasesRun(), er.results);
  QCOMPARE(panel.overlay()->caption(0), QStringLiteral("All-reduce · er"));
  model.setResults(base.results, true);
  panel.setRuns({"Baseline mapping"}, {base.results});  // no ER point: the shown run
  QCOMPARE(panel.phasesRun(), base.results);
  QCOMPARE(panel.overlay()->caption(0), QStringLiteral("All-reduce · baseline"));
}

QTEST_MAIN(TestWscViewFit)
#include "test_wsc_view_fit.moc"
