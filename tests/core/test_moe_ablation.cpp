// The DySHARP ablation (seed 000 §VI-A3, Fig. 16-17, 20) as the bundled scenarios run
// it: DeepEP, COMET, DySHARP-Basic, DySHARP-COMET, fusion-only and full DySHARP, by
// which is faster than which and how well the two link directions balance. The seed's
// layers are communication-bound; ours are for Small-8 on H200s and for Large-8 on
// B200-class GPUs, while Large-8 on H200s is compute-bound (nvl32-moe-ablation.yaml
// says why), so there full DySHARP is only asserted to beat the other dysharp schemes;
// and the COMET gap that separates us from the seed must shrink as GEMMs get faster.
#include <QtTest>

#include <map>
#include <string>

#include "scenario/scenario.h"
#include "scenario/scenario_io.h"
#include "sim/run.h"

using namespace fl;

namespace {

struct AblationPoint {
  Time makespan = 0;
  double balance = 0;  // traffic.direction_balance
};

// Cases: a model on the H200 ablation at a token count small enough for a test, and
// Large-8 on the B200 ablation at its own 1024 tokens (fewer tokens pipeline too little
// for the merge to show; the scenario's comments give the figures).
const std::map<std::string, AblationPoint>& ablation(const std::string& name) {
  static std::map<std::string, std::map<std::string, AblationPoint>> byCase;
  auto& m = byCase[name];
  if (!m.empty()) return m;
  Scenario s;
  if (name == "b200" || name == "b200-peak") {
    s = loadScenario(FABRICLAB_SCENARIOS "/nvl32-moe-ablation-b200.yaml");
    if (name == "b200-peak") {  // GEMMs at peak: only the two schemes the gap is about
      s.gpu.tensor_efficiency = 1.0;
      s.sweep = {{"scheme.communication", {"deepep"}}, {"scheme.fusion", {"overlap", "token_centric"}}};
    }
  } else {
    s = loadScenario(FABRICLAB_SCENARIOS "/nvl32-moe-ablation.yaml");
    std::erase_if(s.sweep, [](const SweepAxis& a) { return a.key == "workload.moe.model"; });
    applyOverride(s, "workload.moe.model=" + name);
    s.workload.moe.tokens_per_gpu = name == "dysharp-small" ? 512 : 256;
  }
  for (const SweepPoint& p : runSweep(s)) {
    const auto& set = p.settings;
    m[set.at(set.size() - 2).second + " + " + set.at(set.size() - 1).second] = {p.results.makespan,
                                                                                 p.results.direction_balance};
  }
  return m;
}

const char* const kDeepEp = "deepep + sequential";
const char* const kComet = "deepep + overlap";
const char* const kFusionOnly = "deepep + token_centric";
const char* const kBasic = "dysharp + sequential";
const char* const kDyComet = "dysharp + overlap";
const char* const kDySharp = "dysharp + token_centric";

}  // namespace

class TestMoeAblation : public QObject {
  Q_OBJECT
 private slots:
  void directions_data();
  void directions();
  void balance_data();
  void balance();
  void cometGapShrinksWithFasterGemms();
};

void TestMoeAblation::directions_data() {
  QTest::addColumn<QString>("ablationCase");
  QTest::addColumn<QString>("faster");
  QTest::addColumn<QString>("slower");
  QTest::addColumn<double>("atMost");  // faster / slower
  // Fig. 16 and 4(a)-(f): in-switch traffic reduction alone gives no speedup
  // (DySHARP-Basic within a few percent of DeepEP, DySHARP-COMET of COMET), overlap and
  // token-centric fusion shorten the layer for both, and full DySHARP is fastest.
  const QString large = "dysharp-large", small = "dysharp-small", b200 = "b200";
  QTest::newRow("L: DySHARP-Basic ~ DeepEP") << large << kBasic << kDeepEp << 1.08;
  QTest::newRow("L: DeepEP ~ DySHARP-Basic") << large << kDeepEp << kBasic << 1.08;
  QTest::newRow("L: COMET < DeepEP") << large << kComet << kDeepEp << 0.9;
  QTest::newRow("L: fusion-only <= COMET") << large << kFusionOnly << kComet << 1.0;
  QTest::newRow("L: DySHARP-COMET < DySHARP-Basic") << large << kDyComet << kBasic << 0.9;
  QTest::newRow("L: DySHARP < DySHARP-Basic") << large << kDySharp << kBasic << 0.8;
  QTest::newRow("L: DySHARP < DySHARP-COMET") << large << kDySharp << kDyComet << 0.95;
  QTest::newRow("S: DySHARP-Basic ~ DeepEP") << small << kBasic << kDeepEp << 1.05;
  QTest::newRow("S: DeepEP ~ DySHARP-Basic") << small << kDeepEp << kBasic << 1.05;
  QTest::newRow("S: COMET ~ DySHARP-COMET") << small << kComet << kDyComet << 1.05;
  QTest::newRow("S: fusion-only <= COMET") << small << kFusionOnly << kComet << 1.0;
  QTest::newRow("S: DySHARP < fusion-only") << small << kDySharp << kFusionOnly << 0.95;
  QTest::newRow("S: DySHARP < COMET") << small << kDySharp << kComet << 0.9;
  QTest::newRow("S: DySHARP < DySHARP-COMET") << small << kDySharp << kDyComet << 0.9;
  QTest::newRow("L/B200: DySHARP-Basic ~ DeepEP") << b200 << kBasic << kDeepEp << 1.05;
  QTest::newRow("L/B200: DySHARP-COMET ~ COMET") << b200 << kDyComet << kComet << 1.05;
  QTest::newRow("L/B200: fusion-only <= COMET") << b200 << kFusionOnly << kComet << 1.0;
  QTest::newRow("L/B200: DySHARP < fusion-only") << b200 << kDySharp << kFusionOnly << 0.9;
  QTest::newRow("L/B200: DySHARP < DySHARP-COMET") << b200 << kDySharp << kDyComet << 0.8;
  QTest::newRow("L/B200: DySHARP < DySHARP-Basic") << b200 << kDySharp << kBasic << 0.6;
}

void TestMoeAblation::directions() {
  QFETCH(QString, ablationCase);
  QFETCH(QString, faster);
  QFETCH(QString, slower);
  QFETCH(double, atMost);
  const auto& m = ablation(ablationCase.toStdString());
  QCOMPARE(m.size(), std::size_t(6));
  const double a = static_cast<double>(m.at(faster.toStdString()).makespan);
  const double b = static_cast<double>(m.at(slower.toStdString()).makespan);
  QVERIFY2(a <= atMost * b, qPrintable(QString("%1: %2 us, %3: %4 us").arg(faster).arg(a / 1e6).arg(slower).arg(b / 1e6)));
}

// Fig. 17, 20: run in isolation, in-switch Dispatch loads the downlink and Combine the
// uplink, so per time bin one direction idles; token-centric fusion runs them together
// and the directions balance. (deepep moves the same bytes both ways: ~1.)
void TestMoeAblation::balance_data() {
  QTest::addColumn<QString>("ablationCase");
  QTest::addColumn<double>("gain");  // full DySHARP's balance over DySHARP-Basic's, at least
  QTest::newRow("Small-8") << "dysharp-small" << 2.5;
  QTest::newRow("Large-8 on B200") << "b200" << 2.0;
}

void TestMoeAblation::balance() {
  QFETCH(QString, ablationCase);
  QFETCH(double, gain);
  const auto& m = ablation(ablationCase.toStdString());
  const double basic = m.at(kBasic).balance, full = m.at(kDySharp).balance;
  QVERIFY2(basic < 0.2, qPrintable(QString::number(basic)));
  QVERIFY2(full > gain * basic, qPrintable(QString("full %1, basic %2").arg(full).arg(basic)));
  QVERIFY(m.at(kDeepEp).balance > 0.9);
}

// Why fusion-only beats COMET here but ties it in the seed: COMET's first kernel is
// GEMM-1-bound on our GPUs (nvl32-moe-ablation-b200.yaml). With faster GEMMs (B200 at its
// peak, DeepEP then ~70 % communicating like the seed's layers) the gap must shrink.
void TestMoeAblation::cometGapShrinksWithFasterGemms() {
  const auto gap = [](const std::map<std::string, AblationPoint>& m) {
    return double(m.at(kComet).makespan) / double(m.at(kFusionOnly).makespan) - 1;
  };
  const double at70 = gap(ablation("b200")), atPeak = gap(ablation("b200-peak"));
  QVERIFY2(at70 > 0 && atPeak < 0.75 * at70,
           qPrintable(QString("COMET behind fusion-only by %1 % at 0.7 of peak, %2 % at peak").arg(100 * at70).arg(100 * atPeak)));
}

QTEST_GUILESS_MAIN(TestMoeAblation)
#include "test_moe_ablation.moc"
