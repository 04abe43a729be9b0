// The switches' reduction-entry log: when each contribution arrived, so that an inspector
// can tell how many an entry held at any instant. Checked against the arrival times
// worked out by hand for a three-GPU star (tests/common/star_reduction.h), and for
// invariants on larger runs (with evictions, MoE combine, several threads).
#include <QtTest>

#include "../common/star_reduction.h"
#include "scenario/scenario_io.h"
#include "sim/run.h"

using namespace fl;

namespace {

const SwitchResult& onlySwitch(const Results& r) {
  for (const auto& s : r.switches)
    if (!s.entry_log.empty()) return s;
  qFatal("no switch logged a reduction entry");
}

std::vector<Time> timesOf(const SwitchResult& s, const ReductionEntryRecord& e) {
  std::vector<Time> out;
  for (int k = 0; k < e.arrived; ++k) out.push_back(arrivalTime(s, e, k));
  return out;
}

// The entries plot's series against the log: in a bin where no entry starts or ends it
// is the number of entries spanning the bin; in any bin it lies between the entries
// alive at the bin's middle and those that touch the bin at all.
void checkOccupancy(const Results& r, const SwitchResult& s) {
  for (const auto& p : s.reduction_ports) {
    const std::vector<std::int64_t> dense = p.entries.dense(r.bins);
    for (int b = 0; b < r.bins; ++b) {
      const Time from = Time(b) * r.bin, to = from + r.bin, mid = from + r.bin / 2;
      std::int64_t spanning = 0, alive = 0, touching = 0;
      bool quiet = true;
      for (const auto& e : s.entry_log) {
        if (e.port != p.port) continue;
        spanning += e.start < from && e.end >= to;
        alive += e.start <= mid && mid < e.end;
        touching += e.start < to && e.end >= from;
        quiet = quiet && !(e.start >= from && e.start < to) && !(e.end >= from && e.end < to);
      }
      const std::int64_t v = dense[size_t(b)];
      const QString where = QString("%1 port %2 bin %3: %4 (spanning %5, alive %6, touching %7)")
                                .arg(QString::fromStdString(s.id)).arg(p.port).arg(b).arg(v).arg(spanning).arg(alive).arg(touching);
      if (quiet) QVERIFY2(v == spanning, qPrintable(where));
      QVERIFY2(alive <= v && v <= touching, qPrintable(where));
    }
  }
}

Scenario dgxNvls(std::int64_t bufferBytes) {
  Scenario s;
  s.topology.kind = TopologyKind::NvSwitch;
  s.topology.gpus = 8;
  s.topology.switches = 4;
  s.topology.links_per_gpu = 18;
  s.topology.switch_ports = 64;
  s.workload.collective.op = CollectiveOp::AllReduce;
  s.workload.collective.algorithm = CollectiveAlgorithm::Nvls;
  s.workload.collective.size = 2 << 20;
  s.network.packet_payload = 256;
  s.network.vc_depth_flits = 256;
  s.network.reduction_buffer = bufferBytes;
  return s;
}

}  // namespace

class TestReductionLog : public QObject {
  Q_OBJECT
 private slots:
  void starArrivals_data();
  void starArrivals();
  void starOccupancy();
  void invariants_data();
  void invariants();
  void identicalForAnyThreadCount();
  void coarseOffsets_data();
  void coarseOffsets();
};

void TestReductionLog::starArrivals_data() {
  QTest::addColumn<int>("port");
  QTest::addColumn<int>("pieces");
  QTest::addColumn<Time>("scale");
  for (int pieces : {1, 2})
    for (int port = 0; port < 3; ++port) QTest::addRow("gpu%d, %d piece(s)", port, pieces) << port << pieces << Time(1);
  // Latencies in milliseconds: every entry lives 8-12 ms, past 32-bit picosecond offsets.
  for (int port = 0; port < 3; ++port) QTest::addRow("gpu%d, ms latencies", port) << port << 2 << Time(10'000);
}

// Each entry's stored times are the hand-worked ones (to a few ns), and the count at
// any instant equals a brute-force count over those known arrivals.
void TestReductionLog::starArrivals() {
  QFETCH(int, port);
  QFETCH(int, pieces);
  QFETCH(Time, scale);
  const auto topology = test::starTopology(scale);
  const Results r = runOnTopology(test::starScenario(pieces), *topology);
  const SwitchResult& s = onlySwitch(r);
  QVERIFY(!s.entry_log_truncated);
  QCOMPARE(qsizetype(s.entry_log.size()), qsizetype(3 * pieces));
  const std::vector<Time> known = test::starArrivals(port, scale);
  const Time slack = 5 * kNanosecond;  // packet and header serialisation, far below 200 ns gaps
  int entries = 0;
  for (const auto& e : s.entry_log) {
    if (e.port != port) continue;
    ++entries;
    QCOMPARE(int(e.expected), 3);
    QCOMPARE(int(e.arrived), 3);
    QVERIFY(!e.evicted);
    const std::vector<Time> times = timesOf(s, e);
    for (int k = 0; k < 3; ++k)
      QVERIFY2(std::abs(times[size_t(k)] - known[size_t(k)]) < slack,
               qPrintable(QString("arrival %1 at %2 ps, expected about %3 ps").arg(k).arg(times[size_t(k)]).arg(known[size_t(k)])));
    if (scale == 1) {
      QCOMPARE(int(e.arrival_shift), 0);
      QCOMPARE(times.front(), e.start);  // the first contribution allocates the entry
      QCOMPARE(times.back(), e.end);     // the last completes it
    } else {  // stored in units of 2^shift ps, the smallest that fits 32 bits
      QVERIFY(e.arrival_shift > 0);
      QVERIFY(((e.end - e.start) >> e.arrival_shift) <= Time(UINT32_MAX));
      QVERIFY(((e.end - e.start) >> (e.arrival_shift - 1)) > Time(UINT32_MAX));
      QCOMPARE(times.front(), e.start);
      QVERIFY(e.end - times.back() < (Time(1) << e.arrival_shift));  // floored
    }
    // Probes well clear of the arrivals (20 ns either side, before, between and after).
    std::vector<Time> probes = {0, scale * 3000 * kNanosecond};
    for (Time a : known) probes.insert(probes.end(), {a - 20 * kNanosecond, a + 20 * kNanosecond});
    for (Time t : probes)
      QVERIFY2(contributionsAt(s, e, t) == test::countUpTo(known, t),
               qPrintable(QString("at %1 ns: %2, expected %3").arg(t / kNanosecond).arg(contributionsAt(s, e, t))
                              .arg(test::countUpTo(known, t))));
    // At the exact instants: an arrival at t counts.
    QCOMPARE(contributionsAt(s, e, e.start - 1), 0);
    QCOMPARE(contributionsAt(s, e, e.start), 1);
    QCOMPARE(contributionsAt(s, e, e.end), 3);
  }
  QCOMPARE(entries, pieces);
}

void TestReductionLog::starOccupancy() {
  const auto topology = test::starTopology();
  const Results r = runOnTopology(test::starScenario(2), *topology);
  checkOccupancy(r, onlySwitch(r));
  // By hand: port 0's two entries live from about 300 to 1500 ns: bins 3 to 15 hold 2.
  for (const auto& p : onlySwitch(r).reduction_ports)
    if (p.port == 0) {
      const auto dense = p.entries.dense(r.bins);
      QCOMPARE(dense[2], qint64(0));
      for (int b = 3; b <= 14; ++b) QCOMPARE(dense[size_t(b)], qint64(2));
      QCOMPARE(dense[16], qint64(0));
    }
}

void TestReductionLog::invariants_data() {
  QTest::addColumn<QString>("kind");
  QTest::newRow("nvls all-reduce, roomy buffers") << "roomy";
  QTest::newRow("nvls all-reduce, 512 B buffers (evictions)") << "tight";
  QTest::newRow("nvls all-reduce, 64 KiB packets (entries live no time)") << "coarse";
  QTest::newRow("moe dysharp combine") << "moe";
}

// For every logged entry: one time per contribution, in order, the first at allocation,
// none after the end, the last at the end when it completed; and the counts at the
// entry's ends. With one contribution per packet (NVLS), the log's contributions add
// up to the switch's count.
void TestReductionLog::invariants() {
  QFETCH(QString, kind);
  Results r;
  if (kind == "moe") {
    Scenario s = loadScenario(FABRICLAB_SCENARIOS "/nvl32-moe-schemes.yaml");
    s.sweep.clear();
    applyOverrides(s, {"workload.moe.tokens_per_gpu=64", "scheme.communication=dysharp", "scheme.fusion=sequential"});
    r = runScenario(s);
  } else if (kind == "coarse") {  // as scenarios/dgx-h100-allreduce-ring-vs-nvls.yaml
    Scenario s = dgxNvls(16 << 20);
    s.network.packet_payload = 64 * 1024;
    s.network.vc_depth_flits = 16384;
    s.workload.collective.size = 64 << 20;
    s.run.bin = kMicrosecond;
    r = runScenario(s);
  } else {
    r = runScenario(dgxNvls(kind == "tight" ? 512 : 64 * 1024));
  }
  std::int64_t logged = 0, evicted = 0;
  for (const auto& s : r.switches) {
    QVERIFY(!s.entry_log_truncated);
    std::int64_t arrived = 0;
    for (const auto& e : s.entry_log) {
      const std::vector<Time> times = timesOf(s, e);
      QVERIFY(e.arrivals + e.arrived <= s.entry_arrivals.size());
      QVERIFY(std::is_sorted(times.begin(), times.end()));
      QCOMPARE(times.front(), e.start);
      QVERIFY(times.back() <= e.end);
      if (!e.evicted) QCOMPARE(times.back(), e.end);
      QCOMPARE(contributionsAt(s, e, e.start - 1), 0);
      QCOMPARE(contributionsAt(s, e, e.end), int(e.arrived));
      arrived += e.arrived;
      evicted += e.evicted;
    }
    logged += std::int64_t(s.entry_log.size());
    if (kind != "moe") QCOMPARE(arrived, s.reduction_contributions);
    checkOccupancy(r, s);
  }
  QVERIFY(logged > 0);
  if (kind == "tight") QVERIFY(evicted > 0);
}

void TestReductionLog::identicalForAnyThreadCount() {
  Scenario s = dgxNvls(512);
  const Results one = runScenario(s);
  s.run.threads = 2;
  s.run.partitions = 3;
  const Results two = runScenario(s);
  QCOMPARE(one.switches.size(), two.switches.size());
  for (std::size_t i = 0; i < one.switches.size(); ++i) {
    const auto &a = one.switches[i], &b = two.switches[i];
    QVERIFY(a.entry_arrivals == b.entry_arrivals);
    QCOMPARE(a.entry_log.size(), b.entry_log.size());
    for (std::size_t k = 0; k < a.entry_log.size(); ++k) {
      QCOMPARE(a.entry_log[k].arrivals, b.entry_log[k].arrivals);
      QCOMPARE(a.entry_log[k].start, b.entry_log[k].start);
      QCOMPARE(a.entry_log[k].end, b.entry_log[k].end);
      QCOMPARE(a.entry_log[k].tag, b.entry_log[k].tag);
    }
  }
}

void TestReductionLog::coarseOffsets_data() {
  QTest::addColumn<qint64>("t");
  QTest::addColumn<int>("count");
  // An entry from 1000 ps living past 4.29 ms, its offsets kept in 4 ps units (shift 2):
  // 0, 5 (an arrival in [1020, 1023] ps) and 2e9 (8 ms in).
  QTest::newRow("before") << qint64(999) << 0;
  QTest::newRow("at the start") << qint64(1000) << 1;
  QTest::newRow("a unit before the second") << qint64(1019) << 1;
  QTest::newRow("the second's unit") << qint64(1020) << 2;
  QTest::newRow("end of that unit") << qint64(1023) << 2;
  QTest::newRow("just before the third") << qint64(1000 + 8000000000LL - 4) << 2;
  QTest::newRow("the third") << qint64(1000 + 8000000000LL) << 3;
  QTest::newRow("far later") << qint64(1LL << 40) << 3;
}

// The stored form by hand: offsets in 2^shift ps units, floored.
void TestReductionLog::coarseOffsets() {
  QFETCH(qint64, t);
  QFETCH(int, count);
  SwitchResult s;
  s.entry_arrivals = {7, 0, 5, 2000000000u};  // one foreign offset first
  ReductionEntryRecord e;
  e.start = 1000;
  e.end = 1000 + 8000000000LL;
  e.arrivals = 1;
  e.arrived = 3;
  e.expected = 3;
  e.arrival_shift = 2;
  QCOMPARE(contributionsAt(s, e, t), count);
  QCOMPARE(arrivalTime(s, e, 2), e.end);
}

QTEST_GUILESS_MAIN(TestReductionLog)
#include "test_reduction_log.moc"
