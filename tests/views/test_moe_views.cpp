// The MoE views against real runs: an MoE layer on GH200 NVL32 swept over the four
// communication schemes, and collectives (no breakdown, no endpoints). Expected values
// are computed here from the Results (breakdown rows, BinSeries, entry-log records, TLB
// counters), never read from the widgets. Grabs go to <build>/artefacts/.
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QTableWidget>
#include <QtTest>
#include <qcustomplot.h>

#include <memory>
#include <set>

#include "../common/recorded_runs.h"
#include "scenario/scenario_io.h"
#include "sim/run.h"
#include "topology/topology.h"
#include "views/al_tlb_panel.h"
#include "views/format_units.h"
#include "views/run_model.h"
#include "views/scheme_compare_view.h"
#include "views/switch_table_panel.h"
#include "views/traffic_breakdown_bars.h"

using namespace fl;
using namespace fl::views;

namespace {

const char* kMoe = R"(fabriclab: 1
name: moe views test
topology: {preset: gh200-nvl32}
network: {packet_payload: 4 KiB, vc_depth_flits: 1024, switch: {reduction_buffer: 64 KiB}}
workload: {kind: moe_layer, moe: {model: deepseek-v3, tokens_per_gpu: 128}}
scheme: {communication: dysharp, fusion: sequential}
sweep:
  - {key: scheme.communication, values: [deepep, nvls_static, dysharp, explicit]}
)";

using Run = test::RecordedRun;

// scheme -> run, one sweep for the whole test.
const std::map<QString, Run>& moe() {
  static const std::map<QString, Run> runs = [] {
    const Scenario s = parseScenario(kMoe, "moe.yaml");
    std::shared_ptr<const topo::Topology> t(topo::buildTopology(s.topology));
    std::map<QString, Run> out;
    for (auto& p : runSweep(s))
      out[QString::fromStdString(p.settings.at(0).second)] = {t, std::make_shared<Results>(std::move(p.results))};
    return out;
  }();
  return runs;
}

// NVLS all-reduce: in-switch reductions with collective tags.
const Run& collective() { return test::nvlsAllReduce16MiB(); }

void load(RunModel& model, const Run& r) {
  model.setTopology(r.topology);
  model.setResults(r.results, true);
}

double barValue(QCPBars* bars, double key) {
  auto it = bars->data()->findBegin(key - 0.01, false);
  return it != bars->data()->constEnd() && qAbs(it->key - key) < 0.01 ? it->value : -1;
}

// The busiest port (most entries at its peak) of the switch with the most reductions.
std::pair<const SwitchResult*, const ReductionPortResult*> busiestPort(const Results& r) {
  const SwitchResult* best = nullptr;
  for (const auto& s : r.switches)
    if (!s.reduction_ports.empty() && (!best || s.reductions > best->reductions)) best = &s;
  if (!best) return {nullptr, nullptr};
  const ReductionPortResult* port = &best->reduction_ports.front();
  for (const auto& p : best->reduction_ports)
    if (p.peak_entries > port->peak_entries) port = &p;
  return {best, port};
}

int aliveAt(const SwitchResult& s, int port, Time t) {
  int n = 0;
  for (const auto& e : s.entry_log) n += e.port == port && e.start <= t && t < e.end;
  return n;
}

void saveArtefact(QWidget& w, const QString& name, QSize size) {
  w.resize(size);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QCoreApplication::processEvents();
  for (auto* plot : w.findChildren<QCustomPlot*>()) plot->replot();
  const QString dir = QCoreApplication::applicationDirPath() + "/../artefacts";
  QDir().mkpath(dir);
  QVERIFY(w.grab().save(dir + "/" + name + ".png"));
}

}  // namespace

class TestMoeViews : public QObject {
  Q_OBJECT

 private slots:
  void breakdownBars_data();
  void breakdownBars();
  void breakdownNotice();
  void switchPorts_data();
  void switchPorts();
  void switchEntriesPlot_data();
  void switchEntriesPlot();
  void switchTableRows_data();
  void switchTableRows();
  void switchTableFollowsBin();
  void switchFollowsSelection();
  void switchPickIgnoresSnapshots();
  void switchNoticeAndRawTags();
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

void TestMoeViews::switchPorts_data() {
  QTest::addColumn<QString>("scheme");
  for (const char* s : {"nvls_static", "dysharp", "explicit"}) QTest::newRow(s) << QString(s);
}

// The switch list is the switches with reduction activity; each port list is the ports
// that reduced anything.
void TestMoeViews::switchPorts() {
  QFETCH(QString, scheme);
  RunModel model;
  SwitchTablePanel panel(&model);
  load(model, moe().at(scheme));
  const Results& r = *moe().at(scheme).results;
  QStringList expectedSwitches;
  for (const auto& s : r.switches)
    if (!s.reduction_ports.empty()) expectedSwitches << QString::fromStdString(s.id);
  QVERIFY(!expectedSwitches.isEmpty());
  QVERIFY(!panel.noticeVisible());
  QStringList shown;
  for (int i = 0; i < panel.switchCombo()->count(); ++i) shown << panel.switchCombo()->itemText(i).section(' ', 0, 0);
  QCOMPARE(shown, expectedSwitches);
  for (const auto& s : r.switches) {
    if (s.reduction_ports.empty()) continue;
    panel.selectSwitch(QString::fromStdString(s.id));
    QCOMPARE(panel.currentSwitch()->id, s.id);
    std::set<int> expected, listed;
    for (const auto& p : s.reduction_ports) expected.insert(p.port);
    for (int i = 0; i < panel.portCombo()->count(); ++i) listed.insert(panel.portCombo()->itemData(i).toInt());
    QCOMPARE(listed, expected);
    QCOMPARE(panel.portCombo()->count(), int(s.reduction_ports.size()));
  }
}

void TestMoeViews::switchEntriesPlot_data() {
  QTest::addColumn<double>("fraction");  // of the run
  for (double f : {0.0, 0.3, 0.85, 0.9, 0.95, 0.999}) QTest::addRow("%.3f of the run", f) << f;
}

// The step plot's value at a bin is BinSeries::at(bin) of the chosen port.
void TestMoeViews::switchEntriesPlot() {
  QFETCH(double, fraction);
  RunModel model;
  SwitchTablePanel panel(&model);
  load(model, moe().at("dysharp"));
  const Results& r = *moe().at("dysharp").results;
  auto [sw, port] = busiestPort(r);
  panel.selectSwitch(QString::fromStdString(sw->id));
  panel.selectPort(port->port);
  QCOMPARE(panel.currentPort()->port, port->port);
  const int bin = std::min(r.bins - 1, int(fraction * r.bins));
  auto it = panel.plot()->graph(0)->data()->findBegin(panel.binKey(bin), false);
  QVERIFY(it != panel.plot()->graph(0)->data()->constEnd());
  QCOMPARE(it->key, panel.binKey(bin));
  QCOMPARE(it->value, double(port->entries.at(bin)));
  // Eviction markers: one per bin with evictions.
  QCOMPARE(panel.plot()->graph(1)->dataCount(), int(port->evictions.bins.size()));
}

void TestMoeViews::switchTableRows_data() {
  QTest::addColumn<QString>("when");
  QTest::newRow("bin 0 (before any combine)") << "start";
  QTest::newRow("the first entry's middle") << "first";
  QTest::newRow("the busiest bin") << "busiest";
  QTest::newRow("the last bin") << "last";
}

// The rows are the port's entry-log records alive at the bin's middle, tokens decoded.
void TestMoeViews::switchTableRows() {
  QFETCH(QString, when);
  RunModel model;
  SwitchTablePanel panel(&model);
  load(model, moe().at("dysharp"));
  const Results& r = *moe().at("dysharp").results;
  auto [sw, port] = busiestPort(r);
  panel.selectSwitch(QString::fromStdString(sw->id));
  panel.selectPort(port->port);
  int bin = 0;
  if (when == "last") bin = r.bins - 1;
  if (when == "busiest")
    for (int b = 0; b < r.bins; ++b)
      if (aliveAt(*sw, port->port, SwitchTablePanel::timeOfBin(b, r.bin)) >
          aliveAt(*sw, port->port, SwitchTablePanel::timeOfBin(bin, r.bin)))
        bin = b;
  if (when == "first")
    for (const auto& e : sw->entry_log)
      if (e.port == port->port) {
        bin = int((e.start + e.end) / 2 / r.bin);
        break;
      }
  model.setCurrentBin(bin);
  const Time t = Time(bin) * r.bin + r.bin / 2;
  QCOMPARE(panel.tableTime(), t);
  std::multiset<QString> expected;
  for (const auto& e : sw->entry_log)
    if (e.port == port->port && e.start <= t && t < e.end) expected.insert(QString::number(e.tag & 0xffffffffu));
  QCOMPARE(panel.table()->rowCount(), int(expected.size()));
  std::multiset<QString> shown;
  for (int row = 0; row < panel.table()->rowCount(); ++row)
    shown.insert(panel.table()->item(row, SwitchTablePanel::Token)->text());
  QCOMPARE(shown, expected);
  if (when == "busiest") {
    QVERIFY(!expected.empty());
    saveArtefact(panel, "moe_switch_table", {820, 620});
  }
}

// Scrubbing fills and drains the table.
void TestMoeViews::switchTableFollowsBin() {
  RunModel model;
  SwitchTablePanel panel(&model);
  load(model, moe().at("dysharp"));
  const Results& r = *moe().at("dysharp").results;
  auto [sw, port] = busiestPort(r);
  panel.selectSwitch(QString::fromStdString(sw->id));
  panel.selectPort(port->port);
  std::set<int> counts;
  for (int b = 0; b < r.bins; ++b) {
    model.setCurrentBin(b);
    const int n = aliveAt(*sw, port->port, SwitchTablePanel::timeOfBin(b, r.bin));
    QCOMPARE(panel.table()->rowCount(), n);
    counts.insert(n);
  }
  QVERIFY2(counts.size() >= 2, "the table never changed over the run");
}

void TestMoeViews::switchFollowsSelection() {
  RunModel model;
  SwitchTablePanel panel(&model);
  const Run& run = moe().at("dysharp");
  load(model, run);
  for (const auto& s : run.results->switches) {
    if (s.reduction_ports.empty()) continue;
    model.select(SelectionKind::Node, s.node);
    QCOMPARE(panel.currentSwitch()->id, s.id);
  }
  // A GPU selects the current switch's port towards it (the busiest, as a GPU has two).
  const SwitchResult& sw = *panel.currentSwitch();
  const ReductionPortResult* busiest = nullptr;
  const std::string peer = sw.reduction_ports.back().peer;
  for (const auto& p : sw.reduction_ports)
    if (p.peer == peer && (!busiest || p.peak_entries > busiest->peak_entries)) busiest = &p;
  for (const auto& n : run.topology->nodes())
    if (n.name == peer) model.select(SelectionKind::Node, n.id);
  QCOMPARE(panel.currentPort()->port, busiest->port);
}

// Live snapshots arrive at wall-clock moments; the port shown once the run is final must
// not depend on them: the busiest port of the final results (first switch with
// reductions), unless the user picked one, which is then kept.
void TestMoeViews::switchPickIgnoresSnapshots() {
  RunModel model;
  SwitchTablePanel panel(&model);
  const Run& run = moe().at("dysharp");
  const SwitchResult* first = nullptr;
  for (const auto& s : run.results->switches)
    if (!first && !s.reduction_ports.empty()) first = &s;
  QVERIFY(first && first->reduction_ports.size() >= 2);
  const ReductionPortResult* busiest = nullptr;  // ties: the lowest port number
  for (const auto& p : first->reduction_ports)
    if (!busiest || p.peak_entries > busiest->peak_entries || (p.peak_entries == busiest->peak_entries && p.port < busiest->port))
      busiest = &p;
  // A snapshot in which another port of that switch looked busiest.
  auto snapshot = std::make_shared<Results>(*run.results);
  for (auto& s : snapshot->switches)
    if (s.id == first->id)
      for (auto& p : s.reduction_ports) p.peak_entries = p.port == busiest->port ? 0 : 1000000 + p.port;
  model.setTopology(run.topology);
  model.setResults(snapshot, false);
  QVERIFY(panel.currentPort()->port != busiest->port);
  model.setResults(run.results, true);
  QCOMPARE(panel.currentSwitch()->id, first->id);
  QCOMPARE(panel.currentPort()->port, busiest->port);
  // The user's pick survives new results.
  const int other = first->reduction_ports.front().port == busiest->port ? first->reduction_ports.back().port
                                                                         : first->reduction_ports.front().port;
  panel.selectPort(other);
  model.setResults(std::make_shared<Results>(*run.results), true);
  QCOMPARE(panel.currentPort()->port, other);
}

void TestMoeViews::switchNoticeAndRawTags() {
  RunModel model;
  SwitchTablePanel panel(&model);
  QVERIFY(panel.noticeVisible());
  load(model, moe().at("deepep"));  // no in-switch reduction
  QVERIFY(panel.noticeVisible());
  load(model, collective());  // NVLS reductions: listed (their entries live for no time)
  QVERIFY(!panel.noticeVisible());
  // Tags that are not an MoE layer's are shown raw: the dysharp run without its MoE part.
  auto raw = std::make_shared<Results>(*moe().at("dysharp").results);
  raw->moe.reset();
  raw->breakdown.clear();
  model.setTopology(moe().at("dysharp").topology);
  model.setResults(raw, true);
  auto [sw, port] = busiestPort(*raw);
  panel.selectSwitch(QString::fromStdString(sw->id));
  panel.selectPort(port->port);
  const ReductionEntryRecord* longest = nullptr;  // alive over several bins' middles
  for (const auto& e : sw->entry_log)
    if (e.port == port->port && (!longest || e.end - e.start > longest->end - longest->start)) longest = &e;
  model.setCurrentBin(int((longest->start + longest->end) / 2 / raw->bin));
  QVERIFY(panel.table()->rowCount() > 0);
  QCOMPARE(panel.table()->horizontalHeaderItem(SwitchTablePanel::Token)->text(), QString("tag"));
  QVERIFY(panel.table()->item(0, SwitchTablePanel::Token)->text().startsWith("0x"));
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
    if (!lookups) QVERIFY(panel.noticeText().contains(scheme));
  }
  load(model, moe().at("deepep"));
  saveArtefact(panel, "moe_al_tlb_notice", {420, 300});
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
