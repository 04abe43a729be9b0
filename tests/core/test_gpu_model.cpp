// The GPU compute model: presets (vendor figures typed in here from the datasheets, not
// read back from the code), tile counts, wave blocks, waves and wave times of GEMMs (L2
// operand reuse) against the closed forms of core/gpu/tile_gemm.h written out by hand,
// expert GEMMs, and the gpu.* keys.
#include <QtTest>

#include <cmath>

#include "gpu/gpu_spec.h"
#include "gpu/tile_gemm.h"
#include "scenario/scenario_io.h"
#include "scenario/quantity.h"
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
  void waveBlock_data();
  void waveBlock();
  void gemmTime_data();
  void gemmTime();
  void deepseekV3ComputeBound();
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
  // Shown in the scenario tree as the datasheet writes it ("2.039 TB/s", not a float tail).
  QCOMPARE(QString::fromStdString(fl::formatQuantity(g.hbm_bandwidth, fl::QuantityKind::Bandwidth)),
           QString::fromStdString(fl::formatQuantity(hbm, fl::QuantityKind::Bandwidth)));
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

void TestGpuModel::waveBlock_data() {
  QTest::addColumn<qint64>("tiles");
  QTest::addColumn<qint64>("gridRows");
  QTest::addColumn<qint64>("gridCols");
  QTest::addColumn<qint64>("r");
  QTest::addColumn<qint64>("c");
  // c = min(cols, ceil(sqrt(w))), r = ceil(w / c); r > rows: r = rows, c = ceil(w / rows).
  QTest::newRow("132 in 32x32") << qint64(132) << qint64(32) << qint64(32) << qint64(11) << qint64(12);
  QTest::newRow("100 in 32x32") << qint64(100) << qint64(32) << qint64(32) << qint64(10) << qint64(10);
  QTest::newRow("132 in 67x4") << qint64(132) << qint64(67) << qint64(4) << qint64(33) << qint64(4);
  QTest::newRow("skinny 32 in 1x32") << qint64(32) << qint64(1) << qint64(32) << qint64(1) << qint64(32);
  QTest::newRow("16 in 3x16") << qint64(16) << qint64(3) << qint64(16) << qint64(3) << qint64(6);
  QTest::newRow("one column") << qint64(5) << qint64(100) << qint64(1) << qint64(5) << qint64(1);
  QTest::newRow("one tile") << qint64(1) << qint64(1) << qint64(1) << qint64(1) << qint64(1);
  QTest::newRow("none") << qint64(0) << qint64(8) << qint64(8) << qint64(0) << qint64(0);
}

void TestGpuModel::waveBlock() {
  QFETCH(qint64, tiles);
  QFETCH(qint64, gridRows);
  QFETCH(qint64, gridCols);
  QFETCH(qint64, r);
  QFETCH(qint64, c);
  const fl::WaveBlock b = fl::waveBlock(tiles, gridRows, gridCols);
  QCOMPARE(b.rows, std::int64_t(r));
  QCOMPARE(b.cols, std::int64_t(c));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fl::waveBlock(10, 3, 3));
}

// Expected, written out from the wave model of core/gpu/tile_gemm.h with the vendor
// figures as literals: waves = ceil(tiles / S); the tile's compute term 2·bM·bN·K /
// (peak/SMs·0.7) and its no-reuse memory term ((bM + bN)·K·in + bM·bN·out) / (HBM/SMs);
// a wave of w tiles reading a A-slices (bM·K·in) and b B-slices (bN·K·in) and writing w C
// tiles (bM·bN·out) takes max(compute, bytes / (w·HBM/SMs)). Full waves (w = S) and the
// last wave are given as (w, a, b), derived by hand in each row's comment: the r x c
// block c = min(cols, ceil(sqrt(w))), r = ceil(w / c) (r <= rows, else r = rows,
// c = ceil(w / rows)), split into L2-sized groups when its slices exceed L2 (50 MiB on
// H100/H200).
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
  QTest::addColumn<double>("smBw");
  QTest::addColumn<QList<int>>("full");  // w, A-slices, B-slices of each full wave
  QTest::addColumn<QList<int>>("last");  // of the last wave
  const double h100Bf16 = 989.4e12 / 132 * 0.7, h100Bw = 3.35e12 / 132;
  const double h200Fp8 = 1978.9e12 / 132 * 0.7, h200Bw = 4.8e12 / 132;
  // Compute-bound large GEMM. 32 x 32 = 1024 tiles on 132 SMs: 7 x 132 = 924 < 1024 <=
  // 1056, 8 waves. Full: c = min(32, 12) = 12, r = 11; last 100: 10 x 10. 23 slices of
  // 128 x 7168 x 2 B = 42.2 MB fit in L2.
  QTest::newRow("h100 bf16 4096^2x7168") << "h100" << qint64(4096) << qint64(4096) << qint64(7168) << 128 << 128
                                         << "bf16" << "bf16" << 132 << qint64(8) << 2.0 * 128 * 128 * 7168 / h100Bf16
                                         << ((128.0 + 128) * 7168 * 2 + 128.0 * 128 * 2) / h100Bw << h100Bw
                                         << QList<int>{132, 11, 12} << QList<int>{100, 10, 10};
  // Half the SMs (DySHARP-style SM partitioning): 16 x 32 = 512 tiles of 128x64 on 66 SMs,
  // 8 waves (7 x 66 = 462, last 50). Full 66: c = 9, r = 8; last 50: c = 8, r = 7.
  QTest::newRow("h100 66 SMs 128x64") << "h100" << qint64(2048) << qint64(2048) << qint64(2048) << 128 << 64
                                      << "bf16" << "bf16" << 66 << qint64(8) << 2.0 * 128 * 64 * 2048 / h100Bf16
                                      << ((128.0 + 64) * 2048 * 2 + 128.0 * 64 * 2) / h100Bw << h100Bw
                                      << QList<int>{66, 8, 9} << QList<int>{50, 7, 8};
  // DeepSeek-V3 GEMM-1 on H200 in FP8: 65536 rows, N = 2 x 2048; 512 x 32 = 16384 tiles,
  // 125 waves (124 x 132 = 16368, last 16: 4 x 4). Full: 11 x 12.
  QTest::newRow("h200 fp8 expert gemm-1") << "h200" << qint64(65536) << qint64(4096) << qint64(7168) << 128 << 128
                                          << "fp8" << "fp8" << 132 << qint64(125) << 2.0 * 128 * 128 * 7168 / h200Fp8
                                          << ((128.0 + 128) * 7168 + 128.0 * 128) / h200Bw << h200Bw
                                          << QList<int>{132, 11, 12} << QList<int>{16, 4, 4};
  // A100 FP32 on CUDA cores, 8 x 3 = 24 ragged tiles in one wave: c = min(3, 5) = 3, r = 8.
  QTest::newRow("a100 fp32 ragged") << "a100" << qint64(1000) << qint64(300) << qint64(64) << 128 << 128 << "fp32"
                                    << "fp32" << 108 << qint64(1) << 2.0 * 128 * 128 * 64 / (19.5e12 / 108 * 0.7)
                                    << ((128.0 + 128) * 64 * 4 + 128.0 * 128 * 4) / (2.039e12 / 108)
                                    << 2.039e12 / 108 << QList<int>{} << QList<int>{24, 8, 3};
  // B200 TF32: 4 x 4 = 16 tiles, 1 wave, 4 x 4.
  QTest::newRow("b200 tf32") << "b200" << qint64(512) << qint64(512) << qint64(1024) << 128 << 128 << "tf32"
                             << "fp32" << 148 << qint64(1) << 2.0 * 128 * 128 * 1024 / (1100e12 / 148 * 0.7)
                             << ((128.0 + 128) * 1024 * 4 + 128.0 * 128 * 4) / (8e12 / 148) << 8e12 / 148
                             << QList<int>{} << QList<int>{16, 4, 4};
  // Memory-bound skinny GEMM: 128 tokens of DeepSeek-V3 GEMM-1, one tile row x 32 columns,
  // one wave of 32 tiles on 32 SMs: r = 1, c = 32 (the A-slice is shared, B is not).
  QTest::newRow("h200 fp8 skinny 128 tokens") << "h200" << qint64(128) << qint64(4096) << qint64(7168) << 128 << 128
                                              << "fp8" << "fp8" << 132 << qint64(1)
                                              << 2.0 * 128 * 128 * 7168 / h200Fp8
                                              << ((128.0 + 128) * 7168 + 128.0 * 128) / h200Bw << h200Bw
                                              << QList<int>{} << QList<int>{32, 1, 32};
  // Partial last wave: 67 x 4 = 268 tiles = 2 x 132 + 4. Full: c = min(4, 12) = 4,
  // r = 33 (compute-bound); the last 4 tiles, 2 x 2 on 4 SMs, are memory-bound.
  QTest::newRow("h200 fp8 partial last wave") << "h200" << qint64(67 * 128) << qint64(512) << qint64(7168) << 128
                                              << 128 << "fp8" << "fp8" << 132 << qint64(3)
                                              << 2.0 * 128 * 128 * 7168 / h200Fp8
                                              << ((128.0 + 128) * 7168 + 128.0 * 128) / h200Bw << h200Bw
                                              << QList<int>{132, 33, 4} << QList<int>{4, 2, 2};
  // L2 overflow: Mixtral-8x7B GEMM-2 (K = 14336) in BF16, 16384 tokens: 128 x 32 = 4096
  // tiles, 32 waves (31 x 132 = 4092, last 4). A full wave's 11 x 12 block needs 23
  // slices of 128 x 14336 x 2 B = 3670016 B, 84.4 MB > 50 MiB = 52428800 B, which holds
  // 14 slices. The largest tile count whose block fits is 49 (7 x 7, 14 slices; 50..56
  // need 7 x 8): groups of 49, 49 and 34 (6 x 6), i.e. 7+7+6 = 20 A- and 20 B-slices.
  // The last 4 tiles (2 x 2) fit.
  QTest::newRow("h100 bf16 L2 overflow") << "h100" << qint64(16384) << qint64(4096) << qint64(14336) << 128 << 128
                                         << "bf16" << "bf16" << 132 << qint64(32)
                                         << 2.0 * 128 * 128 * 14336 / h100Bf16
                                         << ((128.0 + 128) * 14336 * 2 + 128.0 * 128 * 2) / h100Bw << h100Bw
                                         << QList<int>{132, 20, 20} << QList<int>{4, 2, 2};
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
  QFETCH(double, smBw);
  QFETCH(QList<int>, full);
  QFETCH(QList<int>, last);
  fl::GpuSpec g = fl::gpuPreset(gpu.toStdString());
  const fl::Dtype inT = dtypeOf(in), outT = dtypeOf(out);
  const fl::GemmTime t = fl::gemmTime(g, {m, n, k}, {bm, bn}, inT, outT, sms);
  QCOMPARE(t.waves, std::int64_t(waves));
  QVERIFY2(near(t.tile.compute_seconds, compute), qPrintable(QString::number(t.tile.compute_seconds)));
  QVERIFY2(near(t.tile.memory_seconds, memory), qPrintable(QString::number(t.tile.memory_seconds)));
  QVERIFY(near(t.tile.flops, 2.0 * bm * bn * k));
  QVERIFY(near(t.compute_seconds, waves * compute));

  // Wave model, written out.
  const double inB = in == "fp8" ? 1 : in == "fp32" || in == "tf32" ? 4 : 2;
  const double outB = out == "fp8" ? 1 : out == "fp32" ? 4 : 2;
  const double sliceA = double(bm) * k * inB, sliceB = double(bn) * k * inB, tileC = double(bm) * bn * outB;
  auto waveBytes = [&](const QList<int>& w) { return w[1] * sliceA + w[2] * sliceB + w[0] * tileC; };
  auto waveSeconds = [&](const QList<int>& w) { return std::max(compute, waveBytes(w) / (w[0] * smBw)); };
  QCOMPARE(full.isEmpty(), waves == 1);
  const double fullWaves = double(waves - 1);
  const double expected = (full.isEmpty() ? 0.0 : fullWaves * waveSeconds(full)) + waveSeconds(last);
  const double bytes = (full.isEmpty() ? 0.0 : fullWaves * waveBytes(full)) + waveBytes(last);
  const std::int64_t memBound = (full.isEmpty() ? 0 : (waveSeconds(full) > compute ? waves - 1 : 0)) +
                                (waveSeconds(last) > compute ? 1 : 0);
  QVERIFY2(near(t.seconds, expected), qPrintable(QString("%1 vs %2").arg(t.seconds).arg(expected)));
  QVERIFY(near(t.hbm_bytes, bytes));
  QCOMPARE(t.memory_bound_waves, memBound);
  QVERIFY(t.seconds <= waves * std::max(compute, memory) * (1 + 1e-12));  // never above no reuse

  // Without L2 the wave model is the per-tile model: waves x max(compute, memory).
  g.l2_bytes = 0;
  const fl::GemmTime noL2 = fl::gemmTime(g, {m, n, k}, {bm, bn}, inT, outT, sms);
  QVERIFY(near(noL2.seconds, waves * std::max(compute, memory)));
}

// DeepSeek-V3 GEMM-1 (65536 rows x 2 x 2048 x K = 7168, FP8, H200, efficiency 0.7) runs
// within 5 % of its compute-bound closed form 2·M·N·K / (peak x 0.7), as one GEMM and as
// the grouped GEMM of 8 local experts x 8192 rows (with GEMM-2, K = 2048, BF16 out).
void TestGpuModel::deepseekV3ComputeBound() {
  const fl::GpuSpec g = fl::gpuPreset("h200");
  const double peak = 1978.9e12 * 0.7;
  const double bound1 = 2.0 * 65536 * 4096 * 7168 / peak;
  const fl::GemmTime one = fl::gemmTime(g, {65536, 4096, 7168}, {128, 128}, fl::Dtype::Fp8, fl::Dtype::Fp8, 132);
  QVERIFY2(std::abs(one.seconds / bound1 - 1) < 0.05, qPrintable(QString::number(one.seconds)));
  QCOMPARE(one.memory_bound_waves, std::int64_t(0));
  const double perTile = double(one.waves) * one.tile.seconds();  // the former no-reuse model
  qInfo("DeepSeek-V3 GEMM-1 on H200 FP8: %.3f ms (compute bound %.3f ms; per-tile no-reuse %.3f ms)",
        one.seconds * 1e3, bound1 * 1e3, perTile * 1e3);

  const fl::ExpertGemmTimes t = fl::expertGemmTimes(g, std::vector<std::int64_t>(8, 8192), 7168, 2048, {128, 128},
                                                    fl::Dtype::Fp8, fl::Dtype::Bf16, 132);
  QVERIFY2(std::abs(t.gemm1.seconds / bound1 - 1) < 0.05, qPrintable(QString::number(t.gemm1.seconds)));
  const double bound2 = 2.0 * 65536 * 7168 * 2048 / peak;
  QVERIFY2(std::abs(t.gemm2.seconds / bound2 - 1) < 0.05, qPrintable(QString::number(t.gemm2.seconds)));
  QCOMPARE(t.gemm1.memory_bound_waves + t.gemm2.memory_bound_waves, std::int64_t(0));
}

void TestGpuModel::unsupportedDtype() {
  const fl::GpuSpec a100 = fl::gpuPreset("a100");
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fl::gemmTime(a100, {128, 128, 128}, {}, fl::Dtype::Fp8, fl::Dtype::Bf16, 108));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fl::gemmTime(a100, {128, 128, 128}, {}, fl::Dtype::Bf16, fl::Dtype::Bf16, 109));
}

// Three local experts with 300, 0 and 128 tokens (dysharp-small: hidden 2048, FFN 512) on
// an H100 in BF16. GEMM-1 (N = 2 x 512, gate + up): (3 + 0 + 1) x 8 = 32 tiles, K = 2048;
// GEMM-2 (N = 2048): (3 + 0 + 1) x 16 = 64 tiles, K = 512; one wave each. Each expert's
// share of a wave is its own block (experts share no operands): GEMM-1 expert 0, 24 tiles
// in 3 x 8 (c = min(8, 5) = 5 needs r = 5 > 3 rows, so 3 x 8), expert 2, 8 tiles in 1 x 8;
// GEMM-2 expert 0, 48 tiles in 3 x 16, expert 2, 16 tiles in 1 x 16. All fit in L2.
void TestGpuModel::expertGemms() {
  const fl::GpuSpec g = fl::gpuPreset("h100");
  const double sm = 989.4e12 / 132 * 0.7, bw = 3.35e12 / 132;
  const fl::ExpertGemmTimes t =
      fl::expertGemmTimes(g, {300, 0, 128}, 2048, 512, {128, 128}, fl::Dtype::Bf16, fl::Dtype::Bf16, 132);
  QCOMPARE(t.gemm1.tiles, std::int64_t(32));
  QCOMPARE(t.gemm2.tiles, std::int64_t(64));
  QCOMPARE(t.gemm1.waves, std::int64_t(1));
  QCOMPARE(t.gemm2.waves, std::int64_t(1));
  const double slice1 = 128.0 * 2048 * 2, slice2 = 128.0 * 512 * 2, tileC = 128.0 * 128 * 2;
  // GEMM-1: (3 + 8) + (1 + 8) slices, 32 C tiles, on 32 SMs.
  const double g1 = std::max(2.0 * 128 * 128 * 2048 / sm, ((3 + 8 + 1 + 8) * slice1 + 32 * tileC) / (32 * bw));
  // GEMM-2: (3 + 16) + (1 + 16) slices, 64 C tiles, on 64 SMs.
  const double g2 = std::max(2.0 * 128 * 128 * 512 / sm, ((3 + 16 + 1 + 16) * slice2 + 64 * tileC) / (64 * bw));
  QVERIFY2(near(t.gemm1.seconds, g1), qPrintable(QString("%1 vs %2").arg(t.gemm1.seconds).arg(g1)));
  QVERIFY2(near(t.gemm2.seconds, g2), qPrintable(QString("%1 vs %2").arg(t.gemm2.seconds).arg(g2)));
  QVERIFY(near(t.seconds(), g1 + g2));
  // On 16 SMs GEMM-2's 64 tiles take 4 waves: three of expert 0 (16 tiles in 3 x 16 rows:
  // c = min(16, 4) = 4 needs r = 4 > 3, so 3 x 6) and one of expert 2 (1 x 16).
  const fl::ExpertGemmTimes t16 =
      fl::expertGemmTimes(g, {300, 0, 128}, 2048, 512, {128, 128}, fl::Dtype::Bf16, fl::Dtype::Bf16, 16);
  QCOMPARE(t16.gemm2.waves, std::int64_t(4));
  const double c2 = 2.0 * 128 * 128 * 512 / sm;
  const double g2on16 = 3 * std::max(c2, ((3 + 6) * slice2 + 16 * tileC) / (16 * bw)) +
                        std::max(c2, ((1 + 16) * slice2 + 16 * tileC) / (16 * bw));
  QVERIFY2(near(t16.gemm2.seconds, g2on16), qPrintable(QString("%1 vs %2").arg(t16.gemm2.seconds).arg(g2on16)));
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
