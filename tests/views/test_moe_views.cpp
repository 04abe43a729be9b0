// The MoE views against real runs: an MoE layer on GH200 NVL32 swept over the four
// communication schemes, and collectives (no breakdown, no endpoints): the traffic
// breakdown bars, the AL-TLB panel and the scheme compare view. Expected values are
// computed here from the Results (breakdown rows, BinSeries, TLB counters), never read
// from the widgets. Grabs go to <build>/artefacts/. The switch table inspector's tests
// are test_switch_table_panel's.
#include <QComboBox>
#include <QLabel>
#include <QtTest>
#include <qcustomplot.h>

#include <memory>
#include <set>

#include "../common/view_helpers.h"
#include "views/al_tlb_panel.h"
#include "views/format_units.h"
#include "views/run_model.h"
#include "views/scheme_compare_view.h"
#include "views/traffic_breakdown_bars.h"

using namespace fl;
using namespace fl::views;

namespace {

using Run = test::RecordedRun;
using test::load;
using test::saveArtefact;

const std::map<QString, Run>& moe() { return test::moeSchemeRuns(); }
const Run& collective() { return test::nvlsAllReduce16MiB(); }

double barValue(QCPBars* bars, double key) {
  auto it = bars->data()->findBegin(key - 0.01, false);
  return it != bars->data()->constEnd() && qAbs(it->key - key) < 0.01 ? it->value : -1;
}

}  // namespace

class TestMoeViews : public QObject {
  Q_OBJECT

 private slots:
  void breakdownBars_data();
  void breakdownBars();
  void breakdownNotice();
  void alTlb_data();
  void alTlb();
  void alTlbNotices();
  void compare();
};

void TestMoeViews::breakdownBars_data() {
  QTest::addColumn<QString>("scheme");
  QTest::addColumn<int>("row");  // index into Results::breakdown
  for (const char* scheme : {"deepep", "nvls_static", "dysharp", "explicit"})
    for (int row = 0; row < 6; ++row) {
      const auto& b = moe().at(scheme).results->breakdown.at(size_t(row));
      QTest::addRow("%s %s %s", scheme, b.phase.c_str(), b.direction.c_str()) << QString(scheme) << row;
    }
}

// Each stacked segment's height is the breakdown's bytes for that class.
void TestMoeViews::breakdownBars() {
  QFETCH(QString, scheme);
  QFETCH(int, row);
  RunModel model;
  TrafficBreakdownBars view(&model);
  load(model, moe().at(scheme));
  const Results& r = *moe().at(scheme).results;
  const TrafficBreakdownRow& b = r.breakdown[size_t(row)];
  const double key = view.keyOf(b.phase, b.direction);
  QVERIFY(!std::isnan(key));
  QCOMPARE(barValue(view.bars(TrafficBreakdownBars::Useful), key), double(b.useful));
  QCOMPARE(barValue(view.bars(TrafficBreakdownBars::Redundant), key), double(b.redundant));
  QCOMPARE(barValue(view.bars(TrafficBreakdownBars::Useless), key), double(b.useless));
  QCOMPARE(barValue(view.bars(TrafficBreakdownBars::Overhead), key), double(b.overhead));
  QVERIFY(!view.noticeVisible());
  QVERIFY(view.title().contains(scheme));
  QVERIFY(view.title().contains(QString::number(r.moe->distinct_remote_gpus_per_token, 'f', 2)));
  if (scheme == "nvls_static" && row == 2) saveArtefact(view, "moe_breakdown_nvls_static", {760, 420});
}

void TestMoeViews::breakdownNotice() {
  RunModel model;
  TrafficBreakdownBars view(&model);
  QVERIFY(view.noticeVisible());  // no results at all
  load(model, collective());
  QVERIFY(view.noticeVisible());
  QCOMPARE(view.bars(TrafficBreakdownBars::Useful)->dataCount(), 0);
  saveArtefact(view, "moe_breakdown_notice", {600, 360});
  load(model, moe().at("dysharp"));
  QVERIFY(!view.noticeVisible());
  QCOMPARE(view.bars(TrafficBreakdownBars::Useful)->dataCount(), 6);
  // The static API shows any result, whatever the model holds.
  view.setResults(collective().results.get());
  QVERIFY(view.noticeVisible());
}

void TestMoeViews::alTlb_data() {
  QTest::addColumn<QString>("scheme");
  QTest::addColumn<int>("gpu");
  // The schemes whose runs looked anything up (dysharp at least).
  for (const auto& [scheme, run] : moe()) {
    if (run.results->moe->al_tlb_hits + run.results->moe->al_tlb_misses == 0) continue;
    for (int g : {0, 7, 31}) QTest::addRow("%s gpu%d", qPrintable(scheme), g) << scheme << g;
  }
}

// The figures and the hit-rate bars are the endpoint's counters.
void TestMoeViews::alTlb() {
  QFETCH(QString, scheme);
  QFETCH(int, gpu);
  RunModel model;
  AlTlbPanel panel(&model);
  const Run& run = moe().at(scheme);
  load(model, run);
  QVERIFY(!panel.noticeVisible());
  model.select(SelectionKind::Node, run.topology->endpointNode(gpu));
  const EndpointResult& e = run.results->endpoints.at(size_t(gpu));
  QCOMPARE(panel.currentEndpoint(), gpu);
  QCOMPARE(panel.value("hits"), formatCount(e.al_tlb_hits));
  QCOMPARE(panel.value("misses"), formatCount(e.al_tlb_misses));
  QCOMPARE(panel.value("layout blocks allocated"), formatCount(e.al_blocks_allocated));
  const double rate = double(e.al_tlb_hits) / double(e.al_tlb_hits + e.al_tlb_misses);
  QCOMPARE(panel.value("hit rate"), formatPercent(rate));
  QCOMPARE(panel.value("hits", 2), formatCount(run.results->moe->al_tlb_hits));
  QCOMPARE(panel.value("misses", 2), formatCount(run.results->moe->al_tlb_misses));
  QCOMPARE(panel.rateBars()->dataCount(), int(run.results->endpoints.size()));
  for (size_t i = 0; i < run.results->endpoints.size(); ++i) {
    const auto& x = run.results->endpoints[i];
    QCOMPARE(barValue(panel.rateBars(), double(i)), 100.0 * double(x.al_tlb_hits) / double(x.al_tlb_hits + x.al_tlb_misses));
  }
  QCOMPARE(barValue(panel.selectedBar(), double(gpu)), 100 * rate);
  if (gpu == 7 && scheme == "dysharp") saveArtefact(panel, "moe_al_tlb", {520, 520});
}

void TestMoeViews::alTlbNotices() {
  RunModel model;
  AlTlbPanel panel(&model);
  QVERIFY(panel.noticeVisible());
  load(model, collective());
  QVERIFY(panel.noticeText().contains("not an MoE layer"));
  for (const auto& [scheme, run] : moe()) {  // endpoints, but no lookups: named in the notice
    load(model, run);
    const bool lookups = run.results->moe->al_tlb_hits + run.results->moe->al_tlb_misses > 0;
    QCOMPARE(panel.noticeVisible(), !lookups);
    QCOMPARE(AlTlbPanel::hasLookups(*run.results), lookups);
    if (!lookups) QVERIFY(panel.noticeText().contains(scheme));
  }
  load(model, moe().at("deepep"));
  saveArtefact(panel, "moe_al_tlb_notice", {420, 300});
  // Where else to look (the main window names the sweep points with lookups).
  QVERIFY(!panel.noticeText().contains("dysharp + sequential"));
  panel.setElsewhereHint("Sweep points with AL TLB lookups: dysharp + sequential");
  QVERIFY(panel.noticeText().contains("dysharp + sequential"));
  panel.setElsewhereHint({});
  QVERIFY(!panel.noticeText().contains("dysharp + sequential"));
  load(model, moe().at("dysharp"));
  QVERIFY(!panel.noticeVisible());
}

void TestMoeViews::compare() {
  const Results& a = *moe().at("deepep").results;
  const Results& b = *moe().at("dysharp").results;
  SchemeCompareView view;
  view.setResults("scheme.communication=deepep", a, "scheme.communication=dysharp", b);
  QCOMPARE(view.label(0), QString("scheme.communication=deepep"));
  QCOMPARE(view.label(1), QString("scheme.communication=dysharp"));
  QVERIFY(view.bandwidthTitle(0).startsWith(view.label(0)));
  QVERIFY(view.bandwidthTitle(1).startsWith(view.label(1)));
  QVERIFY(view.findChildren<QLabel*>().size() >= 2);
  QVERIFY(view.bars(0)->title().contains("deepep"));
  QVERIFY(view.bars(1)->title().contains("dysharp"));
  // Both breakdowns on the scale of the taller one.
  QCOMPARE(view.bars(0)->plot()->yAxis->range().upper, view.bars(1)->plot()->yAxis->range().upper);
  // Bandwidth: GB/s per bin over the uplinks, summed here from the links.
  for (int side = 0; side < 2; ++side) {
    const Results& r = side == 0 ? a : b;
    std::vector<double> up(size_t(r.bins), 0);
    for (const auto& l : r.links)
      if (l.uplink)
        for (size_t i = 0; i < l.bin_bytes.bins.size(); ++i)
          up[size_t(l.bin_bytes.bins[i])] += double(l.bin_bytes.bytes[i]) / (toSeconds(r.bin) * 1e9);
    auto data = view.bandwidthGraph(side, true)->data();
    QCOMPARE(data->size(), r.bins + 1);
    for (int bin : {0, r.bins / 2, r.bins - 1})
      QVERIFY(qAbs(data->at(bin)->value - up[size_t(bin)]) < 1e-6 * (1 + up[size_t(bin)]));
  }
  saveArtefact(view, "moe_compare", {1200, 860});
  // One time axis.
  view.bandwidthRect(1)->axis(QCPAxis::atBottom)->setRange(10, 20);
  QCOMPARE(view.bandwidthRect(0)->axis(QCPAxis::atBottom)->range().lower, 10.0);
}

QTEST_MAIN(TestMoeViews)
#include "test_moe_views.moc"
