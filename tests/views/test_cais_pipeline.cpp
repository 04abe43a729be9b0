// The Pipeline view of a tensor-parallel layer (core/results/tp_timeline.h): per GPU, the
// GEMMs, the reduce-scatter / all-gather (NVLS collectives or CAIS red.cais / ld.cais),
// LN, AG-GEMM and the waits, on a 2-GPU inference layer small enough to count by hand.
//
// The layer (core/tp/tp_plan.h): QKV GEMM, attention, junction L1 (GEMM-RS -> LN -> FFN1
// AG-GEMM), GELU, junction "ffn2_rs>ln" (GEMM-RS -> LN, no AG side: the last layer).
// T = 1024 tokens, 128-row tiles: 8 row blocks, 4 homed on each GPU. No drift (kernel
// offset, TB noise and stragglers off), so both GPUs reach every barrier together and
// each barrier waits for a flag's flight: every barrier leaves a span.
#include <QtTest>
#include <algorithm>
#include <memory>
#include <qcustomplot.h>
#include <vector>

#include "../core/cais_fixture.h"
#include "results/tp_timeline.h"
#include "sim/run.h"
#include "views/pipeline_bars.h"
#include "views/pipeline_gantt.h"
#include "views/pipeline_rows.h"

using namespace fl;
using namespace fl::views;

namespace {

Scenario tpLayer(TpScheme scheme) {
  Scenario s = caisDgx(2);
  s.network.outstanding_requests = 10240;
  s.workload.kind = WorkloadKind::TpLayer;
  s.workload.tp.model = "custom";
  s.workload.tp.hidden = 512;
  s.workload.tp.ffn_hidden = 2048;
  s.workload.tp.heads = 8;
  s.workload.tp.seq_len = 1024;
  s.workload.tp.batch = 1;
  s.workload.tp.phase = TpPhase::Inference;
  s.workload.tp.layers = 1;
  s.workload.tp.kernel_offset = 0;
  s.workload.tp.tb_noise_cv = 0;
  // 8 SMs: GEMM-RS has 8 x 4 tiles, four waves, so a dataflow AG-GEMM can start inside it.
  s.gpu.sms = 8;
  s.scheme.tp = scheme;
  return s;
}

using Row = TpTimeline::Row;
constexpr int kWhole = TpTimeline::kWholeGpu;

// Tasks of one GPU on one row (255: whole GPU), in start order.
std::vector<PipelineTask> on(const PipelineResults& p, int gpu, int row) {
  std::vector<PipelineTask> out;
  for (const PipelineTask& t : p.tasks)
    if (t.gpu == gpu && t.group == row) out.push_back(t);
  return out;
}
std::vector<PipelineTaskKind> kinds(const std::vector<PipelineTask>& ts) {
  std::vector<PipelineTaskKind> k;
  for (const PipelineTask& t : ts) k.push_back(t.kind);
  return k;
}
int count(const std::vector<PipelineTask>& ts, PipelineTaskKind k) {
  int n = 0;
  for (const PipelineTask& t : ts) n += t.kind == k ? 1 : 0;
  return n;
}

}  // namespace

class TestCaisPipeline : public QObject {
  Q_OBJECT
 private slots:
  void phasesPerGpu_data();
  void phasesPerGpu();
  void ganttShowsTpKinds();
  void smBusyAtMostTheGpu();
};

void TestCaisPipeline::phasesPerGpu_data() {
  QTest::addColumn<int>("scheme");
  QTest::addColumn<bool>("mMajor");  // workload.tp.row_order
  QTest::newRow("tp_nvls") << int(TpScheme::TpNvls) << false;
  QTest::newRow("sp_nvls") << int(TpScheme::SpNvls) << false;
  QTest::newRow("cais_base") << int(TpScheme::CaisBase) << false;
  QTest::newRow("cais_coord") << int(TpScheme::CaisCoord) << false;
  QTest::newRow("cais") << int(TpScheme::Cais) << false;
  // m-major: GPU 0 computes its own row blocks before it pushes any red.cais.
  QTest::newRow("cais m_major") << int(TpScheme::Cais) << true;
}

// Per GPU, counted from the plan above: the GEMM row runs QKV, attention, the L1 GEMM,
// GELU and the FFN2 GEMM in that order (GEMM-RS under CAIS, plain GEMMs under NVLS); LN
// runs once per junction (kernel level) or once per own row block and junction (dataflow:
// 4 x 2); the one AG-GEMM is FFN1's. NVLS: an all-reduce (tp_nvls) or reduce-scatter
// (sp_nvls) per junction after a barrier, and sp_nvls's all-gather after a second
// barrier; CAIS: red.cais from the GEMM-RS on, one ld.cais per row block of the other GPU
// (4), and at kernel level one barrier before AG-GEMM.
void TestCaisPipeline::phasesPerGpu() {
  QFETCH(int, scheme);
  QFETCH(bool, mMajor);
  const auto sch = static_cast<TpScheme>(scheme);
  Scenario s = tpLayer(sch);
  if (mMajor) s.workload.tp.row_order = TpRowOrder::MMajor;
  const Results r = runScenario(s);
  QVERIFY(r.pipeline.has_value());
  const PipelineResults& p = *r.pipeline;
  const bool cais = sch >= TpScheme::CaisBase, dataflow = sch >= TpScheme::CaisPartial;
  const bool coordinated = sch >= TpScheme::CaisCoord;
  QCOMPARE(int(p.groups.size()), coordinated ? 6 : 5);
  QCOMPARE(p.sms, 8);
  QVERIFY(p.sm_utilization > 0 && p.sm_utilization <= 1);
  using K = PipelineTaskKind;
  const K rsGemm = cais ? K::GemmRs : K::LocalGemm;
  for (int g = 0; g < 2; ++g) {
    for (const PipelineTask& t : p.tasks) QVERIFY(t.end > t.start && t.end <= r.makespan);
    const auto gemm = on(p, g, Row::kGemm), ln = on(p, g, Row::kLn), ag = on(p, g, Row::kAgGemm);
    const auto rs = on(p, g, Row::kReduceScatter), gather = on(p, g, Row::kAllGather);
    const auto whole = on(p, g, kWhole), sync = on(p, g, Row::kSync);
    QCOMPARE(kinds(gemm), (std::vector<K>{K::LocalGemm, K::Compute, rsGemm, K::Compute, rsGemm}));
    QCOMPARE(kinds(ag), (std::vector<K>{cais ? K::AgGemm : K::LocalGemm}));
    for (std::size_t i = 1; i < gemm.size(); ++i) QVERIFY2(gemm[i - 1].end <= gemm[i].start, "GEMM row overlaps");
    QCOMPARE(count(ln, K::LayerNorm), dataflow ? 8 : 2);
    QCOMPARE(int(ln.size()), count(ln, K::LayerNorm));
    QCOMPARE(count(sync, K::SyncWait) > 0, coordinated);
    QCOMPARE(int(sync.size()), count(sync, K::SyncWait));
    const PipelineTask& l1 = gemm[2];  // the L1 junction's GEMM(-RS)
    switch (sch) {
      case TpScheme::TpNvls:
      case TpScheme::SpNvls: {
        const bool sp = sch == TpScheme::SpNvls;
        QCOMPARE(kinds(rs), (std::vector<K>{K::Collective, K::Collective}));
        QCOMPARE(kinds(gather), sp ? std::vector<K>{K::Collective} : std::vector<K>{});
        QCOMPARE(count(whole, K::Barrier), sp ? 3 : 2);
        QCOMPARE(int(whole.size()), sp ? 3 : 2);
        // GEMM -> barrier -> collective -> LN, per junction, with nothing overlapping.
        // Barriers in order: junction 1's first (and sp_nvls's second), junction 2's first.
        for (int j = 0; j < 2; ++j) {
          const auto i = static_cast<std::size_t>(j);
          const PipelineTask& barrier = whole[sp ? 2 * i : i];
          QVERIFY(gemm[2 + 2 * i].end <= barrier.start);
          QVERIFY(barrier.end <= rs[i].start);
          QVERIFY(rs[i].end <= ln[i].start);
        }
        if (sp) QVERIFY(ln[0].end <= whole[1].start && whole[1].end <= gather[0].start && gather[0].end <= ag[0].start);
        else QVERIFY(ln[0].end <= ag[0].start);
        break;
      }
      default: {
        QVERIFY(rs.size() >= 2);
        QCOMPARE(count(rs, K::CaisReduce), int(rs.size()));
        QCOMPARE(int(gather.size()), 4);
        std::vector<int> rows;
        for (const PipelineTask& t : gather) {
          QCOMPARE(t.kind, K::CaisLoad);
          rows.push_back(t.tile);
          QVERIFY(t.start >= ag[0].start && t.end <= ag[0].end);  // loads inside the AG-GEMM
        }
        std::sort(rows.begin(), rows.end());
        const int other = 4 * (1 - g);
        QCOMPARE(rows, (std::vector<int>{other, other + 1, other + 2, other + 3}));
        // red.cais starts once a GEMM-RS thread block has finished, during the kernel.
        QVERIFY(rs[0].start > l1.start && rs[0].start < l1.end);
        if (dataflow) {
          QCOMPARE(int(whole.size()), 0);
          QVERIFY2(ag[0].start < l1.end, "AG-GEMM did not overlap GEMM-RS");  // row blocks 0 and 4: first wave
        } else {
          // GEMM-RS -> red.cais until the own rows are complete -> LN -> barrier -> AG-GEMM.
          QCOMPARE(kinds(whole), (std::vector<K>{K::Barrier}));
          QVERIFY(rs[0].end >= l1.end && rs[0].end <= ln[0].start);
          QVERIFY(ln[0].end <= whole[0].start && whole[0].end <= ag[0].start);
          QCOMPARE(int(rs.size()), 2);
        }
        break;
      }
    }
  }
}

// The Gantt draws a row per GPU and phase and keys the kinds the run has, not the MoE ones.
void TestCaisPipeline::ganttShowsTpKinds() {
  const auto r = std::make_shared<const Results>(runScenario(tpLayer(TpScheme::CaisCoord)));
  PipelineGantt gantt(nullptr);
  gantt.resize(900, 500);
  gantt.setResults(r);
  QVERIFY(!gantt.noticeVisible());
  QCOMPARE(gantt.rowCount(), 2 * 6);
  QStringList legend;
  for (int i = 0; i < gantt.plot()->legend->itemCount(); ++i)
    if (auto* item = qobject_cast<QCPPlottableLegendItem*>(gantt.plot()->legend->item(i)))
      legend << item->plottable()->name();
  for (const char* k : {"GEMM", "GEMM-RS", "LN", "AG-GEMM", "red.cais", "ld.cais", "TB sync", "barrier"})
    QVERIFY2(legend.contains(k), k);
  for (const char* k : {"dispatch", "GEMM-1", "combine", "NVLS"}) QVERIFY2(!legend.contains(k), k);
}

// Overlapping GEMM-RS and AG-GEMM spans each carry their kernel's peak SMs: GPU 0's bin 0
// holds 8 + 8 SMs of its 8 and counts as full, not double; an ld.cais span holds none.
// Bin 0: GPU 0 full, GPU 1 idle -> 0.5; bin 1: GPU 0's AG-GEMM alone, half the bin -> 0.25.
void TestCaisPipeline::smBusyAtMostTheGpu() {
  PipelineResults p;
  p.sms = 8;
  auto task = [](Time start, Time end, int gpu, PipelineTaskKind k, int sms) {
    PipelineTask t;
    t.start = start;
    t.end = end;
    t.gpu = gpu;
    t.kind = k;
    t.sms = static_cast<std::uint16_t>(sms);
    return t;
  };
  p.tasks = {task(0, 1000, 0, PipelineTaskKind::GemmRs, 8), task(0, 1500, 0, PipelineTaskKind::AgGemm, 8),
             task(0, 2000, 1, PipelineTaskKind::CaisLoad, 8)};
  const auto busy = smBusyFraction(p, 2, 1000, 2);
  QCOMPARE(busy.size(), std::size_t(2));
  QCOMPARE(busy[0], 0.5);
  QCOMPARE(busy[1], 0.25);
}

QTEST_MAIN(TestCaisPipeline)
#include "test_cais_pipeline.moc"
