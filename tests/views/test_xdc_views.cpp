// HybridEP's views (issue 23) offscreen: the datacenter ring, the stream model's curve
// and the two-stream timeline. Expected values are worked by hand here: domains as
// DC // S_ED, pair kinds from the coordinates, the curve's optimum from spec 2.3's
// Examples A-C (closed forms), the hidden all-gather from hand-made spans; one test
// checks the recorded iteration of a real run against the communicator's rule (the
// all-gather starts with the pre-expert compute).
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QKeyEvent>
#include <QtTest>
#include <qcustomplot.h>

#include <memory>

#include "../common/view_helpers.h"
#include "scenario/scenario.h"
#include "sim/run.h"
#include "topology/presets.h"
#include "topology/topology.h"
#include "views/run_model.h"
#include "views/xdc_cluster_view.h"
#include "views/xdc_curve_panel.h"
#include "views/xdc_stream_timeline.h"

using namespace fl;
using namespace fl::views;

namespace {

constexpr double kMs = 1e-3;

// Results as a cross_dc_moe run would leave them: levels (workers, S_ED) and inputs.
std::shared_ptr<Results> hybridResults(std::vector<std::pair<int, int>> levels) {
  auto r = std::make_shared<Results>();
  HybridEpResults h;
  h.scheme = "hybrid";
  for (auto [w, s] : levels) h.levels.push_back({w, s, 1, 1, 1.25e9, 1e6});
  h.data_bytes = 16e6;
  h.expert_bytes = 4e6;
  h.compression_ratio = 1;
  h.pre_expert_ns = 12e6;
  h.layers = 1;
  h.network_model = "flow";
  r->hybridep = h;
  r->makespan = 40 * kMillisecond;
  return r;
}

double pointValue(QCPGraph* g, double key) {
  for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
    if (qAbs(it->key - key) < 1e-9) return it->value;
  return -1;
}

}  // namespace

class TestXdcViews : public QObject {
  Q_OBJECT
 private slots:
  void dcColoursFollowDomains_data();
  void dcColoursFollowDomains();
  void hubAboveTheChordLimit();
  void clickZoomsIntoADc();
  void zoomedPairsFollowAlgorithm1();
  void curveOptimum_data();
  void curveOptimum();
  void curveFollowsEdits();
  void curveFromResults();
  void timelineHiddenAllGather();
  void narrowCurveWhole();
  void curveLogAxis_data();
  void curveLogAxis();
  void timelineShowsBackward();
  void timelineSummaryFits_data();
  void timelineSummaryFits();
  void ringCentreTextInside_data();
  void ringCentreTextInside();
  void recordedIterationOverlaps();
  void screenshots();
};

void TestXdcViews::dcColoursFollowDomains_data() {
  QTest::addColumn<int>("dcs");
  QTest::addColumn<int>("domain");
  QTest::newRow("Cluster-L, S 2") << 4 << 2;
  QTest::newRow("Cluster-L, S 4 (one domain)") << 4 << 4;
  QTest::newRow("1000 DCs, S 10") << 1000 << 10;
  QTest::newRow("1000 DCs, EP") << 1000 << 1;
  QTest::newRow("12 DCs, S 3") << 12 << 3;
}

void TestXdcViews::dcColoursFollowDomains() {
  QFETCH(int, dcs);
  QFETCH(int, domain);
  RunModel model;
  XdcClusterView view(&model);
  model.setResults(hybridResults({{dcs, domain}}), true);
  QCOMPARE(view.dcCount(), dcs);
  view.resize(600, 560);
  for (int a = 0; a < dcs; a += std::max(1, dcs / 60))
    for (int b = 0; b < dcs; ++b) {
      const bool sameDomain = a / domain == b / domain;  // consecutive DCs form a domain
      if (sameDomain) QCOMPARE(view.dcColour(a), view.dcColour(b));
      else if (std::abs(a / domain - b / domain) == 1) QVERIFY(view.dcColour(a) != view.dcColour(b));
    }
  for (int dc = 0; dc < dcs; ++dc) QCOMPARE(view.dcAt(view.dcCentre(dc)), dc);
}

void TestXdcViews::hubAboveTheChordLimit() {
  RunModel model;
  XdcClusterView view(&model);
  model.setResults(hybridResults({{8, 2}, {8, 1}}), true);  // 4 domains: 6 chords
  QCOMPARE(view.a2aChordCount(), 6);
  QVERIFY(!view.a2aHub());
  model.setResults(hybridResults({{1000, 10}}), true);  // 100 domains: a hub
  QCOMPARE(view.a2aChordCount(), 0);
  QVERIFY(view.a2aHub());
  model.setResults(hybridResults({{4, 4}, {8, 2}}), true);  // one domain: no A2A between DCs
  QCOMPARE(view.a2aChordCount(), 0);
  QVERIFY(!view.a2aHub());
}

void TestXdcViews::clickZoomsIntoADc() {
  RunModel model;
  XdcClusterView view(&model);
  model.setResults(hybridResults({{1000, 10}, {8, 4}}), true);
  view.resize(640, 600);
  view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&view));
  QTest::mouseClick(&view, Qt::LeftButton, {}, view.dcCentre(537).toPoint());
  QCOMPARE(view.zoomedDc(), 537);
  QCOMPARE(view.gpusPerDc(), 8);
  QTest::keyClick(&view, Qt::Key_Escape);
  QCOMPARE(view.zoomedDc(), -1);
  QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(320, 290));  // the centre: no DC
  QCOMPARE(view.zoomedDc(), -1);
}

void TestXdcViews::zoomedPairsFollowAlgorithm1() {
  // 4 DCs x 8 GPUs, S_ED [2, 4]: inside a DC, GPUs 0-3 and 4-7 are the two inner domains.
  // AG between different offsets of one domain: 2 x C(4, 2) = 12 pairs; A2A between the
  // same offset of the two domains: (0,4) (1,5) (2,6) (3,7).
  RunModel model;
  XdcClusterView view(&model);
  model.setResults(hybridResults({{4, 2}, {8, 4}}), true);
  view.zoomInto(3);
  QCOMPARE(view.zoomedDc(), 3);
  int ag = 0, a2a = 0;
  for (const auto& p : view.gpuPairs()) {
    const bool sameDomain = p.a / 4 == p.b / 4;
    QCOMPARE(p.allGather, sameDomain);
    if (!sameDomain) QCOMPARE(p.b - p.a, 4);
    (p.allGather ? ag : a2a)++;
  }
  QCOMPARE(ag, 12);
  QCOMPARE(a2a, 4);
  for (int g = 0; g < 8; ++g) QCOMPARE(view.innerDomainOf(g), g / 4);
  QVERIFY(view.gpuColour(0) == view.gpuColour(3) && view.gpuColour(4) == view.gpuColour(7));
  QVERIFY(view.gpuColour(3) != view.gpuColour(4));
}

void TestXdcViews::curveOptimum_data() {
  QTest::addColumn<int>("g");
  QTest::addColumn<double>("data");
  QTest::addColumn<double>("expert");
  QTest::addColumn<double>("ratio");
  QTest::addColumn<double>("pe");
  QTest::addColumn<double>("bestP");
  QTest::addColumn<double>("bestMs");
  QTest::addColumn<double>("epMs");
  QTest::addColumn<double>("continuousMinMs");
  // Spec 2.3 Example A (Case 2.1): S = 4 (p = 0.8) at 31.2 ms; EP 12 + 2 x 12 = 36 ms;
  // the continuous optimum p* = thr = 0.75 at 12 + 2 x 16e6 x 15 x 0.75 / (16 x 1.25e9) = 30 ms.
  QTest::newRow("A, case 2.1") << 16 << 16e6 << 4e6 << 1.0 << 12.0 << 0.8 << 31.2 << 36.0 << 30.0;
  // Example B (Case 2.2): p = 0, max(5, 7 x 2e6 / 1.25e9 = 11.2) ms; EP 5 + 33.6 ms.
  QTest::newRow("B, case 2.2") << 8 << 24e6 << 2e6 << 1.0 << 5.0 << 0.0 << 11.2 << 38.6 << 11.2;
  // Example C: A with CR 50: P_E' = 0.08 MB, AG 0.96 ms hidden: 12 ms at p = 0.
  QTest::newRow("C, compressed") << 16 << 16e6 << 4e6 << 50.0 << 12.0 << 0.0 << 12.0 << 36.0 << 12.0;
}

void TestXdcViews::curveOptimum() {
  QFETCH(int, g);
  QFETCH(double, data);
  QFETCH(double, expert);
  QFETCH(double, ratio);
  QFETCH(double, pe);
  QFETCH(double, bestP);
  QFETCH(double, bestMs);
  QFETCH(double, epMs);
  QFETCH(double, continuousMinMs);
  RunModel model;
  XdcCurvePanel panel(&model);
  xdc::ModelInput in{data, expert / ratio, pe * kMs, {{g, 1.25e9}}};
  panel.setInputs(in, 1, ratio);
  QCOMPARE(panel.levelCount(), 1);
  QCPGraph* opt = panel.optimum(0);
  QCOMPARE(opt->dataCount(), 1);
  QVERIFY(qAbs(opt->data()->constBegin()->key - bestP) < 1e-9);
  QVERIFY2(qAbs(opt->data()->constBegin()->value - bestMs) < 1e-6, qPrintable(QString::number(opt->data()->constBegin()->value)));
  QCOMPARE(panel.epPoint(0)->dataCount(), 1);
  QCOMPARE(panel.epPoint(0)->data()->constBegin()->key, 1.0);  // EP: p = 1 (Definition 1)
  QVERIFY(qAbs(panel.epPoint(0)->data()->constBegin()->value - epMs) < 1e-6);
  // The optimum is the least candidate; the continuous curve's least value is the closed form.
  int divisors = 0;
  for (int s = 1; s <= g; ++s) divisors += g % s == 0;
  QCOMPARE(panel.candidates(0)->dataCount(), divisors);
  double least = 1e300, leastContinuous = 1e300;
  for (auto it = panel.candidates(0)->data()->constBegin(); it != panel.candidates(0)->data()->constEnd(); ++it)
    least = std::min(least, it->value);
  for (auto it = panel.continuous(0)->data()->constBegin(); it != panel.continuous(0)->data()->constEnd(); ++it)
    leastContinuous = std::min(leastContinuous, it->value);
  QVERIFY(qAbs(least - bestMs) < 1e-6);
  QVERIFY2(qAbs(leastContinuous - continuousMinMs) < 1e-6, qPrintable(QString::number(leastContinuous)));
}

void TestXdcViews::curveFollowsEdits() {
  // Example A, then the edits of Examples C (ratio 50) and of spec 2.3's sensitivity
  // (P_E 2 MB: 2D - G P_E = 0, case 2.2, p = 0 at max(12, 15 x 2e6 / 1.25e9 = 24) ms).
  RunModel model;
  XdcCurvePanel panel(&model);
  panel.setInputs({16e6, 4e6, 12 * kMs, {{16, 1.25e9}}}, 1, 1);
  QVERIFY(qAbs(pointValue(panel.optimum(0), 0.8) - 31.2) < 1e-6);
  panel.ratioBox()->setValue(50);
  QVERIFY(qAbs(pointValue(panel.optimum(0), 0.0) - 12.0) < 1e-6);
  panel.ratioBox()->setValue(1);
  panel.expertBox()->setValue(2);
  QVERIFY(qAbs(pointValue(panel.optimum(0), 0.0) - 24.0) < 1e-6);
  // Halving the bandwidth doubles every communication term: EP 12 + 48 ms.
  panel.expertBox()->setValue(4);
  panel.bandwidthBox(0)->setValue(0.625);
  QVERIFY(qAbs(pointValue(panel.epPoint(0), 1.0) - 60.0) < 1e-6);
  // More data: EP 12 + 2 x 32e6 x 15 / (16 x 1.25e9) = 60 ms at 1.25 GB/s.
  panel.bandwidthBox(0)->setValue(1.25);
  panel.dataBox()->setValue(32);
  QVERIFY(qAbs(pointValue(panel.epPoint(0), 1.0) - 60.0) < 1e-6);
  panel.preExpertBox()->setValue(20);
  QVERIFY(qAbs(pointValue(panel.epPoint(0), 1.0) - 68.0) < 1e-6);
  qInfo("curve evaluation after an edit: %.3f ms", panel.lastEvaluationMs());
}

void TestXdcViews::curveFromResults() {
  RunModel model;
  XdcCurvePanel panel(&model);
  QVERIFY(panel.noticeVisible());
  auto r = hybridResults({{2, 2}, {8, 4}});
  r->hybridep->compression_ratio = 50;
  r->hybridep->expert_bytes = 8e6;
  r->hybridep->layers = 12;
  model.setResults(r, true);
  QVERIFY(!panel.noticeVisible());
  QCOMPARE(panel.levelCount(), 2);
  QCOMPARE(panel.dataBox()->value(), 16.0);
  QCOMPARE(panel.expertBox()->value(), 8.0);
  QCOMPARE(panel.ratioBox()->value(), 50.0);
  QCOMPARE(panel.preExpertBox()->value(), 12.0);
  QCOMPARE(panel.bandwidthBox(1)->value(), 1.25);
  QCOMPARE(panel.inputs().expert, 8e6 / 50);
  QVERIFY(panel.summaryText().contains("40.00 ms"));  // the simulated makespan beside the model
  // Levels by the fabric's names (the xdc presets' "dc" and "gpu"), not "level 0".
  const auto buddyText = [&](int level) {
    for (const QLabel* l : panel.findChildren<QLabel*>())
      if (l->buddy() == panel.bandwidthBox(level)) return l->text();
    return QString();
  };
  QCOMPARE(buddyText(0), QString("B level 0"));  // no fabric: numbered
  auto t = std::make_shared<topo::Topology>();
  t->levelNames = {"dc", "gpu"};
  model.setTopology(t);
  model.setResults(r, true);
  QCOMPARE(buddyText(0), QString("B DC"));
  QCOMPARE(buddyText(1), QString("B GPU"));
  QVERIFY2(panel.summaryText().contains("&#9679; DC</span>") && panel.summaryText().contains("&#9679; GPU</span>"),
           qPrintable(panel.summaryText()));  // the colour key
}

void TestXdcViews::curveLogAxis_data() {
  QTest::addColumn<double>("slowGBps");  // level 0's bandwidth; level 1 has 1.25 GB/s
  QTest::addColumn<double>("slowEpMs");
  QTest::addColumn<bool>("log");
  // 16 workers per level, D = 16 MB, Lat_PE = 0: EP = 2 D (G-1) / (G B) = 24 ms at
  // 1.25 GB/s (Definition 1, spec 2.3), 300 ms at 0.1 GB/s (12.5x: log), 48 ms at
  // 0.625 GB/s (2x: linear).
  QTest::newRow("12.5x apart") << 0.1 << 300.0 << true;
  QTest::newRow("2x apart") << 0.625 << 48.0 << false;
}

// The levels' EP latencies more than 10x apart: the latency axis is logarithmic by
// itself; every optimum and EP marker lies whole inside the plot at the curve dock's
// 1024 x 768 size (EP's square was half cut at p = 1); the user's choice then stands.
void TestXdcViews::curveLogAxis() {
  QFETCH(double, slowGBps);
  QFETCH(double, slowEpMs);
  QFETCH(bool, log);
  RunModel model;
  XdcCurvePanel panel(&model);
  panel.resize(410, 250);  // the dock at 1024 x 768: the plot ~140 px wide
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  auto r = hybridResults({{16, 1}, {16, 1}});
  r->hybridep->levels[0].bandwidth_Bps = slowGBps * 1e9;
  r->hybridep->pre_expert_ns = 0;
  model.setResults(r, true);  // the run's inputs, and the curve's page shown
  QTest::qWait(20);  // the form's new rows laid out, the plot resized
  QVERIFY(qAbs(pointValue(panel.epPoint(0), 1.0) - slowEpMs) < 1e-6);
  QVERIFY(qAbs(pointValue(panel.epPoint(1), 1.0) - 24.0) < 1e-6);
  QCOMPARE(panel.logBox()->isChecked(), log);
  QCOMPARE(panel.logScale(), log);
  QCOMPARE(panel.plot()->yAxis->scaleType(), log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
  for (bool logScale : {log, !log}) {
    panel.logBox()->setChecked(logScale);  // the user's tick
    QCOMPARE(panel.logScale(), logScale);
    panel.plot()->replot();
    const QRectF area = panel.plot()->axisRect()->rect();
    QVERIFY2(area.width() > 100 && area.height() > 60, qPrintable(QString("%1 x %2 plot %3 x %4").arg(area.width()).arg(area.height()).arg(panel.plot()->width()).arg(panel.plot()->height())));
    const double half = 11 / 2.0;  // the markers' size, their pen inside it
    for (int l = 0; l < panel.levelCount(); ++l)
      for (QCPGraph* g : {panel.optimum(l), panel.epPoint(l)}) {
        const auto d = g->data()->constBegin();
        const QPointF at(panel.plot()->xAxis->coordToPixel(d->key), panel.plot()->yAxis->coordToPixel(d->value));
        QVERIFY2(at.x() - half >= area.left() && at.x() + half <= area.right() && at.y() - half >= area.top() &&
                     at.y() + half <= area.bottom(),
                 qPrintable(QString("level %1 p %2 at (%3, %4) in %5 x %6 from (%7, %8)%9")
                                .arg(l).arg(d->key).arg(at.x()).arg(at.y()).arg(area.width()).arg(area.height())
                                .arg(area.left()).arg(area.top()).arg(logScale ? ", log" : "")));
      }
  }
  // Chosen by the user: an edit that would have switched it (levels 25x or 1x apart) no longer does.
  panel.bandwidthBox(0)->setValue(log ? 0.05 : 1.25);
  QCOMPARE(panel.logScale(), !log);
}

void TestXdcViews::timelineHiddenAllGather() {
  // Layer 0: PE [0, 10] ms, AG [0, 4]: 4 ms hidden. Layer 1: PE [20, 22], AG [20, 25]: 2 ms.
  RunModel model;
  XdcStreamTimeline view(&model);
  QVERIFY(view.noticeVisible());
  auto r = hybridResults({{2, 2}});
  const Time ms = kMillisecond;
  r->hybridep->timeline = {{0, "all_gather", 0, 4 * ms},     {0, "pre_expert", 0, 10 * ms},
                           {0, "dispatch", 10 * ms, 12 * ms}, {0, "expert", 12 * ms, 13 * ms},
                           {0, "combine", 13 * ms, 20 * ms},  {1, "all_gather", 20 * ms, 25 * ms},
                           {1, "pre_expert", 20 * ms, 22 * ms}, {1, "dispatch", 25 * ms, 27 * ms}};
  model.setResults(r, true);
  QVERIFY(!view.noticeVisible());
  QCOMPARE(int(view.spans().size()), 8);
  QCOMPARE(view.allGatherTime(), 9 * ms);
  QCOMPARE(view.allGatherHidden(), 6 * ms);
  for (const auto& s : view.spans()) {
    QCOMPARE(s.row, s.kind == "pre_expert" || s.kind == "expert" ? 1 : 0);
    if (s.kind == "all_gather" && s.layer == 1) {
      QCOMPARE(s.rect->topLeft->coords().x(), 20.0);
      QCOMPARE(s.rect->bottomRight->coords().x(), 25.0);
    }
  }
}

void TestXdcViews::timelineShowsBackward() {
  // A training iteration's spans (workload.xdc.pass training): the backward kinds drawn on
  // their streams (compute: expert_backward, pre_expert_backward), named in the key and
  // the summary only when present; the all-reduce (layer -1) 30 ms from 40 ms.
  RunModel model;
  XdcStreamTimeline view(&model);
  auto r = hybridResults({{2, 2}});
  const Time ms = kMillisecond;
  r->makespan = 70 * ms;
  r->hybridep->timeline = {{0, "pre_expert", 0, 10 * ms},          {0, "dispatch", 10 * ms, 12 * ms},
                           {0, "expert", 12 * ms, 13 * ms},          {0, "combine", 13 * ms, 20 * ms},
                           {0, "combine_backward", 20 * ms, 22 * ms}, {0, "expert_backward", 22 * ms, 24 * ms},
                           {0, "dispatch_backward", 24 * ms, 30 * ms}, {0, "expert_grad", 30 * ms, 35 * ms},
                           {0, "pre_expert_backward", 30 * ms, 40 * ms}, {-1, "all_reduce", 40 * ms, 55 * ms},
                           {-1, "all_reduce", 55 * ms, 70 * ms}};
  model.setResults(r, true);
  QCOMPARE(int(view.spans().size()), 11);
  for (const auto& s : view.spans()) {
    const bool compute = s.kind == "pre_expert" || s.kind == "expert" || s.kind == "expert_backward" ||
                         s.kind == "pre_expert_backward";
    const bool gradients = s.kind == "all_reduce" || s.kind == "expert_grad";  // a row of their own
    QCOMPARE(s.row, compute ? 1 : gradients ? -1 : 0);
  }
  const QString full = view.fullSummary();
  QVERIFY2(full.contains("expert&nbsp;bwd"), qPrintable(full));
  QVERIFY(full.contains("gradient all-reduce"));
  QVERIFY(full.contains("from 20"));
  // 30 ms of all-reduce, all of it after the backward pass (it ends at 40 ms).
  QVERIFY2(full.contains("(the all-reduce 30.0 ms, 30.0 ms of it after"), qPrintable(full));
  // Forward only: no backward kinds in the key.
  r = hybridResults({{2, 2}});
  r->hybridep->timeline = {{0, "pre_expert", 0, 10 * ms}, {0, "dispatch", 10 * ms, 12 * ms}};
  model.setResults(r, true);
  QVERIFY(!view.fullSummary().contains("backward") && !view.fullSummary().contains("bwd"));
  QVERIFY(!view.fullSummary().contains("all-reduce"));
}

void TestXdcViews::timelineSummaryFits_data() {
  QTest::addColumn<QSize>("size");
  QTest::addColumn<int>("full");  // 1: the full summary, 0: the short one, -1: either
  QTest::newRow("bottom dock at 1024 x 768") << QSize(385, 215) << 0;
  QTest::newRow("bottom dock at 1280 x 800") << QSize(520, 240) << -1;
  QTest::newRow("tall dock") << QSize(520, 480) << 1;
  QTest::newRow("wide dock at 1920 x 1080") << QSize(1100, 330) << 1;
}

void TestXdcViews::timelineSummaryFits() {
  // A training iteration with overlapped all-reduce buckets: whichever summary the label
  // shows gets the height its text needs at its width (nothing cut), and the plot keeps
  // its three rows of spans (>= 115 px); the full text stays in the tool tip.
  QFETCH(QSize, size);
  QFETCH(int, full);
  RunModel model;
  XdcStreamTimeline view(&model);
  auto r = hybridResults({{2, 2}});
  const Time ms = kMillisecond;
  r->makespan = 60 * ms;
  r->hybridep->timeline = {{0, "all_gather", 0, 4 * ms},           {0, "pre_expert", 0, 10 * ms},
                           {0, "dispatch", 10 * ms, 12 * ms},        {0, "expert", 12 * ms, 13 * ms},
                           {0, "combine", 13 * ms, 20 * ms},         {0, "combine_backward", 20 * ms, 22 * ms},
                           {0, "expert_backward", 22 * ms, 24 * ms}, {0, "dispatch_backward", 24 * ms, 30 * ms},
                           {0, "expert_grad", 30 * ms, 35 * ms},     {0, "pre_expert_backward", 30 * ms, 40 * ms},
                           {0, "all_reduce", 40 * ms, 50 * ms},      {0, "all_reduce", 50 * ms, 60 * ms}};
  model.setResults(r, true);
  view.resize(size);
  view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&view));
  QApplication::processEvents();
  auto* label = view.findChild<QLabel*>(QString(), Qt::FindChildrenRecursively);
  QLabel* summary = nullptr;
  for (QLabel* l : view.findChildren<QLabel*>())
    if (l->isVisible() && l->text() == view.summaryText()) summary = l;
  QVERIFY(label && summary);
  if (full >= 0) QCOMPARE(view.summaryText() == view.fullSummary(), full == 1);
  QVERIFY2(summary->height() >= summary->heightForWidth(summary->width()),
           qPrintable(QString("label %1 px, its text needs %2 px at %3 px")
                          .arg(summary->height()).arg(summary->heightForWidth(summary->width())).arg(summary->width())));
  QVERIFY2(summary->geometry().bottom() < summary->parentWidget()->height(), "the label runs off the dock");
  QVERIFY2(view.plot()->height() >= 115, qPrintable(QString::number(view.plot()->height())));
  QVERIFY(summary->toolTip().contains("gradient all-reduce"));
  // The short text still names every stream's colours.
  QVERIFY(view.summaryText().contains("all-gather") && view.summaryText().contains("expert&nbsp;grads"));
}

void TestXdcViews::ringCentreTextInside_data() {
  QTest::addColumn<QSize>("size");
  QTest::addColumn<int>("dcs");
  QTest::addColumn<int>("domain");
  for (QSize size : {QSize(200, 180), QSize(260, 230), QSize(380, 300), QSize(600, 560)}) {
    const QString at = QString("%1x%2").arg(size.width()).arg(size.height());
    QTest::addRow("Cluster-L S 2, %s", qPrintable(at)) << size << 4 << 2;
    QTest::addRow("12 DCs S 3, %s", qPrintable(at)) << size << 12 << 3;
    QTest::addRow("1000 DCs S 10 (hub), %s", qPrintable(at)) << size << 1000 << 10;
  }
}

void TestXdcViews::ringCentreTextInside() {
  // The centre's words (on their plate) lie inside the circle the ring leaves them: each
  // corner of the plate within centreRadius of the ring's centre, in any dock size; a
  // roomy dock gets the full wording.
  QFETCH(QSize, size);
  QFETCH(int, dcs);
  QFETCH(int, domain);
  RunModel model;
  XdcClusterView view(&model);
  model.setResults(hybridResults({{dcs, domain}, {8, 2}}), true);
  view.resize(size);
  const XdcClusterView::CentreLabel label = view.centreLabel();
  // The ring's centre from two opposite wedges (an even number of DCs here).
  const QPointF c = (view.dcCentre(0) + view.dcCentre(dcs / 2)) / 2;
  const double radius = view.centreRadius();
  if (!label.text.isEmpty()) {
    QVERIFY(QLineF(label.plate.center(), c).length() < 1e-6);
    for (QPointF corner : {label.plate.topLeft(), label.plate.topRight(), label.plate.bottomLeft(),
                           label.plate.bottomRight()}) {
      const QPointF d = corner - c;
      QVERIFY2(std::hypot(d.x(), d.y()) <= radius + 1e-9,
               qPrintable(QString("'%1' reaches %2 px, room %3 px").arg(label.text).arg(std::hypot(d.x(), d.y())).arg(radius)));
      for (int i = 0; i <= 20; ++i) QCOMPARE(view.dcAt(c + d * (i / 20.0)), -1);  // never over a DC's wedge
    }
    const QSizeF need = QFontMetricsF(label.font).boundingRect(QRectF(0, 0, 2000, 400), Qt::AlignCenter, label.text).size();
    QVERIFY(label.plate.width() >= need.width() && label.plate.height() >= need.height());
  }
  if (size.width() >= 600) QVERIFY2(label.text.contains("domain"), qPrintable(label.text));
}

void TestXdcViews::recordedIterationOverlaps() {
  // Cluster-M (2 DCs x 8 GPUs), 3 layers, domains [2, 2] on the flow model: GPU 0's
  // all-gather starts with its pre-expert compute every layer (spec 1.10), so the hidden
  // part is min(PE, AG) per layer, summed here from the recorded spans.
  Scenario s;
  applyTopologyPreset("cluster-m", s.topology);
  s.workload.kind = WorkloadKind::CrossDcMoe;
  s.workload.xdc.data_bytes = 4'000'000;
  s.workload.xdc.expert_bytes = 2'000'000;
  s.workload.xdc.layers = 3;
  s.workload.xdc.pre_expert = 5 * kMillisecond;
  s.scheme.hybrid.domains = {2, 2};
  s.network.model = NetworkModel::Flow;
  s.run.bin = 1 * kMillisecond;
  auto r = std::make_shared<Results>(runScenario(s));
  RunModel model;
  XdcStreamTimeline view(&model);
  model.setResults(r, true);
  std::map<int, std::pair<Time, Time>> pe, ag;
  for (const HybridEpSpan& sp : r->hybridep->timeline) {
    if (sp.kind == "pre_expert") pe[sp.layer] = {sp.start, sp.end};
    if (sp.kind == "all_gather") ag[sp.layer] = {sp.start, sp.end};
  }
  QCOMPARE(int(pe.size()), 3);
  QCOMPARE(int(ag.size()), 3);
  Time hidden = 0, total = 0;
  for (int l = 0; l < 3; ++l) {
    QCOMPARE(ag[l].first, pe[l].first);
    hidden += std::min(ag[l].second - ag[l].first, pe[l].second - pe[l].first);
    total += ag[l].second - ag[l].first;
  }
  QCOMPARE(view.allGatherHidden(), hidden);
  QCOMPARE(view.allGatherTime(), total);
}

void TestXdcViews::screenshots() {
  RunModel model;
  XdcClusterView ring(&model);
  XdcCurvePanel curve(&model);
  XdcStreamTimeline streams(&model);
  auto r = hybridResults({{1000, 10}, {8, 2}});
  r->hybridep->timeline = {{0, "all_gather", 0, 4 * kMillisecond}, {0, "pre_expert", 0, 10 * kMillisecond}};
  model.setResults(r, true);
  test::saveArtefact(ring, "xdc_ring_1000", {520, 480});
  ring.zoomInto(3);
  test::saveArtefact(ring, "xdc_ring_dc3", {520, 480});
  test::saveArtefact(curve, "xdc_curve", {760, 300});
  test::saveArtefact(streams, "xdc_streams", {760, 260});
}

QTEST_MAIN(TestXdcViews)
#include "test_xdc_views.moc"

// In a narrow bottom dock (the curve panel at 1024 x 768 is ~390 x 220 px): each input
// box shows its whole text ("24 MB", "0.156 GB/s": "24.000 M" was cut), the optimum's
// "S=" label stays inside the plot, also at p = 1 (EP, S = 1).
void TestXdcViews::narrowCurveWhole() {
  RunModel model;
  XdcCurvePanel panel(&model);
  auto r = hybridResults({{2, 1}, {8, 4}});  // level 0: S_ED = 1, p = 1 at the right edge
  r->hybridep->data_bytes = 24e6;
  r->hybridep->expert_bytes = 8e6;
  r->hybridep->levels[0].bandwidth_Bps = 0.156e9;
  model.setResults(r, true);
  panel.resize(360, 220);  // the plot ~200 px wide: the curve dock at 1024 x 768
  panel.show();
  QVERIFY(QTest::qWaitForWindowExposed(&panel));
  QCOMPARE(panel.dataBox()->text(), QString("24 MB"));
  QCOMPARE(panel.bandwidthBox(0)->text(), QString("0.156 GB/s"));
  for (QDoubleSpinBox* box : panel.findChildren<QDoubleSpinBox*>()) {
    auto* edit = box->findChild<QLineEdit*>();
    QVERIFY(edit);
    QVERIFY2(box->fontMetrics().horizontalAdvance(box->text()) <= edit->width(),
             qPrintable(QString("'%1' in %2 px").arg(box->text()).arg(edit->width())));
  }
  panel.plot()->replot();
  const QRect plotArea = panel.plot()->axisRect()->rect();
  int atEdge = 0;
  for (int i = 0; i < panel.plot()->itemCount(); ++i)
    if (auto* label = qobject_cast<QCPItemText*>(panel.plot()->item(i)); label && label->text().startsWith("S=")) {
      const QPointF anchor = label->position->pixelPosition();
      const int w = QFontMetrics(label->font()).horizontalAdvance(label->text());
      const Qt::Alignment h = label->positionAlignment() & Qt::AlignHorizontal_Mask;
      const double left = h == Qt::AlignRight ? anchor.x() - w : h == Qt::AlignLeft ? anchor.x() : anchor.x() - w / 2.0;
      QVERIFY2(left >= plotArea.left() && left + w <= plotArea.right() + 1, qPrintable(label->text()));
      atEdge += label->position->coords().x() > 0.85;
    }
  QVERIFY(atEdge > 0);  // the case that was cut
  // The x-axis title fits the plot's width (at 1024 x 768 its first line was cut).
  const QFontMetrics fm(panel.plot()->xAxis->labelFont());
  const double centre = panel.plot()->axisRect()->rect().center().x();  // the title is centred there
  for (const QString& line : panel.plot()->xAxis->label().split('\n'))
    QVERIFY2(centre + fm.horizontalAdvance(line) / 2.0 <= panel.plot()->width() &&
                 centre - fm.horizontalAdvance(line) / 2.0 >= 0,
             qPrintable(QString("'%1' in %2 px").arg(line).arg(panel.plot()->width())));

}
