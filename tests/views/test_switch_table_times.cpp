// The in-switch table inspector over time: at the timeline's instant its rows show the
// contributions that had arrived by then and the entries' age then, not their final
// counts. Expected values come from the hand-worked arrival times of a three-GPU star
// (tests/common/star_reduction.h) and, for a dysharp MoE combine, from a linear count
// over each entry's logged arrival times.
#include <QLabel>
#include <QTableWidget>
#include <QtTest>

#include <memory>
#include <set>
#include <tuple>

#include "../common/recorded_runs.h"
#include "../common/star_reduction.h"
#include "scenario/scenario_io.h"
#include "sim/run.h"
#include "views/format_units.h"
#include "views/run_model.h"
#include "views/switch_table_panel.h"

using namespace fl;
using namespace fl::views;

namespace {

using Run = test::RecordedRun;

const Run& star() {  // two 256 B pieces per GPU: two entries per port
  static const Run r = [] {
    auto t = test::starTopology();
    return Run{t, std::make_shared<Results>(runOnTopology(test::starScenario(2), *t))};
  }();
  return r;
}

// 64 KiB packets: every entry's contributions arrive together.
const Run& coarseNvls() { return test::nvlsAllReduce16MiB(); }

const Run& dysharp() {
  static const Run r = [] {
    Scenario s = loadScenario(FABRICLAB_SCENARIOS "/nvl32-moe-schemes.yaml");
    s.sweep.clear();
    applyOverrides(s, {"workload.moe.tokens_per_gpu=64", "scheme.communication=dysharp", "scheme.fusion=sequential",
                       "run.bin=200 ns"});
    return test::record(s);
  }();
  return r;
}

void show(RunModel& model, SwitchTablePanel& panel, const Run& run, const SwitchResult& sw, int port, int bin) {
  model.setTopology(run.topology);
  model.setResults(run.results, true);
  panel.selectSwitch(QString::fromStdString(sw.id));
  panel.selectPort(port);
  model.setCurrentBin(bin);
}

// Rows as (token, piece, arrived, age) texts.
using Row = std::tuple<QString, QString, QString, QString>;
std::multiset<Row> rows(const QTableWidget* t) {
  std::multiset<Row> out;
  for (int r = 0; r < t->rowCount(); ++r)
    out.insert({t->item(r, SwitchTablePanel::Token)->text(), t->item(r, SwitchTablePanel::Piece)->text(),
                t->item(r, SwitchTablePanel::Arrived)->text(), t->item(r, SwitchTablePanel::Age)->text()});
  return out;
}

}  // namespace

class TestSwitchTableTimes : public QObject {
  Q_OBJECT
 private slots:
  void starRows_data();
  void starRows();
  void dysharpRows_data();
  void dysharpRows();
  void instantEntriesNamed();
};

void TestSwitchTableTimes::starRows_data() {
  QTest::addColumn<int>("port");
  QTest::addColumn<int>("bin");  // 100 ns bins: the table shows bin * 100 + 50 ns
  QTest::addColumn<int>("arrived");  // counted by hand from the header's arrival times
  // GPU 0's entries get contributions at 300, 700, 1500 ns; GPU 1's at 500, 900, 1700;
  // GPU 2's at 900, 1300, 2100.
  QTest::newRow("gpu0 at 350 ns") << 0 << 3 << 1;
  QTest::newRow("gpu0 at 1050 ns") << 0 << 10 << 2;
  QTest::newRow("gpu0 at 1550 ns (done)") << 0 << 15 << 0;
  QTest::newRow("gpu1 at 350 ns (not yet)") << 1 << 3 << 0;
  QTest::newRow("gpu1 at 1050 ns") << 1 << 10 << 2;
  QTest::newRow("gpu1 at 1550 ns") << 1 << 15 << 2;
  QTest::newRow("gpu2 at 1050 ns") << 2 << 10 << 1;
  QTest::newRow("gpu2 at 1550 ns") << 2 << 15 << 2;
}

// `arrived` 0 means no rows: the entries are not alive then.
void TestSwitchTableTimes::starRows() {
  QFETCH(int, port);
  QFETCH(int, bin);
  QFETCH(int, arrived);
  RunModel model;
  SwitchTablePanel panel(&model);
  const Run& run = star();
  const SwitchResult& sw = run.results->switches.at(0);
  show(model, panel, run, sw, port, bin);
  const Time t = bin * 100 * kNanosecond + 50 * kNanosecond;
  QCOMPARE(panel.tableTime(), t);
  QCOMPARE(panel.currentPort()->port, port);
  QCOMPARE(panel.table()->rowCount(), arrived > 0 ? 2 : 0);  // both pieces, or none
  std::multiset<Row> expected;
  for (const auto& e : sw.entry_log)
    if (e.port == port && e.start <= t && t < e.end)
      expected.insert({QStringLiteral("0x%1").arg(e.tag, 0, 16), QString::number(e.piece), QString::number(arrived),
                       formatTime(t - e.start)});
  QCOMPARE(rows(panel.table()), expected);
}

void TestSwitchTableTimes::dysharpRows_data() {
  QTest::addColumn<int>("which");  // 0: the bin where the port's longest entry starts, 1: where it ends
  QTest::newRow("first bin of the longest entry") << 0;
  QTest::newRow("last bin of the longest entry") << 1;
}

// On a real dysharp combine, rows at two instants of one entry's life: the arrived
// column is a linear count of the logged times up to the instant (so it grows).
void TestSwitchTableTimes::dysharpRows() {
  QFETCH(int, which);
  const Run& run = dysharp();
  const Results& r = *run.results;
  const SwitchResult* sw = nullptr;
  const ReductionEntryRecord* longest = nullptr;
  for (const auto& s : r.switches)
    for (const auto& e : s.entry_log)
      if (!longest || e.end - e.start > longest->end - longest->start) {
        longest = &e;
        sw = &s;
      }
  QVERIFY(longest && longest->end - longest->start > 2 * r.bin);  // spans several bins
  const int bin = int((which == 0 ? longest->start + r.bin / 2 : longest->end - r.bin / 2) / r.bin);
  RunModel model;
  SwitchTablePanel panel(&model);
  show(model, panel, run, *sw, longest->port, bin);
  const Time t = panel.tableTime();
  QVERIFY(longest->start <= t && t < longest->end);
  std::multiset<Row> expected;
  for (const auto& e : sw->entry_log) {
    if (e.port != longest->port || e.start > t || t >= e.end) continue;
    int n = 0;
    for (int k = 0; k < e.arrived; ++k) n += arrivalTime(*sw, e, k) <= t;
    expected.insert({QString::number(e.tag & 0xffffffffu), QString::number(e.piece), QString::number(n),
                     formatTime(t - e.start)});
  }
  QVERIFY(!expected.empty());
  QCOMPARE(rows(panel.table()), expected);
  // The longest entry is partway at its first bin and (nearly) full at its last.
  int n = 0;
  for (int k = 0; k < longest->arrived; ++k) n += arrivalTime(*sw, *longest, k) <= t;
  if (which == 0 && !longest->evicted) QVERIFY(n < longest->arrived);
}

// Entries that live for no time never show as rows; the header counts those of the bin.
void TestSwitchTableTimes::instantEntriesNamed() {
  const Run& run = coarseNvls();
  const Results& r = *run.results;
  const SwitchResult& sw = r.switches.at(0);
  const ReductionEntryRecord& first = sw.entry_log.at(0);
  QCOMPARE(first.start, first.end);  // as dgx-h100-allreduce-ring-vs-nvls.yaml runs: no waiting
  const int bin = int(first.start / r.bin);
  RunModel model;
  SwitchTablePanel panel(&model);
  show(model, panel, run, sw, first.port, bin);
  int instant = 0;
  for (const auto& e : sw.entry_log)
    instant += e.port == first.port && e.start == e.end && e.start / r.bin == bin;
  QVERIFY(instant >= 1);
  QCOMPARE(panel.table()->rowCount(), 0);
  const QString header = panel.findChild<QLabel*>("tableHeader")->text();
  QVERIFY2(header.contains(QString("; %1 more lived only inside this bin, %1 of them for no time").arg(instant)),
           qPrintable(header));
}

QTEST_MAIN(TestSwitchTableTimes)
#include "test_switch_table_times.moc"
