// The discrete-event kernel: event order against a brute-force sort, partitioned runs,
// cooperative cancellation, progress and the pacing of live snapshots.
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <random>
#include <set>

#include "engine/event_queue.h"
#include "engine/huge_pages.h"
#include "engine/peak_tracker.h"
#include "engine/simulator.h"
#include "sim/partitioner.h"
#include "topology/topology.h"
#include "scenario/scenario.h"
#include "sim/run.h"
#include "sim/snapshot_pacer.h"

using namespace fl;

namespace {

// A ring of components passing a token with a fixed delay; each hop is one event.
class Relay : public Component {
 public:
  Relay(Time delay, std::vector<std::pair<Time, ComponentId>>* log) : delay_(delay), log_(log) {}
  ComponentId next = 0;
  std::int64_t hopsLeft = 0;
  void handle(const Event& e) override {
    if (log_) log_->push_back({now(), id()});
    if (e.arg == 0) return;
    schedule(now() + delay_, next, 1, 0, e.arg - 1);
  }

 private:
  Time delay_;
  std::vector<std::pair<Time, ComponentId>>* log_;
};

// Passes a token around a ring like Relay; each visit changes a shared count by a few
// steps (up, then partly down), through a PeakTracker or, for the brute force, a plain
// counter sampled by hand at every multiple of `interval` in the order events are
// handled (one partition: the run's total order).
class Breather : public Component {
 public:
  struct Plain {
    std::int64_t count = 0, peak = 0;
    Time nextAt = 0, interval = 1;
  };
  Breather(PeakTracker* tracker, Plain* plain) : tracker_(tracker), plain_(plain) {}
  ComponentId next = 0;
  void handle(const Event& e) override {
    const std::uint64_t h = (e.arg * 2654435761u + id() * 40503u) % 7;
    const int steps[3] = {static_cast<int>(h % 3) + 1, -static_cast<int>(h % 2) - 1, static_cast<int>(h) - 3};
    if (plain_) {
      for (; plain_->nextAt <= now(); plain_->nextAt += plain_->interval)
        plain_->peak = std::max(plain_->peak, plain_->count);
    }
    for (const int d : steps) {
      if (tracker_) tracker_->change(partition(), d);
      if (plain_) plain_->count += d;
    }
    if (e.arg > 0) schedule(now() + 10 + static_cast<Time>(h), next, 1, 0, e.arg - 1);
  }

 private:
  PeakTracker* tracker_;
  Plain* plain_;
};

}  // namespace

class TestEngine : public QObject {
  Q_OBJECT
 private slots:
  void queueOrderMatchesSort_data();
  void queueOrderMatchesSort();
  void partitionedRunVisitsTheSameEvents_data();
  void partitionedRunVisitsTheSameEvents();
  void peakInTheRunsOrder_data();
  void peakInTheRunsOrder();
  void partitioningSpreadsSwitches();
  void partitioningCutsMeshRows();
  void automaticPartitionCount_data();
  void automaticPartitionCount();
  void cancellationStopsARun();
  void progressRisesToOne();
  void snapshotPacing_data();
  void snapshotPacing();
  void hugePageTunables_data();
  void hugePageTunables();
};

void TestEngine::queueOrderMatchesSort_data() {
  QTest::addColumn<qint64>("horizon");
  QTest::addColumn<qint64>("spread");
  QTest::addColumn<int>("burst");    // pushes and pops per round, at most
  QTest::addColumn<qint64>("lead");  // events land at least this far ahead
  QTest::newRow("fine buckets, near events") << qint64(1000) << qint64(500) << 4 << qint64(0);
  QTest::newRow("fine buckets, far events (overflow heap)") << qint64(1000) << qint64(10'000'000) << 4 << qint64(0);
  QTest::newRow("coarse buckets, many ties") << qint64(1'000'000'000) << qint64(50) << 4 << qint64(0);
  QTest::newRow("mixed") << qint64(262'000) << qint64(1'000'000) << 4 << qint64(0);
  // Bursts into later buckets fill them past insertion sort's reach: counting sorts by
  // source, then by time in one or two 8-bit digits, or none for one instant; spans
  // beyond two digits take the comparison sort.
  QTest::newRow("bursts in 1 ns buckets (two time digits)") << qint64(262'000) << qint64(1000) << 64 << qint64(50'000);
  QTest::newRow("bursts within 200 ps (one time digit)") << qint64(262'000) << qint64(200) << 64 << qint64(50'000);
  QTest::newRow("bursts at one instant") << qint64(262'000) << qint64(1) << 64 << qint64(50'000);
  QTest::newRow("bursts in wide buckets (comparison sort)")
      << qint64(1'000'000'000) << qint64(300'000) << 64 << qint64(50'000'000);
}

void TestEngine::queueOrderMatchesSort() {
  QFETCH(qint64, horizon);
  QFETCH(qint64, spread);
  QFETCH(int, burst);
  QFETCH(qint64, lead);
  EventQueue q;
  q.configure(horizon);
  // Reference: an ordered set driven by the same operations (brute force, obviously right).
  auto cmp = [](const Event& a, const Event& b) { return before(a, b); };
  std::set<Event, decltype(cmp)> reference(cmp);
  std::mt19937_64 rng(7);
  Time now = 0;
  std::uint64_t seq = 0;
  std::size_t popped = 0;
  // Interleave pushes (never in the past) and pops, as a simulation does.
  for (int round = 0; round < 20000; ++round) {
    const int pushes = static_cast<int>(rng() % static_cast<std::uint64_t>(burst));
    for (int i = 0; i < pushes; ++i) {
      const Time t = now + lead + static_cast<Time>(rng() % static_cast<std::uint64_t>(spread));
      const Event e(t, eventOrder(static_cast<ComponentId>(rng() % 50), seq++), 0, 0, 0, 0);
      q.push(e);
      reference.insert(e);
    }
    // Pops: two rounds in three, about as many as the pushes on average.
    const int pops = rng() % 3 != 0 ? 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(burst)) * 3 / 4 : 0;
    for (int i = 0; i < pops && !q.empty(); ++i) {
      QCOMPARE(q.nextTime(), reference.begin()->time);
      const Event e = q.pop();
      const Event want = *reference.begin();
      reference.erase(reference.begin());
      QCOMPARE(e.time, want.time);
      QCOMPARE(e.order, want.order);
      now = e.time;
      ++popped;
    }
  }
  while (!q.empty()) {
    const Event e = q.pop();
    QCOMPARE(e.order, reference.begin()->order);
    reference.erase(reference.begin());
    ++popped;
  }
  QVERIFY(reference.empty());
  QCOMPARE(popped, std::size_t(seq));
}

void TestEngine::partitionedRunVisitsTheSameEvents_data() {
  QTest::addColumn<int>("partitions");
  QTest::addColumn<int>("threads");
  QTest::newRow("2 partitions, 1 thread") << 2 << 1;
  QTest::newRow("4 partitions, 2 threads") << 4 << 2;
  QTest::newRow("8 partitions, 2 threads") << 8 << 2;
}

void TestEngine::partitionedRunVisitsTheSameEvents() {
  QFETCH(int, partitions);
  QFETCH(int, threads);
  const int n = 16;
  const Time delay = 100;
  auto runWith = [&](int parts, int thr) {
    std::vector<std::vector<std::pair<Time, ComponentId>>> logs(static_cast<std::size_t>(n));
    std::vector<std::unique_ptr<Relay>> relays;
    Simulator sim(parts);
    sim.setLookahead(delay);
    for (int i = 0; i < n; ++i) {
      relays.push_back(std::make_unique<Relay>(delay, &logs[static_cast<std::size_t>(i)]));
      sim.add(*relays.back(), i * parts / n);
    }
    for (int i = 0; i < n; ++i) relays[static_cast<std::size_t>(i)]->next = static_cast<ComponentId>((i + 1) % n);
    for (int i = 0; i < n; i += 3) sim.scheduleInitial(i, static_cast<ComponentId>(i), 1, 0, 500);
    const EngineStats st = sim.run(kTimeNever, thr, nullptr, {});
    return std::make_pair(st.events, logs);
  };
  const auto single = runWith(1, 1);
  const auto split = runWith(partitions, threads);
  // Tokens: 6 starts, 501 visits each (closed form: 500 hops + the first delivery).
  QCOMPARE(single.first, qint64(6 * 501));
  QCOMPARE(split.first, single.first);
  QVERIFY(split.second == single.second);
}

void TestEngine::peakInTheRunsOrder_data() {
  QTest::addColumn<int>("partitions");
  QTest::addColumn<int>("threads");
  QTest::newRow("1 partition, tracked") << 1 << 1;
  QTest::newRow("3 partitions, 1 thread") << 3 << 1;
  QTest::newRow("8 partitions, 2 threads") << 8 << 2;
}

// The tracker's peak of a count spread over partitions equals the peak of a plain
// counter sampled at the same instants in a one-partition run (or its final value).
void TestEngine::peakInTheRunsOrder() {
  QFETCH(int, partitions);
  QFETCH(int, threads);
  const int n = 24;
  const Time interval = 7;
  auto runWith = [&](int parts, int thr, bool tracked) {
    Breather::Plain plain;
    plain.interval = interval;
    std::vector<std::unique_ptr<Breather>> nodes;
    Simulator sim(parts);
    sim.setLookahead(10);
    PeakTracker tracker(sim, interval);
    for (int i = 0; i < n; ++i) {
      nodes.push_back(std::make_unique<Breather>(tracked ? &tracker : nullptr, tracked ? nullptr : &plain));
      sim.add(*nodes.back(), i * parts / n);
    }
    for (int i = 0; i < n; ++i) nodes[static_cast<std::size_t>(i)]->next = static_cast<ComponentId>((i * 7 + 3) % n);
    for (int i = 0; i < n; i += 2) sim.scheduleInitial(i % 5, static_cast<ComponentId>(i), 1, 0, 300);
    sim.run(kTimeNever, thr, nullptr, {});
    return tracked ? std::make_pair(tracker.peak(), tracker.count())
                   : std::make_pair(std::max(plain.peak, plain.count), plain.count);
  };
  const auto brute = runWith(1, 1, false);
  const auto tracked = runWith(partitions, threads, true);
  QVERIFY(brute.first > brute.second);  // the peak is not the final count
  QCOMPARE(tracked.first, brute.first);
  QCOMPARE(tracked.second, brute.second);
}

// GH200 NVL32 (32 GPUs, 18 links each, one or two to each of 9 switches) in 16
// partitions: weights (ports + 1) 65 per switch, 19 per GPU, dealt heaviest first to the
// lightest partition: switches to partitions 0-8, then 4 GPUs to each of the 7 others
// (76), then the last 4 GPUs beside switches.
void TestEngine::partitioningSpreadsSwitches() {
  TopologySpec spec;
  spec.kind = TopologyKind::NvSwitch;
  spec.gpus = 32;
  spec.switches = 9;
  spec.links_per_gpu = 18;
  const auto t = topo::buildTopology(spec);
  const Partitioning p = partitionTopology(*t, 16);
  QCOMPARE(p.parts, 16);
  QCOMPARE(p.lookahead, spec.link_latency);
  std::vector<int> switches(16, 0), gpus(16, 0);
  for (const topo::Node& node : t->nodes())
    ++(topo::isEndpoint(node.kind) ? gpus : switches)[static_cast<std::size_t>(p.partitionOf[static_cast<std::size_t>(node.id)])];
  QCOMPARE(*std::max_element(switches.begin(), switches.end()), 1);
  QCOMPARE(std::count(gpus.begin(), gpus.end(), 4), std::ptrdiff_t(7));
  QCOMPARE(std::count(gpus.begin(), gpus.end(), 1), std::ptrdiff_t(4));
}

// An 8 x 8 mesh (die and router joined by a zero-latency link) in 16 partitions:
// contiguous halves of rows, 4 dies each; cut: every vertical link (7 x 8) and the middle
// link of each row (8).
void TestEngine::partitioningCutsMeshRows() {
  TopologySpec spec;
  spec.kind = TopologyKind::Mesh;
  spec.rows = spec.cols = 8;
  const auto t = topo::buildTopology(spec);
  const Partitioning p = partitionTopology(*t, 16);
  QCOMPARE(p.parts, 16);
  int cut = 0;
  for (const topo::Link& l : t->links())
    cut += p.partitionOf[static_cast<std::size_t>(l.a)] != p.partitionOf[static_cast<std::size_t>(l.b)] ? 1 : 0;
  QCOMPARE(cut, 7 * 8 + 8);
  std::vector<int> size(16, 0);
  for (const int q : p.partitionOf) ++size[static_cast<std::size_t>(q)];
  QCOMPARE(std::count(size.begin(), size.end(), 8), std::ptrdiff_t(16));
}

void TestEngine::automaticPartitionCount_data() {
  QTest::addColumn<int>("kind");  // 0 mesh, 1 nvswitch
  QTest::addColumn<int>("a");     // rows, or GPUs
  QTest::addColumn<int>("b");     // columns, or switches
  QTest::addColumn<int>("expected");
  QTest::newRow("8x8 mesh: 64 atoms, 16 (the most)") << 0 << 8 << 8 << 16;
  QTest::newRow("4x4 mesh: 16 atoms, 8") << 0 << 4 << 4 << 8;
  QTest::newRow("2x1 mesh: 2 atoms, 1") << 0 << 2 << 1 << 1;
  QTest::newRow("DGX: 8 GPUs + 4 switches, 6") << 1 << 8 << 4 << 6;
  QTest::newRow("NVL32: 41 nodes, 16") << 1 << 32 << 9 << 16;
}

void TestEngine::automaticPartitionCount() {
  QFETCH(int, kind);
  QFETCH(int, a);
  QFETCH(int, b);
  QFETCH(int, expected);
  TopologySpec spec;
  spec.kind = kind == 0 ? TopologyKind::Mesh : TopologyKind::NvSwitch;
  if (kind == 0) {
    spec.rows = a;
    spec.cols = b;
  } else {
    spec.gpus = a;
    spec.switches = b;
    spec.links_per_gpu = 2 * b;
  }
  QCOMPARE(automaticPartitions(*topo::buildTopology(spec)), expected);
}

void TestEngine::cancellationStopsARun() {
  Scenario s;
  s.topology.kind = TopologyKind::Mesh;
  s.workload.kind = WorkloadKind::Traffic;
  s.workload.traffic.load = 0.5;
  s.workload.traffic.duration = 200 * kMicrosecond;
  std::atomic<bool> cancel{false};
  RunControl control;
  control.cancel = &cancel;
  int calls = 0;
  control.progress = [&](double) {
    if (++calls == 1) cancel = true;  // stop at the first progress report
  };
  const Results r = runScenario(s, control);
  QVERIFY(r.cancelled);
  QVERIFY(r.sim_time < s.workload.traffic.duration);
}

void TestEngine::progressRisesToOne() {
  Scenario s;
  s.workload.collective.size = 256ll << 20;
  s.network.packet_payload = 4096;
  s.network.vc_depth_flits = 1024;
  std::vector<double> seen;
  RunControl control;
  control.progress = [&](double f) { seen.push_back(f); };
  const Results r = runScenario(s);
  (void)r;
  runScenario(s, control);
  QVERIFY(!seen.empty());
  QCOMPARE(seen.back(), 1.0);
  for (std::size_t i = 1; i < seen.size(); ++i) QVERIFY(seen[i] >= seen[i - 1]);
}

// Snapshots keep their nominal rate while cheap; a costly one delays the next so that
// snapshots take at most the budget's share of the wall time (cost / interval).
void TestEngine::snapshotPacing_data() {
  QTest::addColumn<double>("hz");
  QTest::addColumn<double>("budget");
  QTest::addColumn<int>("costMs");
  QTest::addColumn<int>("intervalMs");  // start to start, by hand
  QTest::newRow("cheap: nominal 20 Hz") << 20.0 << 0.1 << 1 << 50;
  QTest::newRow("at the budget's edge") << 20.0 << 0.1 << 5 << 50;
  QTest::newRow("20 ms at 10 %: 5 Hz") << 30.0 << 0.1 << 20 << 200;
  QTest::newRow("20 ms at 25 %") << 30.0 << 0.25 << 20 << 80;
  QTest::newRow("whole budget: back to back") << 20.0 << 1.0 << 300 << 300;
  QTest::newRow("rate floor 0.1 Hz") << 0.0 << 0.1 << 100 << 10000;
}

void TestEngine::snapshotPacing() {
  QFETCH(double, hz);
  QFETCH(double, budget);
  QFETCH(int, costMs);
  QFETCH(int, intervalMs);
  using namespace std::chrono;
  const SnapshotPacer::Clock::time_point t0{};
  SnapshotPacer pacer(hz, budget, t0);
  const auto first = t0 + duration_cast<SnapshotPacer::Clock::duration>(duration<double>(1.0 / std::max(0.1, hz)));
  QVERIFY(!pacer.due(first - microseconds(1)));
  QVERIFY(pacer.due(first));
  pacer.taken(first, first + milliseconds(costMs));
  QVERIFY(!pacer.due(first + milliseconds(intervalMs) - microseconds(1)));
  QVERIFY(pacer.due(first + milliseconds(intervalMs)));
  QCOMPARE(SnapshotPacer::interval(costMs / 1e3, 1.0 / std::max(0.1, hz), budget), intervalMs / 1e3);
}

// When the programs restart themselves for transparent huge pages, and with what
// GLIBC_TUNABLES: only when the kernel gives them on request, never over a user's own
// hugetlb choice or FABRICLAB_HUGE_PAGES=0, keeping the user's other tunables.
void TestEngine::hugePageTunables_data() {
  QTest::addColumn<QString>("current");  // "-": unset
  QTest::addColumn<QString>("optOut");   // "-": unset
  QTest::addColumn<QString>("preload");  // "-": unset
  QTest::addColumn<QString>("kernelMode");
  QTest::addColumn<QString>("expected");  // "-": no restart
  const QString madvise = "always [madvise] never";
  QTest::newRow("unset, madvise") << "-" << "-" << "-" << madvise << "glibc.malloc.hugetlb=1";
  QTest::newRow("empty, madvise") << "" << "-" << "-" << madvise << "glibc.malloc.hugetlb=1";
  QTest::newRow("other tunables kept") << "glibc.malloc.tcache_count=0" << "-" << "-" << madvise
                                       << "glibc.malloc.tcache_count=0:glibc.malloc.hugetlb=1";
  QTest::newRow("user chose hugetlb") << "glibc.malloc.hugetlb=0" << "-" << "-" << madvise << "-";
  QTest::newRow("opted out") << "-" << "0" << "-" << madvise << "-";
  QTest::newRow("opted out: off") << "-" << "off" << "-" << madvise << "-";
  QTest::newRow("opted out: FALSE") << "-" << "FALSE" << "-" << madvise << "-";
  QTest::newRow("opted out: no") << "-" << "no" << "-" << madvise << "-";
  QTest::newRow("opt-out other than 0") << "-" << "1" << "-" << madvise << "glibc.malloc.hugetlb=1";
  QTest::newRow("under valgrind") << "-" << "-" << "/usr/libexec/valgrind/vgpreload_core-amd64-linux.so" << madvise
                                  << "-";
  QTest::newRow("other preload") << "-" << "-" << "/usr/lib/libfoo.so" << madvise << "glibc.malloc.hugetlb=1";
  QTest::newRow("kernel: always") << "-" << "-" << "-" << "[always] madvise never" << "-";
  QTest::newRow("kernel: never") << "-" << "-" << "-" << "always madvise [never]" << "-";
  QTest::newRow("no sysfs file") << "-" << "-" << "-" << "" << "-";
}

void TestEngine::hugePageTunables() {
  QFETCH(QString, current);
  QFETCH(QString, optOut);
  QFETCH(QString, preload);
  QFETCH(QString, kernelMode);
  QFETCH(QString, expected);
  const std::string cur = current.toStdString(), opt = optOut.toStdString(), pre = preload.toStdString();
  const std::optional<std::string> got = fl::hugePageTunables(current == "-" ? nullptr : cur.c_str(),
                                                              optOut == "-" ? nullptr : opt.c_str(),
                                                              preload == "-" ? nullptr : pre.c_str(),
                                                              kernelMode.toStdString());
  QCOMPARE(got.has_value(), expected != "-");
  if (got) QCOMPARE(QString::fromStdString(*got), expected);
}

QTEST_GUILESS_MAIN(TestEngine)
#include "test_engine.moc"
