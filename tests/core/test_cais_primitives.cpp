// CAIS primitives (seed 002; specs/cais.md §2.2-2.6, §3) against closed forms: per-GPU
// link bytes of NVLS and CAIS collectives (C2, C2w), conservation under a tiny merging
// table, and the table size under a two-cohort stagger (Little's law, C8).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "cais_fixture.h"
#include "scenario/scenario.h"
#include "network/group_sync_table.h"
#include "network/network_config.h"
#include "sim/run.h"

using namespace fl;

namespace {

constexpr double kP = 128;        // payload per block (spec §1.1: 128 B packets)
constexpr double kH = 16;         // one header flit
constexpr double kW = kP + kH;    // 144 B write / response / red on the wire

Scenario dgx(int gpus, CollectiveAlgorithm alg, CollectiveOp op, std::int64_t size) {
  Scenario s = caisDgx(gpus);
  s.network.merge_timeout = 0;
  s.workload.collective.op = op;
  s.workload.collective.algorithm = alg;
  s.workload.collective.size = size;
  return s;
}

struct Bytes {
  std::int64_t up = 0, down = 0, upPayload = 0, downPayload = 0;
};
Bytes gpuBytes(const Results& r, const std::string& gpu) {
  Bytes b;
  for (const auto& l : r.links) {
    if (l.from == gpu) {
      b.up += l.bytes;
      b.upPayload += l.payload_bytes;
    }
    if (l.to == gpu) {
      b.down += l.bytes;
      b.downPayload += l.payload_bytes;
    }
  }
  return b;
}

}  // namespace

class TestCaisPrimitives : public QObject {
  Q_OBJECT
 private slots:
  void perGpuBytes_data();
  void perGpuBytes();
  void unmergedLoadsArePlainLoads();
  void tinyTableConserves_data();
  void tinyTableConserves();
  void twoCohortStaggerFollowsLittlesLaw_data();
  void twoCohortStaggerFollowsLittlesLaw();
  void groupSyncTableReleasesAndThrottles();
  void groupSyncThrottlesPerLane();
  void controlVcCarriesNothingElse();
};

// Per GPU and per 128 B block of the tensor A (K = A / 128 blocks), with N GPUs:
// up/down wire bytes and payload, written from the primitives' definitions (spec C2, C2w).
void TestCaisPrimitives::perGpuBytes_data() {
  QTest::addColumn<int>("gpus");
  QTest::addColumn<int>("alg");  // CollectiveAlgorithm
  QTest::addColumn<int>("op");   // CollectiveOp
  QTest::addColumn<bool>("merging");
  QTest::addColumn<double>("upWire");    // per block of A
  QTest::addColumn<double>("downWire");
  QTest::addColumn<double>("upPayload");
  QTest::addColumn<double>("downPayload");
  const auto nvls = int(CollectiveAlgorithm::Nvls), cais = int(CollectiveAlgorithm::Cais);
  const auto ar = int(CollectiveOp::AllReduce), rs = int(CollectiveOp::ReduceScatter), ag = int(CollectiveOp::AllGather);
  for (int n : {8, 4}) {
    const double N = n, f = (N - 1) / N;
    const QByteArray tag = QByteArray::number(n) + " GPUs, ";
    // NVLS all-reduce: ld_reduce requests for the own 1/N, every GPU's contribution to
    // every block, the own reduced 1/N multicast once; down: the switch's fan-out reads of
    // every block, the own reduced result, every block's multicast replica (C2w: 164/178, 184/196).
    QTest::newRow(tag + "NVLS all-reduce") << n << nvls << ar << true << kH / N + kW + kW / N << kH + kW / N + kW
                                           << kP * (1 + 1 / N) << kP * (1 + 1 / N);
    QTest::newRow(tag + "NVLS reduce-scatter") << n << nvls << rs << true << kH / N + kW << kH + kW / N << kP
                                               << kP / N;  // 146/34, 148/52
    QTest::newRow(tag + "NVLS all-gather") << n << nvls << ag << true << kW / N << kW << kP / N << kP;  // 18/144, 36/144
    // CAIS reduce-scatter: red.cais for the N-1 remote homes' blocks; merged, one write per
    // own block comes down (126/18, 108/36); unmerged, every operand does.
    QTest::newRow(tag + "CAIS reduce-scatter merged") << n << cais << rs << true << kW * f << kW / N << kP * f
                                                      << kP / N;
    QTest::newRow(tag + "CAIS reduce-scatter unmerged") << n << cais << rs << false << kW * f << kW * f << kP * f
                                                        << kP * f;
    // CAIS all-gather: ld.cais requests for the remote blocks and, merged, the own blocks'
    // data once (fetched by one switch read each); down the fetches and the remote data
    // (32/128, 48/112). Unmerged: one fetch and one answer per request.
    QTest::newRow(tag + "CAIS all-gather merged") << n << cais << ag << true << kW / N + kH * f << kH / N + kW * f
                                                  << kP / N << kP * f;
    QTest::newRow(tag + "CAIS all-gather unmerged") << n << cais << ag << false << (kH + kW) * f
                                                    << (kH + kW) * f << kP * f << kP * f;
  }
}

void TestCaisPrimitives::perGpuBytes() {
  QFETCH(int, gpus);
  QFETCH(int, alg);
  QFETCH(int, op);
  QFETCH(bool, merging);
  QFETCH(double, upWire);
  QFETCH(double, downWire);
  QFETCH(double, upPayload);
  QFETCH(double, downPayload);
  const std::int64_t blocks = 48LL * gpus;  // K: 48 blocks per GPU's chunk
  Scenario s = dgx(gpus, static_cast<CollectiveAlgorithm>(alg), static_cast<CollectiveOp>(op),
                   blocks * static_cast<std::int64_t>(kP));
  s.network.merging = merging;
  const Results r = runScenario(s);
  QCOMPARE(r.agents_unfinished, qint64(0));
  QCOMPARE(r.packets_in_flight, qint64(0));
  const double K = static_cast<double>(blocks);
  for (int g = 0; g < gpus; ++g) {
    const Bytes b = gpuBytes(r, "gpu" + std::to_string(g));
    QCOMPARE(double(b.up), upWire * K);
    QCOMPARE(double(b.down), downWire * K);
    QCOMPARE(double(b.upPayload), upPayload * K);
    QCOMPARE(double(b.downPayload), downPayload * K);
  }
  if (alg == int(CollectiveAlgorithm::Cais)) {
    QVERIFY(r.cais.has_value());
    // Every remote block was asked for (or pushed) once by each of its N-1 non-owners.
    QCOMPARE(r.cais->requests, blocks * (gpus - 1));
    // Merged: everything but each set's first request hits (sessions = K); unmerged: none.
    QCOMPARE(r.cais->hits, merging ? blocks * (gpus - 2) : 0);
    QCOMPARE(r.cais->bypasses, merging ? 0 : blocks * (gpus - 1));
    QCOMPARE(r.cais->merge_success_rate, merging ? 1.0 : 0.0);
  }
}

// With merging off, an ld.cais all-gather moves what plain remote loads would: per remote
// block a read request (header and address flits) and a read response (header, data),
// here under the default NVLink framing (address flit on).
void TestCaisPrimitives::unmergedLoadsArePlainLoads() {
  const int n = 8;
  const std::int64_t blocks = 32LL * n;
  Scenario s = dgx(n, CollectiveAlgorithm::Cais, CollectiveOp::AllGather, blocks * 128);
  s.network.address_flits = 1;
  s.network.byte_enable_flits = 1;
  s.network.merging = false;
  const Results r = runScenario(s);
  const double readRequest = 16 + 16;       // header + address
  const double readResponse = 16 + 128;     // header + 8 data flits
  const double remote = static_cast<double>(blocks) * (n - 1) / n;
  for (int g = 0; g < n; ++g) {
    const Bytes b = gpuBytes(r, "gpu" + std::to_string(g));
    // Up: its own requests, and its answers to the other GPUs' requests for its blocks.
    QCOMPARE(double(b.up), remote * readRequest + remote * readResponse);
    QCOMPARE(double(b.down), remote * readRequest + remote * readResponse);
  }
  QCOMPARE(r.cais->hits, qint64(0));
}

void TestCaisPrimitives::tinyTableConserves_data() {
  QTest::addColumn<int>("op");
  QTest::addColumn<int>("gpus");
  QTest::newRow("reduce-scatter, 8 GPUs") << int(CollectiveOp::ReduceScatter) << 8;
  QTest::newRow("all-gather, 8 GPUs") << int(CollectiveOp::AllGather) << 8;
  QTest::newRow("all-gather, 4 GPUs") << int(CollectiveOp::AllGather) << 4;
}

// Two entries per port and a 100 ns timeout: sessions are evicted, time out, bypass; yet
// every output block receives contributions summing to exactly N-1 and every load
// requester exactly one answer, counted at the homes and requesters themselves.
void TestCaisPrimitives::tinyTableConserves() {
  QFETCH(int, op);
  QFETCH(int, gpus);
  const std::int64_t blocks = 64LL * gpus;
  Scenario s = dgx(gpus, CollectiveAlgorithm::Cais, static_cast<CollectiveOp>(op), blocks * 128);
  s.network.merge_table = 256;           // 2 entries of 128 B
  s.network.merge_timeout = 100 * kNanosecond;
  s.workload.collective.stagger = 300 * kNanosecond;  // drift: sessions live longer
  const Results r = runScenario(s);
  QCOMPARE(r.agents_unfinished, qint64(0));
  QCOMPARE(r.packets_in_flight, qint64(0));
  QVERIFY(r.cais.has_value());
  const CaisResults& c = *r.cais;
  if (op == int(CollectiveOp::ReduceScatter)) {
    QCOMPARE(c.blocks, blocks);
    QCOMPARE(c.blocks_complete, blocks);
    QCOMPARE(c.blocks_overfilled, qint64(0));
    QVERIFY(c.partial_flushes > 0);  // sums left the table early and still add up
  } else {
    QCOMPARE(c.load_requests, blocks * (gpus - 1));
    QCOMPARE(c.load_responses, c.load_requests);
    QCOMPARE(c.duplicate_responses, qint64(0));
    QVERIFY(c.bypasses > 0);  // victims in Load-Wait: the newcomer went unmerged
  }
  QVERIFY(c.evictions + c.timeouts > 0);
  // No entry still waiting for its data was evicted or timed out: it ended at its fill.
  std::int64_t logged = 0;
  for (const auto& sw : r.switches)
    for (const MergeEntryRecord& e : sw.merge_log) {
      ++logged;
      if (e.waiting) QVERIFY(e.reason == MergeEndReason::Completed || e.reason == MergeEndReason::EvictedOnFill);
    }
  QVERIFY(logged > 0);
}

void TestCaisPrimitives::twoCohortStaggerFollowsLittlesLaw_data() {
  QTest::addColumn<int>("gpus");
  QTest::addColumn<qint64>("staggerNs");
  QTest::newRow("8 GPUs, 2 us") << 8 << qint64(2000);
  QTest::newRow("8 GPUs, 4 us") << 8 << qint64(4000);
  QTest::newRow("4 GPUs, 2 us") << 4 << qint64(2000);
}

// Spec C8: pure red.cais reduce-scatter, unbounded table, no timeout; GPUs N/2.. start Δ
// late. The early cohort opens R = B / (w (N-1)/N) blocks per second (B: a GPU's uplink
// rate), each closed Δ later by the late cohort: R Δ entries live at once (L = λ W),
// spread over the N x 4 ports by the capacity-weighted hash, so the busiest (a 5-link
// chip's) port holds R Δ x 5/18 / N.
void TestCaisPrimitives::twoCohortStaggerFollowsLittlesLaw() {
  QFETCH(int, gpus);
  QFETCH(qint64, staggerNs);
  Scenario s = dgx(gpus, CollectiveAlgorithm::Cais, CollectiveOp::ReduceScatter, 4LL << 20);
  s.network.merge_table = 0;
  s.network.merge_timeout = 0;
  s.workload.collective.stagger = staggerNs * kNanosecond;
  const Results r = runScenario(s);
  QCOMPARE(r.agents_unfinished, qint64(0));
  double uplink = 0;
  for (const auto& l : r.links)
    if (l.from == "gpu0") uplink += l.capacity_Bps;
  const double N = gpus;
  const double rate = uplink / (kW * (N - 1) / N);  // blocks of A per second
  const double live = rate * static_cast<double>(staggerNs) * 1e-9;
  // Live entries over the whole system, brute force from the entries' lives.
  std::vector<std::pair<Time, int>> edges;
  std::int64_t busiestPort = 0;
  for (const auto& sw : r.switches) {
    for (const MergeEntryRecord& e : sw.merge_log) {
      edges.push_back({e.start, +1});
      edges.push_back({e.end, -1});
    }
    for (const MergePortResult& p : sw.merge_ports) busiestPort = std::max(busiestPort, p.peak_entries);
  }
  std::sort(edges.begin(), edges.end());  // at equal times, ends (-1) before starts
  int now = 0, peak = 0;
  for (const auto& [t, d] : edges) peak = std::max(peak, now += d);
  qInfo("peak %d entries (Little: %.0f), busiest port %lld (expected %.0f)", peak, live,
        static_cast<long long>(busiestPort), live * 5.0 / 18.0 / N);
  QVERIFY(std::abs(peak - live) < 0.05 * live);
  QVERIFY(std::abs(static_cast<double>(busiestPort) - live * 5.0 / 18.0 / N) < 0.1 * live * 5.0 / 18.0 / N);
  QCOMPARE(r.cais->peak_table_bytes_per_port, busiestPort * 128);
}

// Spec §2.7: a group is released exactly when its last member's SYNC arrives, to every
// member once; a GPU with throttle_on groups waiting is throttled once and resumes at
// throttle_off. Brute force: 3-member groups, GPU 1 runs 5 groups ahead of GPUs 2 and 3.
void TestCaisPrimitives::groupSyncTableReleasesAndThrottles() {
  net::GroupSyncTable t(4, 2);
  std::vector<std::int32_t> release;
  std::vector<std::pair<std::int32_t, bool>> throttle;
  for (std::uint32_t g = 0; g < 5; ++g) {
    QVERIFY(!t.sync(g, 1, 3, release, throttle));
    QCOMPARE(t.groups(), qint64(g + 1));
  }
  QVERIFY(release.empty());
  QCOMPARE(throttle.size(), std::size_t(1));  // on at the 4th waiting group, once
  QCOMPARE(throttle[0], (std::pair<std::int32_t, bool>{1, true}));
  throttle.clear();
  for (std::uint32_t g = 0; g < 5; ++g) {
    QVERIFY(!t.sync(g, 2, 3, release, throttle));
    release.clear();
    QVERIFY(t.sync(g, 3, 3, release, throttle));
    std::sort(release.begin(), release.end());
    QCOMPARE(release, (std::vector<std::int32_t>{1, 2, 3}));
    release.clear();
    // GPU 1 waits on 4 - g groups now: off once it falls to 2 (after the 3rd release).
    QCOMPARE(throttle.size(), std::size_t(g >= 2 ? 1 : 0));
  }
  QCOMPARE(throttle[0], (std::pair<std::int32_t, bool>{1, false}));
  QCOMPARE(t.groups(), qint64(0));
  QCOMPARE(t.stats().syncs, qint64(15));
  QCOMPARE(t.stats().releases, qint64(15));
  QCOMPARE(t.stats().throttleOn, qint64(1));
  QCOMPARE(t.stats().throttleOff, qint64(1));
}

// Leads are counted per lane (group id bits 21 up: the TP agent's junction and kernel):
// GPU 1 runs 4 groups ahead in lane 1 (AG-GEMM) and trails in lane 0 (GEMM-RS), where
// GPUs 2 and 3 have 4 groups waiting for it. Only its lane-1 lead throttles it (one
// THROTTLE-on, carrying a lane-1 group), and its lane-0 SYNCs complete groups at once;
// counted together (5 waiting at its first lane-0 SYNC) GPU 1 would have been held back
// in lane 0 too, where the others wait on it.
void TestCaisPrimitives::groupSyncThrottlesPerLane() {
  net::GroupSyncTable t(4, 2);
  std::vector<std::int32_t> release;
  std::vector<std::pair<std::int32_t, bool>> throttle;
  const std::uint32_t lane1 = 1u << net::GroupSyncTable::kLaneShift;
  for (std::uint32_t g = 0; g < 4; ++g) {  // GPUs 2 and 3 wait in lane 0
    QVERIFY(!t.sync(g, 2, 3, release, throttle));
    QVERIFY(!t.sync(g, 3, 3, release, throttle));
  }
  // Each of GPUs 2 and 3 waits on 4 lane-0 groups: both throttled in lane 0.
  QCOMPARE(throttle, (std::vector<std::pair<std::int32_t, bool>>{{2, true}, {3, true}}));
  throttle.clear();
  for (std::uint32_t g = 0; g < 4; ++g) QVERIFY(!t.sync(lane1 | g, 1, 3, release, throttle));  // GPU 1 leads in lane 1
  QCOMPARE(throttle, (std::vector<std::pair<std::int32_t, bool>>{{1, true}}));
  throttle.clear();
  for (std::uint32_t g = 0; g < 4; ++g) {  // GPU 1 catches up in lane 0: every SYNC completes a group
    release.clear();
    QVERIFY(t.sync(g, 1, 3, release, throttle));
    std::sort(release.begin(), release.end());
    QCOMPARE(release, (std::vector<std::int32_t>{1, 2, 3}));
  }
  // GPUs 2 and 3 fall to 2 waiting after the 2nd release: off, once each; GPU 1 stays on.
  QCOMPARE(throttle, (std::vector<std::pair<std::int32_t, bool>>{{2, false}, {3, false}}));
  QCOMPARE(t.groups(), qint64(4));  // GPU 1's lane-1 groups
  QCOMPARE(t.stats().throttleOn, qint64(3));
  QCOMPARE(t.stats().throttleOff, qint64(2));
}

// Spec §2.11: with coordination the last VC is the control VC (SYNC, RELEASE, THROTTLE);
// responses take the other response VCs, every one of them, and requests stay on the
// first half. Counted over a spread of 1000 packets per class.
void TestCaisPrimitives::controlVcCarriesNothingElse() {
  net::NetworkConfig c;
  c.virtualChannels = 16;
  c.caisControlVc = 15;
  std::set<int> responses, requests;
  for (std::uint32_t k = 0; k < 1000; ++k) {
    responses.insert(c.vcFor(true, k));
    requests.insert(c.vcFor(false, k));
  }
  QCOMPARE(responses, (std::set<int>{8, 9, 10, 11, 12, 13, 14}));
  QCOMPARE(requests, (std::set<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  c.caisControlVc = -1;  // without coordination: all eight response VCs
  responses.clear();
  for (std::uint32_t k = 0; k < 1000; ++k) responses.insert(c.vcFor(true, k));
  QCOMPARE(responses.size(), std::size_t(8));
}

QTEST_GUILESS_MAIN(TestCaisPrimitives)
#include "test_cais_primitives.moc"
