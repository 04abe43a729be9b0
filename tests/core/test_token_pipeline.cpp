// Fusion schemes end to end on a small MoE layer (8 H100s on NVSwitch): the work done is
// the work the routing implies (thread blocks counted from the routing here), launches
// and their overhead follow the scheme and scheme.launch, every task starts after the
// task that made it ready, the traffic does not depend on the schedule, the persistent
// kernel keeps SMs busier than sequential kernels, jitter costs synchronous schemes more
// than the persistent one (seed 001 §3), and results do not depend on threads. The DySHARP
// ablation's orderings are test_moe_ablation's.
#include <QtTest>

#include <cmath>
#include <map>
#include <set>

#include "moe/placement.h"
#include "moe/routing.h"
#include "scenario/scenario.h"
#include "scenario/scenario_io.h"
#include "sim/run.h"

using namespace fl;

namespace {

Scenario small(MoeFusion fusion, MoeCommunication comm = MoeCommunication::DeepEp) {
  Scenario s;
  s.topology.preset = "dgx-h100";
  s.network.packet_payload = 4096;
  s.network.vc_depth_flits = 1024;
  s.network.reduction_buffer = 1 << 20;
  s.workload.kind = WorkloadKind::MoeLayer;
  MoeSpec& m = s.workload.moe;
  m.model = "custom";
  m.tokens_per_gpu = 512;
  m.hidden = 2048;
  m.expert_ffn = 1024;
  m.experts = 16;
  m.top_k = 2;
  m.dispatch_dtype = Dtype::Bf16;
  m.combine_dtype = Dtype::Bf16;
  s.scheme.communication = comm;
  s.scheme.fusion = fusion;
  s.run.bin = 1 * kMicrosecond;
  return s;
}

// Rows per (GPU, local expert) counted from the routing: tile rows of 128 tokens.
std::int64_t expectedTileRows(const Scenario& s) {
  RoutingParams p = routingParams(s);
  p.gpus = 8;
  const Routing r = generateRouting(p);
  std::map<int, std::int64_t> rows;
  for (int g = 0; g < 8; ++g)
    for (int t = 0; t < p.tokens_per_gpu; ++t)
      for (int e : r.chosen(g, t)) ++rows[e];
  std::int64_t tiles = 0;
  for (const auto& [e, n] : rows) tiles += (n + 127) / 128;
  return tiles;
}

const char* fusionName(MoeFusion f) {
  switch (f) {
    case MoeFusion::Sequential: return "sequential";
    case MoeFusion::Overlap: return "overlap";
    case MoeFusion::TokenCentric: return "token_centric";
    case MoeFusion::Persistent: return "persistent";
    default: return "comm_only";
  }
}

}  // namespace

class TestTokenPipeline : public QObject {
  Q_OBJECT
 private slots:
  void schemes_data();
  void schemes();
  void launchOverhead_data();
  void launchOverhead();
  void persistentKeepsSmsBusy();
  void jitterHitsSynchronousSchemes();
  void jitterCostIsProportional_data();
  void jitterCostIsProportional();
  void threadsDoNotMatter();
  void capacityPadding_data();
  void capacityPadding();
  void ldReduceSlotsNeverStall_data();
  void ldReduceSlotsNeverStall();
  void dispatchWindowAcks_data();
  void dispatchWindowAcks();
};

void TestTokenPipeline::schemes_data() {
  QTest::addColumn<int>("fusion");
  QTest::addColumn<int>("comm");
  QTest::addColumn<int>("launches");
  for (MoeFusion f : {MoeFusion::Sequential, MoeFusion::Overlap, MoeFusion::TokenCentric, MoeFusion::Persistent})
    for (MoeCommunication c : {MoeCommunication::DeepEp, MoeCommunication::NvlsStatic, MoeCommunication::DySharp,
                               MoeCommunication::Explicit}) {
      const int launches = f == MoeFusion::Sequential ? 4 : f == MoeFusion::Overlap ? 2 : 1;
      const char* comm = c == MoeCommunication::DeepEp       ? " deepep"
                         : c == MoeCommunication::NvlsStatic ? " nvls_static"
                         : c == MoeCommunication::DySharp    ? " dysharp"
                                                             : " explicit";
      QTest::newRow((std::string(fusionName(f)) + comm).c_str()) << int(f) << int(c) << launches;
    }
}

void TestTokenPipeline::schemes() {
  QFETCH(int, fusion);
  QFETCH(int, comm);
  QFETCH(int, launches);
  const Scenario s = small(MoeFusion(fusion), MoeCommunication(comm));
  const Results r = runScenario(s);
  QVERIFY(r.pipeline.has_value());
  const PipelineResults& p = *r.pipeline;
  QCOMPARE(p.kernel_launches, std::int64_t(launches));
  QCOMPARE(r.packets_in_flight, std::int64_t(0));
  QCOMPARE(r.agents_unfinished, std::int64_t(0));
  // Thread blocks: every tile row once through GEMM-1 and once through GEMM-2.
  const int taskN = MoeFusion(fusion) == MoeFusion::Persistent ? s.scheme.persistent.task_n : s.gpu.tile_n;
  const std::int64_t perRow[2] = {(2 * 1024 + taskN - 1) / taskN, (2048 + taskN - 1) / taskN};
  std::int64_t blocks[2] = {0, 0}, dispatchTokens = 0;
  for (const PipelineTask& t : p.tasks) {
    if (t.kind == PipelineTaskKind::Gemm1) blocks[0] += t.sms;
    if (t.kind == PipelineTaskKind::Gemm2) blocks[1] += t.sms;
    if (t.kind == PipelineTaskKind::Dispatch) dispatchTokens += t.tokens;
    QVERIFY(t.end >= t.start);
    if (t.after < 0) continue;
    const PipelineTask& before = p.tasks[static_cast<std::size_t>(t.after)];
    // A GEMM-1 row waits for one token of a dispatch chunk (which may still be sending
    // its others); everything else waits for its predecessor to finish.
    if (before.kind == PipelineTaskKind::Dispatch) QVERIFY(before.start <= t.start);
    else QVERIFY2(before.end <= t.start, pipelineTaskKindName(t.kind));
  }
  const std::int64_t tiles = expectedTileRows(s);
  QCOMPARE(blocks[0], tiles * perRow[0]);
  QCOMPARE(blocks[1], tiles * perRow[1]);
  QCOMPARE(dispatchTokens, std::int64_t(8 * 512));
  QVERIFY(p.sm_utilization > 0 && p.sm_utilization <= 1);
  QVERIFY(r.makespan > 0);
  // The schedule does not change what crosses the fabric: same useful bytes as comm_only.
  const Results ref = runScenario(small(MoeFusion::CommOnly, MoeCommunication(comm)));
  for (std::size_t i = 0; i < r.breakdown.size(); ++i) QCOMPARE(r.breakdown[i].useful, ref.breakdown[i].useful);
}

void TestTokenPipeline::launchOverhead_data() {
  QTest::addColumn<int>("fusion");
  QTest::addColumn<QString>("baseline");
  QTest::addColumn<int>("kernels");
  QTest::newRow("sequential own kernels") << int(MoeFusion::Sequential) << "custom" << 4;
  QTest::newRow("megatron_deepep") << int(MoeFusion::Sequential) << "megatron_deepep" << 432;
  QTest::newRow("comet") << int(MoeFusion::Overlap) << "comet" << 33;
  QTest::newRow("flashdmoe") << int(MoeFusion::Persistent) << "flashdmoe" << 1;
}

// Host launches are issued one after another: each pass waits kernels x overhead.
void TestTokenPipeline::launchOverhead() {
  QFETCH(int, fusion);
  QFETCH(QString, baseline);
  QFETCH(int, kernels);
  Scenario s = small(MoeFusion(fusion));
  s.scheme.launch.kernels = baseline == "custom" ? 0 : kernels;
  s.scheme.launch.overhead = 3 * kMicrosecond;
  s.scheme.stragglers.steps = 2;
  const Results r = runScenario(s);
  QCOMPARE(r.pipeline->kernel_launches, std::int64_t(kernels));
  QCOMPARE(r.pipeline->launch_overhead, Time(2) * kernels * 3 * kMicrosecond);
  QCOMPARE(r.pipeline->step_delays.size(), std::size_t(2));
  // A gap before the first kernel: nothing starts before the launches are done.
  Time first = r.makespan;
  for (const PipelineTask& t : r.pipeline->tasks)
    if (t.kind != PipelineTaskKind::LaunchGap && t.kind != PipelineTaskKind::Barrier) first = std::min(first, t.start);
  QVERIFY(first >= 3 * kMicrosecond);
}

// Seed 001 §6.3: one persistent kernel keeps SMs far busier than launched kernels.
void TestTokenPipeline::persistentKeepsSmsBusy() {
  Scenario seq = small(MoeFusion::Sequential);
  seq.scheme.launch.kernels = 432;
  const Results a = runScenario(seq);
  const Results b = runScenario(small(MoeFusion::Persistent));
  QVERIFY2(b.pipeline->sm_utilization > 1.5 * a.pipeline->sm_utilization,
           qPrintable(QString("%1 vs %2").arg(b.pipeline->sm_utilization).arg(a.pipeline->sm_utilization)));
  QVERIFY(b.makespan < a.makespan);
}

// Seed 001 §3.1: kernel-start jitter delays every synchronous kernel boundary, the
// persistent kernel only once per pass.
void TestTokenPipeline::jitterHitsSynchronousSchemes() {
  const auto cost = [](MoeFusion f) {
    Scenario s = small(f);
    s.scheme.stragglers.steps = 4;
    const Time calm = runScenario(s).makespan;
    s.scheme.stragglers.start_jitter_distribution = NoiseDistribution::Exponential;
    s.scheme.stragglers.start_jitter = 20 * kMicrosecond;
    const Results r = runScenario(s);
    return std::pair<Time, Time>(r.makespan - calm, r.pipeline->straggler_delay_p95);
  };
  const auto [seqCost, seqDelay] = cost(MoeFusion::Sequential);
  const auto [perCost, perDelay] = cost(MoeFusion::Persistent);
  QVERIFY2(seqCost > 2 * perCost, qPrintable(QString("%1 vs %2").arg(seqCost).arg(perCost)));
  QVERIFY(seqDelay > perDelay);
  QVERIFY(seqDelay > 0);
}

void TestTokenPipeline::jitterCostIsProportional_data() {
  QTest::addColumn<int>("fusion");
  QTest::addColumn<int>("jitterUs");
  QTest::addColumn<int>("launches");  // barrier-separated kernel starts per GPU over the run
  for (int j : {10, 20, 40}) {
    QTest::addRow("sequential, %d us", j) << int(MoeFusion::Sequential) << j << 4 * 4;
    QTest::addRow("persistent, %d us", j) << int(MoeFusion::Persistent) << j << 1 * 4;
  }
}

// Exponential start jitter of mean J on each of G = 8 GPUs: a kernel that waits for all
// GPUs' data starts, in effect, at the latest of G draws, E[max] = J x H_G (H_8 =
// 761/280), so over 4 steps the layer loses about launches x H_8 x J: 16 kernels for
// sequential, one per step for the persistent kernel (seed 001 §3.1: fewer launches,
// fewer points where the slowest GPU sets the pace).
void TestTokenPipeline::jitterCostIsProportional() {
  QFETCH(int, fusion);
  QFETCH(int, jitterUs);
  QFETCH(int, launches);
  Scenario s = small(MoeFusion(fusion));
  s.scheme.stragglers.steps = 4;
  const Time calm = runScenario(s).makespan;
  s.scheme.stragglers.start_jitter_distribution = NoiseDistribution::Exponential;
  s.scheme.stragglers.start_jitter = jitterUs * kMicrosecond;
  const double cost = static_cast<double>(runScenario(s).makespan - calm);
  const double expected = launches * (761.0 / 280.0) * jitterUs * static_cast<double>(kMicrosecond);
  QVERIFY2(cost > 0.75 * expected && cost < 1.3 * expected,
           qPrintable(QString("lost %1 us, closed form %2 us").arg(cost / 1e6).arg(expected / 1e6)));
}

void TestTokenPipeline::threadsDoNotMatter() {
  Scenario s = small(MoeFusion::TokenCentric, MoeCommunication::DySharp);
  s.run.partitions = 3;
  const Results one = runScenario(s);
  s.run.threads = 2;
  const Results two = runScenario(s);
  QCOMPARE(one.makespan, two.makespan);
  QVERIFY(one.pipeline->tasks == two.pipeline->tasks);
}

void TestTokenPipeline::capacityPadding_data() {
  QTest::addColumn<bool>("payloadEfficient");
  QTest::addColumn<QString>("phase");
  for (bool efficient : {true, false})
    for (const char* phase : {"dispatch", "combine"})
      QTest::addRow("%s %s", efficient ? "payload-efficient" : "padded", phase) << efficient << QString(phase);
}

// FlashDMoE without payload efficiency moves every (source GPU, remote expert) cell padded
// to the expert capacity EC = ceil(cf x tokens / experts) rows (seed 001 §5.4), both ways;
// the padding is useless downlink data. Expected bytes are counted from the routing and
// the placement here (experts 16 over 8 GPUs, contiguous: expert e on GPU e / 2).
void TestTokenPipeline::capacityPadding() {
  QFETCH(bool, payloadEfficient);
  QFETCH(QString, phase);
  Scenario s = small(MoeFusion::Persistent);
  s.workload.moe.routing.distribution = RoutingDistribution::Normal;  // uneven loads: some cells short
  s.scheme.persistent.payload_efficient = payloadEfficient;
  s.scheme.persistent.capacity_factor = 2.0;
  const Results r = runScenario(s);
  RoutingParams p = routingParams(s);
  p.gpus = 8;
  const Routing routing = generateRouting(p);
  const std::int64_t capacity = static_cast<std::int64_t>(std::ceil(2.0 * 512 / 16));
  std::int64_t padRows = 0;
  for (int g = 0; g < 8; ++g) {
    std::map<int, std::int64_t> rows;
    for (int t = 0; t < 512; ++t)
      for (int e : routing.chosen(g, t)) ++rows[e];
    for (int e = 0; e < 16; ++e)
      if (e / 2 != g) padRows += std::max<std::int64_t>(0, capacity - rows[e]);
  }
  QVERIFY(padRows > 0);
  const std::int64_t expected = payloadEfficient ? 0 : padRows * 2048 * 2;  // BF16 rows of hidden 2048
  std::int64_t useless = -1;
  for (const auto& b : r.breakdown)
    if (b.phase == phase.toStdString() && b.direction == "downlink") useless = b.useless;
  QCOMPARE(useless, expected);
}

void TestTokenPipeline::ldReduceSlotsNeverStall_data() {
  QTest::addColumn<int>("fusion");
  QTest::addColumn<int>("tokens");
  QTest::addColumn<int>("inFlight");
  for (MoeFusion f : {MoeFusion::Sequential, MoeFusion::Overlap, MoeFusion::TokenCentric})
    for (int tokens : {128, 256})
      for (int inFlight : {1, 2})
        QTest::addRow("%s, %d tokens, %d per SM", fusionName(f), tokens, inFlight) << int(f) << tokens << inFlight;
}

// A token that becomes ready while every ld_reduce slot is busy must still be combined
// once a slot frees. It once waited forever and the run ended without the GPUs finishing
// (token_centric at 128 tokens and overlap at 256 did). Every GPU finishes, and the
// useful bytes are those of the same layer run without a schedule (comm_only).
void TestTokenPipeline::ldReduceSlotsNeverStall() {
  QFETCH(int, fusion);
  QFETCH(int, tokens);
  QFETCH(int, inFlight);
  Scenario s = small(MoeFusion(fusion), MoeCommunication::DySharp);
  s.workload.moe.tokens_per_gpu = tokens;
  s.scheme.ld_reduce_in_flight = inFlight;
  const Results r = runScenario(s);
  QCOMPARE(r.agents_unfinished, std::int64_t(0));
  QVERIFY(r.pipeline.has_value());
  for (const PipelineTask& t : r.pipeline->tasks) QVERIFY(t.end >= t.start);
  Scenario plain = small(MoeFusion::CommOnly, MoeCommunication::DySharp);
  plain.workload.moe.tokens_per_gpu = tokens;
  const Results ref = runScenario(plain);
  for (std::size_t i = 0; i < r.breakdown.size(); ++i) QCOMPARE(r.breakdown[i].useful, ref.breakdown[i].useful);
}

void TestTokenPipeline::dispatchWindowAcks_data() {
  QTest::addColumn<int>("fusion");
  QTest::addColumn<int>("window");
  for (MoeFusion f : {MoeFusion::Sequential, MoeFusion::Overlap, MoeFusion::TokenCentric, MoeFusion::Persistent})
    for (int window : {1, 4}) QTest::newRow((std::string(fusionName(f)) + " st_in_flight " + std::to_string(window)).c_str()) << int(f) << window;
}

// scheme.dysharp.st_in_flight: every destination acknowledges each whole dymultimem.st
// token with one header-only response (16 B flit) up its link and down the source's; the
// window only paces Dispatch, so apart from those the same useful bytes cross. Acks
// are counted from the routing here: one per (token, distinct remote GPU of its experts),
// experts 16 over 8 GPUs, contiguous (expert e on GPU e / 2).
void TestTokenPipeline::dispatchWindowAcks() {
  QFETCH(int, fusion);
  QFETCH(int, window);
  Scenario s = small(MoeFusion(fusion), MoeCommunication::DySharp);
  s.scheme.st_in_flight = window;
  const Results paced = runScenario(s);
  s.scheme.st_in_flight = 0;
  const Results unpaced = runScenario(s);
  QCOMPARE(paced.agents_unfinished, std::int64_t(0));
  QCOMPARE(paced.packets_in_flight, std::int64_t(0));
  RoutingParams p = routingParams(s);
  p.gpus = 8;
  const Routing routing = generateRouting(p);
  std::int64_t acks = 0;
  for (int g = 0; g < 8; ++g)
    for (int t = 0; t < 512; ++t) {
      std::set<int> gpus;
      for (int e : routing.chosen(g, t))
        if (e / 2 != g) gpus.insert(e / 2);
      acks += static_cast<std::int64_t>(gpus.size());
    }
  QVERIFY(acks > 0);
  for (std::size_t i = 0; i < paced.breakdown.size(); ++i) {
    const auto &a = paced.breakdown[i], &b = unpaced.breakdown[i];
    QCOMPARE(a.useful, b.useful);
    QCOMPARE(a.redundant + a.useless, b.redundant + b.useless);
    // Combine's overhead holds the readiness notifications, whose token lists depend on
    // timing; Dispatch's is fixed but for the acknowledgements.
    if (a.phase == "dispatch") QCOMPARE(a.overhead - b.overhead, acks * 16);
  }
}

QTEST_GUILESS_MAIN(TestTokenPipeline)
#include "test_token_pipeline.moc"
