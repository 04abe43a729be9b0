// The Sweep dock's chart (views/sweep_chart.h) on hand-made sweeps: which figure it
// opens on, where each finished point is drawn (values and axis units worked out here
// from the Results fields), lines over numeric settings and bars over names, a series
// per value of the second axis, the ring on the shown point, clicks and notices.
#include <QComboBox>
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
    QCOMPARE(chart.title(), QString("AL TLB hit rate vs scheme.dysharp.al_tlb_entries"));
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
    QCOMPARE(chart.metric(), QString("redundant_useless_share"));
    QCustomPlot* p = chart.plot();
    QList<QCPBars*> bars;
    for (int i = 0; i < p->plottableCount(); ++i)
      if (auto* b = qobject_cast<QCPBars*>(p->plottable(i))) bars << b;
    QCOMPARE(bars.size(), 2);
    QCOMPARE(bars[0]->name(), QString("fusion = sequential"));
    QCOMPARE(bars[1]->name(), QString("fusion = token_centric"));
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
    test::saveArtefact(chart, "sweep_chart_schemes", {700, 360});
  }

  // Another axis along x: the first makes the series then, and the default figure follows
  // the axis (SM utilisation is what a fusion sweep is about, when the points have it).
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
    QVERIFY(!chart.setXAxis("scheme.nothing"));
    QVERIFY(chart.setXAxis("scheme.fusion"));
    QCOMPARE(chart.metric(), QString("direction_balance"));  // the first figure fusion answers
    QVERIFY(chart.setMetric("sm_utilization"));
    QList<QCPBars*> bars;
    for (int i = 0; i < chart.plot()->plottableCount(); ++i)
      if (auto* b = qobject_cast<QCPBars*>(chart.plot()->plottable(i))) bars << b;
    QCOMPARE(bars.size(), 2);
    QCOMPARE(bars[0]->name(), QString("communication = deepep"));
    QCOMPARE(bars[1]->name(), QString("communication = dysharp"));
    // Points: deepep+sequential 0.1, deepep+token_centric 0.2, dysharp+sequential 0.3, ...
    QCOMPARE(bars[0]->data()->at(0)->value, 10.0);
    QCOMPARE(bars[0]->data()->at(1)->value, 20.0);
    QCOMPARE(bars[1]->data()->at(0)->value, 30.0);
    QCOMPARE(bars[1]->data()->at(1)->value, 40.0);
    QCOMPARE(chart.title(), QString("SM utilisation vs scheme.fusion"));
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

  void notSweep() {
    SweepChart chart;
    chart.setSweep({}, {{{}, tlbResults(1, 1, kMicrosecond)}});
    QVERIFY(chart.noticeVisible());
    QCOMPARE(chart.plot()->plottableCount(), 0);
  }
};

QTEST_MAIN(TestSweepChart)
#include "test_sweep_chart.moc"
