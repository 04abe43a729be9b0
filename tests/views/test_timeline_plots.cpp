// TimelineBar, PlotsPanel, InspectorPanel and HeatControls against a RunModel. Expected
// plot values are sums over the raw results computed here; expected bins from the speed
// and tick arithmetic. Grabs of each widget go to <build>/tests/artefacts/.
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>
#include <qcustomplot.h>

#include <algorithm>
#include <memory>

#include "../common/view_helpers.h"
#include "report/html_report.h"
#include "report/report_data.h"
#include "scenario/scenario_io.h"
#include "sim/run.h"
#include "topology/topology.h"
#include "views/format_units.h"
#include "views/heat_controls.h"
#include "views/inspector_panel.h"
#include "views/plots_panel.h"
#include "views/run_model.h"
#include "views/timeline_bar.h"

using namespace fl;
using namespace fl::views;

namespace {

using Run = test::RecordedRun;

Run run(const Scenario& s) { return test::record(s); }

const Run& p2p() {  // gpu0 -> gpu1 on dgx-h100, ~18 bins
  static const Run r = [] {
    Scenario s = loadScenario(FABRICLAB_SCENARIOS "/dgx-h100-p2p.yaml");
    applyOverride(s, "workload.collective.size=64 MiB");
    return run(s);
  }();
  return r;
}

const Run& traffic() {  // uniform traffic on a 4 x 4 mesh: has a latency histogram
  static const Run r = [] {
    Scenario s = loadScenario(FABRICLAB_SCENARIOS "/mesh-8x8-uniform-loads.yaml");
    s.sweep.clear();
    applyOverrides(s, {"topology.rows=4", "topology.cols=4", "workload.traffic.duration=1 us",
                       "workload.traffic.warmup=200 ns"});
    return run(s);
  }();
  return r;
}

// Results with `bins` empty bins on any topology: for playback, where only the count matters.
std::shared_ptr<Results> emptyBins(int bins) {
  auto r = std::make_shared<Results>();
  r->bin = kMicrosecond;
  r->bins = bins;
  r->makespan = bins * kMicrosecond;
  return r;
}

using test::load;
using test::saveArtefact;

}  // namespace

class TestTimelinePlots : public QObject {
  Q_OBJECT

 private slots:
  void step_data();
  void step();
  void play_data();
  void play();
  void stopsOrLoopsAtEnd_data();
  void stopsOrLoopsAtEnd();
  void followsLive();
  void bandwidthSums_data();
  void bandwidthSums();
  void busiestLinks();
  void selectedLink();
  void latency();
  void legendsWhole_data();
  void legendsWhole();
  void inspector();
  void heatControls();
  void sideBySideDefaults_data();
  void sideBySideDefaults();
  void sideBySideBFollowsLivePhases();
  void binNumbersAgreeWithReport();
};

void TestTimelinePlots::step_data() {
  QTest::addColumn<int>("start");
  QTest::addColumn<int>("forward");  // steps forward (negative: back)
  QTest::addColumn<int>("expected");
  QTest::newRow("forward 1") << 0 << 1 << 1;
  QTest::newRow("forward 3") << 5 << 3 << 8;
  QTest::newRow("back 2") << 5 << -2 << 3;
  QTest::newRow("back past the start") << 1 << -3 << 0;
  QTest::newRow("forward past the end") << 8 << 5 << 9;
}

void TestTimelinePlots::step() {
  QFETCH(int, start);
  QFETCH(int, forward);
  QFETCH(int, expected);
  RunModel model;
  model.setTopology(p2p().topology);
  model.setResults(emptyBins(10), true);
  TimelineBar bar(&model);
  model.setCurrentBin(start);
  for (int i = 0; i < std::abs(forward); ++i) forward > 0 ? bar.stepForward() : bar.stepBack();
  QCOMPARE(model.currentBin(), expected);
}

void TestTimelinePlots::play_data() {
  QTest::addColumn<double>("speed");
  QTest::newRow("0.5x") << 0.5;
  QTest::newRow("1x") << 1.0;
  QTest::newRow("4x") << 4.0;
}

// Playing advances about speed bins per 33 ms tick; pausing stops it.
void TestTimelinePlots::play() {
  QFETCH(double, speed);
  RunModel model;
  model.setTopology(p2p().topology);
  model.setResults(emptyBins(100000), true);
  TimelineBar bar(&model);
  bar.setSpeed(speed);
  bar.play();
  QVERIFY(bar.isPlaying());
  // Eight ticks give floor(8 x speed) bins at least (0.5x: 4); allow for a slow machine.
  QTRY_VERIFY_WITH_TIMEOUT(model.currentBin() >= int(8 * speed), 5000);
  bar.pause();
  QVERIFY(!bar.isPlaying());
  const int at = model.currentBin();
  QTest::qWait(150);
  QCOMPARE(model.currentBin(), at);
  bar.togglePlay();
  QVERIFY(bar.isPlaying());
  bar.togglePlay();
  QVERIFY(!bar.isPlaying());
}

void TestTimelinePlots::stopsOrLoopsAtEnd_data() {
  QTest::addColumn<bool>("looping");
  QTest::newRow("stop at the end") << false;
  QTest::newRow("loop") << true;
}

void TestTimelinePlots::stopsOrLoopsAtEnd() {
  QFETCH(bool, looping);
  RunModel model;
  model.setTopology(p2p().topology);
  model.setResults(emptyBins(12), true);
  TimelineBar bar(&model);
  bar.setLooping(looping);
  bar.setSpeed(8);
  model.setCurrentBin(4);
  bar.play();
  if (!looping) {
    QTRY_VERIFY_WITH_TIMEOUT(!bar.isPlaying(), 5000);
    QCOMPARE(model.currentBin(), 11);
  } else {
    QSignalSpy spy(&model, &RunModel::currentBinChanged);
    QTRY_VERIFY_WITH_TIMEOUT(std::any_of(spy.begin(), spy.end(), [](const auto& args) { return args[0].toInt() == 0; }), 5000);
    QVERIFY(bar.isPlaying());
    bar.pause();
  }
}

// A live snapshot moves the bin to the newest; stepping by hand stops following.
void TestTimelinePlots::followsLive() {
  RunModel model;
  model.setTopology(p2p().topology);
  TimelineBar bar(&model);
  model.setResults(emptyBins(5), false);
  QCOMPARE(model.currentBin(), 4);
  model.setResults(emptyBins(9), false);
  QCOMPARE(model.currentBin(), 8);
  bar.stepBack();
  QVERIFY(!model.followLive());
  model.setResults(emptyBins(12), false);
  QCOMPARE(model.currentBin(), 7);
}

void TestTimelinePlots::bandwidthSums_data() {
  QTest::addColumn<int>("which");  // 0 first bin, 1 middle, 2 last
  QTest::newRow("first bin") << 0;
  QTest::newRow("middle bin") << 1;
  QTest::newRow("last bin") << 2;
}

// Uplink/downlink GB/s of a bin = the bin bytes of the flagged directions / bin width.
void TestTimelinePlots::bandwidthSums() {
  QFETCH(int, which);
  RunModel model;
  PlotsPanel plots(&model);
  load(model, p2p());
  const Results& r = *p2p().results;
  const int bin = which == 0 ? 0 : which == 1 ? r.bins / 2 : r.bins - 1;
  double up = 0, down = 0;
  for (const auto& l : r.links) {
    const auto d = l.bin_bytes.dense(r.bins);
    if (l.uplink) up += double(d[size_t(bin)]);
    if (l.downlink) down += double(d[size_t(bin)]);
  }
  up /= toSeconds(r.bin) * 1e9;
  down /= toSeconds(r.bin) * 1e9;
  QVERIFY(up > 0 || which == 2);
  QCustomPlot* plot = plots.bandwidthPlot();
  QCOMPARE(plot->graph(0)->data()->size(), r.bins + 1);  // steps: one more point for the end
  QVERIFY(qAbs(plot->graph(0)->data()->at(bin)->value - up) <= 1e-9 * std::max(1.0, up));
  QVERIFY(qAbs(plot->graph(1)->data()->at(bin)->value - down) <= 1e-9 * std::max(1.0, down));
  QVERIFY(qFuzzyCompare(plot->graph(0)->data()->at(bin)->key + 1, double(bin) * double(r.bin) / plots.timeUnit().ps + 1));
  QVERIFY(!plot->xAxis->label().isEmpty() && plot->yAxis->label().contains("GB/s"));
  if (which == 1) saveArtefact(plots, "plots-bandwidth-p2p", {720, 400});
}

// No selection: the five busiest directions by bytes (compared as byte totals: ties).
void TestTimelinePlots::busiestLinks() {
  RunModel model;
  PlotsPanel plots(&model);
  load(model, p2p());
  std::vector<std::int64_t> bytes;
  for (const auto& l : p2p().results->links) bytes.push_back(l.bytes);
  std::sort(bytes.rbegin(), bytes.rend());
  bytes.resize(5);
  std::vector<std::int64_t> plotted;
  for (int d : plots.plottedDirections()) plotted.push_back(p2p().results->links[size_t(d)].bytes);
  std::sort(plotted.rbegin(), plotted.rend());
  QCOMPARE(plotted, bytes);
  QCOMPARE(plots.linkPlot()->graphCount(), 5);
  // Lines at the same value stay visible: each drawn 2 px thinner than the one under it,
  // 10, 8, 6, 4, 2 px; the legend takes two rows of three, not five.
  const double widths[] = {10, 8, 6, 4, 2};
  for (int g = 0; g < 5; ++g) QCOMPARE(plots.linkPlot()->graph(g)->pen().widthF(), widths[g]);
  QCOMPARE(plots.linkPlot()->legend->rowCount(), 2);
  QCOMPARE(plots.linkPlot()->legend->columnCount(), 3);
  plots.tabs()->setCurrentIndex(1);
  saveArtefact(plots, "plots-busiest-links-p2p", {720, 400});
}

// A selected link: its two directions, in percent of capacity per bin.
void TestTimelinePlots::selectedLink() {
  RunModel model;
  PlotsPanel plots(&model);
  load(model, p2p());
  const Results& r = *p2p().results;
  model.select(SelectionKind::Link, 0);  // gpu0 - sw0: the copy leaves gpu0 on it
  QCOMPARE(plots.linkPlot()->graphCount(), 2);
  const int bin = r.bins / 2;
  for (int d = 0; d < 2; ++d) {
    const auto it = std::find_if(r.links.begin(), r.links.end(), [&](const auto& l) { return l.link == 0 && l.direction == d; });
    QVERIFY(it != r.links.end());
    const double expected = 100 * std::min(1.0, double(it->bin_bytes.at(bin)) / (it->capacity_Bps * toSeconds(r.bin)));
    QVERIFY(qAbs(plots.linkPlot()->graph(d)->data()->at(bin)->value - expected) < 1e-9);
  }
  plots.tabs()->setCurrentIndex(1);
  saveArtefact(plots, "plots-link-p2p", {720, 400});
}

void TestTimelinePlots::latency() {
  RunModel model;
  PlotsPanel plots(&model);
  plots.tabs()->setCurrentIndex(2);
  auto notice = [&] {
    for (int i = 0; i < plots.latencyPlot()->itemCount(); ++i)
      if (auto* text = qobject_cast<QCPItemText*>(plots.latencyPlot()->item(i)))
        if (text->text().contains("no latency data")) return text->visible();
    return false;
  };
  load(model, p2p());  // a collective: no latency data, and no tab saying so
  QVERIFY(!plots.hasLatencyData());
  QVERIFY(notice());
  QVERIFY(!plots.tabs()->isTabVisible(2));
  load(model, traffic());
  QVERIFY(plots.hasLatencyData());
  QVERIFY(!notice());
  QVERIFY(plots.tabs()->isTabVisible(2));
  const LatencyStats& s = *traffic().results->latency;
  auto* bars = qobject_cast<QCPBars*>(plots.latencyPlot()->plottable(0));
  QVERIFY(bars);
  QCOMPARE(bars->data()->size(), int(s.histogram_counts.size()));
  double total = 0;
  for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) total += it->value;
  QCOMPARE(qint64(total), s.samples);
  int marks = 0;  // mean, p50, p99 lines
  for (int i = 0; i < plots.latencyPlot()->itemCount(); ++i)
    marks += qobject_cast<QCPItemStraightLine*>(plots.latencyPlot()->item(i)) != nullptr;
  QCOMPARE(marks, 3);
  saveArtefact(plots, "plots-latency-traffic", {720, 400});
}

// Every legend entry inside its plot at a narrow dock's width (a Plots dock at 1024 x 768
// is ~380 px: the two entries side by side were cut), and two a row where they fit.
void TestTimelinePlots::legendsWhole_data() {
  QTest::addColumn<int>("width");
  QTest::addColumn<int>("columns");  // the bandwidth plot's
  QTest::newRow("narrow") << 380 << 1;
  QTest::newRow("wide") << 1000 << 2;
}

void TestTimelinePlots::legendsWhole() {
  QFETCH(int, width);
  QFETCH(int, columns);
  RunModel model;
  PlotsPanel plots(&model);
  load(model, p2p());
  plots.resize(width, 300);
  plots.show();
  QVERIFY(QTest::qWaitForWindowExposed(&plots));
  for (int tab : {0, 1}) {
    plots.tabs()->setCurrentIndex(tab);
    QCoreApplication::processEvents();
    QCustomPlot* plot = tab == 0 ? plots.bandwidthPlot() : plots.linkPlot();
    plot->replot();
    int entries = 0;
    for (int i = 0; i < plot->legend->itemCount(); ++i) {
      if (!plot->legend->item(i)) continue;  // an empty cell of the grid
      ++entries;
      const QRect r = plot->legend->item(i)->outerRect();
      QVERIFY2(r.left() >= 0 && r.right() <= plot->width(), qPrintable(QString("tab %1 entry %2: %3..%4 of %5")
                                                                         .arg(tab).arg(i).arg(r.left()).arg(r.right()).arg(plot->width())));
    }
    QVERIFY(entries >= 2);
  }
  QCOMPARE(plots.bandwidthPlot()->legend->wrap(), columns);
}

void TestTimelinePlots::inspector() {
  RunModel model;
  InspectorPanel inspector(&model);
  load(model, p2p());
  QVERIFY(inspector.title().isEmpty());  // nothing selected: the hint
  const Results& r = *p2p().results;
  model.select(SelectionKind::Link, 0);
  QVERIFY(inspector.title().contains("gpu0") && inspector.title().contains("sw0"));
  const auto& l0 = *std::find_if(r.links.begin(), r.links.end(), [](const auto& l) { return l.link == 0 && l.direction == 0; });
  QCOMPARE(inspector.value("packets", 1), formatCount(l0.packets));
  QCOMPARE(inspector.value("capacity", 1), formatRate(l0.capacity_Bps));
  saveArtefact(inspector, "inspector-link", {420, 520});
  const topo::NodeId sw0 = 8;  // GPUs 0..7, then the chips
  model.select(SelectionKind::Node, sw0);
  QCOMPARE(inspector.title(), QString("sw0"));
  const auto& sw = *std::find_if(r.switches.begin(), r.switches.end(), [&](const auto& s) { return s.node == sw0; });
  QCOMPARE(inspector.value("packets forwarded"), formatCount(sw.packets_forwarded));
  QVERIFY(inspector.value("port 0").contains("gpu0"));
  saveArtefact(inspector, "inspector-switch", {420, 520});
}

void TestTimelinePlots::heatControls() {
  RunModel model;
  HeatControls heat(&model);
  TimelineBar bar(&model);
  load(model, traffic());  // warmup, measure, drain
  const int phases = int(traffic().results->phases.size());
  QCOMPARE(heat.phaseCombo()->count(), phases + 1);
  heat.coldSpin()->setValue(12);
  heat.hotSpin()->setValue(55);
  QVERIFY(qFuzzyCompare(model.coldThreshold(), 0.12) && qFuzzyCompare(model.hotThreshold(), 0.55));
  heat.phaseCombo()->setCurrentIndex(2);
  QCOMPARE(model.phase(), 1);
  QSignalSpy requested(&heat, &HeatControls::sideBySideRequested), cleared(&heat, &HeatControls::sideBySideCleared);
  heat.sideBySideCheck()->setChecked(true);
  QCOMPARE(requested.count(), 1);
  QCOMPARE(requested[0][0].toInt(), 0);
  QCOMPARE(requested[0][1].toInt(), 1);
  heat.sideBySideCheck()->setChecked(false);
  QCOMPARE(cleared.count(), 1);
  saveArtefact(heat, "heat-controls", {400, 240});
  saveArtefact(bar, "timeline", {1000, 48});
}

// Side B opens on the phase after side A's (the last phase has none after it: B = A),
// and follows A until picked by hand. traffic() has three phases: warmup, measure, drain.
void TestTimelinePlots::sideBySideDefaults_data() {
  QTest::addColumn<int>("a");
  QTest::addColumn<int>("b");
  QTest::newRow("warmup -> measure") << 0 << 1;
  QTest::newRow("measure -> drain") << 1 << 2;
  QTest::newRow("drain: the last") << 2 << 2;
}

void TestTimelinePlots::sideBySideDefaults() {
  QFETCH(int, a);
  QFETCH(int, b);
  RunModel model;
  HeatControls heat(&model);
  load(model, traffic());
  QCOMPARE(heat.phaseBCombo()->count(), 3);
  QCOMPARE(heat.phaseACombo()->currentIndex(), 0);
  QCOMPARE(heat.phaseBCombo()->currentIndex(), 1);
  QSignalSpy requested(&heat, &HeatControls::sideBySideRequested);
  heat.sideBySideCheck()->setChecked(true);
  heat.phaseACombo()->setCurrentIndex(a);
  QCOMPARE(heat.phaseBCombo()->currentIndex(), b);
  QCOMPARE(requested.last()[0].toInt(), a);
  QCOMPARE(requested.last()[1].toInt(), b);
  // Picked by hand, B stays where it was put.
  heat.phaseBCombo()->setCurrentIndex(0);
  emit heat.phaseBCombo()->activated(0);
  heat.phaseACombo()->setCurrentIndex(a == 1 ? 2 : 1);
  QCOMPARE(heat.phaseBCombo()->currentIndex(), 0);
}

// A live run publishes its phases one at a time: with only the first known, B shows it
// too, and moves on to the second as soon as that arrives.
void TestTimelinePlots::sideBySideBFollowsLivePhases() {
  RunModel model;
  HeatControls heat(&model);
  model.setTopology(traffic().topology);
  auto first = std::make_shared<Results>(*traffic().results);
  first->phases.resize(1);
  model.setResults(first, false);
  QCOMPARE(heat.phaseBCombo()->count(), 1);
  QCOMPARE(heat.phaseBCombo()->currentIndex(), 0);
  model.setResults(traffic().results, true);
  QCOMPARE(heat.phaseBCombo()->count(), 3);
  QCOMPARE(heat.phaseACombo()->currentIndex(), 0);
  QCOMPARE(heat.phaseBCombo()->currentIndex(), 1);
}

// Bins are numbered from 0, as the report's topology caption ("bin 201 of 218") and the
// CSV's link_bins number them: the timeline says the same of the report's busiest bin.
void TestTimelinePlots::binNumbersAgreeWithReport() {
  RunModel model;
  TimelineBar bar(&model);
  load(model, p2p());
  const Results& r = *p2p().results;
  auto* label = bar.findChild<QLabel*>("timelineBin");
  QVERIFY(label);
  model.setCurrentBin(0);
  QCOMPARE(label->text(), QString("bin 0 of %1").arg(r.bins));
  model.setCurrentBin(r.bins - 1);
  QCOMPARE(label->text(), QString("bin %1 of %2").arg(r.bins - 1).arg(r.bins));
  const int busiest = report::busiestBin(r);
  QVERIFY(busiest > 0);
  Scenario s = loadScenario(FABRICLAB_SCENARIOS "/dgx-h100-p2p.yaml");
  applyOverride(s, "workload.collective.size=64 MiB");
  const std::string html = report::renderHtmlReport(s, {SweepPoint{{}, r}}, *p2p().topology);
  const QString phrase = QString("bin %1 of %2").arg(busiest).arg(r.bins);
  QVERIFY2(QString::fromStdString(html).contains(phrase), qPrintable(phrase));
  model.setCurrentBin(busiest);
  QCOMPARE(label->text(), phrase);
}

QTEST_MAIN(TestTimelinePlots)
#include "test_timeline_plots.moc"
