// Wafer-scale MoE inference layer (seed 003, spec moentwine.md §2.1, §2.6, §3.3-3.7):
// per-link all-to-all bytes against XY walks written here, zero inter-FTD all-to-all
// bytes under ER for any gating, cross-border bytes of baseline / ER / HER, the Eq. 1
// arithmetic of spec §3.5, and identical link bytes under the packet and analytical models.
// FTDs and groups are rebuilt here from the spec's definitions, not taken from the code.
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>
#include <tuple>
#include <regex>
#include <string>
#include <vector>

#include "results/results.h"
#include "scenario/scenario.h"
#include "../common/input_error_helpers.h"
#include "../common/link_phase.h"
#include "../common/xy_walk.h"
#include "wsc/expert_load_trace.h"
#include "scenario/scenario_io.h"
#include "sim/run.h"
#include "gpu/gpu_spec.h"

using namespace fl;

namespace {

const QString kWscData = QStringLiteral(FABRICLAB_TEST_DATA) + "/wsc/";

constexpr double kMiB = 1024.0 * 1024.0;

Scenario layerScenario(const std::string& preset, int tp, const std::string& mapping, const std::string& model = "analytical",
             int tokens = 256, const std::string& extra = "") {
  return parseScenario("fabriclab: 1\ntopology: {preset: " + preset + "}\nnetwork: {model: " + model +
                           "}\nworkload:\n  kind: wsc_inference\n  wsc: {model: qwen3-235b, tp: " + std::to_string(tp) +
                           ", tokens_per_group: " + std::to_string(tokens) + "}\nmapping: {kind: " + mapping + "}\n" +
                           extra,
                       "t.yaml");
}

}  // namespace

class TestWscLayer : public QObject {
  Q_OBJECT

 private slots:
  // §2.1 step 6 + §3.3: die u sends V_uv = T k (E_v / E) 2H to every other member v of its
  // FTD; baseline FTD = dies with the same offset in their p x q tile, ER FTD = the m x n
  // tile. Every mesh link's dispatch bytes against the XY walks of those transfers.
  void dispatchBytesPerLink_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("X");
    QTest::addColumn<int>("tp");
    QTest::addColumn<int>("p");
    QTest::addColumn<QString>("mapping");
    QTest::newRow("4x4 t4 baseline") << "wsc-4x4" << 4 << 4 << 2 << "baseline";
    QTest::newRow("4x4 t4 er") << "wsc-4x4" << 4 << 4 << 2 << "er";
    QTest::newRow("6x6 t4 baseline") << "wsc-6x6" << 6 << 4 << 2 << "baseline";
    QTest::newRow("6x6 t4 er") << "wsc-6x6" << 6 << 4 << 2 << "er";
    QTest::newRow("8x8 t16 baseline") << "wsc-8x8" << 8 << 16 << 4 << "baseline";
    QTest::newRow("8x8 t16 er") << "wsc-8x8" << 8 << 16 << 4 << "er";
  }
  void dispatchBytesPerLink() {
    QFETCH(QString, preset);
    QFETCH(int, X);
    QFETCH(int, tp);
    QFETCH(int, p);
    QFETCH(QString, mapping);
    const Results r = runScenario(layerScenario(preset.toStdString(), tp, mapping.toStdString()));
    QVERIFY(r.wsc.has_value());
    const int N = X * X, m = X / p, T = 256, k = 8, E = 128, H = 4096;
    const bool er = mapping == "er";
    const auto ftd = [&](int d) { return er ? (d / X / m) * p + (d % X) / m : (d / X % p) * p + d % X % p; };
    std::vector<int> experts(size_t(N), 0);
    for (int e = 0; e < E; ++e) ++experts[size_t(e % N)];
    std::map<std::pair<int, int>, double> expected, back;  // dispatch, combine (v -> u, its own XY walk)
    for (int u = 0; u < N; ++u)
      for (int v = 0; v < N; ++v)
        if (u != v && ftd(u) == ftd(v)) {
          const double V = double(T) * k * experts[size_t(v)] / E * 2 * H;
          for (auto l : xyWalk(u, v, X)) expected[l] += V;
          for (auto l : xyWalk(v, u, X)) back[l] += V;
        }
    int checked = 0;
    for (const auto& l : r.links) {
      const int a = routerDie(l.from, X), b = routerDie(l.to, X);
      if (a < 0 || b < 0) continue;
      const auto* d = phase(l, "dispatch");
      QVERIFY(d);
      const std::pair<int, int> key{a, b};
      QCOMPARE(double(d->bytes), expected[key]);
      QCOMPARE(double(phase(l, "combine")->bytes), back[key]);
      ++checked;
    }
    QCOMPARE(checked, 2 * 2 * X * (X - 1));  // every directed mesh link
  }

  // §2.7: under ER the all-to-all never leaves an FTD tile, whatever the gating.
  void erInterFtdLinksIdle_data() {
    QTest::addColumn<QString>("gating");
    QTest::newRow("uniform_exact") << "uniform_exact";
    QTest::newRow("uniform") << "uniform";
    QTest::newRow("zipf") << "zipf";
    QTest::newRow("trace") << "trace";
  }
  void erInterFtdLinksIdle() {
    QFETCH(QString, gating);
    // A skewed trace of our own for Qwen3's 128 experts: expert e gets (e mod 7)^2 + 1 tokens.
    QTemporaryDir dir;
    const QString trace = dir.filePath("skewed.csv");
    {
      QFile f(trace);
      QVERIFY(f.open(QIODevice::WriteOnly));
      QByteArray rows = "iteration,layer,expert,tokens\n";
      for (int e = 0; e < 128; ++e) rows += "0,0," + QByteArray::number(e) + "," + QByteArray::number((e % 7) * (e % 7) + 1) + "\n";
      f.write(rows);
    }
    for (auto [preset, X, tp, m] : {std::tuple{"wsc-8x8", 8, 16, 2}, std::tuple{"wsc-6x6", 6, 4, 3}}) {
      Scenario s = layerScenario(preset, tp, "er");
      s.workload.wsc.trace = trace.toStdString();
      s.workload.wsc.gating = gating == "uniform" ? WscGating::Uniform
                              : gating == "zipf"  ? WscGating::Zipf
                              : gating == "trace" ? WscGating::Trace
                                                  : WscGating::UniformExact;
      s.workload.wsc.zipf_s = 1.2;
      const Results r = runScenario(s);
      QCOMPARE(r.wsc->a2a_inter_ftd_bytes, std::int64_t(0));
      if (gating == "trace") {  // the trace's skew reached the dies (experts e mod N on die e mod N)
        std::vector<double> die(static_cast<size_t>(X * X), 0);
        for (int e = 0; e < 128; ++e) die[static_cast<size_t>(e % (X * X))] += (e % 7) * (e % 7) + 1;
        double sum = 0, top = 0;
        for (double d : die) sum += d, top = std::max(top, d);
        const double expected = top / (sum / static_cast<double>(die.size()));
        QVERIFY2(std::abs(r.wsc->load_max_over_mean.front() / expected - 1) < 0.01,
                 qPrintable(QString("%1 vs %2").arg(r.wsc->load_max_over_mean.front()).arg(expected)));
      }
      std::int64_t intra = 0;
      for (const auto& l : r.links) {
        const int a = routerDie(l.from, X), b = routerDie(l.to, X);
        if (a < 0 || b < 0) continue;
        const bool inter = (a / X / m != b / X / m) || (a % X / m != b % X / m);
        QCOMPARE(l.ftd, std::string(inter ? "inter" : "intra"));
        const auto bytes = phase(l, "dispatch")->bytes + phase(l, "combine")->bytes;
        if (inter) QCOMPARE(bytes, std::int64_t(0));
        else intra += bytes;
      }
      QVERIFY(intra > 0);
    }
  }

  // §3.7: 1 x 2 wafers of 4 x 4, Qwen3, T = 256, t = 4. Baseline and ER: (W-1) T k 2H / (W t)
  // = 2 MiB per die in dispatch, 64 MiB over the 8 directed border links (8 MiB each). HER:
  // 0 in the all-to-all; its inter-wafer all-gather (W-1) (T/t) 2H = 0.5 MiB per die, 16 MiB
  // (2 MiB per directed border link). Ratio k / W = 4.
  void crossBorderBytes_data() {
    QTest::addColumn<QString>("mapping");
    QTest::addColumn<double>("dispatchMiB");
    QTest::addColumn<double>("allReduceMiB");
    QTest::newRow("baseline") << "baseline" << 64.0 << 0.0;
    QTest::newRow("er") << "er" << 64.0 << 0.0;
    QTest::newRow("her") << "her" << 0.0 << 16.0;
  }
  void crossBorderBytes() {
    QFETCH(QString, mapping);
    QFETCH(double, dispatchMiB);
    QFETCH(double, allReduceMiB);
    const Results r = runScenario(layerScenario("wsc-1x2-4x4", 4, mapping.toStdString()));
    std::map<std::string, std::int64_t> border(r.wsc->cross_border_bytes.begin(), r.wsc->cross_border_bytes.end());
    QCOMPARE(double(border["dispatch"]), dispatchMiB * kMiB);
    QCOMPARE(double(border["combine"]), dispatchMiB * kMiB);
    QCOMPARE(double(border["all_reduce"]), allReduceMiB * kMiB);
    int borderLinks = 0;
    for (const auto& l : r.links)
      if (l.kind == "border") {
        ++borderLinks;
        QCOMPARE(double(phase(l, "dispatch")->bytes), dispatchMiB / 8 * kMiB);
        QCOMPARE(double(phase(l, "all_reduce")->bytes), allReduceMiB / 8 * kMiB);
      }
    QCOMPARE(borderLinks, 8);
  }

  // §3.5, Qwen3, T = 256, 4 x 4, t = 4, B = 4 TB/s per direction. Step bytes M/8 = 262 144 B
  // = 65.536 ns per hop; AR = 6 steps (baseline, 1 hop) or 6 x 2 hops (ER); V = 1 MiB =
  // 262.144 ns; dispatch = sum of hops x (V/B + alpha) over the 3 peers: 8 (baseline) or 4 (ER).
  void eq1Arithmetic_data() {
    QTest::addColumn<QString>("mapping");
    QTest::addColumn<int>("alphaNs");
    QTest::addColumn<double>("arNs");
    QTest::addColumn<double>("dispatchNs");
    QTest::newRow("baseline a=0") << "baseline" << 0 << 6 * 65.536 << 8 * 262.144;
    QTest::newRow("er a=0") << "er" << 0 << 12 * 65.536 << 4 * 262.144;
    QTest::newRow("baseline a=20") << "baseline" << 20 << 6 * (65.536 + 20) << 8 * (262.144 + 20);
    QTest::newRow("er a=20") << "er" << 20 << 12 * (65.536 + 20) << 4 * (262.144 + 20);
  }
  void eq1Arithmetic() {
    QFETCH(QString, mapping);
    QFETCH(int, alphaNs);
    QFETCH(double, arNs);
    QFETCH(double, dispatchNs);
    Scenario s = layerScenario("wsc-4x4", 4, mapping.toStdString());
    s.topology.link_latency = alphaNs * kNanosecond;
    const Results r = runScenario(s);
    QCOMPARE(toNs(r.wsc->allreduce), arNs);
    QCOMPARE(toNs(r.wsc->dispatch), dispatchNs);
    QCOMPARE(toNs(r.wsc->combine), dispatchNs);
    QCOMPARE(toNs(r.wsc->comm), arNs + 2 * dispatchNs);
  }

  // §3.4: all-reduce bytes per directed link = sharing x (t-1) M / t; ER 4x4: 32 links
  // shared once, the 16 inter-FTD links twice (hot), as counted in test_mapping.
  void allReduceLinkBytes() {
    Scenario s = layerScenario("wsc-4x4", 4, "er");
    s.topology.link_latency = 0;  // alpha = 0: the doubly shared links are busy the whole AR (u = 1)
    const Results r = runScenario(s);
    const double M = 256.0 * 4096 * 2, unit = 3 * M / 4;
    std::map<int, int> hist;
    int hotInter = 0;
    for (const auto& l : r.links) {
      if (l.kind != "mesh") continue;
      const auto* ar = phase(l, "all_reduce");
      QCOMPARE(std::fmod(double(ar->bytes), unit), 0.0);
      ++hist[int(ar->bytes / unit)];
      if (ar->cls == "hot") {
        QCOMPARE(l.ftd, std::string("inter"));
        ++hotInter;
      }
    }
    QCOMPARE(hist[1], 32);
    QCOMPARE(hist[2], 16);
    QCOMPARE(hotInter, 16);
  }

  // Hot links relative to the phase's busiest link (workload.wsc.hot_threshold_kind), ER
  // 4x4 at alpha = 20 ns, Eq. 1. All-reduce: the 16 inter-FTD directed links carry two ring
  // edges, the 32 intra-FTD ones one (spec §3.4), so at 0.9 of the busiest exactly the
  // inter-FTD links are hot, with utilisation twice the intra-FTD ones'. Dispatch: every
  // intra-FTD link of a 2x2 tile carries the same 2V (spec §3.3: (j+1)(n-1-j) m V with
  // m = n = 2), so all 32 are hot, and the inter-FTD links are idle: the complementary
  // picture of seed 003 §V-A. Absolute 0.9: none hot (the busiest links are busy
  // 2 x 65.5 ns of each 2 x (65.5 + 20) ns step, 77 %).
  void relativeHotLinks_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("hotAr");
    QTest::addColumn<int>("hotDispatch");
    QTest::newRow("relative") << "relative" << 16 << 32;
    QTest::newRow("absolute") << "absolute" << 0 << 0;
  }
  void relativeHotLinks() {
    QFETCH(QString, kind);
    QFETCH(int, hotAr);
    QFETCH(int, hotDispatch);
    Scenario s = layerScenario("wsc-4x4", 4, "er");
    s.workload.wsc.hot_threshold_kind = kind == "relative" ? WscHotThreshold::Relative : WscHotThreshold::Absolute;
    const Results r = runScenario(s);
    QCOMPARE(r.wsc->hot_threshold_kind, kind.toStdString());
    int ar = 0, dispatch = 0;
    double arInter = 0, arIntra = 0;
    for (const auto& l : r.links) {
      if (l.kind != "mesh") continue;
      const bool inter = l.ftd == "inter";
      const auto* a = phase(l, "all_reduce");
      const auto* d = phase(l, "dispatch");
      (inter ? arInter : arIntra) = a->utilization;
      if (a->cls == "hot") {
        QVERIFY(inter);
        ++ar;
      }
      if (d->cls == "hot") {
        QVERIFY(!inter);
        ++dispatch;
      }
      if (inter) QCOMPARE(d->cls, std::string("idle"));
      if (!inter) QCOMPARE(a->cls, std::string("cold"));
    }
    QCOMPARE(ar, hotAr);
    QCOMPARE(dispatch, hotDispatch);
    QVERIFY(std::abs(arInter - 2 * arIntra) < 1e-9);
    const double step = 262144 / 4e12;
    // Per step two 2-hop edges' M/8 = 256 KiB on the link, in a step of 2 x (M/8 / B + alpha).
    QVERIFY(std::abs(arInter - 2 * step / (2 * (step + 20e-9))) < 1e-3);
  }

  // The same scenario under both network models: identical payload on every link and in
  // every phase (the same routes); the packet model is slower (framing, contention).
  void sameBytesBothModels_data() {
    QTest::addColumn<QString>("mapping");
    QTest::newRow("baseline") << "baseline";
    QTest::newRow("er") << "er";
  }
  void sameBytesBothModels() {
    QFETCH(QString, mapping);
    const Results a = runScenario(layerScenario("wsc-4x4", 4, mapping.toStdString(), "analytical", 16));
    const Results p = runScenario(layerScenario("wsc-4x4", 4, mapping.toStdString(), "packet", 16));
    QCOMPARE(p.agents_unfinished, std::int64_t(0));
    QCOMPARE(a.links.size(), p.links.size());
    for (size_t i = 0; i < a.links.size(); ++i) {
      QCOMPARE(a.links[i].id, p.links[i].id);
      QCOMPARE(a.links[i].payload_bytes, p.links[i].payload_bytes);
      for (size_t k = 0; k < a.links[i].phases.size(); ++k)
        QCOMPARE(a.links[i].phases[k].bytes, p.links[i].phases[k].bytes);
    }
    QVERIFY(p.wsc && p.wsc->comm > 0 && p.makespan > 0);
  }

  // workload.wsc.stage sets the attention before the all-reduce (wsc/attention.h [R]):
  // Qwen3 (A = 71 303 168 attention weights, H = 4096, 2048 B of KV per token), T = 256,
  // t = 4, context L = 2048, per die: prefill 256 (2A + 4 H L / 2) / 4 FLOPs; decode
  // 256 (2A + 4 H L) / 4 FLOPs and (2A + 256 L 2048) / 4 bytes (KV reads); hybrid with a
  // prefill share of 1/4: 64 prefill and 192 decode tokens. Time = max(FLOPs / (FP16 peak
  // x efficiency), bytes / HBM). With one micro-batch every die waits for it equally, so
  // the layer ends exactly that much later than with no attention at all.
  void stageAttention_data() {
    QTest::addColumn<QString>("stage");
    QTest::addColumn<double>("prefill");
    QTest::newRow("prefill") << "prefill" << 256.0;
    QTest::newRow("decode") << "decode" << 0.0;
    QTest::newRow("hybrid") << "hybrid" << 64.0;
  }
  void stageAttention() {
    QFETCH(QString, stage);
    QFETCH(double, prefill);
    Scenario s = layerScenario("wsc-4x4", 4, "er");
    s.workload.wsc.stage = stage == "prefill" ? WscStage::Prefill : stage == "decode" ? WscStage::Decode : WscStage::Hybrid;
    s.workload.wsc.context = 2048;
    s.workload.wsc.prefill_share = 0.25;
    QCOMPARE(s.workload.wsc.attention_params, 71303168);
    QCOMPARE(s.workload.wsc.kv_bytes_per_token, std::int64_t(2048));
    const GpuSpec gpu = gpuSpecFor(s.gpu);
    const double A = 71303168, H = 4096, L = 2048, decode = 256 - prefill;
    const double flops = (prefill * (2 * A + 4 * H * L / 2) + decode * (2 * A + 4 * H * L)) / 4;
    const double bytes = (2 * A + decode * L * 2048) / 4;
    const double seconds = std::max(flops / (gpu.flops(Dtype::Fp16) * gpu.tensor_efficiency), bytes / gpu.hbm_bandwidth);
    const Results r = runScenario(s);
    QVERIFY(r.wsc);
    QCOMPARE(r.wsc->attention, static_cast<Time>(std::llround(seconds * 1e12)));
    Scenario none = s;
    none.workload.wsc.attention_params = 0;
    none.workload.wsc.context = 0;
    const Results z = runScenario(none);
    QCOMPARE(z.wsc->attention, Time(0));
    QCOMPARE(r.makespan - z.makespan, r.wsc->attention);
    QCOMPARE(r.wsc->comm, z.wsc->comm);  // the all-reduce window starts when attention ends
  }

  // The DGX B200 baseline (spec §1.4), Qwen3, T = 256, TP 8 on 4 nodes: after the
  // all-gather, GPU u sends each of its 3 rail peers V = T k (4 / 128) 2H = 512 KiB (its
  // node's tokens for their 4 experts), so its IB NIC carries 3V out and 3V in per
  // dispatch and the NVLink links none; Eq. 1 over GPU - spine - GPU at 50 GB/s and 2 us:
  // 3 x 2 x (V / 50 GB/s + 2 us). The all-reduce: 14 ring steps of M / 16 over GPU -
  // switch - GPU at 900 GB/s x 1 efficiency and 250 ns.
  void dgxBaseline() {
    const Results r = runScenario(layerScenario("dgx-b200-4node", 8, "baseline"));
    QVERIFY(r.wsc);
    const double V = 256.0 * 8 * 4 / 128 * 8192;
    QCOMPARE(V, 524288.0);
    int nics = 0;
    for (const auto& l : r.links) {
      const auto* d = phase(l, "dispatch");
      QVERIFY(d);
      if (l.kind == "nic") {
        ++nics;
        QCOMPARE(d->bytes, std::int64_t(3 * 524288));
      } else {
        QCOMPARE(d->bytes, std::int64_t(0));
      }
    }
    QCOMPARE(nics, 64);  // 32 GPUs x 2 directions
    const auto ns = [](double seconds) { return static_cast<Time>(std::llround(seconds * 1e12)); };
    QCOMPARE(r.wsc->dispatch, 3 * 2 * (ns(V / 50e9) + ns(2e-6)));
    QCOMPARE(r.wsc->allreduce, 14 * 2 * (ns(2097152.0 / 16 / 900e9) + ns(250e-9)));
  }

  // The expert load trace (workload.wsc.trace): the good file's rows, hand-summed here;
  // every bad row names the file, line and column, what was expected and what was found.
  void traceGood() {
    const std::string path = (kWscData + "load_good.csv").toStdString();
    const fl::wsc::ExpertLoadTrace t = fl::wsc::loadExpertLoadTrace(path, 16);
    QCOMPARE(t.tokens.size(), size_t(2));
    // iteration i, expert e: (e + 1)(i + 1) tokens; sum over e = 136 (i + 1)
    const auto s0 = t.shares(0), s1 = t.shares(1);
    for (int e = 0; e < 16; ++e) {
      QCOMPARE(s0[static_cast<size_t>(e)], (e + 1) / 136.0);
      QCOMPARE(s1[static_cast<size_t>(e)], (e + 1) / 136.0);
    }
    fl::wsc::checkTraceCovers(t, path, 2);
    const InputError e = test::expectError([&] { fl::wsc::checkTraceCovers(t, path, 3); });
    QVERIFY2(QString(e.what()).contains("none for iteration 2"), e.what());
  }

  void traceBad_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QString>("found");
    QTest::newRow("expert range") << "load_expert_range.csv" << 3 << 5
                                  << "an expert id below 16 (workload.wsc.experts)" << "'16'";
    QTest::newRow("not integer") << "load_not_integer.csv" << 3 << 7 << "an integer in column tokens" << "'x7'";
    QTest::newRow("negative") << "load_negative.csv" << 2 << 7 << "a tokens >= 0" << "'-3'";
    QTest::newRow("too few") << "load_too_few.csv" << 2 << 6 << "a row 'iteration,layer,expert,tokens' such as '0,0,5,120'"
                             << "3 fields";
    QTest::newRow("too many") << "load_too_many.csv" << 1 << 9 << "a row 'iteration,layer,expert,tokens' such as '0,0,5,120'"
                              << "a fifth field";
    QTest::newRow("semicolons") << "load_semicolons.csv" << 1 << 8
                                << "a row 'iteration,layer,expert,tokens' such as '0,0,5,120'" << "1 field";
    QTest::newRow("empty field") << "load_empty_field.csv" << 2 << 1 << "an integer in column iteration" << "''";
    QTest::newRow("duplicate") << "load_duplicate.csv" << 2 << 1 << "one row per iteration, layer and expert"
                               << "iteration 0, layer 0, expert 1 twice";
    QTest::newRow("no rows") << "load_empty.csv" << 0 << 0 << "at least one row 'iteration,layer,expert,tokens'"
                             << "no rows";
    QTest::newRow("missing") << "no_such_load.csv" << 0 << 0
                             << "a readable expert load trace (CSV iteration,layer,expert,tokens)" << "no such file";
  }
  void traceBad() {
    QFETCH(QString, file);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, expected);
    QFETCH(QString, found);
    const std::string path = (kWscData + file).toStdString();
    const InputError e = test::expectError([&] { fl::wsc::loadExpertLoadTrace(path, 16); });
    QCOMPARE(e.where().file, path);
    QCOMPARE(e.where().line, line);
    QCOMPARE(e.where().column, column);
    QCOMPARE(e.keyPath(), std::string("workload.wsc.trace"));
    QCOMPARE(QString::fromStdString(e.expected()), expected);
    QCOMPARE(QString::fromStdString(e.found()), found);
  }
};

QTEST_GUILESS_MAIN(TestWscLayer)
#include "test_wsc_layer.moc"
