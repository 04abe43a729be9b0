// The Sweep dock's chart (views/sweep_chart.h) on hand-made sweeps: which figure it
// opens on, where each finished point is drawn (values and axis units worked out here
// from the Results fields), lines over numeric settings and bars over names, a series
// per value of the second axis, the ring on the shown point, clicks and notices.
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QtTest>
#include <qcustomplot.h>

#include "../common/view_helpers.h"
#include "views/sweep_chart.h"

using namespace fl;
using namespace fl::views;

namespace {

std::shared_ptr<const Results> tlbResults(std::int64_t hits, std::int64_t misses, Time makespan) {
  auto r = std::make_shared<Results>();
  r->makespan = makespan;
  r->moe = MoeResults{};
  r->moe->al_tlb_hits = hits;
  r->moe->al_tlb_misses = misses;
  return r;
}

// An AL TLB size sweep: 64 ... 1024 entries, hit rates 80 %, 90 %, 95 %, 99 %, 99 %.
std::vector<SweepChart::Point> tlbSweep(int finished = 5) {
  const char* sizes[] = {"64", "128", "256", "512", "1024"};
  const std::int64_t hits[] = {80, 90, 95, 99, 99};
  std::vector<SweepChart::Point> points;
  for (int i = 0; i < 5; ++i)
    points.push_back({{{"scheme.dysharp.al_tlb_entries", sizes[i]}},
                      i < finished ? tlbResults(hits[i], 100 - hits[i], (30 + i) * kMicrosecond) : nullptr});
  return points;
}

const std::vector<std::string> kTlbKeys = {"scheme.dysharp.al_tlb_entries"};

// communication x fusion, with the redundant + useless share set through the breakdown.
std::vector<SweepChart::Point> schemeSweep() {
  std::vector<SweepChart::Point> points;
  for (const char* comm : {"deepep", "dysharp"})
    for (const char* fusion : {"sequential", "token_centric"}) {
      auto r = std::make_shared<Results>();
      r->makespan = 100 * kMicrosecond;
      const std::int64_t redundant = std::string(comm) == "deepep" ? 432 : 0;
      r->breakdown = {{"all", "uplink", 568, redundant, 0, 10}, {"all", "downlink", 568, redundant, 0, 10}};
      points.push_back({{{"scheme.communication", comm}, {"scheme.fusion", fusion}}, r});
    }
  return points;
}

}  // namespace

class TestSweepChart : public QObject {
  Q_OBJECT

 private slots:
  // The AL TLB sweep opens on the hit rate, one line, a ring on the shown point.
  void numericSweep() {
    SweepChart chart;
    chart.resize(700, 360);
    chart.setSweep(kTlbKeys, tlbSweep());
    chart.setSelectedPoint(1);
    QCOMPARE(chart.metric(), QString("al_tlb_hit_rate"));
    QCOMPARE(chart.title(), QString("AL TLB hit rate vs AL TLB entries"));
    QVERIFY(!chart.noticeVisible());
    QCustomPlot* p = chart.plot();
    QCOMPARE(p->yAxis->label(), QString("AL TLB hit rate (%)"));
    QCOMPARE(p->xAxis->scaleType(), QCPAxis::stLogarithmic);  // 1024 / 64 = 16
    QCOMPARE(p->graphCount(), 2);                               // the line and the ring
    QCPGraph* line = p->graph(0);
    const double xs[] = {64, 128, 256, 512, 1024}, ys[] = {80, 90, 95, 99, 99};
    QCOMPARE(line->dataCount(), 5);
    for (int i = 0; i < 5; ++i) {
      QCOMPARE(line->data()->at(i)->key, xs[i]);
      QCOMPARE(line->data()->at(i)->value, ys[i]);
    }
    QCPGraph* ring = p->graph(1);
    QCOMPARE(ring->dataCount(), 1);
    QCOMPARE(ring->data()->at(0)->key, 128.0);
    chart.setSelectedPoint(3);
    QCOMPARE(chart.plot()->graph(1)->data()->at(0)->key, 512.0);
    QVERIFY(!p->legend->visible());  // one series: the title names it
    test::saveArtefact(chart, "sweep_chart_al_tlb", {700, 360});
  }

  // Points appear as they finish; the axis keeps its kind meanwhile.
  void fillsAsPointsFinish_data() {
    QTest::addColumn<int>("finished");
    QTest::newRow("none") << 0;
    QTest::newRow("two") << 2;
    QTest::newRow("all") << 5;
  }
  void fillsAsPointsFinish() {
    QFETCH(int, finished);
    SweepChart chart;
    chart.setSweep(kTlbKeys, tlbSweep(finished));
    QCOMPARE(chart.noticeVisible(), finished == 0);
    if (finished == 0) return;
    QCOMPARE(chart.plot()->graph(0)->dataCount(), finished);
    QCOMPARE(chart.plot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
  }

  // The figure the x axis is about, unless it is (nearly) the same between points that
  // differ in one axis only (along either axis): then the headline, the makespan.
  // communication x fusion, makespans 302, 185 (deepep) and 250, 150 us (dysharp).
  void openingFigure_data() {
    QTest::addColumn<QList<qint64>>("redundant");  // per point: deepep+seq, deepep+tc, dysharp+seq, dysharp+tc
    QTest::addColumn<int>("finished");
    QTest::addColumn<QString>("expected");
    // The fusion demo: 43.2 % with either fusion, 0 % with DySHARP.
    QTest::newRow("share flat along fusion") << QList<qint64>{432, 432, 0, 0} << 4 << "makespan";
    QTest::newRow("share varies along both") << QList<qint64>{432, 300, 0, 100} << 4 << "redundant_useless_share";
    // 43.2 % and 43.6 %, 0 % and 0.5 %: within a percentage point.
    QTest::newRow("share nearly flat along fusion") << QList<qint64>{432, 436, 0, 5} << 4 << "makespan";
    QTest::newRow("share flat along communication") << QList<qint64>{432, 0, 432, 0} << 4 << "makespan";
    // Two points, one of each communication: nothing to tell along fusion yet.
    QTest::newRow("too few points to tell") << QList<qint64>{432, 432, 0, 0} << 1 << "redundant_useless_share";
  }
  void openingFigure() {
    QFETCH(QList<qint64>, redundant);
    QFETCH(int, finished);
    QFETCH(QString, expected);
    const Time makespans[] = {302 * kMicrosecond, 185 * kMicrosecond, 250 * kMicrosecond, 150 * kMicrosecond};
    std::vector<SweepChart::Point> points;
    int i = 0;
    for (const char* comm : {"deepep", "dysharp"})
      for (const char* fusion : {"sequential", "token_centric"}) {
        auto r = std::make_shared<Results>();
        r->makespan = makespans[i];
        const std::int64_t useful = 1000 - redundant[i];
        r->breakdown = {{"all", "uplink", useful, redundant[i], 0, 10}, {"all", "downlink", useful, redundant[i], 0, 10}};
        // finished: 1 finishes the first point of each communication (0 and 2)
        const bool done = finished == 4 || i % 2 == 0;
        points.push_back({{{"scheme.communication", comm}, {"scheme.fusion", fusion}}, done ? r : nullptr});
        ++i;
      }
    SweepChart chart;
    chart.setSweep({"scheme.communication", "scheme.fusion"}, points);
    QCOMPARE(chart.metric(), expected);
  }

  // Uplink/downlink balance over fusion (FlashDMoE): 0.92 to 0.99, within 10 % of each
  // other, while the makespan halves: the chart opens on the makespan.
  void openingFigureBalance() {
    const double balance[] = {0.96, 0.92, 0.99};
    const Time makespan[] = {2640 * kMicrosecond, 2100 * kMicrosecond, 1300 * kMicrosecond};
    std::vector<SweepChart::Point> points;
    const char* fusions[] = {"sequential", "overlap", "persistent"};
    for (int i = 0; i < 3; ++i) {
      auto r = std::make_shared<Results>();
      r->makespan = makespan[i];
      r->breakdown = {{"all", "uplink", 100, 0, 0, 10}, {"all", "downlink", 100, 0, 0, 10}};
      r->direction_balance = balance[i];
      points.push_back({{{"scheme.fusion", fusions[i]}}, r});
    }
    SweepChart chart;
    chart.setSweep({"scheme.fusion"}, points);
    QCOMPARE(chart.metric(), QString("makespan"));
    // Over a wider spread (0.5 to 0.99) the balance is what the chart opens on.
    auto r = std::make_shared<Results>(*points[1].results);
    r->direction_balance = 0.5;
    points[1].results = r;
    SweepChart wide;
    wide.setSweep({"scheme.fusion"}, points);
    QCOMPARE(wide.metric(), QString("direction_balance"));
  }

  // A y axis title longer than the axis is high is broken before its unit (then elided),
  // never cut: "symmetric layout per GPU (MiB" lost its bracket in a short dock.
  void yTitleFits_data() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("tall") << QSize(700, 500);
    QTest::newRow("dock height") << QSize(700, 240);
    QTest::newRow("very short") << QSize(700, 200);
  }
  void yTitleFits() {
    QFETCH(QSize, size);
    std::vector<SweepChart::Point> points;
    for (int tokens : {256, 512, 1024}) {
      auto r = std::make_shared<Results>();
      r->makespan = kMicrosecond * tokens;
      r->memory = MemoryResults{};
      r->memory->symmetric_layout_bytes = std::int64_t(tokens) * 64 * 1024 * 1024 / 256;  // 64, 128, 256 MiB
      points.push_back({{{"workload.moe.tokens_per_gpu", std::to_string(tokens)}}, r});
    }
    SweepChart chart;
    chart.setSweep({"workload.moe.tokens_per_gpu"}, points);
    QCOMPARE(chart.metric(), QString("symmetric_layout_bytes"));
    chart.resize(size);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.plot()->replot();
    QCoreApplication::processEvents();  // the queued replot after fitting the title
    chart.plot()->replot();
    const QString title = "symmetric layout per GPU (MiB)";
    const QString label = chart.plot()->yAxis->label();
    const int room = chart.plot()->axisRect()->height();
    const QFontMetrics metrics(chart.plot()->yAxis->labelFont());
    if (metrics.horizontalAdvance(title) <= room) {
      QCOMPARE(label, title);
    } else {
      const QStringList lines = label.split('\n');
      QCOMPARE(lines.size(), 2);
      QCOMPARE(lines[1], QString("(MiB)"));
      QVERIFY(lines[0] == "symmetric layout per GPU" || lines[0].contains(QChar(0x2026)));
      for (const QString& line : lines) QVERIFY(metrics.horizontalAdvance(line) <= room);
    }
    if (QByteArray(QTest::currentDataTag()) == "tall") QCOMPARE(label, title);
    test::saveArtefact(chart, QString("sweep_chart_y_title_%1").arg(size.height()), size);
  }

  // Any figure the points have can be picked, and the pick survives new results.
  void pickedFigureStays() {
    SweepChart chart;
    chart.setSweep(kTlbKeys, tlbSweep(2));
    QCOMPARE(chart.metricIds(), (QStringList{"makespan", "payload_efficiency", "al_tlb_hit_rate"}));
    QVERIFY(!chart.setMetric("busbw_GBps"));  // no point has it
    QVERIFY(chart.setMetric("makespan"));
    QCOMPARE(chart.plot()->yAxis->label(), QString("makespan (µs)"));
    QCOMPARE(chart.plot()->graph(0)->data()->at(1)->value, 31.0);
    chart.setSweep(kTlbKeys, tlbSweep(5));
    QCOMPARE(chart.metric(), QString("makespan"));
    QCOMPARE(chart.plot()->graph(0)->dataCount(), 5);
  }

  // Names on the first axis: bars, one series per value of the second, each bar's value
  // written over it (DySHARP's zero share included).
  void categoricalSweep() {
    SweepChart chart;
    chart.resize(700, 360);
    chart.setSweep({"scheme.communication", "scheme.fusion"}, schemeSweep());
    QVERIFY(chart.setMetric("redundant_useless_share"));
    QCustomPlot* p = chart.plot();
    QList<QCPBars*> bars;
    for (int i = 0; i < p->plottableCount(); ++i)
      if (auto* b = qobject_cast<QCPBars*>(p->plottable(i))) bars << b;
    QCOMPARE(bars.size(), 2);
    QCOMPARE(bars[0]->name(), QString("Sequential kernels"));
    QCOMPARE(bars[1]->name(), QString("Token-centric fusion"));
    QVERIFY(p->legend->visible());
    for (QCPBars* b : bars) {
      QCOMPARE(b->dataCount(), 2);
      QCOMPARE(b->data()->at(0)->value, 100.0 * 864 / 2000);  // deepep: (432 + 432) / 2000
      QCOMPARE(b->data()->at(1)->value, 0.0);                 // dysharp
    }
    QStringList labels;
    for (int i = 0; i < p->itemCount(); ++i)
      if (auto* t = qobject_cast<QCPItemText*>(p->item(i)); t && t->visible()) labels << t->text();
    QCOMPARE(labels.count("43.2%"), 2);
    QCOMPARE(labels.count("0.0%"), 2);

    // The shown point (deepep + token_centric): its bar outlined, its value in bold, no
    // ring over the bar. Category 1 spans 0.6 to 1.4; the second of two bars 1.0 to 1.4.
    chart.setSelectedPoint(1);
    QRectF outline;
    QCOMPARE(chart.selectedBarOutline(&outline), 1);
    QCOMPARE(outline.left(), 1.0);
    QCOMPARE(outline.right(), 1.4);
    QCOMPARE(outline.top(), 0.0);
    QCOMPARE(outline.bottom(), 43.2);
    QCOMPARE(p->graph(0)->dataCount(), 0);  // the ring, used on lines only
    QStringList bold;
    for (int i = 0; i < p->itemCount(); ++i)
      if (auto* t = qobject_cast<QCPItemText*>(p->item(i)); t && t->font().bold()) bold << t->text();
    QCOMPARE(bold, QStringList{"43.2%"});
    test::saveArtefact(chart, "sweep_chart_schemes", {700, 360});
  }

  // Category ticks read the values' short names where the sweep gives them (its labels,
  // or the seeds' names), the raw value otherwise.
  void categoryTicksUseValueNames_data() {
    QTest::addColumn<bool>("named");
    QTest::addColumn<QStringList>("ticks");
    QTest::newRow("names") << true << QStringList{"DeepEP", "dysharp"};
    QTest::newRow("none") << false << QStringList{"deepep", "dysharp"};
  }
  void categoryTicksUseValueNames() {
    QFETCH(bool, named);
    QFETCH(QStringList, ticks);
    SweepChart chart;
    chart.resize(700, 360);
    if (named) chart.setValueNames({{"scheme.communication", {{"deepep", "DeepEP"}, {"dysharp", ""}}}});
    chart.setSweep({"scheme.communication", "scheme.fusion"}, schemeSweep());
    auto ticker = chart.plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    QCOMPARE(QStringList(ticker->ticks().values()), ticks);  // categories at 1 and 2, in sweep order
  }

  // Swept quantities read as the schema writes them, whatever the file wrote: ticks of
  // the x axis and the legend of the other axis (issue 21's one byte-unit policy).
  void quantitiesInCanonicalText() {
    std::vector<SweepChart::Point> points;
    for (const char* rate : {"1 Gb/s", "8000 Mb/s"})
      for (const char* size : {"131072 B", "1048576 B"})
        points.push_back({{{"topology.link.bandwidth", rate}, {"workload.collective.size", size}},
                          tlbResults(90, 10, 30 * kMicrosecond)});
    SweepChart chart;
    chart.resize(700, 360);
    chart.setSweep({"topology.link.bandwidth", "workload.collective.size"}, points);
    auto ticker = chart.plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    QCOMPARE(QStringList(ticker->ticks().values()), (QStringList{"125 MB/s", "1 GB/s"}));  // 1e9 / 8, 8e9 / 8
    QStringList legend;
    for (int i = 0; i < chart.plot()->graphCount(); ++i) legend << chart.plot()->graph(i)->name();
    QVERIFY2(legend.contains("Size 128 KiB") && legend.contains("Size 1 MiB"), qPrintable(legend.join(" | ")));
  }

  // An axis key reads by its title, the key path after it: a title given (a hierarchy
  // level's name) first, else the key's own ("Communication scheme"); a key without
  // either by its path.
  void xTitleFromKeyTitles_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("given");
    QTest::addColumn<QString>("expected");
    QTest::newRow("given") << "scheme.communication" << "Datacenters" << "Datacenters (scheme.communication)";
    QTest::newRow("known key") << "scheme.communication" << "" << "Communication scheme (scheme.communication)";
    QTest::newRow("unlisted key") << "run.seed" << "" << "run.seed";
  }
  void xTitleFromKeyTitles() {
    QFETCH(QString, key);
    QFETCH(QString, given);
    QFETCH(QString, expected);
    std::vector<SweepChart::Point> points = schemeSweep();
    for (SweepChart::Point& p : points)  // the first axis renamed: the same values under `key`
      for (auto& [k, v] : p.settings)
        if (k == "scheme.communication") k = key.toStdString();
    SweepChart chart;
    chart.resize(700, 360);
    if (!given.isEmpty()) chart.setKeyTitles({{key.toStdString(), given.toStdString()}});
    chart.setSweep({key.toStdString(), "scheme.fusion"}, points);
    QCOMPARE(chart.plot()->xAxis->label(), expected);
  }

  // A re-run replacing the previous run's values point by point: the old ones hatched
  // (bars) or ringed grey (lines), "(stale)" after their values, counted in the title;
  // none once every point is new.
  void staleMarked_data() {
    QTest::addColumn<bool>("bars");
    QTest::addColumn<QList<int>>("stale");
    QTest::newRow("bars, 2 of 4 stale") << true << QList<int>{0, 2};
    QTest::newRow("line, 3 of 5 stale") << false << QList<int>{1, 3, 4};
    QTest::newRow("none stale") << true << QList<int>{};
  }
  void staleMarked() {
    QFETCH(bool, bars);
    QFETCH(QList<int>, stale);
    auto points = bars ? schemeSweep() : tlbSweep();
    for (int i : stale) points[size_t(i)].stale = true;
    SweepChart chart;
    chart.resize(700, 360);
    if (bars) {
      chart.setSweep({"scheme.communication", "scheme.fusion"}, points);
      QVERIFY(chart.setMetric("redundant_useless_share"));
    } else {
      chart.setSweep(kTlbKeys, points);
    }
    QCOMPARE(chart.staleMarkCount(), int(stale.size()));
    QCOMPARE(chart.title().contains("stale"), !stale.isEmpty());
    int hatched = 0, staleLabels = 0;
    for (int i = 0; i < chart.plot()->itemCount(); ++i) {
      if (auto* r = qobject_cast<QCPItemRect*>(chart.plot()->item(i)); r && r->brush().style() == Qt::BDiagPattern) ++hatched;
      if (auto* t = qobject_cast<QCPItemText*>(chart.plot()->item(i)); t && t->text().endsWith("(stale)")) ++staleLabels;
    }
    QCOMPARE(hatched, bars ? int(stale.size()) : 0);
    QCOMPARE(staleLabels, bars ? int(stale.size()) : 0);  // lines carry no value labels
    if (!bars) {
      bool ringed = false;
      for (int g = 0; g < chart.plot()->graphCount(); ++g)
        if (chart.plot()->graph(g)->name().contains("stale")) ringed = chart.plot()->graph(g)->dataCount() == stale.size();
      QVERIFY(ringed);
    }
    if (!stale.isEmpty()) test::saveArtefact(chart, bars ? "sweep_chart_stale_bars" : "sweep_chart_stale_line", {700, 360});
  }

  // A figure that applies to some points only (the AL TLB: DySHARP's): "n/a" stands where
  // the others' bars would, not an empty spot that reads as zero.
  void notApplicableMarked() {
    auto points = schemeSweep();
    for (std::size_t i = 2; i < 4; ++i) {  // the two dysharp points: 90 % and 95 % hits
      auto r = std::make_shared<Results>(*points[i].results);
      r->moe = MoeResults{};
      r->moe->al_tlb_hits = i == 2 ? 90 : 95;
      r->moe->al_tlb_misses = i == 2 ? 10 : 5;
      points[i].results = r;
    }
    points[1].results = nullptr;  // deepep + token_centric still running: no label at all
    SweepChart chart;
    chart.setSweep({"scheme.communication", "scheme.fusion"}, points);
    QVERIFY(chart.setMetric("al_tlb_hit_rate"));
    QStringList labels;
    for (int i = 0; i < chart.plot()->itemCount(); ++i)
      if (auto* t = qobject_cast<QCPItemText*>(chart.plot()->item(i))) labels << t->text();
    labels.sort();
    QCOMPARE(labels, (QStringList{"90.0%", "95.0%", "n/a"}));
    chart.setSelectedPoint(0);  // no bar to outline
    QCOMPARE(chart.selectedBarOutline(), -1);
    chart.setSelectedPoint(3);
    QCOMPARE(chart.selectedBarOutline(), 3);
    test::saveArtefact(chart, "sweep_chart_not_applicable", {700, 360});
  }

  // Another axis along x: the first makes the series then, and the default figure follows
  // the axis (the uplink/downlink balance for fusion, or the headline where that is flat).
  void otherAxisAlongX() {
    SweepChart chart;
    auto points = schemeSweep();
    for (std::size_t i = 0; i < points.size(); ++i) {
      auto r = std::make_shared<Results>(*points[i].results);
      r->pipeline = PipelineResults{};
      r->pipeline->sm_utilization = 0.1 * double(i + 1);
      points[i].results = r;
    }
    chart.setSweep({"scheme.communication", "scheme.fusion"}, points);
    QVERIFY(chart.axisBox()->isVisibleTo(&chart));
    // The axes by their titles, their key paths as the items' data.
    QCOMPARE(chart.axisBox()->count(), 2);
    QCOMPARE(chart.axisBox()->itemText(0), QString("Communication scheme"));
    QCOMPARE(chart.axisBox()->itemText(1), QString("Fusion scheme"));
    QCOMPARE(chart.axisBox()->itemData(1).toString(), QString("scheme.fusion"));
    QCOMPARE(chart.axisBox()->currentIndex(), 0);
    QVERIFY(!chart.setXAxis("scheme.nothing"));
    QVERIFY(chart.setXAxis("scheme.fusion"));
    QCOMPARE(chart.axisBox()->currentIndex(), 1);
    // The first figure fusion answers, direction_balance, is 0 at every point here: the
    // headline instead.
    QCOMPARE(chart.metric(), QString("makespan"));
    QVERIFY(chart.setMetric("sm_utilization"));
    QList<QCPBars*> bars;
    for (int i = 0; i < chart.plot()->plottableCount(); ++i)
      if (auto* b = qobject_cast<QCPBars*>(chart.plot()->plottable(i))) bars << b;
    QCOMPARE(bars.size(), 2);
    QCOMPARE(bars[0]->name(), QString("DeepEP (unicast)"));
    QCOMPARE(bars[1]->name(), QString("DySHARP"));
    // Points: deepep+sequential 0.1, deepep+token_centric 0.2, dysharp+sequential 0.3, ...
    QCOMPARE(bars[0]->data()->at(0)->value, 10.0);
    QCOMPARE(bars[0]->data()->at(1)->value, 20.0);
    QCOMPARE(bars[1]->data()->at(0)->value, 30.0);
    QCOMPARE(bars[1]->data()->at(1)->value, 40.0);
    QCOMPARE(chart.title(), QString("SM utilisation vs Fusion scheme"));
    chart.setSweep(kTlbKeys, tlbSweep());  // one axis: no choice to offer
    QVERIFY(!chart.axisBox()->isVisibleTo(&chart));
    QCOMPARE(chart.xAxisKey(), QString("scheme.dysharp.al_tlb_entries"));
  }

  // A click on a point (or anywhere on a bar) asks for that point; elsewhere nothing.
  void clickPicksPoint() {
    SweepChart chart;
    chart.resize(700, 360);
    chart.setSweep(kTlbKeys, tlbSweep());
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.plot()->replot();
    QSignalSpy spy(&chart, &SweepChart::pointClicked);
    const QPointF at = chart.pointPixel(2);
    QVERIFY(!at.isNull());
    QTest::mouseClick(chart.plot(), Qt::LeftButton, {}, at.toPoint());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), 2);
    QCOMPARE(chart.pointNear(at + QPointF(0, 60)), -1);

    chart.setSweep({"scheme.communication", "scheme.fusion"}, schemeSweep());
    chart.plot()->replot();
    const QPointF top = chart.pointPixel(1);  // deepep + token_centric
    QCOMPARE(chart.pointNear(top + QPointF(0, 30)), 1);
  }

  // No sweep: one centred, wrapped explanation that fits the dock, no axes, no figure box.
  void notSweep() {
    SweepChart chart;
    chart.resize(680, 200);  // the dock's size under the canvas in a 1500 x 950 window
    chart.setSweep({}, {{{}, tlbResults(1, 1, kMicrosecond)}});
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QVERIFY(chart.noticeVisible());
    QVERIFY(chart.noticeText().startsWith("This scenario has no sweep: add a sweep: section"));
    QVERIFY(chart.noticeText().contains("docs/scenario.md"));
    QCOMPARE(chart.plot()->plottableCount(), 0);
    QVERIFY(!chart.plot()->isVisible());
    QVERIFY(!chart.metricBox()->isVisible());
    auto* notice = chart.findChild<QLabel*>("sweepNotice");
    QVERIFY(notice && notice->isVisible());
    QVERIFY(notice->wordWrap());
    QCOMPARE(notice->alignment(), Qt::AlignCenter);
    QVERIFY(notice->width() >= 600);  // the dock's width, not a corner
    QVERIFY(notice->heightForWidth(notice->width()) <= notice->height());  // no line cut off
    test::saveArtefact(chart, "sweep_chart_not_sweep", {680, 200});

    chart.setSweep(kTlbKeys, tlbSweep(0));  // a sweep, nothing finished yet
    QVERIFY(chart.noticeText().startsWith("No sweep point has finished yet"));
    chart.setSweep(kTlbKeys, tlbSweep());
    QVERIFY(!chart.noticeVisible());
    QVERIFY(chart.plot()->isVisible());
    QVERIFY(chart.metricBox()->isVisible());
  }

  // Three axes as xdc-1000x8-auto sweeps them: GPU x datacenter bandwidth x scheme, four
  // series of bars a category. At every width each key entry is whole (its names used
  // to be cut: 'bandwidth = 1', 'bandwidth = 12.') and no two values over the bars
  // overlap ('629.0 ms623.8 ms'); the shown point's value is always there.
  void keyAndValuesWhole_data() {
    QTest::addColumn<int>("width");
    for (int w : {1100, 870, 560, 420}) QTest::newRow(qPrintable(QString("%1 px").arg(w))) << w;
  }
  void keyAndValuesWhole() {
    QFETCH(int, width);
    std::vector<SweepChart::Point> points;
    const double ms[] = {629.0, 623.8, 76.57, 77.23, 633.7, 631.0, 81.25, 82.13};
    int i = 0;
    for (const char* gpu : {"h100", "a100"})
      for (const char* bw : {"10 Gb/s", "100 Gb/s"})
        for (const char* ep : {"ep", "hybrid"}) {
          auto r = std::make_shared<Results>();
          r->makespan = static_cast<Time>(ms[i++] * kMillisecond);
          points.push_back({{{"gpu.preset", gpu}, {"topology.levels[0].bandwidth", bw}, {"scheme.ep", ep}}, r});
        }
    SweepChart chart;
    chart.resize(width, 360);
    chart.setKeyTitles({{"topology.levels[0].bandwidth", "Datacenter link bandwidth"}});
    chart.setSweep({"gpu.preset", "topology.levels[0].bandwidth", "scheme.ep"}, points);
    QVERIFY(chart.setMetric("makespan"));
    chart.setSelectedPoint(0);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QCustomPlot* p = chart.plot();
    p->replot();
    p->replot();  // the second layout sees the first one's fit
    QVERIFY(p->legend->visible());
    int entries = 0;
    for (int k = 0; k < p->legend->itemCount(); ++k) {  // cells of the key's grid, some empty
      QCPLayoutElement* item = p->legend->item(k);
      if (!item) continue;
      ++entries;
      QVERIFY2(item->outerRect().width() >= item->minimumOuterSizeHint().width(),
               qPrintable(QString("entry %1: %2 of %3 px").arg(k).arg(item->outerRect().width()).arg(item->minimumOuterSizeHint().width())));
      QVERIFY(p->rect().contains(item->outerRect()));
    }
    QCOMPARE(entries, 4);
    // named as the points are: the level by its title, the scheme by the seed's name
    QCOMPARE(p->plottable(0)->name(), QString("Datacenter link bandwidth 1.25 GB/s, EP"));
    QCOMPARE(p->plottable(3)->name(), QString("Datacenter link bandwidth 12.5 GB/s, HybridEP"));
    std::vector<QRectF> shown;
    bool selectedShown = false;
    for (int k = 0; k < p->itemCount(); ++k) {
      auto* label = qobject_cast<QCPItemText*>(p->item(k));
      if (!label || !label->visible() || !label->text().contains("ms")) continue;
      const QRectF r(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition());
      for (const QRectF& other : shown) QVERIFY2(!r.intersects(other), qPrintable(label->text()));
      shown.push_back(r);
      selectedShown = selectedShown || label->text() == "629.0 ms";
    }
    QVERIFY(selectedShown);
  }
};

QTEST_MAIN(TestSweepChart)
#include "test_sweep_chart.moc"
