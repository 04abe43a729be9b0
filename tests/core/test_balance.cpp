// Expert balancing (seed 003 §V, spec moentwine.md §2.9-2.11, §3.8-3.10): Algorithm 1 and
// greedy on the spec's hand-worked load vector, the migration stage decomposition, the
// Eq. 2 trigger, and NI-Balancer never stalling where invasive balancing does. Expected
// values are the spec's worked examples (done by hand and by independent brute force).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
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
#include "../common/xy_walk.h"

using namespace fl;
using namespace fl::balance;

namespace {

const std::vector<double> kW = {8, 2, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0};  // spec §3.9
// §3.9's placement: expert e native on die e.
const std::vector<std::vector<int>> kNative = {{0}, {1}, {2},  {3},  {4},  {5},  {6},  {7},
                                               {8}, {9}, {10}, {11}, {12}, {13}, {14}, {15}};
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

// The layer's makespan with a setup's placements and loads, its stalls and copies left out.
Time withoutStalls(const Scenario& s, const topo::Topology& t, const wsc::WscSetup& setup) {
  wsc::IterationInputs in = setup.inputs;
  in.stall.clear();
  in.copies.clear();
  const auto plan = wsc::buildLayerPlan(s, setup.mapping, gpuSpecFor(s.gpu), in);
  return netmodel::playAnalytical(plan.plan, t).timing.makespan();
}

// A small NI study both network models run quickly: 1.5 MiB experts, 16 tokens per group.
Scenario niScenario(const std::string& model) {
  return parseScenario(
      "fabriclab: 1\ntopology: {preset: wsc-4x4}\nnetwork: {model: " + model + "}\n"
      "workload:\n  kind: wsc_inference\n  wsc: {model: custom, hidden: 1024, expert_ffn: 512, experts: 16, top_k: 2,"
      " tp: 4, tokens_per_group: 16, iterations: 6}\n"
      "mapping: {kind: er}\nbalancer: {kind: non_invasive, load: single, zipf_s: 1.0, warmup: 0}\n",
      "t.yaml");
}

}  // namespace

class TestBalance : public QObject {
  Q_OBJECT

 private slots:
  // §3.9: moves 1-3 (e0: 0->1 with 1 and 4 tied on hops and heat, then 1->2, 1->5), 16
  // moves in all, 31 hops, final maximum heat 17/9; after move 1 the maximum is 6.
  void algorithm1Worked() {
    ExpertState one = initialState(kW, kNative, 16, 1);
    const auto first = topologyAwareBalance(one, hops4, 1);
    QCOMPARE(int(first.size()), 1);
    QCOMPARE(first[0].expert, 0);
    QCOMPARE(first[0].from, 0);
    QCOMPARE(first[0].to, 1);
    QCOMPARE(maxHeat(one), 6.0);
    ExpertState s = initialState(kW, kNative, 16, 1);
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

  // An explicit placement (workload.wsc.expert_placement: explicit): expert e on die 15 - e,
  // §3.9's wafer turned half round. Die 15 now holds e0 (heat 8); Algorithm 1 copies e0 to
  // the nearest die it may, 1 hop: dies 11 (e4) and 14 (e1), tied on heat 2, so the lower
  // id, 11; then dies 11 (2 + 4) and 15 (4): maximum 6. Greedy copies e0 to the coldest
  // die, 0 (e15, heat 0), 6 hops from 15.
  void explicitPlacement() {
    std::vector<std::vector<int>> turned;
    for (int e = 0; e < 16; ++e) turned.push_back({15 - e});
    ExpertState s = initialState(kW, turned, 16, 1);
    QCOMPARE(s.heat()[15], 8.0);
    QCOMPARE(s.heat()[0], 0.0);
    const auto first = topologyAwareBalance(s, hops4, 1);
    QCOMPARE(int(first.size()), 1);
    QCOMPARE(first[0].expert, 0);
    QCOMPARE(first[0].from, 15);
    QCOMPARE(first[0].to, 11);
    QCOMPARE(maxHeat(s), 6.0);
    ExpertState g = initialState(kW, turned, 16, 1);
    const auto greedy = greedyBalance(g, hops4, 1);
    QCOMPARE(greedy[0].from, 15);
    QCOMPARE(greedy[0].to, 0);
  }

  // §3.9: greedy's first move is e0 from die 0 to die 15 (6 hops; maximum then 4); 16
  // moves, 30 hops, the same final maximum 17/9.
  void greedyWorked() {
    ExpertState one = initialState(kW, kNative, 16, 1);
    const auto first = greedyBalance(one, hops4, 1);
    QCOMPARE(first[0].expert, 0);
    QCOMPARE(first[0].from, 0);
    QCOMPARE(first[0].to, 15);
    QCOMPARE(maxHeat(one), 4.0);
    ExpertState s = initialState(kW, kNative, 16, 1);
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
      const auto run = netmodel::playAnalytical(setup.layer.plan, *topology);
      const Time with = wsc::layerMakespan(setup.layer.plan, run.timing);
      QCOMPARE(with - setup.migrationStall, withoutStalls(s, *topology, setup));
      if (std::string(kind) == "non_invasive") QCOMPARE(setup.migrationStall, Time(0));
      else QVERIFY(setup.migrationStall > 0);
    }
  }

  // NI copies are traffic in both network models: every mesh link carries, in phase
  // migration, one expert (3 H F = 1.5 MiB) per copy whose stage path crosses it, Local
  // stages only on intra-FTD links and Global stages only on inter-FTD ones; summed over
  // the links, (total stage hops) x expert bytes.
  void niCopiesOnLinks_data() {
    QTest::addColumn<QString>("model");
    QTest::newRow("analytical") << "analytical";
    QTest::newRow("packet") << "packet";
  }
  void niCopiesOnLinks() {
    QFETCH(QString, model);
    const Scenario s = niScenario(model.toStdString());
    const Results r = runScenario(s);
    QVERIFY(r.wsc && !r.wsc->migrations.empty());
    const std::int64_t expert = 3 * 1024 * 512;
    const auto m = er(4, 4);
    std::map<std::pair<int, int>, std::int64_t> expected;  // directed die step -> bytes
    std::map<std::pair<int, int>, bool> global;
    std::int64_t hops = 0;
    for (const auto& mig : r.wsc->migrations) {
      const auto stages = migrationStages(m, mig.from, mig.to);
      QCOMPARE(stages.size(), mig.stages.size());
      for (std::size_t k = 0; k < stages.size(); ++k) {
        QCOMPARE(stages[k].hops(), mig.stages[k].hops);
        hops += mig.stages[k].hops;
        for (std::size_t h = 0; h + 1 < stages[k].dies.size(); ++h) {
          const std::pair<int, int> step{stages[k].dies[h], stages[k].dies[h + 1]};
          QCOMPARE(std::abs(step.first - step.second) == 1 || std::abs(step.first - step.second) == 4, true);
          expected[step] += expert;
          global[step] = stages[k].global;
        }
      }
    }
    std::int64_t total = 0;
    for (const auto& l : r.links) {
      const int a = routerDie(l.from, 4), b = routerDie(l.to, 4);
      std::int64_t bytes = -1;
      for (const auto& p : l.phases)
        if (p.phase == "migration") bytes = p.bytes;
      QVERIFY(bytes >= 0);
      if (a < 0 || b < 0) continue;  // die <-> router wiring
      const auto it = expected.find({a, b});
      QCOMPARE(bytes, it == expected.end() ? std::int64_t(0) : it->second);
      if (it != expected.end()) QCOMPARE(l.ftd == "inter", global[std::make_pair(a, b)]);
      total += bytes;
    }
    QCOMPARE(total, hops * expert);
    QCOMPARE(r.wsc->migration_stall, Time(0));
  }
};

QTEST_GUILESS_MAIN(TestBalance)
#include "test_balance.moc"
