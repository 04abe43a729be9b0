// Wafer mappings (seed 003 §IV, spec moentwine.md §2.2-2.5, §3.1-3.4): FTD geometry, mean
// all-to-all hops, ring edges and the all-reduce link sharing, wafer presets, and the
// errors of impossible mappings. Expected values come from the spec's closed forms and
// tables, or from brute force over the grid written here (XY walks, set arithmetic), never
// from the mapping code's own output.
#include <QtTest>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "mapping/mapping.h"
#include "mapping/switched_fabric.h"
#include "topology/topology.h"
#include "scenario/scenario.h"
#include "../common/xy_walk.h"
#include "scenario/scenario_io.h"
#include "scenario/schema.h"
#include "scenario/validate.h"
#include "topology/presets.h"

using namespace fl;

namespace {

TopologySpec mesh(int rows, int cols, int waferRows = 1, int waferCols = 1) {
  TopologySpec t;
  t.kind = TopologyKind::Mesh;
  t.rows = rows, t.cols = cols, t.wafer_rows = waferRows, t.wafer_cols = waferCols;
  return t;
}

mapping::Mapping build(MappingKind kind, int rows, int cols, int tp) {
  MappingSpec spec;
  spec.kind = kind;
  return mapping::buildMapping(spec, mesh(rows, cols), tp);
}


}  // namespace

class TestMapping : public QObject {
  Q_OBJECT

 private slots:
  // §3.1: t FTDs of g = N/t dies; baseline boxes ((m-1)p+1) x ((n-1)q+1), ER boxes m x n.
  // p x q is the tile the spec's §2.3 rule picks, written here by hand.
  void ftdGeometry_data() {
    QTest::addColumn<int>("X");
    QTest::addColumn<int>("Y");
    QTest::addColumn<int>("t");
    QTest::addColumn<int>("p");
    QTest::addColumn<int>("q");
    QTest::newRow("4x4 t4 (paper)") << 4 << 4 << 4 << 2 << 2;
    QTest::newRow("8x8 t16") << 8 << 8 << 16 << 4 << 4;
    QTest::newRow("6x6 t4") << 6 << 6 << 4 << 2 << 2;
    QTest::newRow("10x10 t4") << 10 << 10 << 4 << 2 << 2;
    QTest::newRow("8x8 t8 (2x4 tile)") << 8 << 8 << 8 << 2 << 4;
    QTest::newRow("8x8 t2 (1x2 pair)") << 8 << 8 << 2 << 1 << 2;
    QTest::newRow("6x8 t4") << 6 << 8 << 4 << 2 << 2;
  }
  void ftdGeometry() {
    QFETCH(int, X);
    QFETCH(int, Y);
    QFETCH(int, t);
    QFETCH(int, p);
    QFETCH(int, q);
    const int m = X / p, n = Y / q, g = X * Y / t;
    for (MappingKind kind : {MappingKind::Baseline, MappingKind::Er}) {
      const auto map = build(kind, X, Y, t);
      QCOMPARE(int(map.ftds.size()), t);
      QCOMPARE(int(map.groups.size()), g);
      for (const auto& f : map.ftds) {
        QCOMPARE(int(f.size()), g);
        const auto box = mapping::boundingBox(map, f);
        if (kind == MappingKind::Baseline) {
          QCOMPARE(box.rows, (m - 1) * p + 1);
          QCOMPARE(box.cols, (n - 1) * q + 1);
        } else {
          QCOMPARE(box.rows, m);
          QCOMPARE(box.cols, n);
        }
        // One die of every group in each FTD.
        std::set<int> groups;
        for (int d : f) groups.insert(map.groupOf[size_t(d)]);
        QCOMPARE(int(groups.size()), g);
      }
      // Baseline groups are contiguous p x q tiles; ER groups are p x q grids of stride (m, n).
      for (const auto& grp : map.groups) {
        QCOMPARE(int(grp.size()), t);
        const auto box = mapping::boundingBox(map, grp);
        QCOMPARE(box.rows, kind == MappingKind::Baseline ? p : (p - 1) * m + 1);
        QCOMPARE(box.cols, kind == MappingKind::Baseline ? q : (q - 1) * n + 1);
      }
    }
  }

  // The paper's 4x4 picture (spec §2.5): TP group and FTD label per die.
  void paperExample() {
    const auto base = build(MappingKind::Baseline, 4, 4, 4);
    const auto er = build(MappingKind::Er, 4, 4, 4);
    const int baseTp[16] = {0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3};
    const int erTp[16] = {0, 1, 0, 1, 2, 3, 2, 3, 0, 1, 0, 1, 2, 3, 2, 3};
    // FTD labels as letters: dies sharing a letter must share an FTD, and only those.
    const char baseFtd[17] = "ababcdcdababcdcd";
    const char erFtd[17] = "AABBAABBCCDDCCDD";
    for (int a = 0; a < 16; ++a) {
      QCOMPARE(base.groupOf[size_t(a)], baseTp[a]);
      QCOMPARE(er.groupOf[size_t(a)], erTp[a]);
      for (int b = 0; b < 16; ++b) {
        QCOMPARE(base.ftdOf[size_t(a)] == base.ftdOf[size_t(b)], baseFtd[a] == baseFtd[b]);
        QCOMPARE(er.ftdOf[size_t(a)] == er.ftdOf[size_t(b)], erFtd[a] == erFtd[b]);
      }
    }
  }

  // §3.2: H(m, n, s_r, s_c) = [n s_r (m^2-1) + m s_c (n^2-1)] / [3(mn-1)], baseline with
  // strides (p, q), ER with (1, 1); and the spec's table values.
  void meanHops_data() {
    QTest::addColumn<int>("X");
    QTest::addColumn<int>("Y");
    QTest::addColumn<int>("t");
    QTest::addColumn<int>("p");
    QTest::addColumn<int>("q");
    QTest::addColumn<double>("base");
    QTest::addColumn<double>("er");
    QTest::newRow("4x4 t4") << 4 << 4 << 4 << 2 << 2 << 8.0 / 3 << 4.0 / 3;
    QTest::newRow("8x8 t16") << 8 << 8 << 16 << 4 << 4 << 16.0 / 3 << 4.0 / 3;
    QTest::newRow("6x6 t4") << 6 << 6 << 4 << 2 << 2 << 4.0 << 2.0;
    QTest::newRow("8x8 t4") << 8 << 8 << 4 << 2 << 2 << 16.0 / 3 << 8.0 / 3;
    QTest::newRow("10x10 t4") << 10 << 10 << 4 << 2 << 2 << 20.0 / 3 << 10.0 / 3;
    QTest::newRow("8x8 t8") << 8 << 8 << 8 << 2 << 4 << 36.0 / 7 << 2.0;
  }
  void meanHops() {
    QFETCH(int, X);
    QFETCH(int, Y);
    QFETCH(int, t);
    QFETCH(int, p);
    QFETCH(int, q);
    QFETCH(double, base);
    QFETCH(double, er);
    const int m = X / p, n = Y / q;
    const auto H = [&](double sr, double sc) {
      return (n * sr * (m * m - 1) + m * sc * (n * n - 1)) / (3.0 * (m * n - 1));
    };
    QVERIFY(qAbs(H(p, q) - base) < 1e-9);
    QVERIFY(qAbs(H(1, 1) - er) < 1e-9);
    QVERIFY(qAbs(mapping::meanFtdHops(build(MappingKind::Baseline, X, Y, t)) - base) < 1e-9);
    QVERIFY(qAbs(mapping::meanFtdHops(build(MappingKind::Er, X, Y, t)) - er) < 1e-9);
  }

  // §3.4: ring edges (baseline 1 hop; ER m vertical, n horizontal) and the number of ring
  // edges crossing each directed link (both ring directions), counted by XY walks here.
  void allReduceSharing_data() {
    QTest::addColumn<int>("X");
    QTest::addColumn<int>("t");
    QTest::addColumn<QString>("histogram");  // "sharing:count ..." over directed links
    QTest::addColumn<int>("edgeHops");
    QTest::addColumn<int>("hotInter");  // max-sharing links that are inter-FTD
    QTest::addColumn<int>("hotIntra");
    QTest::newRow("4x4 t4") << 4 << 4 << "1:32 2:16" << 2 << 16 << 0;
    QTest::newRow("6x6 t4") << 6 << 4 << "1:48 2:48 3:24" << 3 << 24 << 0;
    QTest::newRow("8x8 t4") << 8 << 4 << "1:64 2:64 3:64 4:32" << 4 << 32 << 0;
    QTest::newRow("10x10 t4") << 10 << 4 << "1:80 2:80 3:80 4:80 5:40" << 5 << 40 << 0;
    QTest::newRow("8x8 t16") << 8 << 16 << "1:64 2:96" << 2 << 64 << 32;
  }
  void allReduceSharing() {
    QFETCH(int, X);
    QFETCH(int, t);
    QFETCH(QString, histogram);
    QFETCH(int, edgeHops);
    QFETCH(int, hotInter);
    QFETCH(int, hotIntra);
    const auto er = build(MappingKind::Er, X, X, t);
    std::map<std::pair<int, int>, int> share;
    for (const auto& g : er.groups) {
      for (int h : mapping::ringEdgeHops(er, g)) QCOMPARE(h, edgeHops);
      for (size_t i = 0; i < g.size(); ++i) {
        const int a = g[i], b = g[(i + 1) % g.size()];
        for (auto l : xyWalk(a, b, X)) ++share[l];
        for (auto l : xyWalk(b, a, X)) ++share[l];
      }
    }
    std::map<int, int> hist;
    int maxShare = 0;
    for (auto [l, s] : share) ++hist[s], maxShare = std::max(maxShare, s);
    QString got;
    for (auto [s, c] : hist) got += QString("%1%2:%3").arg(got.isEmpty() ? "" : " ").arg(s).arg(c);
    QCOMPARE(got, histogram);
    int inter = 0, intra = 0;
    for (auto [l, s] : share)
      if (s == maxShare) (er.ftdOf[size_t(l.first)] == er.ftdOf[size_t(l.second)] ? intra : inter)++;
    QCOMPARE(inter, hotInter);
    QCOMPARE(intra, hotIntra);
    // Baseline: every ring edge is one hop.
    const auto base = build(MappingKind::Baseline, X, X, t);
    for (const auto& g : base.groups)
      for (int h : mapping::ringEdgeHops(base, g)) QCOMPARE(h, 1);
  }

  // Multi-wafer: groups stay on a wafer; the system FTD spans the wafers (W g dies); HER's
  // all-to-all domains are the wafers.
  void multiWafer() {
    MappingSpec spec;
    spec.kind = MappingKind::Er;
    const auto er = mapping::buildMapping(spec, mesh(4, 4, 1, 2), 4);
    QCOMPARE(er.dies(), 32);
    QCOMPARE(int(er.ftds.size()), 4);
    for (const auto& f : er.ftds) QCOMPARE(int(f.size()), 8);
    for (const auto& g : er.groups) {
      std::set<int> wafers;
      for (int d : g) wafers.insert((d % 8) / 4);
      QCOMPARE(int(wafers.size()), 1);
    }
    spec.kind = MappingKind::Her;
    const auto her = mapping::buildMapping(spec, mesh(4, 4, 1, 2), 4);
    QVERIFY(her.interWaferAllGather);
    QCOMPARE(int(her.ftds.size()), 2);
    for (const auto& f : her.ftds) {
      QCOMPARE(int(f.size()), 16);
      for (int d : f) QCOMPARE((d % 8) / 4, (f.front() % 8) / 4);
    }
  }

  void waferPresets_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("dies");
    QTest::addColumn<double>("link");    // bytes/s per direction
    QTest::addColumn<double>("border");  // bytes/s per border link per direction
    // 8 TB/s bidirectional per link = 4 TB/s per direction; per die: / 4 ports.
    // 9 TB/s per wafer edge, bidirectional, over that edge's `rows` links.
    QTest::newRow("wsc-4x4") << "wsc-4x4" << 16 << 4e12 << 9e12 / 2 / 4;
    QTest::newRow("wsc-6x6") << "wsc-6x6" << 36 << 4e12 << 9e12 / 2 / 6;
    QTest::newRow("wsc-8x8") << "wsc-8x8" << 64 << 4e12 << 9e12 / 2 / 8;
    QTest::newRow("wsc-2x2-8x8") << "wsc-2x2-8x8" << 256 << 4e12 << 562.5e9;
    QTest::newRow("wsc-1x2-4x4") << "wsc-1x2-4x4" << 32 << 4e12 << 1.125e12;
    QTest::newRow("wsc-8x8-per-die") << "wsc-8x8-per-die" << 64 << 1e12 << 562.5e9;
  }
  void waferPresets() {
    QFETCH(QString, name);
    QFETCH(int, dies);
    QFETCH(double, link);
    QFETCH(double, border);
    const Scenario s = parseScenario("fabriclab: 1\ntopology: {preset: " + name.toStdString() + "}\n", "t");
    QCOMPARE(s.topology.kind, TopologyKind::Mesh);
    QCOMPARE(endpointCount(s.topology), dies);
    QCOMPARE(s.topology.link_bandwidth, link);
    QCOMPARE(s.topology.border_bandwidth, border);
    QCOMPARE(s.topology.link_latency, Time(20'000));
    QCOMPARE(s.topology.border_latency, Time(100'000));
    QVERIFY(!topologyPresetSummary(name.toStdString()).empty());
    // VCs deep enough for one VC to run every hop at its bandwidth: depth x 16 B >= the
    // bandwidth x the credit round trip (2 x latency + a 304 B packet + a 16 B flit).
    const auto roundTripBytes = [](double bps, double latency) { return bps * (2 * latency + 320 / bps); };
    QVERIFY(s.network.vc_depth_flits * 16.0 >= roundTripBytes(link, 20e-9));
    QVERIFY(s.network.vc_depth_flits * 16.0 >= roundTripBytes(border, 100e-9));
  }

  // The preset's VC depth yields to an explicit network.vc_depth_flits, whatever the order
  // of keys, and survives a --set of another preset only where it was not set explicitly.
  void waferPresetVcDepth_data() {
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<QString>("setPreset");  // "" = none
    QTest::addColumn<int>("depth");
    const QString preset = "topology: {preset: wsc-4x4}\n";
    const QString explicitDepth = "network: {vc_depth_flits: 512}\n";
    QTest::newRow("preset alone") << preset << "" << 16384;
    QTest::newRow("explicit after") << preset + explicitDepth << "" << 512;
    QTest::newRow("explicit before") << explicitDepth + preset << "" << 512;
    QTest::newRow("no preset: NVLink's") << "" << "" << 256;
    QTest::newRow("to an NVSwitch preset") << preset << "dgx-h100" << 256;
    QTest::newRow("explicit kept across presets") << preset + explicitDepth << "wsc-8x8" << 512;
    QTest::newRow("onto a wafer preset") << "topology: {preset: dgx-h100}\n" << "wsc-8x8" << 16384;
  }
  void waferPresetVcDepth() {
    QFETCH(QString, yaml);
    QFETCH(QString, setPreset);
    QFETCH(int, depth);
    Scenario s = parseScenario("fabriclab: 1\n" + yaml.toStdString(), "t");
    if (!setPreset.isEmpty()) setValue(s, "topology.preset", setPreset.toStdString());
    QCOMPARE(s.network.vc_depth_flits, depth);
    // Saving and loading again gives the same depth.
    QCOMPARE(parseScenario(saveScenarioText(s), "t").network.vc_depth_flits, depth);
  }

  // Impossible mappings: ValidationError naming the key path and the reason.
  void badMappings_data() {
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("reason");
    const QString head = "fabriclab: 1\ntopology: {preset: wsc-4x4}\nworkload: {kind: wsc_inference, wsc: {tp: %1}}\n";
    QTest::newRow("die in two groups")
        << head.arg(4) + "mapping: {kind: explicit, groups: [[0,1,5,4],[1,2,6,7],[8,9,13,12],[10,11,15,14]]}\n"
        << "mapping.groups" << "die 1 in groups 0 and 1";
    QTest::newRow("die in none")
        << head.arg(4) + "mapping: {kind: explicit, groups: [[0,1,5,4],[2,3,7,6],[8,9,13,12]]}\n"
        << "mapping.groups" << "die 10 in none";
    QTest::newRow("group size")
        << head.arg(4) + "mapping: {kind: explicit, groups: [[0,1,5,4,2,3,7,6],[8,9,13,12,10,11,15,14]]}\n"
        << "mapping.groups" << "group 0 of 8";
    QTest::newRow("tp not dividing") << head.arg(3) + "mapping: {kind: er}\n" << "workload.wsc.tp" << "dividing";
    QTest::newRow("tp without ring") << QString(head.arg(9)).replace("wsc-4x4", "wsc-6x6") + "mapping: {kind: baseline}\n"
                                     << "workload.wsc.tp" << "ring";
    QTest::newRow("ftd with two of a group")
        << head.arg(4) + "mapping: {kind: explicit, groups: [[0,1,5,4],[2,3,7,6],[8,9,13,12],[10,11,15,14]], "
                         "ftds: [[0,1,8,10],[2,5,9,11],[3,4,13,15],[6,7,12,14]]}\n"
        << "mapping.ftds" << "holding 2 dies of group 0";
    QTest::newRow("her on one wafer") << head.arg(4) + "mapping: {kind: her}\n" << "mapping.kind" << "2 wafers";
    const QString dgx = QString(head).replace("wsc-4x4", "dgx-b200-4node");
    QTest::newRow("er on a switched fabric") << dgx.arg(8) + "mapping: {kind: er}\n" << "mapping.kind" << "switched fabric";
    QTest::newRow("tp not dividing the GPUs") << dgx.arg(5) + "mapping: {kind: baseline}\n" << "workload.wsc.tp"
                                              << "dividing the 32 GPUs";
    QTest::newRow("balancer on a switched fabric") << dgx.arg(8) + "balancer: {kind: greedy}\n" << "balancer.kind"
                                                   << "switched fabric";
    // Why (seed 003 §VI-D): no cold links to stage copies on; NVL72's go over NVMe.
    QTest::newRow("NI balancer on NVL72") << QString(head).replace("wsc-4x4", "gb200-nvl72").arg(8) +
                                                 "balancer: {kind: non_invasive}\n"
                                          << "balancer.kind" << "NVMe channels";
  }
  void badMappings() {
    QFETCH(QString, yaml);
    QFETCH(QString, key);
    QFETCH(QString, reason);
    try {
      const Scenario s = parseScenario(yaml.toStdString(), "t.yaml");
      validateScenario(s);
      QFAIL("accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString::fromStdString(e.keyPath()).startsWith(key), e.what());
      QVERIFY2(QString(e.what()).contains(reason), e.what());
    }
  }

  // The DGX B200 baseline (spec §1.4): TP 8 = the 8 GPUs of a node in ring order, and
  // the FTDs the rails, GPU k of every node (the k-th ring member of every group); every
  // pair is 2 fabric hops apart (GPU - NVLink switch - GPU inside a node, GPU - IB NIC -
  // spine - GPU between nodes).
  void switchedFabric() {
    const Scenario s = parseScenario("fabriclab: 1\ntopology: {preset: dgx-b200-4node}\n"
                                     "workload: {kind: wsc_inference, wsc: {tp: 8}}\n", "t.yaml");
    validateScenario(s);
    const auto topology = topo::buildTopology(s.topology);
    QCOMPARE(topology->endpointCount(), 32);
    auto m = mapping::buildSwitchedMapping(s.mapping, 32, 8, true);
    mapping::setFabricHops(m, *topology);
    QCOMPARE(m.groups.size(), size_t(4));
    QCOMPARE(m.ftds.size(), size_t(8));
    for (int g = 0; g < 4; ++g)
      for (int k = 0; k < 8; ++k) QCOMPARE(m.groups[static_cast<size_t>(g)][static_cast<size_t>(k)], 8 * g + k);
    for (int k = 0; k < 8; ++k) QCOMPARE(m.ftds[static_cast<size_t>(k)], (std::vector<int>{k, 8 + k, 16 + k, 24 + k}));
    for (int a = 0; a < 32; ++a)
      for (int b = 0; b < 32; ++b) QCOMPARE(m.hops(a, b), a == b ? 0 : 2);
    QCOMPARE(mapping::meanFtdHops(m), 2.0);
    QCOMPARE(mapping::ringEdgeHops(m, m.groups[0]), std::vector<int>(8, 2));
  }

  // TP 3 on 6x6 has a tile (1x3, 3x1) but no ring of 1-hop steps: refused, not looped back.
  void oddTpHasNoRing() {
    MappingSpec spec;
    QVERIFY_THROWS_EXCEPTION(ValidationError, mapping::buildMapping(spec, mesh(6, 6), 3));
    QVERIFY_THROWS_EXCEPTION(ValidationError, mapping::buildMapping(spec, mesh(6, 6), 9));
  }
};

QTEST_GUILESS_MAIN(TestMapping)
#include "test_mapping.moc"
