// The CAIS views (offscreen) on small CAIS collectives run here: the merge-table
// inspector's grid against states and arrivals counted by hand from the merge log, the
// occupancy plot against the table's capacity (merge_table / packet payload) and the
// log's brute-force peak, the arrival-skew histogram against per-set skews worked out
// from the logged arrivals, and the per-direction utilisation against the links' bytes.
#include <QComboBox>
#include <QtTest>
#include <algorithm>
#include <bit>
#include <map>
#include <memory>
#include <qcustomplot.h>
#include <set>

#include "../core/cais_fixture.h"
#include "sim/run.h"
#include "topology/topology.h"
#include "views/arrival_skew_histogram.h"
#include "views/direction_utilisation_plot.h"
#include "views/merge_occupancy_plot.h"
#include "views/merge_table_grid.h"
#include "views/merge_table_inspector.h"
#include "views/run_model.h"

using namespace fl;
using namespace fl::views;

namespace {

// A CAIS (or NVLS) collective on 8 GPUs of the DGX-H100 fabric. Tiny tables (2 entries,
// 100 ns timeout) with a stagger make entries get evicted, time out and bypass.
Scenario collective(CollectiveOp op, CollectiveAlgorithm alg, std::int64_t tableBytes, Time timeout,
                    std::int64_t blocksPerGpu = 64) {
  Scenario s = caisDgx(8);
  s.workload.collective.op = op;
  s.workload.collective.algorithm = alg;
  s.workload.collective.size = blocksPerGpu * 8 * 128;
  s.workload.collective.stagger = 300 * kNanosecond;
  s.network.merge_table = tableBytes;
  s.network.merge_timeout = timeout;
  s.run.bin = 50 * kNanosecond;
  return s;
}

struct Run {
  Scenario scenario;
  std::shared_ptr<const topo::Topology> topology;
  std::shared_ptr<const Results> results;
};

Run run(const Scenario& s) {
  Run r{s, std::shared_ptr<const topo::Topology>(topo::buildTopology(s.topology)), nullptr};
  r.results = std::make_shared<const Results>(runScenario(s));
  return r;
}

const Run& tinyReduce() {
  static const Run r = run(collective(CollectiveOp::ReduceScatter, CollectiveAlgorithm::Cais, 256, 100 * kNanosecond));
  return r;
}
const Run& tinyGather() {
  static const Run r = run(collective(CollectiveOp::AllGather, CollectiveAlgorithm::Cais, 256, 100 * kNanosecond));
  return r;
}
const Run& unboundedGather() {
  // Longer, so that queues behind the stagger spread the skews over several bins.
  static const Run r = run(collective(CollectiveOp::AllGather, CollectiveAlgorithm::Cais, 0, 0, 1024));
  return r;
}
const Run& nvlsReduce() {
  static const Run r = run(collective(CollectiveOp::ReduceScatter, CollectiveAlgorithm::Nvls, 0, 0));
  return r;
}
const Run& pick(const QString& name) {
  if (name == "tiny reduce") return tinyReduce();
  if (name == "tiny gather") return tinyGather();
  return unboundedGather();
}

std::set<int> gpuNodes(const topo::Topology& t) { return {t.endpoints().begin(), t.endpoints().end()}; }

}  // namespace

class TestCaisViews : public QObject {
  Q_OBJECT
 private slots:
  void arrivalsLogged_data();
  void arrivalsLogged();
  void gridCountsStates_data();
  void gridCountsStates();
  void occupancyBelowCapacity_data();
  void occupancyBelowCapacity();
  void skewHistogramFromArrivals();
  void skewBarsPerScheme();
  void skewLegendFits_data();
  void skewLegendFits();
  void directionUtilisation();
  void inspectorFollowsCanvas();
};

void TestCaisViews::arrivalsLogged_data() {
  QTest::addColumn<QString>("run");
  for (const char* r : {"tiny reduce", "tiny gather", "unbounded gather"}) QTest::newRow(r) << QString(r);
}

// Every logged entry has one arrival per request it merged, from a GPU other than its
// home, inside its life; load sessions turn Load-Ready inside it; the bypasses logged per
// unit are the unit's bypass count.
void TestCaisViews::arrivalsLogged() {
  QFETCH(QString, run);
  const Run& r = pick(run);
  const auto gpus = gpuNodes(*r.topology);
  std::int64_t entries = 0, bypassesLogged = 0, bypasses = 0;
  for (const SwitchResult& s : r.results->switches) {
    QVERIFY(!s.merge_log_truncated);
    std::size_t arrivals = 0;
    for (const MergeEntryRecord& e : s.merge_log) {
      ++entries;
      QCOMPARE(std::size_t(e.arrivals), arrivals);  // contiguous, in log order
      arrivals += e.arrived;
      std::string home;
      for (const MergePortResult& p : s.merge_ports)
        if (p.port == e.port) home = p.peer;
      for (int k = 0; k < e.arrived; ++k) {
        const MergeArrival& a = s.merge_arrivals[e.arrivals + std::size_t(k)];
        QVERIFY(gpus.count(a.gpu));
        QVERIFY(r.topology->node(a.gpu).name != home);
        QVERIFY(Time(a.offset_ns) * kNanosecond <= e.end - e.start);
      }
      if (e.load && !e.waiting) QVERIFY(e.ready >= e.start && e.ready <= e.end);
      if (!e.load) QCOMPARE(e.ready, Time(-1));
    }
    QCOMPARE(s.merge_arrivals.size(), arrivals);
    bypassesLogged += std::int64_t(s.merge_bypasses.size());
    for (const MergePortResult& p : s.merge_ports) bypasses += p.bypasses;
  }
  QVERIFY(entries > 0);
  QCOMPARE(bypassesLogged, bypasses);
  if (run == "tiny gather") QVERIFY(bypasses > 0);  // Load-Wait victims: the newcomer bypasses
}

void TestCaisViews::gridCountsStates_data() {
  QTest::addColumn<QString>("run");
  QTest::addColumn<double>("at");  // the bin shown, as a fraction of the run
  for (const char* r : {"tiny reduce", "tiny gather", "unbounded gather"})
    for (double at : {0.1, 0.3, 0.5, 0.8})
      QTest::newRow(QByteArray(r) + " at " + QByteArray::number(at)) << QString(r) << at;
}

// At the end of the shown bin: live entries by state, entries ended in the bin by how,
// and each live entry's GPUs, counted from the merge log directly.
void TestCaisViews::gridCountsStates() {
  QFETCH(QString, run);
  QFETCH(double, at);
  const Run& r = pick(run);
  RunModel model;
  model.setTopology(r.topology);
  model.setResults(r.results, true);
  MergeTableInspector inspector(&model);
  inspector.resize(900, 400);
  QVERIFY(!inspector.noticeVisible());
  model.setCurrentBin(int(at * r.results->bins));
  const Time from = inspector.windowFrom(), to = inspector.windowTo();
  QCOMPARE(to - from, r.results->bin);
  int checkedPorts = 0;
  for (int si = 0; si < inspector.switchCombo()->count(); ++si) {
    inspector.switchCombo()->setCurrentIndex(si);
    for (int pi = 0; pi < inspector.portCombo()->count(); ++pi) {
      inspector.portCombo()->setCurrentIndex(pi);
      const SwitchResult& s = *inspector.currentSwitch();
      const int port = inspector.portCombo()->currentData().toInt();
      std::map<QString, int> live, ended;
      std::multiset<std::vector<int>> liveGpus;  // each live entry's arrived GPUs (endpoint order)
      for (const MergeEntryRecord& e : s.merge_log) {
        if (e.port != port) continue;
        if (e.start <= to && e.end > to) {
          const QString st = !e.load ? "Reduction" : (e.ready >= 0 && e.ready <= to ? "Load-Ready" : "Load-Wait");
          ++live[st];
          std::vector<int> g;
          for (int k = 0; k < e.arrived; ++k) {
            const MergeArrival& a = s.merge_arrivals[e.arrivals + std::size_t(k)];
            if (e.start + Time(a.offset_ns) * 1000 <= to)
              g.push_back(int(std::find(r.topology->endpoints().begin(), r.topology->endpoints().end(), a.gpu) -
                              r.topology->endpoints().begin()));
          }
          std::sort(g.begin(), g.end());
          liveGpus.insert(g);
        } else if (e.end > from && e.end <= to) {
          const char* names[] = {"completed", "evicted", "timed out", "evicted on fill"};
          ++ended[names[int(e.reason)]];
        }
      }
      const MergeWindow& w = inspector.grid()->window();
      for (int st = 1; st < kMergeCellStates; ++st) {
        const QString name = mergeCellStateName(MergeCellState(st));
        if (st <= int(MergeCellState::Reduction)) QCOMPARE(int(w.live[st]), live[name]);
        else QCOMPARE(int(w.ended[st]), ended[name]);
      }
      // Cells: every live entry in exactly one cell, with its GPUs' marks.
      std::multiset<std::vector<int>> cellGpus;
      int liveCells = 0;
      for (int c = 0; c < int(w.cells.size()); ++c)
        if (w.cells[std::size_t(c)].state >= MergeCellState::LoadWait &&
            w.cells[std::size_t(c)].state <= MergeCellState::Reduction) {
          ++liveCells;
          auto g = inspector.grid()->arrivedGpus(c);
          std::sort(g.begin(), g.end());
          cellGpus.insert(g);
        }
      QCOMPARE(liveCells, live["Load-Wait"] + live["Load-Ready"] + live["Reduction"]);
      QVERIFY(cellGpus == liveGpus);
      const MergePortResult* p = inspector.currentPort();
      if (p->capacity > 0) QCOMPARE(qint64(w.cells.size()), p->capacity);  // the log never needs more
      ++checkedPorts;
    }
  }
  QVERIFY(checkedPorts >= 8);
  QVERIFY(inspector.windowLabel()->text().contains("Load-Wait"));
}

void TestCaisViews::occupancyBelowCapacity_data() {
  QTest::addColumn<QString>("run");
  QTest::addColumn<qint64>("capacity");  // merge_table / packet_payload
  QTest::newRow("tiny reduce") << "tiny reduce" << qint64(256 / 128);
  QTest::newRow("tiny gather") << "tiny gather" << qint64(256 / 128);
  QTest::newRow("unbounded gather") << "unbounded gather" << qint64(0);
}

// The plotted entries never exceed the table's capacity, drawn as a line at
// merge_table / payload; the highest step is the log's most entries alive at once.
void TestCaisViews::occupancyBelowCapacity() {
  QFETCH(QString, run);
  QFETCH(qint64, capacity);
  const Run& r = pick(run);
  int ports = 0;
  for (const SwitchResult& s : r.results->switches)
    for (const MergePortResult& p : s.merge_ports) {
      MergeOccupancyPlot plot;
      plot.setPort(&p, r.results->bins, r.results->bin);
      QCOMPARE(p.capacity, capacity);
      QCOMPARE(plot.capacityLine()->visible(), capacity > 0);
      if (capacity > 0) QCOMPARE(plot.capacityLine()->point1->coords().y(), double(capacity));
      std::vector<std::pair<Time, int>> edges;  // brute force: +1 at a start, -1 at an end
      for (const MergeEntryRecord& e : s.merge_log)
        if (e.port == p.port) {
          edges.push_back({e.start, +1});
          edges.push_back({e.end, -1});
        }
      std::sort(edges.begin(), edges.end());
      int now = 0, peak = 0;
      for (const auto& [t, d] : edges) peak = std::max(peak, now += d);
      double top = 0;
      const auto data = plot.plot()->graph(0)->data();
      QCOMPARE(data->size(), r.results->bins + 1);
      for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
        if (capacity > 0) QVERIFY(it->value <= double(capacity));
        top = std::max(top, it->value);
      }
      QCOMPARE(top, double(peak));
      ++ports;
    }
  QVERIFY(ports >= 8);
}

// Unbounded table, no timeout: every request set meets in one entry, so its skew is the
// entry's last arrival offset; binned by hand (bin 0: under 1 ns, bin k: [2^(k-1), 2^k) ns).
void TestCaisViews::skewHistogramFromArrivals() {
  const Run& r = unboundedGather();
  std::vector<std::int64_t> expected(kSkewHistogramBins, 0), recorded(kSkewHistogramBins, 0);
  std::int64_t sets = 0;
  for (const SwitchResult& s : r.results->switches) {
    QVERIFY(!s.merge_log_truncated);
    for (const MergeEntryRecord& e : s.merge_log) {
      QCOMPARE(e.reason, MergeEndReason::Completed);
      QCOMPARE(e.arrived, e.expected);
      std::uint32_t last = 0;
      for (int k = 0; k < e.arrived; ++k) last = std::max(last, s.merge_arrivals[e.arrivals + std::size_t(k)].offset_ns);
      ++expected[std::size_t(std::min<int>(std::bit_width(last), kSkewHistogramBins - 1))];
      ++sets;
    }
    for (const MergePortResult& p : s.merge_ports)
      for (int k = 0; k < kSkewHistogramBins; ++k) recorded[std::size_t(k)] += p.skew_histogram[std::size_t(k)];
  }
  QVERIFY(sets > 0);
  for (int k = 0; k < kSkewHistogramBins; ++k)
    if (expected[std::size_t(k)] || recorded[std::size_t(k)])
      qInfo("bin %d: %lld by hand, %lld recorded", k, (long long)expected[std::size_t(k)], (long long)recorded[std::size_t(k)]);
  QVERIFY(recorded == expected);
  QVERIFY(std::count_if(expected.begin(), expected.end(), [](auto c) { return c > 0; }) >= 2);  // a spread, not one bar
}

// One bar series per point with merge units, as each bin's share of that point's sets;
// the NVLS point is named in the note instead.
void TestCaisViews::skewBarsPerScheme() {
  ArrivalSkewHistogram view;
  view.resize(800, 400);
  view.setPoints({{"nvls", nvlsReduce().results}, {"tiny", tinyGather().results}, {"unbounded", unboundedGather().results}});
  QCOMPARE(view.plotted(), QStringList({"tiny", "unbounded"}));
  QCOMPARE(view.plot()->plottableCount(), 2);
  QVERIFY(view.note()->text().contains("nvls"));
  for (int i = 0; i < 2; ++i) {
    const Results& res = *(i == 0 ? tinyGather() : unboundedGather()).results;
    std::vector<double> h(kSkewHistogramBins, 0);
    double total = 0;
    for (const SwitchResult& s : res.switches)
      for (const MergePortResult& p : s.merge_ports)
        for (int k = 0; k < kSkewHistogramBins; ++k) {
          h[std::size_t(k)] += double(p.skew_histogram[std::size_t(k)]);
          total += double(p.skew_histogram[std::size_t(k)]);
        }
    auto* bars = qobject_cast<QCPBars*>(view.plot()->plottable(i));
    QVERIFY(bars);
    double sum = 0;
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
      QCOMPARE(it->value, 100.0 * h[std::size_t(std::lround(it->key))] / total);
      sum += it->value;
    }
    QVERIFY(std::abs(sum - 100.0) < 1e-9);
  }
}

// Every key entry under the skew bars shown whole: its box inside the plot and as wide
// as its icon and its name set in the legend's font (long names used to be cut at the
// plot's edge in two columns: "CAIS-Base: mean 19.7 µs, 5").
void TestCaisViews::skewLegendFits_data() {
  QTest::addColumn<int>("width");
  for (int w : {260, 385, 800, 1400}) QTest::addRow("%d px", w) << w;
}

void TestCaisViews::skewLegendFits() {
  QFETCH(int, width);
  ArrivalSkewHistogram view;
  view.resize(width, 320);
  view.setPoints({{"CAIS-Partial", tinyGather().results}, {"CAIS-Coord", unboundedGather().results},
                  {"CAIS-Base", tinyReduce().results}});
  view.show();
  QVERIFY(QTest::qWaitForWindowExposed(&view));
  QCoreApplication::processEvents();
  QCustomPlot* plot = view.plot();
  plot->replot(QCustomPlot::rpImmediateRefresh);
  const QFontMetrics fm(plot->legend->font());
  int entries = 0;
  for (int i = 0; i < plot->legend->itemCount(); ++i) {  // cells, empty ones too
    auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i));
    if (!item) continue;
    ++entries;
    const QRect r = item->outerRect();
    const int need = plot->legend->iconSize().width() + plot->legend->iconTextPadding() +
                     fm.horizontalAdvance(item->plottable()->name());
    const QString what = QString("\"%1\" at %2..%3 in %4 px").arg(item->plottable()->name()).arg(r.left()).arg(r.right()).arg(plot->width());
    QVERIFY2(r.left() >= 0 && r.right() < plot->width(), qPrintable(what));
    QVERIFY2(r.width() >= need, qPrintable(what + QString(", needs %1 px").arg(need)));
  }
  QCOMPARE(entries, 3);
}

// Each point's up and down curves: the bin's wire bytes over all GPU uplinks (downlinks)
// over their capacity times the bin, summed here from the links.
void TestCaisViews::directionUtilisation() {
  DirectionUtilisationPlot view;
  view.resize(800, 400);
  view.setPoints({{"nvls", nvlsReduce().results}, {"cais", tinyReduce().results}});
  QCOMPARE(view.firstCombo()->currentText(), QString("nvls"));
  QCOMPARE(view.secondCombo()->currentText(), QString("cais"));
  for (int c = 0; c < 2; ++c) {
    const Results& res = *(c == 0 ? nvlsReduce() : tinyReduce()).results;
    for (int d = 0; d < 2; ++d) {
      std::vector<double> bytes(std::size_t(res.bins), 0);
      double capacity = 0;
      for (const LinkDirectionResult& l : res.links)
        if (d == 0 ? l.uplink : l.downlink) {
          capacity += l.capacity_Bps;
          for (int b = 0; b < res.bins; ++b) bytes[std::size_t(b)] += double(l.bin_bytes.at(b));
        }
      const auto data = view.plot()->graph(2 * c + d)->data();
      QCOMPARE(data->size(), res.bins + 1);
      int b = 0;
      double busiest = 0;
      for (auto it = data->constBegin(); b < res.bins; ++it, ++b) {
        const double expected = 100.0 * bytes[std::size_t(b)] / (capacity * double(res.bin) * 1e-12);
        QVERIFY(std::abs(it->value - expected) < 1e-9 * std::max(1.0, expected));
        QVERIFY(it->value <= 100.0 + 1e-9);
        busiest = std::max(busiest, it->value);
      }
      QVERIFY(busiest > 1);  // the curve shows traffic
    }
  }
}

// Clicking a GPU on the canvas shows the current switch's merge unit towards it;
// clicking a switch shows that switch.
void TestCaisViews::inspectorFollowsCanvas() {
  const Run& r = tinyGather();
  RunModel model;
  model.setTopology(r.topology);
  model.setResults(r.results, true);
  MergeTableInspector inspector(&model);
  const SwitchResult& last = r.results->switches.back();
  model.select(SelectionKind::Node, last.node);
  QCOMPARE(inspector.currentSwitch()->id, last.id);
  const int gpu3 = r.topology->endpoints()[3];
  model.select(SelectionKind::Node, gpu3);
  QCOMPARE(QString::fromStdString(inspector.currentPort()->peer), QString::fromStdString(r.topology->node(gpu3).name));
}

QTEST_MAIN(TestCaisViews)
#include "test_cais_views.moc"
