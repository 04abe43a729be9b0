// HybridEP's stream-based model (seed 004 §III) and SR-based compression (§IV-B).
// Expected values are worked by hand in the spec (2.2-2.4, 2.7) or in the comments here
// from Lat(S) = max(Lat_PE, P(S-1)/B) + 2 D (G-S)/(G B), never from the code under test.
#include <QtTest>

#include <cmath>

#include "xdc/sr_compression.h"
#include "xdc/stream_model.h"

using namespace fl::xdc;
Q_DECLARE_METATYPE(fl::xdc::ModelCase)

namespace {
constexpr double MB = 1e6, ms = 1e-3, Gbps10 = 1.25e9;
bool near(double a, double b, double rel = 1e-9) { return std::fabs(a - b) <= rel * std::fabs(b); }
}  // namespace

class TestXdcModel : public QObject {
  Q_OBJECT

 private slots:
  void optimalDomain_data();
  void optimalDomain();
  void exampleACurve();
  void plainEpIsDomainOne();
  void perGpuBytes();
  void tableSixComposition_data();
  void tableSixComposition();
  void composedLatency();
  void compressionRoundTrip();
  void compressionRatio();
};

void TestXdcModel::optimalDomain_data() {
  QTest::addColumn<int>("g");
  QTest::addColumn<double>("d");
  QTest::addColumn<double>("pe");
  QTest::addColumn<double>("b");
  QTest::addColumn<double>("latPe");
  QTest::addColumn<ModelCase>("kase");
  QTest::addColumn<int>("domain");
  QTest::addColumn<double>("lat");
  // spec 2.3 Example A: 2D - G P = 32 - 64 < 0, thr = 0.75 -> 2.1; S = 4 at 31.2 ms.
  QTest::newRow("A: case 2.1") << 16 << 16 * MB << 4 * MB << Gbps10 << 12 * ms << ModelCase::Case2_1 << 4 << 31.2 * ms;
  // Example B: 2D - G P = 32 MB >= 0 -> 2.2, S = 8: max(5, 7 x 2 MB / 1.25 GB/s = 11.2) ms.
  QTest::newRow("B: case 2.2") << 8 << 24 * MB << 2 * MB << Gbps10 << 5 * ms << ModelCase::Case2_2 << 8 << 11.2 * ms;
  // Example C: A at CR = 50 (P = 0.08 MB): 2D - G P = 30.72 MB >= 0 -> 2.2, S = 16, AG
  // 15 x 0.08 MB / 1.25 GB/s = 0.96 ms hidden under 12 ms.
  QTest::newRow("C: compression flips to 2.2") << 16 << 16 * MB << 0.08 * MB << Gbps10 << 12 * ms << ModelCase::Case2_2 << 16 << 12 * ms;
  // Case 1: G = 8, D = 8 MB, P = 4 MB (2D - GP = -16 MB), Lat_PE = 30 ms: B Lat_PE =
  // 37.5 MB >= P (G-1) = 28 MB so thr < 0; S = 8: max(30, 22.4) + 0 = 30 ms
  // (S = 4: 30 + 2 x 3.2 = 36.4 ms).
  QTest::newRow("case 1: AG hides") << 8 << 8 * MB << 4 * MB << Gbps10 << 30 * ms << ModelCase::Case1 << 8 << 30 * ms;
  // Table IV under the 128 GB/s reading (spec 2.4): Mix-1 S = 2 (0.1427 ms against S = 1's
  // 0.1584), Mix-2 S = 4 (0.049 + 2 x 8 MB x 4/8 / 128 GB/s = 0.1115; AG 3 x 2.35 / 128 =
  // 0.0551 -> 0.0551 + 0.0625 = 0.1176 ms), AG-only S = 8 (7 x 0.094 / 128 GB/s = 5.1 us < Lat_PE).
  QTest::newRow("IV Mix-1") << 8 << 8 * MB << 4.7 * MB << 128e9 << 0.049 * ms << ModelCase::Case2_1 << 2 << (0.049 + 0.09375) * ms;
  QTest::newRow("IV Mix-2") << 8 << 8 * MB << 2.35 * MB << 128e9 << 0.049 * ms << ModelCase::Case2_1 << 4 << (3 * 2.35 / 128 + 0.0625) * ms;
  QTest::newRow("IV AG-only-1") << 8 << 3 * MB << 0.094 * MB << 128e9 << 0.099 * ms << ModelCase::Case2_2 << 8 << 0.099 * ms;
  QTest::newRow("IV AG-only-2") << 8 << 3 * MB << 0.047 * MB << 128e9 << 0.099 * ms << ModelCase::Case2_2 << 8 << 0.099 * ms;
  // The literal 128 Gb/s = 16 GB/s reading picks S = 1 for Mix-1 (spec 2.4): S = 1:
  // 0.049 + 0.875 = 0.924 ms; S = 2: max(0.049, 0.29375) + 0.75 = 1.04375 ms.
  QTest::newRow("IV Mix-1 at 16 GB/s") << 8 << 8 * MB << 4.7 * MB << 16e9 << 0.049 * ms << ModelCase::Case2_1 << 1 << 0.924 * ms;
  // 1000 DCs x 8 GPUs, level 0 (scenarios/xdc-1000x8-auto.yaml): 10 Gb/s shared by a DC's
  // 8 GPUs, B = 156.25 MB/s; D = 24 MB, P = 18874368 B / 50 = 377487.36 B. One gathered
  // expert takes P / B = 2.416 ms and saves one chunk D/G = 24 kB per pass (2 x 0.1536 ms).
  // 2D - G P < 0 and thr = 1 - B Lat_PE / (999 P) > 0: case 2.1. With the H100's Lat_PE
  // (0.963 ms) that AG does not hide: S = 1, Lat = Lat_PE + 2 D 999/1000 / B. With the
  // A100's (3.304 ms) it does: S = 2, Lat = Lat_PE + 2 D 998/1000 / B (S = 4: AG 7.25 ms).
  {
    const double pe = 18874368.0 / 50, b = 1.25e9 / 8, d = 24 * MB;
    QTest::newRow("1000 DCs x 8, H100") << 1000 << d << pe << b << 0.963 * ms << ModelCase::Case2_1 << 1
                                        << 0.963 * ms + 2 * d * 0.999 / b;
    QTest::newRow("1000 DCs x 8, A100") << 1000 << d << pe << b << 3.304 * ms << ModelCase::Case2_1 << 2
                                        << 3.304 * ms + 2 * d * 0.998 / b;
  }
}

void TestXdcModel::optimalDomain() {
  QFETCH(int, g);
  QFETCH(double, d);
  QFETCH(double, pe);
  QFETCH(double, b);
  QFETCH(double, latPe);
  QFETCH(ModelCase, kase);
  QFETCH(int, domain);
  QFETCH(double, lat);
  const LevelPrediction l = solveLevel(g, d, pe, b, latPe);
  QCOMPARE(l.modelCase, kase);
  QCOMPARE(l.domainSize, domain);
  QCOMPARE(l.p, double(g - domain) / double(g - 1));
  double best = 1e300;
  for (const CurvePoint& c : l.curve) best = std::min(best, c.lat);
  QVERIFY2(near(best, lat, 1e-6), qPrintable(QString("best %1 want %2").arg(best).arg(lat)));
}

void TestXdcModel::exampleACurve() {
  // spec 2.3 Example A's table (ms): S 1, 2, 4, 8, 16 -> 36.0, 34.4, 31.2, 35.2, 48.0.
  const LevelPrediction l = solveLevel(16, 16 * MB, 4 * MB, Gbps10, 12 * ms);
  QCOMPARE(l.curve.size(), std::size_t(5));
  const double want[] = {36.0, 34.4, 31.2, 35.2, 48.0};
  const int sizes[] = {1, 2, 4, 8, 16};
  for (int i = 0; i < 5; ++i) {
    QCOMPARE(l.curve[i].domainSize, sizes[i]);
    QVERIFY(near(l.curve[i].lat, want[i] * ms, 1e-9));
  }
  QVERIFY(near(l.threshold, 0.75));
  // Speedup over EP: 36.0 / 31.2 = 1.1538.
  const Prediction p = predict({16 * MB, 4 * MB, 12 * ms, {{16, Gbps10}}});
  QVERIFY(near(p.epLat / p.lat, 36.0 / 31.2));
}

void TestXdcModel::plainEpIsDomainOne() {
  // S = 1: p = 1, no AG, Lat = Lat_PE + 2 D (G-1)/(G B) exactly (§III-E "EP is a special case").
  for (int g : {2, 8, 16, 1000}) {
    const CurvePoint c = evaluate(g, 1, 64 * MB, 8 * MB, Gbps10, 3 * ms);
    QCOMPARE(c.p, 1.0);
    QCOMPARE(c.ag, 0.0);
    QCOMPARE(c.lat, 3 * ms + 2 * (64 * MB * (g - 1) / g) / Gbps10);
  }
  const ModelInput in{24 * MB, 8 * MB, 1 * ms, {{4, Gbps10 / 8}, {8, 16e9}}};
  const Prediction p = predict(in, {1, 1});
  QCOMPARE(p.lat, p.epLat);
}

void TestXdcModel::perGpuBytes() {
  // spec 2.2: G = 32, S = 4, D = 64 MB, P = 8 MB: A2A 56 MB per pass, AG 24 MB (0.48 MB at
  // CR 50); EP 62 MB per pass.
  QCOMPARE(a2aBytesPerGpu(32, 4, 64 * MB), 56 * MB);
  QCOMPARE(agBytesPerGpu(4, 8 * MB), 24 * MB);
  QVERIFY(near(agBytesPerGpu(4, 8 * MB / 50), 0.48 * MB));
  QCOMPARE(a2aBytesPerGpu(32, 1, 64 * MB), 62 * MB);
  QCOMPARE(agBytesPerGpu(1, 8 * MB), 0.0);
}

void TestXdcModel::tableSixComposition_data() {
  QTest::addColumn<int>("dcs");
  QTest::addColumn<double>("d");
  QTest::addColumn<double>("pe");
  QTest::addColumn<int>("outer");
  QTest::addColumn<int>("inner");
  // spec 2.7: level 0 between DCs at 1.25 GB/s, level 1 8 GPUs at 16 GB/s, Lat_PE 1 ms.
  // 24&8: level 0 is 2.2 (2 x 24 - G x 8 >= 0 for G <= 4), so all DCs; level 1 sees
  // 8 x S^0 MB: 8 -> S = 4 (3.0 ms vs 3.25, 3.625, 3.5), 16 -> 2 (3.25 vs 3.625, 4.5),
  // 32 -> 1 (3.625 vs 4.25). 48&2: level 1 S = 8 for 2, 4, 8 MB.
  QTest::newRow("S 24&8") << 1 << 24 * MB << 8 * MB << 1 << 4;
  QTest::newRow("M 24&8") << 2 << 24 * MB << 8 * MB << 2 << 2;
  QTest::newRow("L 24&8") << 4 << 24 * MB << 8 * MB << 4 << 1;
  QTest::newRow("S 48&2") << 1 << 48 * MB << 2 * MB << 1 << 8;
  QTest::newRow("M 48&2") << 2 << 48 * MB << 2 * MB << 2 << 8;
  QTest::newRow("L 48&2") << 4 << 48 * MB << 2 * MB << 4 << 8;
}

void TestXdcModel::tableSixComposition() {
  QFETCH(int, dcs);
  QFETCH(double, d);
  QFETCH(double, pe);
  QFETCH(int, outer);
  QFETCH(int, inner);
  const Prediction p = predict({d, pe, 1 * ms, {{dcs, Gbps10}, {8, 16e9}}});
  QCOMPARE(p.levels[0].domainSize, outer);
  QCOMPARE(p.levels[1].domainSize, inner);
  QCOMPARE(p.levels[1].expert, pe * outer);
}

void TestXdcModel::composedLatency() {
  // Two levels, fixed domains [2, 4], D = 24 MB, P = 8 MB, B = 1.25 / 16 GB/s, Lat_PE 1 ms:
  // AG^0 = 8 MB x 1 / 1.25 GB/s = 6.4 ms, AG^1 = 16 MB x 3 / 16 GB/s = 3 ms; A2A^0 = 0
  // (S = G), A2A^1 = 24 MB x 4/8 / 16 GB/s = 0.75 ms -> max(1, 9.4) + 1.5 = 10.9 ms.
  // EP: 1 + 2 (24 x 1/2 / 1.25 + 24 x 7/8 / 16) = 1 + 2 (9.6 + 1.3125) = 22.825 ms.
  const Prediction p = predict({24 * MB, 8 * MB, 1 * ms, {{2, Gbps10}, {8, 16e9}}}, {2, 4});
  QVERIFY(near(p.lat, 10.9 * ms));
  QVERIFY(near(p.epLat, 22.825 * ms));
}

void TestXdcModel::compressionRoundTrip() {
  // W0 = [1, 4, -2, 0], W1 = [3, 0, 2, 0]: S_h = [2, 2, 0, 0]; R0 = [-1, 2, -2, 0].
  const Tensor w0{1, 4, -2, 0}, w1{3, 0, 2, 0};
  const Tensor sh = sharedExpert({w0, w1});
  QCOMPARE(sh, (Tensor{2, 2, 0, 0}));
  // k = 2: |2| at 1 and |-2| at 2 beat |-1| at 0.
  const SparseResidual r = srEncode(w0, sh, 2);
  QCOMPARE(r.indices, (std::vector<std::uint32_t>{1, 2}));
  QCOMPARE(r.values, (std::vector<float>{2, -2}));
  QCOMPARE(srDecode(r, sh), (Tensor{2, 4, -2, 0}));  // error R - TopK(R) = [-1, 0, 0, 0]
  QCOMPARE(srDecode(srEncode(w0, sh, 4), sh), w0);   // k = N: exact
  // Ties go to the lower index: R1 = [1, -2, 2, 0], k = 1 keeps index 1.
  const SparseResidual t = srEncode(w1, sh, 1);
  QCOMPARE(t.indices, (std::vector<std::uint32_t>{1}));
  QCOMPARE(t.values, (std::vector<float>{-2}));
}

void TestXdcModel::compressionRatio() {
  // CR = N b_v / (k (b_v + b_i)): N = 1000 fp32 with 4-byte indices at CR 50 keeps
  // 1000 x 4 / (50 x 8) = 10 entries = 80 bytes = 4000 / 50.
  QCOMPARE(keptEntries(1000, 50), std::size_t(10));
  Tensor w(1000), sh(1000, 0.0f);
  for (int i = 0; i < 1000; ++i) w[i] = float(i % 37) - 18.0f;
  QCOMPARE(encodedBytes(srEncode(w, sh, keptEntries(1000, 50))), 80);
  QCOMPARE(keptEntries(10, 1000), std::size_t(1));
}

QTEST_GUILESS_MAIN(TestXdcModel)
#include "test_xdc_model.moc"
