// Tensor-parallel layers (seed 002; specs/cais.md §2.9, §3 C5, C6, C10): the plan's work
// against closed forms, the schemes' communication-bound time ratios, and small layers
// run end to end under every scheme.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <set>

#include "cais_fixture.h"
#include "scenario/scenario.h"
#include "results/json_writer.h"
#include "results/tp_timeline.h"
#include "scenario/scenario_io.h"
#include "sim/run.h"
#include "sim/sweep_runner.h"
#include "tp/tp_plan.h"
#include "tp/window_utilization.h"

using namespace fl;

namespace {

Scenario dgx(int gpus) {
  Scenario s = caisDgx(gpus);
  s.network.outstanding_requests = 10240;  // specs/cais.md §1.1: 1280 KB of 128 B loads per GPU
  return s;
}

// Bandwidth-bound collectives: coarse 4 KiB simulated packets, still framed per 128 B
// NVLink packet (request packets then ask for 4 KiB at once: their 16 B shrink 32-fold,
// which moves the ratios below by under 1 %); buffers scaled to hold as many packets.
Time collectiveTime(int gpus, CollectiveAlgorithm alg, CollectiveOp op, std::int64_t size) {
  Scenario s = dgx(gpus);
  s.network.packet_payload = 4096;
  s.network.max_packet_payload = 128;
  s.network.vc_depth_flits = 1024;
  s.network.reduction_buffer = 16 << 20;
  s.network.merge_table = 0;
  s.workload.collective.algorithm = alg;
  s.workload.collective.op = op;
  s.workload.collective.size = size;
  const Results r = runScenario(s);
  if (r.agents_unfinished != 0) return -1;
  return r.makespan;
}

// A small layer that runs in well under a second: T = 512 tokens, 128 rows per GPU on 4.
Scenario smallLayer(TpScheme scheme, TpPhase phase) {
  Scenario s = dgx(4);
  s.workload.kind = WorkloadKind::TpLayer;
  s.workload.tp.model = "custom";
  s.workload.tp.hidden = 512;
  s.workload.tp.ffn_hidden = 2048;
  s.workload.tp.heads = 8;
  s.workload.tp.seq_len = 512;
  s.workload.tp.batch = 1;
  s.workload.tp.phase = phase;
  s.workload.tp.layers = 2;
  s.gpu.sms = 66;
  s.scheme.tp = scheme;
  return s;
}

// A communication-bound junction on 4 GPUs: T = 4096 x 4 tokens, h = f = 1024 (A = 32 MiB,
// 32 row blocks per GPU), GEMMs at full tensor rate and HBM out of the way (each GEMM ~17 us
// vs ~63 us of wire per collective), 1 KiB simulated packets framed per 128 B, no drift,
// unbounded table. One layer: L1 is RS -> LN -> AG over the same activation A.
Scenario commBoundLayer(TpScheme scheme) {
  Scenario s = caisDgx(4);
  s.network.packet_payload = 1024;
  s.network.max_packet_payload = 128;
  s.network.vc_depth_flits = 1024;
  s.network.outstanding_requests = 1280;
  s.network.reduction_buffer = 512 << 10;
  s.network.merge_table = 0;
  s.network.merge_timeout = 0;
  s.gpu.sms = 66;
  s.gpu.tensor_efficiency = 1;
  s.gpu.hbm_bandwidth = 1e15;
  s.workload.kind = WorkloadKind::TpLayer;
  s.workload.tp.model = "custom";
  s.workload.tp.hidden = 1024;
  s.workload.tp.ffn_hidden = 1024;
  s.workload.tp.heads = 8;
  s.workload.tp.seq_len = 4096;
  s.workload.tp.batch = 4;
  s.workload.tp.layers = 1;
  s.workload.tp.kernel_offset = 0;
  s.workload.tp.tb_noise_cv = 0;
  s.scheme.tp = scheme;
  return s;
}

}  // namespace

class TestTpLayer : public QObject {
  Q_OBJECT
 private slots:
  void planFlopsMatchClosedForm_data();
  void planFlopsMatchClosedForm();
  void nvlsSplitVersusAllReduce_data();
  void nvlsSplitVersusAllReduce();
  void caisPhasesAtWireRate();
  void schemesRunALayer_data();
  void schemesRunALayer();
  void syncPacketsMatchClosedForm_data();
  void syncPacketsMatchClosedForm();
  void coordinationCutsSkew();
  void requiredTableFromUnboundedRun();
  void tileOrderSpreadsHomes_data();
  void tileOrderSpreadsHomes();
  void rowOrderCompletesALayer();
  void rowOrderSpreadsFirstPushes();
  void overlapWithinC6();
  void coordinatedTableFollowsLittlesLaw();
  void utilisationOrderFollowsC5();
  void phaseBusyIsEachKindsUnion();
  void windowUtilizationClosedForm_data();
  void windowUtilizationClosedForm();
  void sublayerUtilizationFromAllReduceBytes();
  void dataflowUnderThrottleCompletes_data();
  void dataflowUnderThrottleCompletes();
  void modelSizesTheGpu_data();
  void modelSizesTheGpu();
  void schemeOrderWhereCommunicationBinds();
};

void TestTpLayer::planFlopsMatchClosedForm_data() {
  QTest::addColumn<int>("gpus");
  QTest::addColumn<int>("hidden");
  QTest::addColumn<int>("ffn");
  QTest::addColumn<int>("seq");
  QTest::addColumn<int>("batch");
  QTest::addColumn<bool>("training");
  QTest::newRow("llama-7b, 8 GPUs, inference") << 8 << 4096 << 11264 << 3072 << 3 << false;
  QTest::newRow("mega-gpt-4b, 8 GPUs, training") << 8 << 2048 << 8192 << 1024 << 16 << true;
  QTest::newRow("alt-4, 4 GPUs, inference") << 4 << 5120 << 13824 << 2048 << 2 << false;
}

// Spec C10: per GPU per layer forward F = [2T(4h^2 + 2hf) + 4bs^2h] / N; training adds
// dgrad (F) and wgrad (the GEMMs' share again) plus attention backward (2x): 3F.
void TestTpLayer::planFlopsMatchClosedForm() {
  QFETCH(int, gpus);
  QFETCH(int, hidden);
  QFETCH(int, ffn);
  QFETCH(int, seq);
  QFETCH(int, batch);
  QFETCH(bool, training);
  TpSpec t;
  t.hidden = hidden;
  t.ffn_hidden = ffn;
  t.seq_len = seq;
  t.batch = batch;
  t.layers = 3;
  t.phase = training ? TpPhase::Training : TpPhase::Inference;
  const tp::TpPlan p = tp::planTpLayers(t, gpus);
  double flops = 0;
  for (const tp::Stage& st : p.stages) {
    switch (st.kind) {
      case tp::StageKind::Gemm: flops += 2.0 * st.gemm.m * st.gemm.n * st.gemm.k; break;
      case tp::StageKind::Flops: flops += st.flops; break;
      case tp::StageKind::Memory: break;
      case tp::StageKind::Junction:
        flops += 2.0 * p.tokens * p.hidden * st.rsK + 2.0 * p.tokens * st.agN * p.hidden;
        break;
    }
  }
  const double T = double(seq) * batch, h = hidden, f = ffn, N = gpus;
  const double F = (2 * T * (4 * h * h + 2 * h * f) + 4 * batch * double(seq) * seq * h) / N;
  QCOMPARE(flops, (training ? 3 : 1) * t.layers * F);
  // Junctions: 2 per layer forward (the last one's L2 has no AG side), 2 more backward.
  QCOMPARE(p.junctions, t.layers * (training ? 4 : 2));
}

void TestTpLayer::nvlsSplitVersusAllReduce_data() {
  QTest::addColumn<int>("gpus");
  QTest::addColumn<double>("ratio");
  // Spec C6 (wire): RS bound by its uplink (146 / 148 B per block), AG by its downlink
  // (144), AR by its downlink (178 / 196): (146 + 144) / 178 = 1.629, (148 + 144) / 196 = 1.490.
  QTest::newRow("8 GPUs") << 8 << (146.0 + 144.0) / 178.0;
  QTest::newRow("4 GPUs") << 4 << (148.0 + 144.0) / 196.0;
}

// SP-NVLS's reduce-scatter then all-gather takes longer than TP-NVLS's all-reduce of the
// same tensor by the wire ratio of their heavy directions.
void TestTpLayer::nvlsSplitVersusAllReduce() {
  QFETCH(int, gpus);
  QFETCH(double, ratio);
  const std::int64_t size = 24LL << 20;
  const Time rs = collectiveTime(gpus, CollectiveAlgorithm::Nvls, CollectiveOp::ReduceScatter, size);
  const Time ag = collectiveTime(gpus, CollectiveAlgorithm::Nvls, CollectiveOp::AllGather, size);
  const Time ar = collectiveTime(gpus, CollectiveAlgorithm::Nvls, CollectiveOp::AllReduce, size);
  QVERIFY(rs > 0 && ag > 0 && ar > 0);
  const double measured = static_cast<double>(rs + ag) / static_cast<double>(ar);
  qInfo("RS %.1f us + AG %.1f us vs AR %.1f us: %.3f (wire ratio %.3f)", rs / 1e6, ag / 1e6, ar / 1e6, measured, ratio);
  QVERIFY(std::abs(measured - ratio) < 0.1 * ratio);
}

// CAIS's phases run at their heavy direction's wire rate (spec C6's "CAIS sequential"):
// red.cais reduce-scatter is bound by the uplink (126 B per 128 B block on 8 GPUs), ld.cais
// all-gather by the downlink (128 B); B = 18 links x 25 GB/s x 0.98.
void TestTpLayer::caisPhasesAtWireRate() {
  const std::int64_t size = 24LL << 20;
  const Time rs = collectiveTime(8, CollectiveAlgorithm::Cais, CollectiveOp::ReduceScatter, size);
  const Time ag = collectiveTime(8, CollectiveAlgorithm::Cais, CollectiveOp::AllGather, size);
  QVERIFY(rs > 0 && ag > 0);
  const double B = 18 * 25e9 * 0.98, blocks = static_cast<double>(size) / 128;
  const double rsWire = blocks * 126 / B * 1e12, agWire = blocks * 128 / B * 1e12;  // ps
  qInfo("CAIS RS %.1f us (wire %.1f), AG %.1f us (wire %.1f)", rs / 1e6, rsWire / 1e6, ag / 1e6, agWire / 1e6);
  QVERIFY(rs >= rsWire && rs < 1.08 * rsWire);
  QVERIFY(ag >= agWire && ag < 1.08 * agWire);
}

void TestTpLayer::schemesRunALayer_data() {
  QTest::addColumn<int>("scheme");
  QTest::addColumn<int>("phase");
  for (auto [name, sc] : {std::pair{"tp_nvls", TpScheme::TpNvls}, {"sp_nvls", TpScheme::SpNvls},
                          {"cais_base", TpScheme::CaisBase}, {"cais_coord", TpScheme::CaisCoord},
                          {"cais_partial", TpScheme::CaisPartial}, {"cais", TpScheme::Cais}}) {
    QTest::newRow((std::string(name) + ", inference").c_str()) << int(sc) << int(TpPhase::Inference);
    QTest::newRow((std::string(name) + ", training").c_str()) << int(sc) << int(TpPhase::Training);
  }
}

// Every scheme completes both layers; CAIS's homes saw every block complete (the agent
// stops the run on an over-contributed block); link utilisation stays below spec C5's
// ceiling for two-direction traffic (96.2 % on 8 GPUs, 97.4 % on 4); sub-layers measured.
void TestTpLayer::schemesRunALayer() {
  QFETCH(int, scheme);
  QFETCH(int, phase);
  const Scenario s = smallLayer(static_cast<TpScheme>(scheme), static_cast<TpPhase>(phase));
  const Results r = runScenario(s);
  QCOMPARE(r.agents_unfinished, qint64(0));
  QCOMPARE(r.packets_in_flight, qint64(0));
  QVERIFY(r.tp.has_value());
  QVERIFY(r.tp->sublayer[0] > 0);
  QVERIFY(r.tp->sublayer[1] > 0);
  QCOMPARE(r.tp->sublayer[2] > 0, phase == int(TpPhase::Training));
  double busy = 0;
  for (const auto& l : r.links) busy += l.utilization;
  QVERIFY(busy / static_cast<double>(r.links.size()) < 0.974);
  if (scheme >= int(TpScheme::CaisBase)) {
    QVERIFY(r.cais.has_value());
    QVERIFY(r.cais->requests > 0);
    QVERIFY(r.cais->hits > 0);
    QCOMPARE(r.cais->sync_packets > 0, scheme >= int(TpScheme::CaisCoord));
    // The homes' and requesters' own counts. Every junction reduces T x h fp16 values in
    // payload-sized blocks (2 junctions a layer, 4 in training); each all-gather (all but
    // the last junction of each pass) has every GPU load the other N - 1 GPUs' rows.
    const bool training = phase == int(TpPhase::Training);
    const qint64 junctions = (training ? 4 : 2) * s.workload.tp.layers;
    const qint64 blocks = qint64(s.workload.tp.seq_len) * s.workload.tp.hidden * 2 / s.network.packet_payload;
    QCOMPARE(r.cais->blocks, junctions * blocks);
    QCOMPARE(r.cais->blocks_complete, r.cais->blocks);
    const qint64 gpus = s.topology.gpus;  // each loads (N - 1) / N of the blocks
    QCOMPARE(r.cais->load_requests, (junctions - (training ? 2 : 1)) * (gpus - 1) * blocks);
    QCOMPARE(r.cais->load_responses, r.cais->load_requests);
  }
}

void TestTpLayer::syncPacketsMatchClosedForm_data() {
  QTest::addColumn<int>("scheme");
  QTest::addColumn<int>("phase");
  QTest::newRow("cais_coord, inference") << int(TpScheme::CaisCoord) << int(TpPhase::Inference);
  QTest::newRow("cais_coord, training") << int(TpScheme::CaisCoord) << int(TpPhase::Training);
  QTest::newRow("cais, inference") << int(TpScheme::Cais) << int(TpPhase::Inference);
}

// Spec C9: one SYNC up and one RELEASE down per group thread block and sync point. Per
// junction and GPU: every GEMM-RS block of the N-1 remote row blocks' rows syncs twice
// (pre-launch, pre-access); AG-GEMM's loading block of each remote row once (pre-launch).
// Throttling off (threshold above any count), so nothing else is sent.
void TestTpLayer::syncPacketsMatchClosedForm() {
  QFETCH(int, scheme);
  QFETCH(int, phase);
  Scenario s = smallLayer(static_cast<TpScheme>(scheme), static_cast<TpPhase>(phase));
  s.workload.tp.throttle_on = 1'000'000;
  const Results r = runScenario(s);
  QCOMPARE(r.agents_unfinished, qint64(0));
  QVERIFY(r.cais.has_value());
  const std::int64_t N = 4, T = 512, h = 512, tile = 128;  // and f = 2048 (FFN), in the comments
  const std::int64_t rows = T / tile, remoteRows = rows - rows / N, rsCols = h / tile;
  // Junctions: forward L1 (AG = FFN1, f/N columns), L2 (AG = QKV, 3h/N) per layer but the
  // last layer's L2 (no AG); backward L3 (AG = out-proj dgrad, h/N), L4 (AG = FFN2 dgrad,
  // f/N) per layer but the first layer's L4. AG row blocks sync once, whatever their width.
  const int layers = s.workload.tp.layers;
  const bool training = phase == int(TpPhase::Training);
  const std::int64_t junctions = layers * (training ? 4 : 2);
  const std::int64_t withAg = junctions - (training ? 2 : 1);
  const std::int64_t perGpu = junctions * remoteRows * rsCols * 2 + withAg * remoteRows;
  QCOMPARE(r.cais->sync_packets, 2 * N * perGpu);
  QCOMPARE(r.cais->throttle_events, qint64(0));
  QVERIFY(r.cais->sync_wait_ns > 0);
}

// Seed 002 §V-B1: TB-group coordination cuts the mean arrival skew by an order of
// magnitude (35 -> under 3 us). Drift: kernel launch offsets of 5 us mean and 20 % thread
// block noise; unbounded tables, so the skew is that of the arrivals alone.
void TestTpLayer::coordinationCutsSkew() {
  double skew[2] = {0, 0};
  int i = 0;
  for (TpScheme sc : {TpScheme::CaisBase, TpScheme::CaisCoord}) {
    Scenario s = smallLayer(sc, TpPhase::Inference);
    s.workload.tp.kernel_offset = 5 * kMicrosecond;
    s.workload.tp.tb_noise_cv = 0.2;
    s.network.merge_table = 0;
    s.network.merge_timeout = 0;
    const Results r = runScenario(s);
    QCOMPARE(r.agents_unfinished, qint64(0));
    skew[i++] = r.cais->arrival_skew_ns_mean;
  }
  qInfo("mean arrival skew: cais_base %.0f ns, cais_coord %.0f ns", skew[0], skew[1]);
  QVERIFY(skew[1] > 0);
  QVERIFY(skew[0] >= 10 * skew[1]);
}

// Spec §2.13: the required table is the peak of a run with an unbounded table and no
// timeout; a bounded run does not measure it. An unbounded table is that run whatever the
// timeout says (a sweep over the table size keeps one timeout): a 100 ns timeout, far below
// the drift's skew, expires nothing and changes nothing.
void TestTpLayer::requiredTableFromUnboundedRun() {
  Scenario s = smallLayer(TpScheme::CaisBase, TpPhase::Inference);
  s.network.merge_table = 0;
  s.network.merge_timeout = 0;
  const Results unbounded = runScenario(s);
  QVERIFY(unbounded.cais->required_table_bytes_per_port > 0);
  QCOMPARE(unbounded.cais->required_table_bytes_per_port, unbounded.cais->peak_table_bytes_per_port);
  QCOMPARE(unbounded.cais->timeouts, qint64(0));
  s.network.merge_timeout = 100 * kNanosecond;
  const Results withTimeout = runScenario(s);
  QCOMPARE(withTimeout.cais->timeouts, qint64(0));
  QCOMPARE(withTimeout.cais->partial_flushes, qint64(0));
  QCOMPARE(withTimeout.cais->required_table_bytes_per_port, unbounded.cais->required_table_bytes_per_port);
  QCOMPARE(withTimeout.makespan, unbounded.makespan);
  s.network.merge_table = 4096;
  const Results bounded = runScenario(s);
  QCOMPARE(bounded.cais->required_table_bytes_per_port, qint64(0));
  QVERIFY(bounded.cais->peak_table_bytes_per_port <= 4096);
}

void TestTpLayer::tileOrderSpreadsHomes_data() {
  QTest::addColumn<int>("order");
  QTest::addColumn<int>("gpus");
  QTest::addColumn<int>("rowTiles");
  QTest::addColumn<int>("colTiles");
  QTest::addColumn<int>("sms");
  // LLaMA-7B on 8 GPUs: T = 9216 -> 72 row tiles; GEMM-RS N = 4096 (32 columns), FFN1
  // AG-GEMM N = 11264 / 8 (11 columns); 66 SMs. The small 4-GPU layer: 4 x 4 tiles.
  for (auto [name, o] : {std::pair{"home_interleaved", TpRowOrder::HomeInterleaved}, {"m_major", TpRowOrder::MMajor}}) {
    QTest::newRow((std::string(name) + ", llama-7b GEMM-RS").c_str()) << int(o) << 8 << 72 << 32 << 66;
    QTest::newRow((std::string(name) + ", llama-7b FFN1 AG").c_str()) << int(o) << 8 << 72 << 11 << 66;
    QTest::newRow((std::string(name) + ", 4 GPUs, 4x4").c_str()) << int(o) << 4 << 4 << 4 << 16;
  }
}

// The dispatch order is a permutation of the tiles. home_interleaved: the first N thread
// blocks (the first step) ask N distinct homes, every N consecutive ones again all N, a
// wave of S SMs puts floor or ceil(S/N) on each home, and each home's tiles stay in m-major
// order. m_major: the first step and the whole first wave (S <= one home's tiles) go to
// home 0. Homes counted here from the row, m / (rowTiles / N).
void TestTpLayer::tileOrderSpreadsHomes() {
  QFETCH(int, order);
  QFETCH(int, gpus);
  QFETCH(int, rowTiles);
  QFETCH(int, colTiles);
  QFETCH(int, sms);
  const auto o = static_cast<TpRowOrder>(order);
  const std::vector<std::int64_t> t = tp::tileOrder(o, rowTiles, colTiles, gpus);
  const std::int64_t total = std::int64_t(rowTiles) * colTiles, perHome = total / gpus;
  QCOMPARE(static_cast<std::int64_t>(t.size()), total);
  std::vector<int> seen(static_cast<std::size_t>(total), 0);
  for (std::int64_t x : t) {
    QVERIFY(x >= 0 && x < total);
    ++seen[static_cast<std::size_t>(x)];
  }
  QVERIFY(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
  auto home = [&](std::int64_t tile) { return static_cast<int>(tile / colTiles / (rowTiles / gpus)); };
  std::set<int> firstStep;
  for (int p = 0; p < gpus; ++p) firstStep.insert(home(t[static_cast<std::size_t>(p)]));
  std::vector<int> wave(static_cast<std::size_t>(gpus), 0);
  for (int p = 0; p < sms; ++p) ++wave[static_cast<std::size_t>(home(t[static_cast<std::size_t>(p)]))];
  if (o == TpRowOrder::MMajor) {
    QCOMPARE(firstStep, std::set<int>{0});
    QCOMPARE(wave[0], static_cast<int>(std::min<std::int64_t>(sms, perHome)));
    return;
  }
  QCOMPARE(static_cast<int>(firstStep.size()), gpus);
  for (std::int64_t p = 0; p + gpus <= total; p += gpus) {
    std::set<int> homes;
    for (int q = 0; q < gpus; ++q) homes.insert(home(t[static_cast<std::size_t>(p + q)]));
    QCOMPARE(static_cast<int>(homes.size()), gpus);
  }
  for (int c : wave) QVERIFY(c == sms / gpus || c == (sms + gpus - 1) / gpus);
  std::vector<std::int64_t> last(static_cast<std::size_t>(gpus), -1);
  for (std::int64_t x : t) {
    QVERIFY(x > last[static_cast<std::size_t>(home(x))]);
    last[static_cast<std::size_t>(home(x))] = x;
  }
}

// Both orders, under cais_base and under cais (dataflow, coordinated: TB groups must still
// meet), complete every block of a layer (the homes stop the run on an over-contributed
// block) with nothing left in flight.
void TestTpLayer::rowOrderCompletesALayer() {
  for (TpScheme sc : {TpScheme::CaisBase, TpScheme::Cais}) {
    for (TpRowOrder o : {TpRowOrder::MMajor, TpRowOrder::HomeInterleaved}) {
      Scenario s = smallLayer(sc, TpPhase::Inference);
      s.workload.tp.row_order = o;
      const Results r = runScenario(s);
      QCOMPARE(r.agents_unfinished, qint64(0));
      QCOMPARE(r.packets_in_flight, qint64(0));
      QVERIFY(r.tp->layer > 0);
    }
  }
}

// The order as the switches see it: no drift, 4 SMs on 4 GPUs (a wave = 4 tiles), an
// unbounded table so every merge entry is logged. For the first GEMM-RS (junction 0:
// blocks 0..4095 of 128 B, 1024 per home), when each home's first reduction entry opened.
// m_major: row by row, home h's first push comes a wave after home h-1's; home_interleaved:
// every GPU's first wave pushes to every home but its own, so all homes start within the
// injection of one wave, under a quarter of m_major's spread.
void TestTpLayer::rowOrderSpreadsFirstPushes() {
  Time spread[2] = {0, 0};
  int i = 0;
  for (TpRowOrder o : {TpRowOrder::MMajor, TpRowOrder::HomeInterleaved}) {
    Scenario s = smallLayer(TpScheme::CaisBase, TpPhase::Inference);
    s.workload.tp.row_order = o;
    s.workload.tp.kernel_offset = 0;
    s.workload.tp.tb_noise_cv = 0;
    s.gpu.sms = 4;
    s.network.merge_table = 0;
    s.network.merge_timeout = 0;
    const Results r = runScenario(s);
    QCOMPARE(r.agents_unfinished, qint64(0));
    std::vector<Time> first(4, -1);
    for (const SwitchResult& sw : r.switches) {
      QVERIFY(!sw.merge_log_truncated);
      for (const MergeEntryRecord& e : sw.merge_log) {
        if (e.load || e.block >= 4096) continue;
        Time& f = first[e.block / 1024];
        f = f < 0 ? e.start : std::min(f, e.start);
      }
    }
    for (Time f : first) QVERIFY(f >= 0);
    if (o == TpRowOrder::MMajor)
      for (int h = 1; h < 4; ++h) QVERIFY(first[static_cast<std::size_t>(h)] > first[static_cast<std::size_t>(h - 1)]);
    spread[i++] = *std::max_element(first.begin(), first.end()) - *std::min_element(first.begin(), first.end());
  }
  qInfo("first push per home spread: m_major %.3f us, home_interleaved %.3f us", static_cast<double>(spread[0]) / 1e6,
        static_cast<double>(spread[1]) / 1e6);
  QVERIFY(spread[0] > 0);
  QVERIFY(4 * spread[1] < spread[0]);
}

// Spec C6 on 4 GPUs, per 128 B block of A on the wire (C2w): sequential RS then AG is bound
// by RS's uplink (108 B) then AG's downlink (112 B); overlapped, the busier direction
// carries RS up + AG up = 108 + 48 = 156 B (down: 36 + 112 = 148). So L1 under cais_coord
// (kernel-level) takes at least 220 B per block at B, under cais (dataflow, overlap,
// traffic control) at least 156 B: each wire bound holds, and overlap wins at least 10 %.
// The bounds' ratio, 220 / 156 = 1.410, does not bound the times' ratio: each time adds
// its scheme's own overhead to its bound (the sequential pair two kernels' fill, drain and
// barrier), and the single overlapped pipeline comes closer to its bound (1.07x of it,
// against 1.11x: a ratio of 1.47 since each link's arbiter alternates loads and reductions).
// What the spec's ratio does bound is the efficiencies: bound / time at most 1 for both.
void TestTpLayer::overlapWithinC6() {
  Time l1[2] = {0, 0};
  int i = 0;
  for (TpScheme sc : {TpScheme::CaisCoord, TpScheme::Cais}) {
    const Results r = runScenario(commBoundLayer(sc));
    QCOMPARE(r.agents_unfinished, qint64(0));
    l1[i++] = r.tp->sublayer[0];
  }
  const double B = 18 * 25e9 * 0.98, blocks = 16384.0 * 1024 * 2 / 128;
  const double sequential = blocks * (108 + 112) / B * 1e12, overlapped = blocks * 156 / B * 1e12;  // ps
  const double ratio = static_cast<double>(l1[0]) / static_cast<double>(l1[1]);
  qInfo("L1 sequential %.1f us (wire bound %.1f), overlapped %.1f us (wire bound %.1f): ratio %.3f (C6: <= %.3f)",
        l1[0] / 1e6, sequential / 1e6, l1[1] / 1e6, overlapped / 1e6, ratio, 220.0 / 156.0);
  QVERIFY(static_cast<double>(l1[0]) >= sequential);
  QVERIFY(static_cast<double>(l1[1]) >= overlapped);
  QVERIFY(ratio > 1.1);
}

// Little's law on the coordinated table (spec C7): the time-average number of live
// entries, sampled every 20 ns from the entries' logged lives, equals the rate at which
// sessions open (counted by the units: requests that did not join a live entry, over the
// span) times their mean residency.
void TestTpLayer::coordinatedTableFollowsLittlesLaw() {
  Scenario s = smallLayer(TpScheme::CaisCoord, TpPhase::Inference);
  s.network.merge_table = 0;
  s.network.merge_timeout = 0;
  const Results r = runScenario(s);
  QCOMPARE(r.agents_unfinished, qint64(0));
  QVERIFY(r.cais.has_value());
  std::vector<std::pair<Time, int>> edges;
  double residency = 0;
  Time first = -1, last = 0;
  for (const SwitchResult& sw : r.switches) {
    QVERIFY(!sw.merge_log_truncated);
    for (const MergeEntryRecord& e : sw.merge_log) {
      edges.push_back({e.start, +1});
      edges.push_back({e.end, -1});
      residency += static_cast<double>(e.end - e.start);
      first = first < 0 ? e.start : std::min(first, e.start);
      last = std::max(last, e.end);
    }
  }
  const auto sessions = static_cast<double>(r.cais->requests - r.cais->hits);
  QCOMPARE(static_cast<double>(edges.size() / 2), sessions);
  std::sort(edges.begin(), edges.end());
  const Time step = 20 * kNanosecond;
  double sampled = 0;
  std::int64_t samples = 0;
  std::size_t k = 0;
  int live = 0;
  for (Time t = first; t < last; t += step, ++samples) {
    while (k < edges.size() && edges[k].first <= t) live += edges[k++].second;
    sampled += live;
  }
  const double span = static_cast<double>(last - first);
  const double L = sampled / static_cast<double>(samples);
  const double lambda = sessions / span, W = residency / sessions;
  qInfo("mean live entries %.2f; lambda %.4f per ns x W %.1f ns = %.2f", L, lambda * 1000, W / 1000, lambda * W);
  QVERIFY(L > 0);
  QVERIFY(std::abs(L - lambda * W) < 0.03 * lambda * W);
}

// Spec C5 on the communication-bound layer: sequential RS then AG cannot keep both link
// directions busy (ceiling 69.1 % on 4 GPUs); overlapped RS and AG can (97.4 %). Over the
// same run (the same compute-only stages), the overlapped scheme's utilisation is higher.
void TestTpLayer::utilisationOrderFollowsC5() {
  double u[2] = {0, 0}, sub[2] = {0, 0};
  int i = 0;
  for (TpScheme sc : {TpScheme::CaisCoord, TpScheme::Cais}) {
    const Results r = runScenario(commBoundLayer(sc));
    QCOMPARE(r.agents_unfinished, qint64(0));
    double busy = 0;  // traffic.bandwidth_utilization: over all links, both directions
    for (const auto& l : r.links) busy += l.utilization;
    u[i] = busy / static_cast<double>(r.links.size());
    sub[i++] = r.tp->sublayer_utilization[0];  // over L1's span only (the paper's Fig. 15)
  }
  qInfo("utilisation: sequential %.1f %%, overlapped %.1f %%; over L1: %.1f %%, %.1f %%", 100 * u[0], 100 * u[1],
        100 * sub[0], 100 * sub[1]);
  QVERIFY(u[0] < 0.691);
  QVERIFY(u[1] < 0.974);
  QVERIFY(u[1] > u[0]);
  QVERIFY(sub[0] < 0.691);
  QVERIFY(sub[1] < 0.974);
  QVERIFY(sub[1] > sub[0]);
  QVERIFY(sub[0] > u[0]);  // the run's average also covers QKV and attention, with idle links
}

// pipeline.phase_ns of a TP layer (tpPhaseBusy): per task kind of its kernels (gemm .. sync_wait, no
// MoE phase), the time some span of that kind runs on a GPU, mean over GPUs. Brute force:
// between consecutive span ends, a kind is busy if some span covers the midpoint.
void TestTpLayer::phaseBusyIsEachKindsUnion() {
  const Scenario s = smallLayer(TpScheme::Cais, TpPhase::Inference);
  const Results r = runScenario(s);
  QVERIFY(r.pipeline.has_value());
  const PipelineResults& p = *r.pipeline;
  const auto busy = tpPhaseBusy(p);
  const int gpus = 4;
  for (int k = int(PipelineTaskKind::LocalGemm); k < kPipelineTaskKinds; ++k) {
    double total = 0;
    for (int g = 0; g < gpus; ++g) {
      std::vector<Time> ends;
      for (const PipelineTask& t : p.tasks)
        if (t.gpu == g && static_cast<int>(t.kind) == k) ends.insert(ends.end(), {t.start, t.end});
      std::sort(ends.begin(), ends.end());
      for (std::size_t i = 0; i + 1 < ends.size(); ++i) {
        const double mid = (static_cast<double>(ends[i]) + static_cast<double>(ends[i + 1])) / 2;
        const bool covered = std::any_of(p.tasks.begin(), p.tasks.end(), [&](const PipelineTask& t) {
          return t.gpu == g && static_cast<int>(t.kind) == k && t.start < mid && mid < t.end;
        });
        if (covered) total += static_cast<double>(ends[i + 1] - ends[i]);
      }
    }
    const auto it = std::find_if(busy.begin(), busy.end(), [&](const auto& b) { return int(b.first) == k; });
    QVERIFY2(it != busy.end(), pipelineTaskKindName(PipelineTaskKind(k)));
    QVERIFY2(std::abs(static_cast<double>(it->second) - total / gpus) <= 1, pipelineTaskKindName(PipelineTaskKind(k)));
    if (k == int(PipelineTaskKind::AgGemm) || k == int(PipelineTaskKind::CaisReduce)) QVERIFY(it->second > 0);
  }
  const auto json = resultsToJson(r, s)["pipeline"]["phase_ns"];
  QVERIFY(!json.contains("dispatch") && !json.contains("combine"));
  for (const char* key : {"gemm", "gemm_rs", "layer_norm", "ag_gemm", "red_cais", "ld_cais", "sync_wait"})
    QVERIFY2(json.contains(key), key);
  QVERIFY(json["red_cais"].get<double>() > 0);
}

// windowUtilization on hand-made bins (10 us wide, links at 25 GB/s: a full bin is
// 250,000 B): link a busy all of bins 0-3, link b half of bin 1 (125,000 B), link c idle.
// The busy fraction over [start, end) is each link's busy time inside it, edge bins pro
// rata, over 3 x (end - start).
void TestTpLayer::windowUtilizationClosedForm_data() {
  QTest::addColumn<double>("startUs");
  QTest::addColumn<double>("endUs");
  QTest::addColumn<double>("expected");
  QTest::newRow("bins 0-3") << 0.0 << 40.0 << (40.0 + 5.0) / (3 * 40.0);
  QTest::newRow("bins 0-7") << 0.0 << 80.0 << (40.0 + 5.0) / (3 * 80.0);
  QTest::newRow("bin 1 only") << 10.0 << 20.0 << (10.0 + 5.0) / (3 * 10.0);
  QTest::newRow("halves of bins 0 and 2") << 5.0 << 25.0 << (20.0 + 5.0) / (3 * 20.0);
  QTest::newRow("after the traffic") << 40.0 << 60.0 << 0.0;
  QTest::newRow("empty window") << 10.0 << 10.0 << 0.0;
}

void TestTpLayer::windowUtilizationClosedForm() {
  QFETCH(double, startUs);
  QFETCH(double, endUs);
  QFETCH(double, expected);
  BinSeries a, b, c;
  for (int bin = 0; bin < 4; ++bin) a.add(bin, 250'000);
  b.add(1, 125'000);
  const std::vector<tp::ChannelBins> links{{&a, 25e9}, {&b, 25e9}, {&c, 25e9}};
  const double u = tp::windowUtilization(links, 10 * kMicrosecond, static_cast<Time>(startUs * 1e6),
                                         static_cast<Time>(endUs * 1e6));
  QVERIFY2(std::abs(u - expected) < 1e-12, qPrintable(QString::number(u)));
}

// TP-NVLS on the communication-bound layer: L1 is GEMM-RS, one NVLS all-reduce, LN,
// AG-GEMM, and nothing else moves on the links in its span (the GEMMs on either side,
// ~17 us each, outlast a time bin). So utilisation x link directions x span x link rate
// is the all-reduce's wire bytes, spec C2w per GPU and 128 B block of A: up H/N + W + W/N,
// down H + W/N + W, W = 144 B, with a request header H = 16 B per simulated 1 KiB packet
// (so H/8 per block). And over the whole run the bins' busy time is the links' own.
void TestTpLayer::sublayerUtilizationFromAllReduceBytes() {
  const Scenario s = commBoundLayer(TpScheme::TpNvls);
  const Results r = runScenario(s);
  QCOMPARE(r.agents_unfinished, qint64(0));
  const double N = 4, W = 144, H = 16.0 / 8, blocks = 16384.0 * 1024 * 2 / 128;
  const double perGpu = (H / N + W + W / N) + (H + W / N + W);
  const double expected = N * perGpu * blocks;  // bytes, all GPUs, both directions
  const double rate = 25e9 * 0.98, links = 4 * 18 * 2;
  QCOMPARE(r.links.size(), std::size_t(links));
  const double span = static_cast<double>(r.tp->sublayer[0]) * 1e-12;
  const double moved = r.tp->sublayer_utilization[0] * links * span * rate;
  qInfo("L1 %.1f us at %.1f %%: %.1f MB on the wire (C2w all-reduce %.1f MB)", span * 1e6,
        100 * r.tp->sublayer_utilization[0], moved / 1e6, expected / 1e6);
  QVERIFY(std::abs(moved - expected) < 0.01 * expected);
  std::vector<tp::ChannelBins> channels;
  double busy = 0;
  for (const auto& l : r.links) {
    channels.push_back({&l.bin_bytes, l.capacity_Bps});
    busy += static_cast<double>(l.busy);
  }
  const double whole = tp::windowUtilization(channels, s.run.bin, 0, r.makespan);
  QVERIFY(std::abs(whole - busy / links / static_cast<double>(r.makespan)) < 1e-3 * whole);
  const auto json = resultsToJson(r, s)["tp"];
  QCOMPARE(json["sublayer_utilization"]["L1"].get<double>(), r.tp->sublayer_utilization[0]);
  QCOMPARE(json["sublayer_utilization_mean"].get<double>(), r.tp->sublayer_utilization[0]);  // L1 only
}

// Coordinated dataflow runs GEMM-RS and AG-GEMM at once, so a GPU can lead in one and
// trail in the other. With the throttle at a single waiting group and row-ready flags
// arriving at each GPU at different times, every layer must still finish: the switch
// throttles per kernel (group_sync_table.h) and AG-GEMM's TB groups start in kernel order
// (TpAgent::dispatch). Counted per GPU, or started as rows became ready, GPUs stalled
// with every SM held by a group waiting on another throttled GPU (Mega-GPT-4B
// cais_partial in cais-table1-schemes.yaml never finished L2).
void TestTpLayer::dataflowUnderThrottleCompletes_data() {
  QTest::addColumn<int>("scheme");
  QTest::addColumn<int>("throttleOn");
  QTest::newRow("cais_partial, throttle_on 1") << int(TpScheme::CaisPartial) << 1;
  QTest::newRow("cais, throttle_on 2") << int(TpScheme::Cais) << 2;
}

void TestTpLayer::dataflowUnderThrottleCompletes() {
  QFETCH(int, scheme);
  QFETCH(int, throttleOn);
  Scenario s = smallLayer(static_cast<TpScheme>(scheme), TpPhase::Training);
  s.topology.gpus = 8;
  s.workload.tp.batch = 8;  // 4,096 tokens: 4 row blocks per GPU (counted per GPU, these stalled)
  s.workload.tp.throttle_on = throttleOn;
  s.workload.tp.throttle_off = throttleOn / 2;
  const Results r = runScenario(s);
  QCOMPARE(r.agents_unfinished, qint64(0));
  QCOMPARE(r.packets_in_flight, qint64(0));
  QVERIFY(r.cais->throttle_events > 0);
  for (int i = 0; i < 4; ++i) QVERIFY(r.tp->sublayer[static_cast<std::size_t>(i)] > 0);
}

// workload.tp.model fills gpu.sms (specs/cais.md §1.2-1.3: Table I's models and Table II's
// half setup on 66 SMs, Table II's full one on 132), explicit GPU keys win, and a sweep
// over the model resizes the GPU per point. Every bundled CAIS scenario once ran on 132:
// the defaults (llama-7b, an H100's 132 SMs) disagreed and the preset rule kept 132.
void TestTpLayer::modelSizesTheGpu_data() {
  QTest::addColumn<QString>("gpuAndModel");
  QTest::addColumn<QList<int>>("sms");  // per sweep point (one without a sweep)
  QTest::newRow("default model") << "" << QList<int>{66};
  QTest::newRow("llama-7b") << "workload:\n  kind: tp_layer\n  tp:\n    model: llama-7b\n" << QList<int>{66};
  QTest::newRow("mega-gpt-4b") << "workload:\n  kind: tp_layer\n  tp:\n    model: mega-gpt-4b\n" << QList<int>{66};
  QTest::newRow("table2-full") << "workload:\n  kind: tp_layer\n  tp:\n    model: table2-full\n" << QList<int>{132};
  QTest::newRow("gpu.sms wins") << "gpu:\n  sms: 100\nworkload:\n  kind: tp_layer\n  tp:\n    model: llama-7b\n"
                                << QList<int>{100};
  QTest::newRow("gpu.preset wins") << "gpu:\n  preset: h100\nworkload:\n  kind: tp_layer\n" << QList<int>{132};
  QTest::newRow("custom: the GPU's") << "workload:\n  kind: tp_layer\n  tp:\n    model: custom\n" << QList<int>{132};
  QTest::newRow("sweep full, half") << "workload:\n  kind: tp_layer\n  tp:\n    model: table2-half\n"
                                       "sweep:\n  - key: workload.tp.model\n    values: [table2-full, table2-half]\n"
                                    << QList<int>{132, 66};
  QTest::newRow("sweep Table I") << "workload:\n  kind: tp_layer\nsweep:\n  - key: workload.tp.model\n"
                                    "    values: [mega-gpt-4b, table2-full, llama-7b]\n"
                                 << QList<int>{66, 132, 66};
}

void TestTpLayer::modelSizesTheGpu() {
  QFETCH(QString, gpuAndModel);
  QFETCH(QList<int>, sms);
  QString text = "fabriclab: 1\ntopology:\n  preset: dgx-h100\n" + gpuAndModel;
  if (!gpuAndModel.contains("kind: tp_layer")) text += "workload:\n  kind: tp_layer\n";
  const Scenario s = parseScenario(text.toStdString(), "tp.yaml");
  const std::vector<Scenario> points = prepareSweepPoints(s);
  QCOMPARE(points.size(), std::size_t(sms.size()));
  for (std::size_t i = 0; i < points.size(); ++i) QCOMPARE(points[i].gpu.sms, sms[static_cast<qsizetype>(i)]);
}

// What must agree with seed 002 §V-A, structurally: where communication binds (the
// communication-bound 4-GPU layer), SP-NVLS is slowest (spec C6: its RS and AG each leave
// one link direction idle, 1.49x TP-NVLS's all-reduce on the wire) and CAIS fastest (RS
// and AG overlapped, TP-NVLS's all-reduce 1.256x the overlapped pair's wire time).
void TestTpLayer::schemeOrderWhereCommunicationBinds() {
  Time layer[3] = {0, 0, 0};
  int i = 0;
  for (TpScheme sc : {TpScheme::SpNvls, TpScheme::TpNvls, TpScheme::Cais}) {
    const Results r = runScenario(commBoundLayer(sc));
    QCOMPARE(r.agents_unfinished, qint64(0));
    layer[i++] = r.tp->layer;
  }
  qInfo("layer: sp_nvls %.1f us, tp_nvls %.1f us, cais %.1f us", layer[0] / 1e6, layer[1] / 1e6, layer[2] / 1e6);
  QVERIFY(layer[0] > layer[1]);
  QVERIFY(layer[1] > layer[2]);
}

QTEST_GUILESS_MAIN(TestTpLayer)
#include "test_tp_layer.moc"
