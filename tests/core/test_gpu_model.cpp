// The GPU compute model: presets (vendor figures typed in here from the datasheets, not
// read back from the code), tile counts, waves and tile times of GEMMs against the closed
// forms of core/gpu/tile_gemm.h written out by hand, expert GEMMs, and the gpu.* keys.
#include <QtTest>

#include <cmath>

#include "gpu/gpu_spec.h"
#include "gpu/tile_gemm.h"
#include "scenario/scenario_io.h"
#include "scenario/schema.h"
#include "scenario/validate.h"

namespace {

// Runs `f`, which must throw InputError; returns it.
template <class F>
fl::InputError expectError(F f) {
  try {
    f();
  } catch (const fl::InputError& e) {
    return e;
  }
  throw std::runtime_error("expected an InputError");
}

bool near(double a, double b, double rel = 1e-12) { return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b)); }

fl::Dtype dtypeOf(const QString& s) {
  if (s == "fp32") return fl::Dtype::Fp32;
  if (s == "tf32") return fl::Dtype::Tf32;
  if (s == "bf16") return fl::Dtype::Bf16;
  if (s == "fp16") return fl::Dtype::Fp16;
  return fl::Dtype::Fp8;
}

}  // namespace

class TestGpuModel : public QObject {
  Q_OBJECT

 private slots:
  void presets_data();
  void presets();
  void unknownPreset();
  void overrides();
  void tileCount_data();
  void tileCount();
  void gemmTime_data();
  void gemmTime();
  void unsupportedDtype();
  void expertGemms();
  void scenarioKeys();
  void presetKeyOrder();
  void tileErrors_data();
  void tileErrors();
  void fp8NeedsTensorCores();
};

// Dense figures: half of the datasheets' sparsity ("*") numbers.
void TestGpuModel::presets_data() {
  QTest::addColumn<QString>("name");
  QTest::addColumn<int>("sms");
  QTest::addColumn<double>("bf16");
  QTest::addColumn<double>("fp8");
  QTest::addColumn<double>("tf32");
  QTest::addColumn<double>("hbm");
  QTest::addColumn<double>("capacityGB");
  // H100 SXM datasheet: BF16 1979*, FP8 3958*, TF32 989*, 3.35 TB/s, 80 GB; 132 SMs.
  QTest::newRow("h100") << "h100" << 132 << 989.4e12 << 1978.9e12 << 494.7e12 << 3.35e12 << 80.0;
  // H200 SXM: same compute, 4.8 TB/s, 141 GB.
  QTest::newRow("h200") << "h200" << 132 << 989.4e12 << 1978.9e12 << 494.7e12 << 4.8e12 << 141.0;
  // A100 SXM 80GB: BF16 312 (624*), TF32 156 (312*), no FP8, 2039 GB/s; 108 SMs.
  QTest::newRow("a100") << "a100" << 108 << 312e12 << 0.0 << 156e12 << 2.039e12 << 80.0;
  // B200 (HGX B200 per GPU): FP8 9 PF*, BF16 4.5 PF*, TF32 2.2 PF*; 8 TB/s, 180 GB.
  QTest::newRow("b200") << "b200" << 148 << 2250e12 << 4500e12 << 1100e12 << 8e12 << 180.0;
}

void TestGpuModel::presets() {
  QFETCH(QString, name);
  QFETCH(int, sms);
  QFETCH(double, bf16);
  QFETCH(double, fp8);
  QFETCH(double, tf32);
  QFETCH(double, hbm);
  QFETCH(double, capacityGB);
  const fl::GpuSpec g = fl::gpuPreset(name.toStdString());
  QCOMPARE(QString::fromStdString(g.name), name);
  QCOMPARE(g.sms, sms);
  QVERIFY(near(g.flops(fl::Dtype::Bf16), bf16));
  QVERIFY(near(g.flops(fl::Dtype::Fp16), bf16));
  QVERIFY(near(g.flops(fl::Dtype::Fp8), fp8));
  QVERIFY(near(g.flops(fl::Dtype::Tf32), tf32));
  QCOMPARE(g.supports(fl::Dtype::Fp8), fp8 > 0);
  QVERIFY(near(g.hbm_bandwidth, hbm));
  QVERIFY(near(static_cast<double>(g.hbm_capacity), capacityGB * 1e9));
  QVERIFY(g.l2_bytes > 0 && g.clock_hz > 1e9);
  QVERIFY(!fl::gpuPresetSummary(name.toStdString()).empty());
  // Per-SM helpers: peak / sms x efficiency, bandwidth / sms.
  QVERIFY(near(g.smFlops(fl::Dtype::Bf16), bf16 / sms * 0.7));
  QVERIFY(near(g.smBandwidth(), hbm / sms));
}

void TestGpuModel::unknownPreset() {
  const fl::InputError e = expectError([] { fl::gpuPreset("h1000"); });
  QCOMPARE(e.keyPath(), std::string("gpu.preset"));
  QVERIFY2(QString(e.what()).contains("did you mean 'h100'?"), e.what());
}

// gpu.sms keeps the per-SM rate (total scales); bandwidth and efficiency replace the preset's.
void TestGpuModel::overrides() {
  fl::GpuSettings s;
  fl::applyGpuPreset("h200", s);
  QCOMPARE(s.sms, 132);
  QCOMPARE(s.hbm_bandwidth, 4.8e12);
  s.sms = 66;
  s.tensor_efficiency = 0.5;
  s.hbm_bandwidth = 2e12;
  const fl::GpuSpec g = fl::gpuSpecFor(s);
  QCOMPARE(g.sms, 66);
  QVERIFY(near(g.flops(fl::Dtype::Fp8), 1978.9e12 / 2));
  QVERIFY(near(g.smFlops(fl::Dtype::Fp8), 1978.9e12 / 132 * 0.5));
  QVERIFY(near(g.smBandwidth(), 2e12 / 66));
}

void TestGpuModel::tileCount_data() {
  QTest::addColumn<qint64>("m");
  QTest::addColumn<qint64>("n");
  QTest::addColumn<int>("bm");
  QTest::addColumn<int>("bn");
  QTest::addColumn<qint64>("tiles");
  QTest::newRow("exact 32x32") << qint64(4096) << qint64(4096) << 128 << 128 << qint64(1024);
  QTest::newRow("ragged 8x3") << qint64(1000) << qint64(300) << 128 << 128 << qint64(24);
  QTest::newRow("one partial") << qint64(1) << qint64(1) << 128 << 128 << qint64(1);
  QTest::newRow("128x64 tiles") << qint64(129) << qint64(257) << 128 << 64 << qint64(10);  // 2 x 5
  QTest::newRow("no tokens") << qint64(0) << qint64(4096) << 128 << 128 << qint64(0);
}

void TestGpuModel::tileCount() {
  QFETCH(qint64, m);
  QFETCH(qint64, n);
  QFETCH(int, bm);
  QFETCH(int, bn);
  QFETCH(qint64, tiles);
  QCOMPARE(fl::tileCount({m, n, 7168}, {bm, bn}), std::int64_t(tiles));
}

// Expected: waves = ceil(tiles / S); tile = max(2·bM·bN·K / (peak/SMs·0.7),
// ((bM + bN)·K·in + bM·bN·out) / (HBM/SMs)), with the vendor figures as literals.
void TestGpuModel::gemmTime_data() {
  QTest::addColumn<QString>("gpu");
  QTest::addColumn<qint64>("m");
  QTest::addColumn<qint64>("n");
  QTest::addColumn<qint64>("k");
  QTest::addColumn<int>("bm");
  QTest::addColumn<int>("bn");
  QTest::addColumn<QString>("in");
  QTest::addColumn<QString>("out");
  QTest::addColumn<int>("sms");
  QTest::addColumn<qint64>("waves");
  QTest::addColumn<double>("compute");
  QTest::addColumn<double>("memory");
  const double h100Bf16 = 989.4e12 / 132 * 0.7, h100Bw = 3.35e12 / 132;
  // 32 x 32 = 1024 tiles on 132 SMs: 7 x 132 = 924 < 1024 <= 1056, 8 waves.
  QTest::newRow("h100 bf16 4096^2x7168") << "h100" << qint64(4096) << qint64(4096) << qint64(7168) << 128 << 128
                                         << "bf16" << "bf16" << 132 << qint64(8) << 2.0 * 128 * 128 * 7168 / h100Bf16
                                         << ((128.0 + 128) * 7168 * 2 + 128.0 * 128 * 2) / h100Bw;
  // Half the SMs (DySHARP-style SM partitioning): 16 x 32 = 512 tiles of 128x64 on 66 SMs, 8 waves.
  QTest::newRow("h100 66 SMs 128x64") << "h100" << qint64(2048) << qint64(2048) << qint64(2048) << 128 << 64
                                      << "bf16" << "bf16" << 66 << qint64(8) << 2.0 * 128 * 64 * 2048 / h100Bf16
                                      << ((128.0 + 64) * 2048 * 2 + 128.0 * 64 * 2) / h100Bw;
  // DeepSeek-V3 GEMM-1 on H200 in FP8: 65536 rows, N = 2 x 2048; 512 x 32 = 16384 tiles, 125 waves.
  QTest::newRow("h200 fp8 expert gemm-1") << "h200" << qint64(65536) << qint64(4096) << qint64(7168) << 128 << 128
                                          << "fp8" << "fp8" << 132 << qint64(125)
                                          << 2.0 * 128 * 128 * 7168 / (1978.9e12 / 132 * 0.7)
                                          << ((128.0 + 128) * 7168 + 128.0 * 128) / (4.8e12 / 132);
  // A100 FP32 on CUDA cores, 8 x 3 = 24 ragged tiles in one wave: compute-bound.
  QTest::newRow("a100 fp32 ragged") << "a100" << qint64(1000) << qint64(300) << qint64(64) << 128 << 128 << "fp32"
                                    << "fp32" << 108 << qint64(1) << 2.0 * 128 * 128 * 64 / (19.5e12 / 108 * 0.7)
                                    << ((128.0 + 128) * 64 * 4 + 128.0 * 128 * 4) / (2.039e12 / 108);
  // B200 TF32: 4 x 4 = 16 tiles, 1 wave.
  QTest::newRow("b200 tf32") << "b200" << qint64(512) << qint64(512) << qint64(1024) << 128 << 128 << "tf32"
                             << "fp32" << 148 << qint64(1) << 2.0 * 128 * 128 * 1024 / (1100e12 / 148 * 0.7)
                             << ((128.0 + 128) * 1024 * 4 + 128.0 * 128 * 4) / (8e12 / 148);
}

void TestGpuModel::gemmTime() {
  QFETCH(QString, gpu);
  QFETCH(qint64, m);
  QFETCH(qint64, n);
  QFETCH(qint64, k);
  QFETCH(int, bm);
  QFETCH(int, bn);
  QFETCH(QString, in);
  QFETCH(QString, out);
  QFETCH(int, sms);
  QFETCH(qint64, waves);
  QFETCH(double, compute);
  QFETCH(double, memory);
  const fl::GpuSpec g = fl::gpuPreset(gpu.toStdString());
  const fl::GemmTime t = fl::gemmTime(g, {m, n, k}, {bm, bn}, dtypeOf(in), dtypeOf(out), sms);
  QCOMPARE(t.waves, std::int64_t(waves));
  QVERIFY2(near(t.tile.compute_seconds, compute), qPrintable(QString::number(t.tile.compute_seconds)));
  QVERIFY2(near(t.tile.memory_seconds, memory), qPrintable(QString::number(t.tile.memory_seconds)));
  QVERIFY(near(t.seconds, waves * std::max(compute, memory)));
  QVERIFY(near(t.tile.flops, 2.0 * bm * bn * k));
}

void TestGpuModel::unsupportedDtype() {
  const fl::GpuSpec a100 = fl::gpuPreset("a100");
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fl::gemmTime(a100, {128, 128, 128}, {}, fl::Dtype::Fp8, fl::Dtype::Bf16, 108));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fl::gemmTime(a100, {128, 128, 128}, {}, fl::Dtype::Bf16, fl::Dtype::Bf16, 109));
}

// Three local experts with 300, 0 and 128 tokens (dysharp-small: hidden 2048, FFN 512) on
// an H100 in BF16. GEMM-1 (N = 2 x 512, gate + up): (3 + 0 + 1) x 8 = 32 tiles, K = 2048;
// GEMM-2 (N = 2048): (3 + 0 + 1) x 16 = 64 tiles, K = 512; one wave each.
void TestGpuModel::expertGemms() {
  const fl::GpuSpec g = fl::gpuPreset("h100");
  const double sm = 989.4e12 / 132 * 0.7, bw = 3.35e12 / 132;
  const fl::ExpertGemmTimes t =
      fl::expertGemmTimes(g, {300, 0, 128}, 2048, 512, {128, 128}, fl::Dtype::Bf16, fl::Dtype::Bf16, 132);
  QCOMPARE(t.gemm1.tiles, std::int64_t(32));
  QCOMPARE(t.gemm2.tiles, std::int64_t(64));
  QCOMPARE(t.gemm1.waves, std::int64_t(1));
  QCOMPARE(t.gemm2.waves, std::int64_t(1));
  const double g1 = std::max(2.0 * 128 * 128 * 2048 / sm, (256.0 * 2048 * 2 + 128.0 * 128 * 2) / bw);
  const double g2 = std::max(2.0 * 128 * 128 * 512 / sm, (256.0 * 512 * 2 + 128.0 * 128 * 2) / bw);
  QVERIFY(near(t.gemm1.seconds, g1));
  QVERIFY(near(t.gemm2.seconds, g2));
  QVERIFY(near(t.seconds(), g1 + g2));
  // On 16 SMs GEMM-2's 64 tiles take 4 waves.
  QCOMPARE(fl::expertGemmTimes(g, {300, 0, 128}, 2048, 512, {128, 128}, fl::Dtype::Bf16, fl::Dtype::Bf16, 16).gemm2.waves,
           std::int64_t(4));
  // No tokens, no time.
  QCOMPARE(fl::expertGemmTimes(g, {0, 0}, 2048, 512, {}, fl::Dtype::Bf16, fl::Dtype::Bf16, 132).seconds(), 0.0);
}

void TestGpuModel::scenarioKeys() {
  const fl::Scenario d;
  QCOMPARE(fl::getValue(d, "gpu.preset"), std::string("h100"));
  QCOMPARE(fl::getValue(d, "gpu.sms"), std::string("132"));
  QCOMPARE(fl::getValue(d, "gpu.hbm_bandwidth"), std::string("3.35 TB/s"));
  QCOMPARE(fl::getValue(d, "gpu.tile"), std::string("128x128"));
  QCOMPARE(fl::getValue(d, "gpu.tensor_efficiency"), std::string("0.7"));
  fl::Scenario s;
  fl::applyOverrides(s, {"gpu.preset=b200", "gpu.tile=256 x 64"});
  QCOMPARE(s.gpu.sms, 148);
  QCOMPARE(s.gpu.hbm_bandwidth, 8e12);
  QCOMPARE(s.gpu.tile_m, 256);
  QCOMPARE(s.gpu.tile_n, 64);
  QCOMPARE(fl::gpuSpecFor(s.gpu).name, std::string("b200"));
}

// Explicit gpu keys win whatever their order, even when equal to the old preset's value.
void TestGpuModel::presetKeyOrder() {
  const fl::Scenario a = fl::parseScenario("fabriclab: 1\ngpu: {sms: 132, preset: a100}\n", "a");
  QCOMPARE(a.gpu.sms, 132);                // explicit, kept
  QCOMPARE(a.gpu.hbm_bandwidth, 2.039e12);  // from the preset
  const fl::Scenario b = fl::parseScenario("fabriclab: 1\ngpu: {preset: a100, hbm_bandwidth: 1 TB/s}\n", "b");
  QCOMPARE(b.gpu.sms, 108);
  QCOMPARE(b.gpu.hbm_bandwidth, 1e12);
  fl::Scenario c = b;
  fl::applyOverrides(c, {"gpu.preset=h200"});
  QCOMPARE(c.gpu.sms, 132);             // was the preset's: follows the new preset
  QCOMPARE(c.gpu.hbm_bandwidth, 1e12);  // was explicit: kept
  QVERIFY(fl::parseScenario(fl::saveScenarioText(c), "saved") == c);
}

void TestGpuModel::tileErrors_data() {
  QTest::addColumn<QString>("text");
  QTest::newRow("one side") << "128";
  QTest::newRow("missing n") << "128x";
  QTest::newRow("zero") << "0x128";
  QTest::newRow("too large") << "8192x128";
  QTest::newRow("not a number") << "axb";
}

void TestGpuModel::tileErrors() {
  QFETCH(QString, text);
  fl::Scenario s;
  const fl::InputError e = expectError([&] { fl::setValue(s, "gpu.tile", text.toStdString(), {"gui", 0, 0}); });
  QCOMPARE(e.keyPath(), std::string("gpu.tile"));
  QVERIFY2(QString(e.what()).contains("such as '128x128'"), e.what());
}

void TestGpuModel::fp8NeedsTensorCores() {
  fl::Scenario s;
  s.workload.kind = fl::WorkloadKind::MoeLayer;
  fl::setValue(s, "gpu.preset", "a100");
  const fl::InputError e = expectError([&] { fl::validateScenario(s); });
  QCOMPARE(e.keyPath(), std::string("workload.moe.dispatch_dtype"));
  QVERIFY2(QString(e.what()).contains("use bf16"), e.what());
  s.workload.moe.dispatch_dtype = fl::Dtype::Bf16;
  fl::validateScenario(s);
}

QTEST_GUILESS_MAIN(TestGpuModel)
#include "test_gpu_model.moc"
