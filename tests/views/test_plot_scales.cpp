// The Plots dock's options and shared axes (views/plots_panel.h, views/plot_scale.h): a log
// value axis, the link plot as a rate, and the same axes for every sweep point. Expected
// values are sums over the raw results computed here (bytes per bin over the bin width).
#include <QAction>
#include <QtTest>
#include <qcustomplot.h>

#include <algorithm>
#include <array>

#include "../common/view_helpers.h"
#include "scenario/scenario_io.h"
#include "views/plot_scale.h"
#include "views/plots_panel.h"
#include "views/run_model.h"

using namespace fl;
using namespace fl::views;

namespace {

// gpu0 -> gpu1 on DGX-H100: 0 = 24 MiB, 1 = 64 MiB (a longer run with the same peak rate).
const test::RecordedRun& p2p(int which) {
  static const std::array<test::RecordedRun, 2> runs = [] {
    auto one = [](const char* size) {
      Scenario s = loadScenario(FABRICLAB_SCENARIOS "/dgx-h100-p2p.yaml");
      applyOverride(s, std::string("workload.collective.size=") + size);
      return test::record(s);
    };
    return std::array{one("24 MiB"), one("64 MiB")};
  }();
  return runs[which];
}

// The highest bin of the uplink or downlink sum, GB/s, from the raw links.
double upDownPeak(const Results& r) {
  std::vector<double> up(size_t(r.bins), 0), down(size_t(r.bins), 0);
  for (const auto& l : r.links)
    for (size_t i = 0; i < l.bin_bytes.bins.size(); ++i) {
      const double v = double(l.bin_bytes.bytes[i]) / toSeconds(r.bin) / 1e9;
      if (l.uplink) up[size_t(l.bin_bytes.bins[i])] += v;
      if (l.downlink) down[size_t(l.bin_bytes.bins[i])] += v;
    }
  return std::max(*std::max_element(up.begin(), up.end()), *std::max_element(down.begin(), down.end()));
}

}  // namespace

class TestPlotScales : public QObject {
  Q_OBJECT

 private slots:
  void logScale_data();
  void logScale();
  void linkRate();
  void sameAxesForEveryPoint_data();
  void sameAxesForEveryPoint();
};

void TestPlotScales::logScale_data() {
  QTest::addColumn<bool>("viaMenu");
  QTest::newRow("setLogScale") << false;
  QTest::newRow("Axes menu") << true;
}

// Log: from top / 10^4 to 1.5 top (top = 1.12 x the peak), nothing drawn below the floor.
void TestPlotScales::logScale() {
  QFETCH(bool, viaMenu);
  RunModel model;
  PlotsPanel panel(&model);
  test::load(model, p2p(0));
  const double top = upDownPeak(*p2p(0).results) * 1.12;
  QCOMPARE(panel.bandwidthPlot()->yAxis->range().lower, 0.0);
  QVERIFY(qFuzzyCompare(panel.bandwidthPlot()->yAxis->range().upper, top));
  viaMenu ? panel.logAction()->trigger() : panel.setLogScale(true);
  QVERIFY(panel.logScale());
  QVERIFY(panel.logAction()->isChecked());
  for (QCustomPlot* plot : {panel.bandwidthPlot(), panel.linkPlot()})
    QCOMPARE(plot->yAxis->scaleType(), QCPAxis::stLogarithmic);
  QVERIFY(qFuzzyCompare(panel.bandwidthPlot()->yAxis->range().lower, top * 1e-4));
  QVERIFY(qFuzzyCompare(panel.bandwidthPlot()->yAxis->range().upper, top * 1.5));
  for (int g = 0; g < 2; ++g)
    for (const auto& point : *panel.bandwidthPlot()->graph(g)->data()) QVERIFY(point.value >= top * 1e-4 * (1 - 1e-12));
  test::saveArtefact(panel, "plots_log_scale", QSize(900, 320));
  panel.setLogScale(false);
  QCOMPARE(panel.bandwidthPlot()->yAxis->scaleType(), QCPAxis::stLinear);
  QCOMPARE(panel.bandwidthPlot()->yAxis->range().lower, 0.0);
}

// Rate: each plotted direction's bytes per bin / bin width, GB/s.
void TestPlotScales::linkRate() {
  RunModel model;
  PlotsPanel panel(&model);
  test::load(model, p2p(0));
  const Results& r = *p2p(0).results;
  panel.linkRateAction()->trigger();
  QCOMPARE(panel.linkValue(), PlotsPanel::LinkValue::Rate);
  QVERIFY(!panel.plottedDirections().empty());
  QVERIFY(panel.linkPlot()->yAxis->label().contains("GB/s"));
  double peak = 0;
  for (size_t g = 0; g < panel.plottedDirections().size(); ++g) {
    const auto& l = r.links[size_t(panel.plottedDirections()[g])];
    const auto data = panel.linkPlot()->graph(int(g))->data();
    for (int b = 0; b < r.bins; ++b) {
      const double expected = double(l.bin_bytes.at(b)) / toSeconds(r.bin) / 1e9;
      QVERIFY(qFuzzyCompare(1 + data->at(b)->value, 1 + expected));
      peak = std::max(peak, expected);
    }
  }
  QVERIFY(qFuzzyCompare(panel.linkPlot()->yAxis->range().upper, peak * 1.12));
  panel.setLinkValue(PlotsPanel::LinkValue::Utilisation);
  QVERIFY(!panel.linkRateAction()->isChecked());
  QCOMPARE(panel.linkPlot()->yAxis->range().upper, 105.0);
  QVERIFY(panel.linkPlot()->yAxis->label().contains("%"));
}

void TestPlotScales::sameAxesForEveryPoint_data() {
  QTest::addColumn<bool>("log");
  QTest::addColumn<bool>("rate");
  QTest::newRow("linear, utilisation") << false << false;
  QTest::newRow("log, rate") << true << true;
}

// With the scale of both points set, showing either gives the same time and value ranges:
// time to the longer run's end, values to the higher peak.
void TestPlotScales::sameAxesForEveryPoint() {
  QFETCH(bool, log);
  QFETCH(bool, rate);
  RunModel model;
  PlotsPanel panel(&model);
  panel.setLogScale(log);
  panel.setLinkValue(rate ? PlotsPanel::LinkValue::Rate : PlotsPanel::LinkValue::Utilisation);
  PlotScale scale;
  for (int i = 0; i < 2; ++i) scale.include(*p2p(i).results);
  const Results &a = *p2p(0).results, &b = *p2p(1).results;
  QCOMPARE(scale.duration, std::max(a.bins * a.bin, b.bins * b.bin));
  QVERIFY(qFuzzyCompare(scale.upDownPeakGBps, std::max(upDownPeak(a), upDownPeak(b))));
  panel.setCommonScale(scale);
  QCPRange ranges[2][3];
  for (int i = 0; i < 2; ++i) {
    test::load(model, p2p(i));
    ranges[i][0] = panel.bandwidthPlot()->xAxis->range();
    ranges[i][1] = panel.bandwidthPlot()->yAxis->range();
    ranges[i][2] = panel.linkPlot()->yAxis->range();
    QCOMPARE(panel.linkPlot()->xAxis->range().upper, ranges[i][0].upper);
  }
  for (int k = 0; k < 3; ++k) {
    QCOMPARE(ranges[0][k].lower, ranges[1][k].lower);
    QCOMPARE(ranges[0][k].upper, ranges[1][k].upper);
  }
  QVERIFY(qFuzzyCompare(ranges[0][0].upper, double(scale.duration) / panel.timeUnit().ps));
  const double top = scale.upDownPeakGBps * 1.12;
  QVERIFY(qFuzzyCompare(ranges[0][1].upper, log ? top * 1.5 : top));
  // Without a common scale each run has its own time axis again.
  panel.setCommonScale({});
  test::load(model, p2p(0));
  QVERIFY(panel.bandwidthPlot()->xAxis->range().upper * panel.timeUnit().ps < double(scale.duration));
}

QTEST_MAIN(TestPlotScales)
#include "test_plot_scales.moc"
