// MoE scenario keys: model presets (seed 000 Table I and §VII-B, hardware.md typed in),
// workload.moe.* and scheme.* values, preset key order, trace paths relative to the
// scenario file, and cross-field validation.
#include <QtTest>
#include <yaml-cpp/yaml.h>

#include <functional>

#include "moe/moe_model.h"
#include "moe/routing.h"
#include "scenario/scenario_io.h"
#include "scenario/schema.h"
#include "scenario/validate.h"

using Mutator = std::function<void(fl::Scenario&)>;
Q_DECLARE_METATYPE(Mutator)

#include "../common/input_error_helpers.h"

namespace {
const QString kMoe = QStringLiteral(FABRICLAB_TEST_DATA) + "/moe/";

using fl::test::expectError;
}  // namespace

class TestMoeScenario : public QObject {
  Q_OBJECT

 private slots:
  void modelPresets_data();
  void modelPresets();
  void modelKeys();
  void placementKey();
  void traceScenario();
  void validation_data();
  void validation();
};

// Seed 000 Table I (S, M, L) and §VII-B; hardware.md "MoE model configurations".
void TestMoeScenario::modelPresets_data() {
  QTest::addColumn<QString>("name");
  QTest::addColumn<int>("hidden");
  QTest::addColumn<int>("ffn");
  QTest::addColumn<int>("experts");
  QTest::addColumn<int>("k");
  QTest::newRow("S") << "dysharp-small" << 2048 << 512 << 64 << 8;
  QTest::newRow("M") << "dysharp-medium" << 4096 << 1024 << 128 << 8;
  QTest::newRow("L") << "dysharp-large" << 7168 << 2048 << 256 << 8;
  QTest::newRow("DeepSeek-V3") << "deepseek-v3" << 7168 << 2048 << 256 << 8;
  QTest::newRow("Qwen3-235B") << "qwen3-235b" << 4096 << 1536 << 128 << 8;
  QTest::newRow("GPT-OSS-120B") << "gpt-oss-120b" << 2880 << 2880 << 128 << 4;
  QTest::newRow("Mixtral 8x7B") << "mixtral-8x7b" << 4096 << 14336 << 8 << 2;
}

void TestMoeScenario::modelPresets() {
  QFETCH(QString, name);
  QFETCH(int, hidden);
  QFETCH(int, ffn);
  QFETCH(int, experts);
  QFETCH(int, k);
  const fl::MoeModel& m = fl::moeModel(name.toStdString());
  QCOMPARE(m.hidden, hidden);
  QCOMPARE(m.expert_ffn, ffn);
  QCOMPARE(m.experts, experts);
  QCOMPARE(m.top_k, k);
  QVERIFY(!m.source.empty());
  fl::Scenario s;
  fl::applyOverrides(s, {"workload.moe.model=" + name.toStdString()});
  QCOMPARE(s.workload.moe.hidden, hidden);
  QCOMPARE(s.workload.moe.experts, experts);
  QCOMPARE(s.workload.moe.top_k, k);
}

void TestMoeScenario::modelKeys() {
  // Defaults are DeepSeek-V3's, with FP8 dispatch and BF16 combine (DeepEP row).
  const fl::Scenario d;
  QCOMPARE(fl::getValue(d, "workload.moe.model"), std::string("deepseek-v3"));
  fl::Scenario again = d;
  fl::applyMoeModel("deepseek-v3", again.workload.moe);
  QVERIFY(again == d);
  QCOMPARE(fl::getValue(d, "workload.moe.dispatch_dtype"), std::string("fp8"));
  QCOMPARE(fl::getValue(d, "workload.moe.combine_dtype"), std::string("bf16"));
  QCOMPARE(fl::getValue(d, "workload.moe.routing.sigma"), std::string("0.032"));
  QCOMPARE(fl::getValue(d, "scheme.communication"), std::string("deepep"));
  QCOMPARE(fl::getValue(d, "scheme.fusion"), std::string("sequential"));
  // An explicit key written before the model wins, even when equal to the old preset's value.
  const fl::Scenario s = fl::parseScenario("fabriclab: 1\nworkload: {moe: {hidden: 7168, model: dysharp-small}}\n", "t");
  QCOMPARE(s.workload.moe.hidden, 7168);
  QCOMPARE(s.workload.moe.expert_ffn, 512);
  QCOMPARE(s.workload.moe.experts, 64);
  QCOMPARE(s.workload.moe.dispatch_dtype, fl::Dtype::Bf16);
  fl::Scenario t = s;  // switching model: explicit hidden stays, the rest follows
  fl::applyOverrides(t, {"workload.moe.model=mixtral-8x7b", "workload.moe.placement=round_robin"});
  QCOMPARE(t.workload.moe.hidden, 7168);
  QCOMPARE(t.workload.moe.expert_ffn, 14336);
  QCOMPARE(t.workload.moe.top_k, 2);
  fl::applyOverrides(t, {"workload.moe.model=custom"});  // fills nothing
  QCOMPARE(t.workload.moe.expert_ffn, 14336);
  QVERIFY(fl::parseScenario(fl::saveScenarioText(t), "saved") == t);
  const fl::InputError e = expectError([&] { fl::applyOverrides(t, {"workload.moe.model=deepseek-v4"}); });
  QVERIFY2(QString(e.what()).contains("did you mean 'deepseek-v3'?"), e.what());
}

// A name or a list, typed or saved as text.
void TestMoeScenario::placementKey() {
  fl::Scenario s;
  fl::setValue(s, "workload.moe.placement", "[1, 0, 1]");
  QCOMPARE(s.workload.moe.placement, fl::ExpertPlacementKind::Explicit);
  QCOMPARE(fl::getValue(s, "workload.moe.placement"), std::string("[1, 0, 1]"));
  fl::setValue(s, "workload.moe.placement", YAML::Node("[0, 2]"), {"f", true, {}});
  QCOMPARE(s.workload.moe.placement_list, (std::vector<int>{0, 2}));
  fl::setValue(s, "workload.moe.placement", "round_robin");
  QVERIFY(s.workload.moe.placement_list.empty());
  const fl::InputError e = expectError([&] { fl::setValue(s, "workload.moe.placement", "roundrobin"); });
  QVERIFY2(QString(e.what()).contains("did you mean 'round_robin'?"), e.what());
}

// trace_scenario.yaml names trace_good.csv relative to itself; 2 GPUs x 4 tokens replay
// its 6 rows cyclically: GPU 1 token t is row (4 + t) mod 6.
void TestMoeScenario::traceScenario() {
  const fl::Scenario s = fl::loadScenario((kMoe + "trace_scenario.yaml").toStdString());
  QCOMPARE(QString::fromStdString(s.workload.moe.routing.trace), QFileInfo(kMoe + "trace_good.csv").absoluteFilePath());
  QVERIFY(fl::parseScenario(fl::saveScenarioText(s), "saved") == s);  // absolute: loads from anywhere
  const fl::Routing r = fl::generateRouting(fl::routingParams(s));
  auto tok = [&](int g, int t) { return std::vector<int>(r.chosen(g, t).begin(), r.chosen(g, t).end()); };
  QCOMPARE(tok(0, 3), (std::vector<int>{6, 7}));
  QCOMPARE(tok(1, 1), (std::vector<int>{1, 6}));
  QCOMPARE(tok(1, 2), (std::vector<int>{0, 1}));
  // Observed popularity: expert 0 appears in rows 0, 4 and the replayed 0 -> 3 of 16.
  QCOMPARE(r.popularity[0], 3.0 / 16);
  // A bad row: the scenario key is named, the trace's line and column are in the hint.
  fl::Scenario bad = s;
  fl::setValue(bad, "workload.moe.routing.trace", (kMoe + "trace_expert_range.csv").toStdString());
  const fl::InputError e = expectError([&] { fl::validateScenario(bad); });
  QCOMPARE(e.keyPath(), std::string("workload.moe.routing.trace"));
  QVERIFY2(QString(e.what()).contains("trace_expert_range.csv line 3, column 5"), e.what());
}

void TestMoeScenario::validation_data() {
  QTest::addColumn<Mutator>("change");
  QTest::addColumn<QString>("keyPath");  // "" = valid
  using S = fl::Scenario;
  auto moe = [](std::function<void(S&)> f) {
    return Mutator([f](S& s) {
      s.workload.kind = fl::WorkloadKind::MoeLayer;
      f(s);
    });
  };
  QTest::newRow("defaults") << moe([](S&) {}) << "";
  QTest::newRow("collective ignores moe") << Mutator([](S& s) { s.workload.moe.top_k = 999; }) << "";
  QTest::newRow("top_k > experts") << moe([](S& s) { s.workload.moe.top_k = 257; }) << "workload.moe.top_k";
  QTest::newRow("12 experts on 8 GPUs") << moe([](S& s) { s.workload.moe.experts = 12; }) << "workload.moe.placement";
  QTest::newRow("12 experts round robin") << moe([](S& s) {
    s.workload.moe.experts = 12, s.workload.moe.placement = fl::ExpertPlacementKind::RoundRobin;
  }) << "";
  QTest::newRow("explicit short") << moe([](S& s) {
    s.workload.moe.placement = fl::ExpertPlacementKind::Explicit, s.workload.moe.placement_list = {0, 1};
  }) << "workload.moe.placement";
  QTest::newRow("explicit GPU 8 of 8") << moe([](S& s) {
    s.workload.moe.experts = 3, s.workload.moe.top_k = 2;
    s.workload.moe.placement = fl::ExpertPlacementKind::Explicit, s.workload.moe.placement_list = {0, 7, 8};
  }) << "workload.moe.placement[2]";
  QTest::newRow("alpha 3 power law") << moe([](S& s) {
    s.workload.moe.routing.distribution = fl::RoutingDistribution::PowerLaw, s.workload.moe.routing.alpha = 3;
  }) << "workload.moe.routing.alpha";
  QTest::newRow("alpha 3 uniform") << moe([](S& s) { s.workload.moe.routing.alpha = 3; }) << "";
  QTest::newRow("trace without path") << moe([](S& s) { s.workload.moe.routing.distribution = fl::RoutingDistribution::Trace; })
                                      << "workload.moe.routing.trace";
  QTest::newRow("trace missing") << moe([](S& s) {
    s.workload.moe.routing.distribution = fl::RoutingDistribution::Trace, s.workload.moe.routing.trace = "/nonexistent.csv";
  }) << "workload.moe.routing.trace";
  // The pipeline's task keys hold 16 bits of GPU index: 65536 GPUs at most, except for
  // comm_only, which schedules no tasks.
  const auto manyGpus = [](S& s, int dcs, fl::MoeFusion f) {
    s.topology.kind = fl::TopologyKind::Hierarchy;
    s.topology.levels = {{"dc", dcs, 10e9 / 8, fl::kMillisecond}, {"gpu", 32768, 25e9, 500 * fl::kNanosecond}};
    s.workload.moe.experts = 65536, s.workload.moe.top_k = 1, s.workload.moe.tokens_per_gpu = 1;
    s.workload.moe.placement = fl::ExpertPlacementKind::RoundRobin;
    s.scheme.fusion = f;
  };
  QTest::newRow("65536 GPUs sequential") << moe([=](S& s) { manyGpus(s, 2, fl::MoeFusion::Sequential); }) << "";
  QTest::newRow("98304 GPUs sequential") << moe([=](S& s) { manyGpus(s, 3, fl::MoeFusion::Sequential); })
                                         << "scheme.fusion";
  QTest::newRow("dysharp on mesh") << moe([](S& s) {
    s.topology.kind = fl::TopologyKind::Mesh, s.scheme.communication = fl::MoeCommunication::DySharp;
  }) << "scheme.communication";
  QTest::newRow("nvls_static on hierarchy") << moe([](S& s) {
    s.topology.kind = fl::TopologyKind::Hierarchy, s.topology.levels = {{"a", 8, 1e9, 0}};
    s.scheme.communication = fl::MoeCommunication::NvlsStatic;
  }) << "scheme.communication";
  QTest::newRow("deepep on mesh") << moe([](S& s) { s.topology.kind = fl::TopologyKind::Mesh; }) << "";
  QTest::newRow("dysharp on nvswitch") << moe([](S& s) { s.scheme.communication = fl::MoeCommunication::DySharp; }) << "";
  QTest::newRow("2.56e9 assignments") << moe([](S& s) { s.workload.moe.tokens_per_gpu = 40'000'000; })
                                    << "workload.moe.tokens_per_gpu";
}

void TestMoeScenario::validation() {
  QFETCH(Mutator, change);
  QFETCH(QString, keyPath);
  fl::Scenario s;
  change(s);
  try {
    fl::validateScenario(s);
    QVERIFY2(keyPath.isEmpty(), "expected an error");
  } catch (const fl::InputError& e) {
    QVERIFY2(QString::fromStdString(e.keyPath()) == keyPath, e.what());
  }
}

QTEST_GUILESS_MAIN(TestMoeScenario)
#include "test_moe_scenario.moc"
