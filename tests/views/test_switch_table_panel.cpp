// The in-switch table inspector (SwitchTablePanel) against real runs: an MoE layer on
// GH200 NVL32 swept over the communication schemes, and an NVLS all-reduce whose entries
// carry collective tags. Which switches and ports it lists, its entry-count plot, its
// rows at a timeline bin, what it follows and what it picks by itself. Expected values
// are computed here from the Results (entry-log records, reduction ports), never read
// from the widget. Entry arrival times and ages are test_switch_table_times's.
#include <QComboBox>
#include <QLabel>
#include <QTableWidget>
#include <QtTest>
#include <qcustomplot.h>

#include <memory>
#include <set>

#include "../common/view_helpers.h"
#include "views/format_units.h"
#include "views/switch_table_panel.h"

using namespace fl;
using namespace fl::views;

namespace {

using Run = test::RecordedRun;
using test::load;
using test::saveArtefact;

const std::map<QString, Run>& moe() { return test::moeSchemeRuns(); }
const Run& collective() { return test::nvlsAllReduce16MiB(); }

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

// Loads the dysharp run and picks its busiest port in the panel.
std::pair<const SwitchResult*, const ReductionPortResult*> showBusiestPort(RunModel& model, SwitchTablePanel& panel) {
  load(model, moe().at("dysharp"));
  auto picked = busiestPort(*moe().at("dysharp").results);
  panel.selectSwitch(QString::fromStdString(picked.first->id));
  panel.selectPort(picked.second->port);
  return picked;
}

}  // namespace

class TestSwitchTablePanel : public QObject {
  Q_OBJECT

 private slots:
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
};

void TestSwitchTablePanel::switchPorts_data() {
  QTest::addColumn<QString>("scheme");
  for (const char* s : {"nvls_static", "dysharp", "explicit"}) QTest::newRow(s) << QString(s);
}

// The switch list is the switches with reduction activity; each port list is the ports
// that reduced anything.
void TestSwitchTablePanel::switchPorts() {
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

void TestSwitchTablePanel::switchEntriesPlot_data() {
  QTest::addColumn<double>("fraction");  // of the run
  for (double f : {0.0, 0.3, 0.85, 0.9, 0.95, 0.999}) QTest::addRow("%.3f of the run", f) << f;
}

// The step plot's value at a bin is BinSeries::at(bin) of the chosen port.
void TestSwitchTablePanel::switchEntriesPlot() {
  QFETCH(double, fraction);
  RunModel model;
  SwitchTablePanel panel(&model);
  const Results& r = *moe().at("dysharp").results;
  auto [sw, port] = showBusiestPort(model, panel);
  QCOMPARE(panel.currentPort()->port, port->port);
  const int bin = std::min(r.bins - 1, int(fraction * r.bins));
  auto it = panel.plot()->graph(0)->data()->findBegin(panel.binKey(bin), false);
  QVERIFY(it != panel.plot()->graph(0)->data()->constEnd());
  QCOMPARE(it->key, panel.binKey(bin));
  QCOMPARE(it->value, double(port->entries.at(bin)));
  // Eviction markers: one per bin with evictions.
  QCOMPARE(panel.plot()->graph(1)->dataCount(), int(port->evictions.bins.size()));
}

void TestSwitchTablePanel::switchTableRows_data() {
  QTest::addColumn<QString>("when");
  QTest::newRow("bin 0 (before any combine)") << "start";
  QTest::newRow("the first entry's middle") << "first";
  QTest::newRow("the busiest bin") << "busiest";
  QTest::newRow("the last bin") << "last";
}

// The rows are the port's entry-log records alive at the bin's middle, tokens decoded.
void TestSwitchTablePanel::switchTableRows() {
  QFETCH(QString, when);
  RunModel model;
  SwitchTablePanel panel(&model);
  const Results& r = *moe().at("dysharp").results;
  auto [sw, port] = showBusiestPort(model, panel);
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
void TestSwitchTablePanel::switchTableFollowsBin() {
  RunModel model;
  SwitchTablePanel panel(&model);
  const Results& r = *moe().at("dysharp").results;
  auto [sw, port] = showBusiestPort(model, panel);
  std::set<int> counts;
  for (int b = 0; b < r.bins; ++b) {
    model.setCurrentBin(b);
    const int n = aliveAt(*sw, port->port, SwitchTablePanel::timeOfBin(b, r.bin));
    QCOMPARE(panel.table()->rowCount(), n);
    counts.insert(n);
  }
  QVERIFY2(counts.size() >= 2, "the table never changed over the run");
}

void TestSwitchTablePanel::switchFollowsSelection() {
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
void TestSwitchTablePanel::switchPickIgnoresSnapshots() {
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

void TestSwitchTablePanel::switchNoticeAndRawTags() {
  RunModel model;
  SwitchTablePanel panel(&model);
  QVERIFY(panel.noticeVisible());
  load(model, moe().at("deepep"));  // no in-switch reduction
  QVERIFY(panel.noticeVisible());
  QVERIFY(!SwitchTablePanel::hasReductions(*moe().at("deepep").results));
  QVERIFY(SwitchTablePanel::hasReductions(*moe().at("dysharp").results));
  // Where else to look (the main window names the sweep points with reductions).
  const auto noticeText = [&] {
    QString all;
    for (const QLabel* l : panel.findChildren<QLabel*>())
      if (l->isVisibleTo(&panel)) all += l->text();
    return all;
  };
  QVERIFY(!noticeText().contains("dysharp + sequential"));
  panel.setElsewhereHint("Sweep points with in-switch reductions: dysharp + sequential");
  QVERIFY(noticeText().contains("dysharp + sequential"));
  panel.setElsewhereHint({});
  QVERIFY(!noticeText().contains("dysharp + sequential"));
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

QTEST_MAIN(TestSwitchTablePanel)
#include "test_switch_table_panel.moc"
