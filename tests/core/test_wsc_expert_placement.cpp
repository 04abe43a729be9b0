// Expert placement of wafer-scale inference (spec moentwine.md §1.2; issue 20 "assign
// experts to dies"): workload.wsc.expert_placement explicit + expert_dies moves experts,
// and the all-to-all follows them. Expected per-link bytes come from XY walks of the
// spec's V_uv = T k (E_v / E) 2H written here, with E_v counted from the hand-written list;
// die loads (max / mean) from the same counts; the slot rule from its closed form.
#include <QtTest>

#include <map>
#include <string>
#include <vector>

#include "../common/input_error_helpers.h"
#include "../common/link_phase.h"
#include "../common/xy_walk.h"
#include "results/results.h"
#include "scenario/scenario_io.h"
#include "sim/run.h"
#include "wsc/expert_placement.h"

using namespace fl;

namespace {

std::string listText(const std::vector<int>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

Scenario placed(const std::string& mapping, const std::string& model, const std::vector<int>& dies,
                const std::string& extra = "") {
  std::string wsc = "{model: " + model + ", tp: 4, tokens_per_group: 256";
  if (!dies.empty()) wsc += ", expert_placement: explicit, expert_dies: " + listText(dies);
  wsc += extra + "}";
  return parseScenario("fabriclab: 1\ntopology: {preset: wsc-4x4}\nnetwork: {model: analytical}\nworkload:\n"
                       "  kind: wsc_inference\n  wsc: " + wsc + "\nmapping: {kind: " + mapping + "}\n",
                       "t.yaml");
}


}  // namespace

class TestWscExpertPlacement : public QObject {
  Q_OBJECT

 private slots:
  // Every directed mesh link's dispatch and combine bytes on the 4x4 (TP 4) with experts
  // placed by hand: die u sends V_uv = T k (E_v / E) 2H to each FTD peer v.
  void dispatchFollowsPlacement_data() {
    QTest::addColumn<QString>("mapping");
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("E");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("H");
    QTest::addColumn<QList<int>>("diesList");
    // Mixtral-8x22B: 8 experts, top-2, H 6144; modulo would put them on dies 0-7.
    const QList<int> corner = {0, 0, 15, 15, 5, 5, 10, 3};  // two per die on 0, 15, 5
    QTest::newRow("baseline, mixtral by hand") << "baseline" << "mixtral-8x22b" << 8 << 2 << 6144 << corner;
    QTest::newRow("er, mixtral by hand") << "er" << "mixtral-8x22b" << 8 << 2 << 6144 << corner;
    // Qwen3: 128 experts, top-8, H 4096; e mod 16 except expert 15 moved from die 15 to 0.
    QList<int> moved;
    for (int e = 0; e < 128; ++e) moved.push_back(e % 16);
    moved[15] = 0;
    QTest::newRow("er, qwen3 one move") << "er" << "qwen3-235b" << 128 << 8 << 4096 << moved;
    QTest::newRow("baseline, qwen3 one move") << "baseline" << "qwen3-235b" << 128 << 8 << 4096 << moved;
  }
  void dispatchFollowsPlacement() {
    QFETCH(QString, mapping);
    QFETCH(QString, model);
    QFETCH(int, E);
    QFETCH(int, k);
    QFETCH(int, H);
    QFETCH(QList<int>, diesList);
    const std::vector<int> dies(diesList.begin(), diesList.end());
    const Results r = runScenario(placed(mapping.toStdString(), model.toStdString(), dies));
    QVERIFY(r.wsc.has_value());
    const int X = 4, N = 16, T = 256;
    const bool er = mapping == "er";
    // Spec §2.4 / §2.5 on the 4x4 with 2x2 tiles: baseline FTD = offset in the tile,
    // ER FTD = the 2x2 quadrant.
    const auto ftd = [&](int d) { return er ? (d / X / 2) * 2 + (d % X) / 2 : (d / X % 2) * 2 + d % X % 2; };
    std::vector<int> experts(N, 0);
    for (int d : dies) ++experts[static_cast<std::size_t>(d)];
    std::map<std::pair<int, int>, double> dispatch, combine;
    for (int u = 0; u < N; ++u)
      for (int v = 0; v < N; ++v)
        if (u != v && ftd(u) == ftd(v)) {
          const double V = double(T) * k * experts[static_cast<std::size_t>(v)] / E * 2 * H;
          for (auto l : xyWalk(u, v, X)) dispatch[l] += V;
          for (auto l : xyWalk(v, u, X)) combine[l] += V;
        }
    int checked = 0;
    for (const auto& l : r.links) {
      const int a = routerDie(l.from, X), b = routerDie(l.to, X);
      if (a < 0 || b < 0) continue;
      QCOMPARE(double(phase(l, "dispatch")->bytes), dispatch[std::make_pair(a, b)]);
      QCOMPARE(double(phase(l, "combine")->bytes), combine[std::make_pair(a, b)]);
      ++checked;
    }
    QCOMPARE(checked, 2 * 2 * X * (X - 1));
    // Die loads under uniform_exact: tokens on a die are proportional to its experts.
    int most = 0;
    for (int n : experts) most = std::max(most, n);
    QCOMPARE(r.wsc->load_max_over_mean.size(), std::size_t(1));
    QCOMPARE(r.wsc->load_max_over_mean[0], double(most) / (double(E) / N));
  }

  // The modulo default and the same placement written out give the same links.
  void explicitModuloIsDefault() {
    std::vector<int> modulo;
    for (int e = 0; e < 128; ++e) modulo.push_back(e % 16);
    const Results a = runScenario(placed("er", "qwen3-235b", {}));
    const Results b = runScenario(placed("er", "qwen3-235b", modulo));
    QCOMPARE(a.links.size(), b.links.size());
    for (std::size_t i = 0; i < a.links.size(); ++i)
      for (std::size_t p = 0; p < a.links[i].phases.size(); ++p)
        QCOMPARE(a.links[i].phases[p].bytes, b.links[i].phases[p].bytes);
    QCOMPARE(a.wsc->dispatch, b.wsc->dispatch);
  }

  // Slots: ceil(E / N) + 1 by default, the key when set.
  void slotsPerDie_data() {
    QTest::addColumn<int>("experts");
    QTest::addColumn<int>("dies");
    QTest::addColumn<int>("key");
    QTest::addColumn<int>("expected");
    QTest::newRow("128 on 16") << 128 << 16 << 0 << 9;
    QTest::newRow("256 on 36") << 256 << 36 << 0 << 9;  // ceil(7.1) = 8, + 1
    QTest::newRow("8 on 16") << 8 << 16 << 0 << 2;
    QTest::newRow("set") << 128 << 16 << 12 << 12;
  }
  void slotsPerDie() {
    QFETCH(int, experts);
    QFETCH(int, dies);
    QFETCH(int, key);
    QFETCH(int, expected);
    WscSpec w;
    w.experts = experts;
    w.expert_slots = key;
    QCOMPARE(wsc::expertSlots(w, dies), expected);
  }

  // Refusals name the key: every expert placed, dies in range, slots respected.
  void refused_data() {
    QTest::addColumn<QList<int>>("diesList");
    QTest::addColumn<QString>("extra");
    QTest::addColumn<QString>("key");
    QTest::newRow("too few") << QList<int>{0, 1, 2} << "" << "workload.wsc.expert_dies";
    QTest::newRow("die 16") << QList<int>{0, 1, 2, 3, 4, 5, 6, 16} << "" << "workload.wsc.expert_dies[7]";
    QTest::newRow("die -1") << QList<int>{-1, 1, 2, 3, 4, 5, 6, 7} << "" << "workload.wsc.expert_dies[0]";
    QTest::newRow("three on die 4, 2 slots") << QList<int>{4, 4, 4, 3, 5, 6, 7, 8} << ""
                                           << "workload.wsc.expert_dies";
    QTest::newRow("two on die 4, 1 slot") << QList<int>{4, 4, 2, 3, 5, 6, 7, 8} << ", expert_slots: 1"
                                        << "workload.wsc.expert_dies";
  }
  void refused() {
    QFETCH(QList<int>, diesList);
    const std::vector<int> dies(diesList.begin(), diesList.end());
    QFETCH(QString, extra);
    QFETCH(QString, key);
    const InputError e = fl::test::expectError([&] { placed("er", "mixtral-8x22b", dies, extra.toStdString()); });
    QCOMPARE(QString::fromStdString(e.keyPath()), key);
  }
  void accepted() {
    // Two on one die fits the default 2 slots of 8 experts on 16 dies.
    const Scenario s = placed("er", "mixtral-8x22b", {4, 4, 2, 3, 5, 6, 7, 8});
    QCOMPARE(s.workload.wsc.expert_dies.size(), std::size_t(8));
  }
};

QTEST_GUILESS_MAIN(TestWscExpertPlacement)
#include "test_wsc_expert_placement.moc"
