// Expert balancing (seed 003 §V, spec moentwine.md §2.9-2.11, §3.8-3.10): Algorithm 1 and
// greedy on the spec's hand-worked load vector, the migration stage decomposition, the
// Eq. 2 trigger, and NI-Balancer never stalling where invasive balancing does. Expected
// values are the spec's worked examples (done by hand and by independent brute force).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "balance/greedy.h"
#include "balance/migration_path.h"
#include "balance/topology_aware.h"
#include "balance/trigger.h"
#include "gpu/gpu_spec.h"
#include "mapping/mapping.h"
#include "netmodel/analytical_model.h"
#include "topology/topology.h"
#include "wsc/wsc_run.h"
#include "scenario/scenario_io.h"
#include "sim/run.h"

using namespace fl;
using namespace fl::balance;

namespace {

const std::vector<double> kW = {8, 2, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0};  // spec §3.9
int hops4(int a, int b) { return std::abs(a / 4 - b / 4) + std::abs(a % 4 - b % 4); }
double maxHeat(const ExpertState& s) {
  const auto h = s.heat();
  return *std::max_element(h.begin(), h.end());
}

mapping::Mapping er(int X, int tp) {
  TopologySpec t;
  t.kind = TopologyKind::Mesh;
  t.rows = t.cols = X;
  MappingSpec spec;
  spec.kind = MappingKind::Er;
  return mapping::buildMapping(spec, t, tp);
}

Scenario studyScenario(const std::string& kind) {
  return parseScenario(
      "fabriclab: 1\ntopology: {preset: wsc-4x4}\nnetwork: {model: analytical}\n"
      "workload:\n  kind: wsc_inference\n  wsc: {model: qwen3-235b, tp: 4, tokens_per_group: 256, iterations: 40}\n"
      "mapping: {kind: er}\nbalancer: {kind: " + kind + ", load: single, zipf_s: 1.0, warmup: 0}\n",
      "t.yaml");
}
Results study(const std::string& kind) { return runScenario(studyScenario(kind)); }

// The makespan of a setup's placements and loads with its stalls left out.
Time withoutStalls(const Scenario& s, const topo::Topology& t, const wsc::WscSetup& setup) {
  wsc::IterationInputs in = setup.inputs;
  in.stall.clear();
  const auto plan = wsc::buildLayerPlan(s, setup.mapping, gpuSpecFor(s.gpu), in);
  return netmodel::playAnalytical(plan.plan, t).timing.makespan();
}

}  // namespace

class TestBalance : public QObject {
  Q_OBJECT

 private slots:
  // §3.9: moves 1-3 (e0: 0->1 with 1 and 4 tied on hops and heat, then 1->2, 1->5), 16
  // moves in all, 31 hops, final maximum heat 17/9; after move 1 the maximum is 6.
  void algorithm1Worked() {
    ExpertState one = initialState(kW, 16, 1);
    const auto first = topologyAwareBalance(one, hops4, 1);
    QCOMPARE(int(first.size()), 1);
    QCOMPARE(first[0].expert, 0);
    QCOMPARE(first[0].from, 0);
    QCOMPARE(first[0].to, 1);
    QCOMPARE(maxHeat(one), 6.0);
    ExpertState s = initialState(kW, 16, 1);
    const auto moves = topologyAwareBalance(s, hops4);
    QCOMPARE(int(moves.size()), 16);
    QCOMPARE(moves[1].expert, 0);
    QCOMPARE(moves[1].from, 1);
    QCOMPARE(moves[1].to, 2);
    QCOMPARE(moves[2].from, 1);
    QCOMPARE(moves[2].to, 5);
    int sum = 0;
    for (const Move& m : moves) sum += hops4(m.from, m.to);
    QCOMPARE(sum, 31);
    QVERIFY(std::abs(maxHeat(s) - 17.0 / 9) < 1e-12);
  }

  // §3.9: greedy's first move is e0 from die 0 to die 15 (6 hops; maximum then 4); 16
  // moves, 30 hops, the same final maximum 17/9.
  void greedyWorked() {
    ExpertState one = initialState(kW, 16, 1);
    const auto first = greedyBalance(one, hops4, 1);
    QCOMPARE(first[0].expert, 0);
    QCOMPARE(first[0].from, 0);
    QCOMPARE(first[0].to, 15);
    QCOMPARE(maxHeat(one), 4.0);
    ExpertState s = initialState(kW, 16, 1);
    const auto moves = greedyBalance(s, hops4);
    QCOMPARE(int(moves.size()), 16);
    int sum = 0;
    for (const Move& m : moves) sum += hops4(m.from, m.to);
    QCOMPARE(sum, 30);
    QVERIFY(std::abs(maxHeat(s) - 17.0 / 9) < 1e-12);
  }

  // §3.8: Local / Global stages of the longest copies under ER.
  void stages_data() {
    QTest::addColumn<int>("X");
    QTest::addColumn<int>("tp");
    QTest::addColumn<int>("from");
    QTest::addColumn<int>("to");
    QTest::addColumn<QString>("stages");
    QTest::newRow("4x4 corner to corner") << 4 << 4 << 0 << 15 << "L2 G2 L2";
    QTest::newRow("6x6 t4 corner to corner") << 6 << 4 << 0 << 35 << "L4 G2 L4";
    QTest::newRow("8x8 t16 corner to corner") << 8 << 16 << 0 << 63 << "L2 G2 L2 G2 L2 G2 L2";
    QTest::newRow("4x4 inside one FTD") << 4 << 4 << 0 << 5 << "L2";
    QTest::newRow("4x4 backwards") << 4 << 4 << 15 << 0 << "L2 G2 L2";
  }
  void stages() {
    QFETCH(int, X);
    QFETCH(int, tp);
    QFETCH(int, from);
    QFETCH(int, to);
    QFETCH(QString, stages);
    QString got;
    for (const auto& st : migrationStages(er(X, tp), from, to))
      got += QString("%1%2%3").arg(got.isEmpty() ? "" : " ").arg(st.global ? "G" : "L").arg(st.hops());
    QCOMPARE(got, stages);
  }

  // §2.9: the paper's path (0,0)->(0,1)->(1,1) | (1,2)->(2,2) | (2,3)->(3,3), not XY's.
  void paperPath() {
    QCOMPARE(migrationPath(er(4, 4), 0, 15), (std::vector<int>{0, 1, 5, 6, 10, 11, 15}));
  }

  // §3.10: I = max/mean - 1 per layer; 1.0 + 0.5 = 1.5 > 1.2; an invasive balancer also
  // needs more than beta = 10 iterations since the last trigger, NI (beta 0) does not.
  void trigger() {
    const double I = imbalance({4, 1, 1, 2}) + imbalance({3, 3, 1, 1});
    QCOMPARE(I, 1.5);
    QVERIFY(!shouldBalance(I, 1.2, 10, 10));
    QVERIFY(shouldBalance(I, 1.2, 11, 10));
    QVERIFY(shouldBalance(I, 1.2, 1, 0));
    QVERIFY(!shouldBalance(I, 1.6, 100, 0));
  }

  // NI-Balancer's copies ride on cold links inside the phases: no stall; an invasive
  // balancer stalls every die for its copies. Both flatten the load.
  void niNeverStalls() {
    const Results none = study("none"), ta = study("topology_aware"), ni = study("non_invasive");
    QCOMPARE(none.wsc->migration_stall, Time(0));
    QVERIFY(none.wsc->migrations.empty());
    QVERIFY(!ni.wsc->migrations.empty());
    QVERIFY(!ta.wsc->migrations.empty());
    QCOMPARE(ni.wsc->migration_stall, Time(0));
    QVERIFY(ta.wsc->migration_stall > 0);
    for (const auto& m : ni.wsc->migrations) {
      QVERIFY(m.end_iteration >= m.start_iteration);
      for (size_t k = 1; k < m.stages.size(); ++k) QVERIFY(m.stages[k].kind != m.stages[k - 1].kind);
    }
    // Both flatten the load once their copies serve (NI's after its stages, ~26 iterations here).
    QVERIFY(ni.wsc->load_max_over_mean.back() < 0.5 * none.wsc->load_max_over_mean.back());
    QVERIFY(ta.wsc->load_max_over_mean.back() < 0.5 * none.wsc->load_max_over_mean.back());
    // Stalls add exactly their length (every die waits); NI's plan holds no stall at all.
    for (const char* kind : {"topology_aware", "non_invasive", "greedy"}) {
      const Scenario s = studyScenario(kind);
      const auto topology = topo::buildTopology(s.topology);
      const auto setup = wsc::prepareWsc(s, *topology);
      const Time with = netmodel::playAnalytical(setup.layer.plan, *topology).timing.makespan();
      QCOMPARE(with - setup.migrationStall, withoutStalls(s, *topology, setup));
      if (std::string(kind) == "non_invasive") QCOMPARE(setup.migrationStall, Time(0));
      else QVERIFY(setup.migrationStall > 0);
    }
  }
};

QTEST_GUILESS_MAIN(TestBalance)
#include "test_balance.moc"
