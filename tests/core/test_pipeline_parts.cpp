// The token pipeline's parts on their own: the SM scheduler (waves, GEMM groups sharing
// SMs, first come first served, kernels not started), fusion layouts (launch counts, SM
// groups), straggler noise means, the tracker table and nearest-rank percentiles.
// Expected values are closed forms or brute-force counts made here.
#include <QtTest>

#include <cmath>

#include "gpu/token_tracker.h"
#include "pipeline/fusion_layout.h"
#include "pipeline/launch_baselines.h"
#include "pipeline/sm_scheduler.h"
#include "pipeline/straggler_noise.h"
#include "scenario/input_error.h"
#include "workloads/pipeline_results.h"

using namespace fl;

namespace {

SmGroup group(int sms, std::vector<int> kinds, bool fcfs = false) {
  SmGroup g;
  g.name.assign(1, 'g');  // not = "g": GCC 12 misreads that as an overlapping copy (-Wrestrict)
  g.sms = sms;
  g.kinds = std::move(kinds);
  g.firstComeFirstServed = fcfs;
  return g;
}

}  // namespace

class TestPipelineParts : public QObject {
  Q_OBJECT
 private slots:
  void waves_data();
  void waves();
  void gemmGroupsShare();
  void firstComeFirstServed();
  void disabledKindsWait();
  void launches_data();
  void launches();
  void automaticSplit_data();
  void automaticSplit();
  void noiseMean_data();
  void noiseMean();
  void trackerSpills();
  void percentile_data();
  void percentile();
  void baselineTable();
};

// N thread blocks on S SMs, all released together each wave: ceil(N / S) waves, the
// last holding N - (waves - 1) S blocks.
void TestPipelineParts::waves_data() {
  QTest::addColumn<int>("blocks");
  QTest::addColumn<int>("sms");
  QTest::newRow("fits") << 10 << 16;
  QTest::newRow("exact") << 32 << 16;
  QTest::newRow("ragged") << 33 << 16;
  QTest::newRow("one SM") << 5 << 1;
  QTest::newRow("H100 row") << 56 << 132;
}

void TestPipelineParts::waves() {
  QFETCH(int, blocks);
  QFETCH(int, sms);
  SmScheduler s({group(sms, {kTaskGemm1})});
  s.push({kTaskGemm1, 0, blocks, 1000, 0, -1});
  int waves = 0, last = 0;
  for (;;) {
    const auto started = s.fill();
    if (started.empty()) break;
    ++waves;
    last = 0;
    for (const auto& b : started) last += b.work.units;
    QVERIFY(s.busy() <= sms);
    for (const auto& b : started) s.release(b.group, b.work.units);
  }
  QCOMPARE(waves, (blocks + sms - 1) / sms);
  QCOMPARE(last, blocks - (waves - 1) * sms);
}

// Seed 000 §IV-C1: GEMM-1 and GEMM-2 groups take each other's blocks when idle.
void TestPipelineParts::gemmGroupsShare() {
  SmScheduler s({group(2, {kTaskDispatch}), group(4, {kTaskGemm1, kTaskGemm2}), group(3, {kTaskGemm2, kTaskGemm1})});
  s.push({kTaskGemm2, 0, 10, 1000, 0, -1});
  int units = 0;
  for (const auto& b : s.fill()) {
    QCOMPARE(b.work.kind, int(kTaskGemm2));
    QVERIFY(b.group != 0);  // the dispatch group never runs GEMMs
    units += b.work.units;
  }
  QCOMPARE(units, 7);
  QCOMPARE(s.busy(), 7);
}

// FlashDMoE's scheduler is work-conserving in readiness order across task kinds.
void TestPipelineParts::firstComeFirstServed() {
  SmScheduler s({group(1, {kTaskDispatch, kTaskGemm1, kTaskGemm2, kTaskCombine}, true)});
  s.push({kTaskCombine, 7, 1, 0, 2, -1});
  s.push({kTaskGemm2, 8, 1, 10, 0, -1});
  s.push({kTaskGemm1, 9, 1, 10, 1, -1});
  std::vector<int> ids;
  for (int i = 0; i < 3; ++i) {
    const auto started = s.fill();
    QCOMPARE(started.size(), std::size_t(1));
    ids.push_back(started[0].work.id);
    s.release(0, 1);
  }
  QCOMPARE(ids, (std::vector<int>{8, 9, 7}));
}

void TestPipelineParts::disabledKindsWait() {
  SmScheduler s({group(4, {kTaskGemm1, kTaskGemm2})});
  s.setEnabled(kTaskGemm2, false);
  s.push({kTaskGemm2, 0, 3, 10, 0, -1});
  QVERIFY(s.fill().empty());
  QVERIFY(s.queued(kTaskGemm2));
  s.setEnabled(kTaskGemm2, true);
  QCOMPARE(s.fill().size(), std::size_t(1));
}

// scheme.launch.kernels spread over the scheme's kernels: the sum is the count asked for
// (at least one per kernel) and kernels differ by at most one launch.
void TestPipelineParts::launches_data() {
  QTest::addColumn<int>("fusion");
  QTest::addColumn<int>("kernels");
  QTest::addColumn<int>("stages");
  QTest::addColumn<int>("launches");
  QTest::newRow("sequential own") << int(MoeFusion::Sequential) << 0 << 4 << 4;
  QTest::newRow("sequential megatron_deepep") << int(MoeFusion::Sequential) << 432 << 4 << 432;
  QTest::newRow("sequential deepspeed") << int(MoeFusion::Sequential) << 550 << 4 << 550;
  QTest::newRow("overlap comet") << int(MoeFusion::Overlap) << 33 << 2 << 33;
  QTest::newRow("token_centric") << int(MoeFusion::TokenCentric) << 0 << 1 << 1;
  QTest::newRow("persistent flashdmoe") << int(MoeFusion::Persistent) << 1 << 1 << 1;
  // One fused kernel is one launch whatever count a baseline would give the others.
  QTest::newRow("persistent ignores a baseline's count") << int(MoeFusion::Persistent) << 432 << 1 << 1;
  QTest::newRow("token_centric ignores a baseline's count") << int(MoeFusion::TokenCentric) << 261 << 1 << 1;
  QTest::newRow("fewer than kernels") << int(MoeFusion::Sequential) << 2 << 4 << 4;
}

void TestPipelineParts::launches() {
  QFETCH(int, fusion);
  QFETCH(int, kernels);
  QFETCH(int, stages);
  QFETCH(int, launches);
  Scenario s;
  s.scheme.fusion = MoeFusion(fusion);
  s.scheme.launch.kernels = kernels;
  const double flops[2] = {2, 1};
  const FusionLayout f = fusionLayout(s, flops);
  QCOMPARE(int(f.stages.size()), stages);
  QCOMPARE(f.launchesPerPass(), launches);
  int lo = 1 << 30, hi = 0, sms = f.osSms;
  for (const auto& k : f.stages) lo = std::min(lo, k.launches), hi = std::max(hi, k.launches);
  QVERIFY(hi - lo <= 1);
  for (const auto& g : f.groups) sms += g.sms;
  QCOMPARE(sms, s.gpu.sms);  // every SM belongs to exactly one group
}

void TestPipelineParts::automaticSplit_data() {
  QTest::addColumn<int>("sms");
  QTest::addColumn<int>("comm");
  QTest::newRow("H100") << 132 << 20;
  QTest::newRow("A100") << 108 << 20;
  QTest::newRow("tiny") << 8 << 20;
  QTest::newRow("B200") << 148 << 32;
}

// Dispatch and Combine get comm_sms / 2 each; the GEMMs split the rest 2:1 (GEMM-1 has
// N = 2 x ffn with K = hidden, GEMM-2 N = hidden with K = ffn: twice the FLOPs).
void TestPipelineParts::automaticSplit() {
  QFETCH(int, sms);
  QFETCH(int, comm);
  const double flops[2] = {2, 1};
  int split[4];
  automaticTokenCentricSplit(sms, comm, flops, split);
  QCOMPARE(split[0] + split[1] + split[2] + split[3], sms);
  for (int g : split) QVERIFY(g >= 1);
  QCOMPARE(split[0], split[3]);
  const int rest = sms - 2 * split[0];
  QVERIFY(std::abs(split[1] - 2.0 * rest / 3.0) <= 1.0);
}

void TestPipelineParts::noiseMean_data() {
  QTest::addColumn<int>("distribution");
  QTest::addColumn<double>("mean");
  QTest::newRow("none") << int(NoiseDistribution::None) << 0.5;
  QTest::newRow("exponential") << int(NoiseDistribution::Exponential) << 0.3;
  QTest::newRow("lognormal") << int(NoiseDistribution::Lognormal) << 0.3;
  QTest::newRow("lognormal us") << int(NoiseDistribution::Lognormal) << 20e6;
}

// The sample mean of 400 000 draws is within 2 % of the asked mean (lognormal sigma 1 has
// standard deviation 1.31 x mean, so the standard error is 0.2 %).
void TestPipelineParts::noiseMean() {
  QFETCH(int, distribution);
  QFETCH(double, mean);
  RandomStream rng(42, 7);
  double sum = 0;
  const int n = 400000;
  for (int i = 0; i < n; ++i) {
    const double v = sampleNoise(NoiseDistribution(distribution), mean, rng);
    QVERIFY(v >= 0);
    sum += v;
  }
  const double expected = distribution == int(NoiseDistribution::None) ? 0.0 : mean;
  QVERIFY2(std::abs(sum / n - expected) <= 0.02 * mean, qPrintable(QString::number(sum / n)));
}

// Entries beyond the table's size spill; only accesses to spilled entries cost time.
void TestPipelineParts::trackerSpills() {
  TrackerTable t(3, 500);
  std::vector<bool> spilled;
  for (int i = 0; i < 5; ++i) spilled.push_back(t.allocate());
  QCOMPARE(spilled, (std::vector<bool>{false, false, false, true, true}));
  QCOMPARE(t.peak(), std::int64_t(5));
  QCOMPARE(t.access(false), Time(0));
  QCOMPARE(t.access(true), Time(500));
  QCOMPARE(t.overflows(), std::int64_t(1));
  t.release();
  QCOMPARE(t.live(), std::int64_t(4));
}

void TestPipelineParts::percentile_data() {
  QTest::addColumn<QList<qint64>>("values");
  QTest::addColumn<double>("p");
  QTest::addColumn<qint64>("expected");
  QList<qint64> hundred;
  for (int i = 100; i >= 1; --i) hundred << i;
  QTest::newRow("p95 of 1..100") << hundred << 95.0 << qint64(95);
  QTest::newRow("p50 of four") << QList<qint64>{4, 1, 3, 2} << 50.0 << qint64(2);
  QTest::newRow("p95 of one") << QList<qint64>{7} << 95.0 << qint64(7);
  QTest::newRow("p95 of twenty") << QList<qint64>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}
                                 << 95.0 << qint64(19);
  QTest::newRow("none") << QList<qint64>{} << 95.0 << qint64(0);
}

void TestPipelineParts::percentile() {
  QFETCH(QList<qint64>, values);
  QFETCH(double, p);
  QFETCH(qint64, expected);
  std::vector<Time> v(values.begin(), values.end());
  QCOMPARE(qint64(work::percentile(v, p)), expected);
}

// Seed 001 Table 1.1.
void TestPipelineParts::baselineTable() {
  QCOMPARE(launchBaselineKernels("flashdmoe"), 1);
  QCOMPARE(launchBaselineKernels("comet"), 33);
  QCOMPARE(launchBaselineKernels("megatron_cutlass"), 85);
  QCOMPARE(launchBaselineKernels("megatron_te"), 261);
  QCOMPARE(launchBaselineKernels("megatron_deepep"), 432);
  QCOMPARE(launchBaselineKernels("deepspeed_moe"), 550);
  QVERIFY_THROWS_EXCEPTION(InputError, launchBaselineKernels("megatron"));
}

QTEST_GUILESS_MAIN(TestPipelineParts)
#include "test_pipeline_parts.moc"
