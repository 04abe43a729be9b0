// cross_dc_moe with workload.xdc.pass: training (HybridEP, seed 004 §VI): the forward pass,
// the backward pass mirrored and the gradient all-reduce, against closed forms written
// here on clusters where every transfer has the link to itself: 2 DCs x 1 GPU, 10 Gb/s
// between them (B = 1.25 GB/s), D = 24 MB, P_E = 8 MB, Lat_PE = 1 ms, 3 layers, an A100.
#include <QtTest>

#include <map>

#include <nlohmann/json.hpp>

#include "results/json_writer.h"
#include "scenario/scenario_io.h"
#include "sim/run.h"
#include "../common/xdc_two_dc.h"

using namespace fl;

namespace {

constexpr double D = 24e6, P = 8e6, B = 1.25e9, PE = 1e-3, H = 768, L = 3;
// Expert GEMMs of one layer: the D / (4 B x H) tokens a GPU receives through two H x 4H
// GEMMs, 2 D H MACs, at the A100's FP32 rate x 0.7 / 2 MAC/s (5.40 ms); backward twice.
const double kExpert = 2 * D * H / (19.5e12 * 0.7 / 2);
// Dense parameters per layer: 2 attention blocks (4 H^2) + 1 FFN block (8 H^2), fp32.
const double kDense = (2 * 4 * H * H + 8 * H * H) * 4;

// scheme: ep, or a hybrid domain list such as [2, 1].
// `xdc`: extra workload.xdc lines. Without grad_overlap the rows below assume none.
std::string yaml(int dcs, int gpus, const std::string& scheme, const std::string& pass, const std::string& dcLatency,
                 double compression = 1, const std::string& xdc = "    grad_overlap: false\n") {
  const bool ep = scheme == "ep";
  return "fabriclab: 1\nname: t\ngpu: {preset: a100}\ntopology:\n  kind: hierarchy\n  levels:\n"
         "    - {name: dc, count: " + std::to_string(dcs) + ", bandwidth: 10 Gb/s, latency: " + dcLatency + "}\n"
         "    - {name: gpu, count: " + std::to_string(gpus) + ", bandwidth: 16 GB/s, latency: 0 ns}\n"
         "workload:\n  kind: cross_dc_moe\n  xdc:\n    model: custom\n    hidden: 768\n    data_bytes: 24 MB\n"
         "    layers: 3\n    pre_expert_ns: 1 ms\n    pass: " + pass + "\n" + xdc +
         (xdc.find("expert_bytes") == std::string::npos ? "    expert_bytes: 8 MB\n" : "") +
         "scheme:\n  ep: " + (ep ? "ep" : "hybrid") + "\n  hybrid:\n    domains: " + (ep ? "auto" : scheme) +
         "\n    compression_ratio: " + std::to_string(compression) +
         "\nnetwork: {model: flow}\nrun:\n  bin: 10 ms\n";
}

double sumOf(const HybridEpResults& h, const std::string& kind) {
  double ns = 0;
  for (const HybridEpSpan& s : h.timeline)
    if (s.kind == kind) ns += toNs(s.end - s.start);
  return ns;
}

}  // namespace

class TestXdcTraining : public QObject {
  Q_OBJECT

 private slots:
  void iterationByHand_data();
  void iterationByHand();
  void allReduceOfTwoDcs();
  void bytesOnTwoLevels();
  void sharedExpertAllReduced();
  void timelineMirrorsTheForwardPass();
  void forwardIsTheDefault();
  void gradOverlap_data();
  void gradOverlap();
  void packetAgreesWithFlow_data();
  void packetAgreesWithFlow();
};

void TestXdcTraining::iterationByHand_data() {
  QTest::addColumn<QString>("scheme");
  QTest::addColumn<double>("hop");  // one transfer's latency: up and down 2 x the DC link's
  QTest::newRow("ep") << "ep" << 0.0;
  QTest::newRow("ep, 1 ms links") << "ep" << 2e-3;
  QTest::newRow("hybrid [2, 1]") << "[2, 1]" << 0.0;
  QTest::newRow("hybrid [2, 1], 1 ms links") << "[2, 1]" << 2e-3;
}

void TestXdcTraining::iterationByHand() {
  // EP, per layer: forward PE + dispatch + combine (D/2 each way), backward the two
  // all-to-alls again around 2 x the expert GEMMs, then 2 x PE. Hybrid with both DCs in one
  // domain: no all-to-all; the all-gather of P_E beside PE, its mirror (expert gradients
  // back to the owner) beside 2 x PE. Then the all-reduce: M/2 each way twice (M / B).
  QFETCH(QString, scheme);
  QFETCH(double, hop);
  const Results r = runScenario(parseScenario(yaml(2, 1, scheme.toStdString(), "training",
                                                   hop > 0 ? "1 ms" : "0 ns"), "t.yaml"));
  const double a2a = D / 2 / B + hop, m = L * kDense;
  const double layer = scheme == "ep" ? PE + 2 * a2a + 2 * a2a + 2 * kExpert + 2 * PE
                                      : std::max(PE, P / B + hop) + 2 * kExpert + std::max(2 * PE, P / B + hop);
  const double want = (L * layer + m / B + 2 * hop) * 1e9;
  const double sim = toNs(r.makespan);
  QVERIFY2(std::fabs(sim - want) <= 1e-6 * want, qPrintable(QString("sim %1 ns, by hand %2 ns").arg(sim).arg(want)));
  QCOMPARE(QString::fromStdString(r.hybridep->pass), QString("training"));
}

void TestXdcTraining::allReduceOfTwoDcs() {
  // A 2-worker ring all-reduce moves 2 (N-1)/N M = M over the link: M / B, plus one
  // latency per step (the reduce-scatter and the all-gather), here 2 x 2 ms.
  const Results r = runScenario(parseScenario(yaml(2, 1, "ep", "training", "1 ms"), "t.yaml"));
  const HybridEpResults& h = *r.hybridep;
  const double m = L * kDense;
  QCOMPARE(h.dense_bytes, kDense);
  const double want = (m / B + 2 * 2e-3) * 1e9;
  QVERIFY2(std::fabs(sumOf(h, "all_reduce") - want) <= 1e-6 * want, qPrintable(QString::number(sumOf(h, "all_reduce"))));
  QCOMPARE(double(h.allreduce_bytes), 2 * m);  // each GPU sends M/2 twice
}

void TestXdcTraining::bytesOnTwoLevels() {
  // 2 DCs x 4 GPUs, domains [2, 2]: the backward all-to-alls repeat the forward bytes, the
  // expert gradients go back exactly as the experts came (ag_bytes), and the hierarchical
  // all-reduce sends 2 (G - 1) M in all: per GPU 2 M (1/2 x 3/4 ... telescoping to 1 - 1/G).
  const std::string scheme = "[2, 2]";
  const Results fwd = runScenario(parseScenario(yaml(2, 4, scheme, "forward", "0 ns"), "t.yaml"));
  const Results train = runScenario(parseScenario(yaml(2, 4, scheme, "training", "0 ns"), "t.yaml"));
  const double g = 8, m = L * kDense;
  // Per GPU per layer and pass: level 0 none (S = SF = 2), level 1 D (4 - 2) / 4.
  QCOMPARE(double(fwd.hybridep->a2a_bytes), L * g * 2 * (D * 2 / 4));
  QCOMPARE(double(train.hybridep->a2a_bytes), L * g * 4 * (D * 2 / 4));
  // All-gather: P (2 - 1) at level 0, then 2 P (2 - 1) at level 1 (forwarding what level 0 gathered).
  QCOMPARE(double(train.hybridep->ag_bytes), L * g * (P + 2 * P));
  QCOMPARE(train.hybridep->grad_bytes, train.hybridep->ag_bytes);
  QCOMPARE(double(train.hybridep->allreduce_bytes), 2 * (g - 1) * m);
  QCOMPARE(fwd.hybridep->grad_bytes, 0);
  QCOMPARE(fwd.hybridep->allreduce_bytes, 0);
  QVERIFY(train.makespan > fwd.makespan);
}

void TestXdcTraining::sharedExpertAllReduced() {
  // With SR compression (ratio 50) the shared expert is all-reduced with the dense
  // gradients (spec 1.9): M = layers x (dense + P_E); the expert gradients travel as the
  // compressed payload, P_E / 50.
  const std::string scheme = "[2, 1]";
  const Results r = runScenario(parseScenario(yaml(2, 1, scheme, "training", "0 ns", 50), "t.yaml"));
  QCOMPARE(double(r.hybridep->allreduce_bytes), 2 * (2 - 1) * L * (kDense + P));  // 2 (G - 1) M
  QCOMPARE(double(r.hybridep->grad_bytes), L * 2 * (P / 50));
}

void TestXdcTraining::timelineMirrorsTheForwardPass() {
  // GPU 0's spans: the forward pass of layers 0..2, the backward of 2..0, then the
  // all-reduce (layer -1); each backward layer as combine_backward, expert_backward,
  // dispatch_backward, pre_expert_backward in that order.
  const Results r = runScenario(parseScenario(yaml(2, 1, "ep", "training", "0 ns"), "t.yaml"));
  std::vector<std::pair<int, std::string>> backward;
  bool seenBackward = false;
  for (const HybridEpSpan& s : r.hybridep->timeline) {
    const bool isBackward = s.kind.find("backward") != std::string::npos || s.kind == "all_reduce";
    if (!isBackward) QVERIFY2(!seenBackward, "a forward span after the backward pass began");
    seenBackward = seenBackward || isBackward;
    if (isBackward) backward.push_back({s.layer, s.kind});
  }
  std::vector<std::pair<int, std::string>> want;
  for (int layer = 2; layer >= 0; --layer)
    for (const char* k : {"combine_backward", "expert_backward", "dispatch_backward", "pre_expert_backward"})
      want.push_back({layer, k});
  want.push_back({-1, "all_reduce"});
  want.push_back({-1, "all_reduce"});
  QCOMPARE(backward, want);
  // The spans tile GPU 0's iteration: the last ends at the makespan.
  QCOMPARE(r.hybridep->timeline.back().end, r.makespan);
}

void TestXdcTraining::forwardIsTheDefault() {
  Scenario s = parseScenario(yaml(2, 1, "ep", "forward", "0 ns"), "t.yaml");
  QVERIFY(s.workload.xdc.pass == XdcPass::Forward);
  QVERIFY(Scenario{}.workload.xdc.pass == XdcPass::Forward);
  const Results r = runScenario(s);
  for (const HybridEpSpan& sp : r.hybridep->timeline) QVERIFY(sp.kind.find("backward") == std::string::npos);
  // Forward EP by hand: 3 x (PE + 2 x D/2 / B).
  const double want = L * (PE + 2 * D / 2 / B) * 1e9;
  QVERIFY(std::fabs(toNs(r.makespan) - want) <= 1e-6 * want);
  const auto j = resultsToJson(r, s);
  QCOMPARE(QString::fromStdString(j["hybridep"]["pass"].get<std::string>()), QString("forward"));
  QVERIFY(j["hybridep"].contains("allreduce_bytes"));
  QVERIFY(j["hybridep"].contains("grad_bytes"));
}

void TestXdcTraining::gradOverlap_data() {
  QTest::addColumn<bool>("overlap");
  QTest::addColumn<double>("layerBytes");  // dense gradient bytes per layer (one bucket)
  QTest::newRow("hidden in the next layer's expert backward") << true << 10e6;
  QTest::newRow("longer than a backward layer: the chain") << true << 25e6;
  QTest::newRow("no overlap, 10 MB") << false << 10e6;
  QTest::newRow("no overlap, 25 MB") << false << 25e6;
}

void TestXdcTraining::gradOverlap() {
  // 2 DCs x 1 GPU, both in one domain ([2, 1]: no all-to-all), P_E = 1 MB so that the only
  // traffic beside the all-reduce is the expert all-gather (forward) and its mirror, the
  // expert gradients (backward), P / B = 0.8 ms each. Per layer, forward: max(PE, P / B)
  // = 1 ms; backward: 2 x the expert GEMMs (2 kExpert, no traffic), then 2 PE = 2 ms
  // (without overlap the expert gradients beside it: P / B < 2 PE). Layer l's expert
  // backward ends at X_l = R_{l+1} + 2 kExpert, its backward at R_l = 3 ms + (3 - l) b,
  // b = 2 kExpert + 2 ms. A bucket alone takes a = M_l / B (M_l / 2 each way,
  // reduce-scatter then all-gather). With overlap the lane runs, one after another:
  // expert gradients of layer l from X_l, its bucket from R_l.
  //  - a = 8 ms < 2 kExpert: every entry ends before the next is released; only the
  //    last bucket is exposed: makespan = R_0 + a.
  //  - a = 20 ms > b: the chain binds: E_2 [X_2, X_2 + P/B] (before R_2), then buckets
  //    and expert gradients back to back: A_2 from R_2, E_1, A_1, E_0, A_0:
  //    makespan = R_2 + 3 a + 2 P / B.
  //  - no overlap: R_0 + 3 a.
  QFETCH(bool, overlap);
  QFETCH(double, layerBytes);
  const double p = 1e6;
  const std::string xdc = std::string("    grad_overlap: ") + (overlap ? "true" : "false") +
                          "\n    expert_bytes: 1 MB\n    dense_bytes: " + std::to_string(std::llround(layerBytes)) +
                          " B\n";
  const Scenario s = parseScenario(yaml(2, 1, "[2, 1]", "training", "0 ns", 1, xdc), "t.yaml");
  QCOMPARE(s.workload.xdc.grad_overlap, overlap);
  const Results r = runScenario(s);
  const double b = 2 * kExpert + 2 * PE, a = layerBytes / B;
  const double r2 = L * PE + b, r0 = r2 + 2 * b;
  QVERIFY(a < 2 * kExpert || a > b);  // the two regimes above, nothing in between
  const double want = (!overlap ? r0 + L * a : a < 2 * kExpert ? r0 + a : r2 + L * a + 2 * p / B) * 1e9;
  const double sim = toNs(r.makespan);
  QVERIFY2(std::fabs(sim - want) <= 1e-6 * want, qPrintable(QString("sim %1 ns, by hand %2 ns").arg(sim).arg(want)));
  // Bytes do not depend on the schedule: 2 (G - 1) M in all.
  QCOMPARE(double(r.hybridep->allreduce_bytes), 2 * L * layerBytes);
  // GPU 0's all-reduce spans: per bucket, reduce-scatter then all-gather, the last layer's
  // bucket first; without overlap one bucket (layer -1).
  std::vector<int> layers;
  for (const HybridEpSpan& sp : r.hybridep->timeline)
    if (sp.kind == "all_reduce") layers.push_back(sp.layer);
  const std::vector<int> wantLayers = overlap ? std::vector<int>{2, 2, 1, 1, 0, 0} : std::vector<int>{-1, -1};
  QCOMPARE(layers, wantLayers);
}

void TestXdcTraining::packetAgreesWithFlow_data() {
  QTest::addColumn<QString>("scheme");
  QTest::addColumn<bool>("overlap");
  QTest::newRow("EP") << "ep" << true;
  QTest::newRow("hybrid [2, 2]") << "hybrid\n  hybrid:\n    domains: [2, 2]" << true;
  QTest::newRow("hybrid [2, 1]") << "hybrid\n  hybrid:\n    domains: [2, 1]" << true;
  QTest::newRow("EP, no gradient overlap") << "ep" << false;
  QTest::newRow("hybrid [2, 2], no gradient overlap") << "hybrid\n  hybrid:\n    domains: [2, 2]" << false;
}

void TestXdcTraining::packetAgreesWithFlow() {
  // The training iteration on both network models, as test_xdc_iteration does for the
  // forward pass (issue 23): 2 DCs x 4 GPUs, 10 Gb/s between DCs, 16 GB/s inside, 2 and
  // 1 us of latency; framing flits off and 4 KiB packets so both carry payload at line
  // rate. Same plan, so the same bytes on every link direction; makespans within 5 %.
  QFETCH(QString, scheme);
  QFETCH(bool, overlap);
  const std::string xdc = std::string("    model: custom\n    hidden: 768\n    data_bytes: 2 MiB\n") +
                          "    expert_bytes: 1 MiB\n    layers: 2\n    pre_expert_ns: 100 us\n    dense_bytes: 1 MiB\n"
                          "    pass: training\n    grad_overlap: " + (overlap ? "true" : "false") + "\n";
  const Results packet = runScenario(parseScenario(test::twoDcScenario(xdc, scheme.toStdString(), "packet"), "t.yaml"));
  const Results flow = runScenario(parseScenario(test::twoDcScenario(xdc, scheme.toStdString(), "flow"), "t.yaml"));
  QCOMPARE(QString::fromStdString(packet.hybridep->network_model), QString("packet"));
  QCOMPARE(QString::fromStdString(flow.hybridep->network_model), QString("flow"));
  QCOMPARE(QString::fromStdString(packet.hybridep->pass), QString("training"));
  std::int64_t total = 0;
  test::compareLinkBytes(packet, flow, total);
  if (QTest::currentTestFailed()) return;
  QVERIFY(total > 0);
  const HybridEpResults &p = *packet.hybridep, &f = *flow.hybridep;
  QCOMPARE(p.a2a_bytes, f.a2a_bytes);
  QCOMPARE(p.ag_bytes, f.ag_bytes);
  QCOMPARE(p.grad_bytes, f.grad_bytes);
  QCOMPARE(p.allreduce_bytes, f.allreduce_bytes);
  // The all-reduce of 2 layers x 1 MiB over 8 GPUs: 2 (G - 1) M in all, by hand.
  QCOMPARE(double(p.allreduce_bytes), 2 * 7 * 2 * 1048576.0);
  const double pk = toNs(packet.makespan), fl = toNs(flow.makespan);
  qInfo("2-DC training: packet %.0f ns, flow %.0f ns", pk, fl);
  QVERIFY2(std::fabs(fl - pk) <= 0.05 * pk, qPrintable(QString("flow %1 ns, packet %2 ns").arg(fl).arg(pk)));
  // The same spans on GPU 0's two streams.
  QCOMPARE(p.timeline.size(), f.timeline.size());
  std::map<std::string, int> kindsP, kindsF;
  for (const HybridEpSpan& s : p.timeline) ++kindsP[s.kind];
  for (const HybridEpSpan& s : f.timeline) ++kindsF[s.kind];
  QVERIFY(kindsP == kindsF);
  QVERIFY(kindsP.count("combine_backward") && kindsP.count("all_reduce"));
}

QTEST_GUILESS_MAIN(TestXdcTraining)
#include "test_xdc_training.moc"
