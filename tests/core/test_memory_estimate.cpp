// The memory estimate's bound on packets in flight (core/sim/memory_estimate.cpp): never
// below the peak of live packets a run reaches (the engine's own count), on workloads of
// every kind; the workload's closed form where it is the smaller, so deep buffers on
// long links do not refuse a light run.
#include <QtTest>

#include <cmath>

#include "scenario/scenario.h"
#include "scenario/input_error.h"
#include "scenario/scenario_io.h"
#include "scenario/schema.h"
#include "sim/memory_estimate.h"
#include "sim/run.h"
#include "netmodel/flow_routes.h"
#include "network/merge_unit.h"
#include "topology/topology.h"
#include "wsc/wsc_run.h"
#include "xdc/cross_dc_run.h"
#include "xdc/domain_partition.h"

using namespace fl;

Q_DECLARE_METATYPE(fl::Scenario)

namespace {

// DCs x 2 nodes x 4 GPUs behind 5 ms links: the benchmark's case (c) at `dcs` DCs.
Scenario datacenters(int dcs, Time duration) {
  Scenario s;
  s.topology.kind = TopologyKind::Hierarchy;
  s.topology.levels = {{"dc", dcs, 1.25e9, 5 * kMillisecond},
                       {"node", 2, 16e9, 1 * kMicrosecond},
                       {"gpu", 4, 50e9, 500 * kNanosecond}};
  s.workload.kind = WorkloadKind::Traffic;
  s.workload.traffic.load = 0.0005;
  s.workload.traffic.duration = duration;
  s.workload.traffic.warmup = duration / 10;
  s.run.bin = 1 * kMillisecond;
  s.network.vc_depth_flits = 1 << 20;
  return s;
}

Scenario mesh(double load) {
  Scenario s;
  s.topology.kind = TopologyKind::Mesh;
  s.workload.kind = WorkloadKind::Traffic;
  s.workload.traffic.load = load;
  s.workload.traffic.duration = 10 * kMicrosecond;
  s.workload.traffic.warmup = 1 * kMicrosecond;
  return s;
}

Scenario dgx(CollectiveOp op, CollectiveAlgorithm algorithm, std::int64_t size) {
  Scenario s;
  s.topology.kind = TopologyKind::NvSwitch;
  s.topology.gpus = 8;
  s.topology.switches = 4;
  s.topology.links_per_gpu = 18;
  s.workload.collective.op = op;
  s.workload.collective.algorithm = algorithm;
  s.workload.collective.size = size;
  return s;
}

// Packets synthetic traffic posts on average (workloads/synthetic_traffic.cpp): per
// endpoint, the window over the mean gap, wire bytes / (load x injection). A write is
// header + address + byte-enable flits and its data flits.
double meanTrafficPackets(const Scenario& s, const topo::Topology& t) {
  const NetworkSpec& n = s.network;
  const double wire = (n.header_flits + n.address_flits + 1 + std::ceil(double(n.packet_payload) / n.flit_bytes)) * n.flit_bytes;
  double mu = 0;
  for (int e = 0; e < t.endpointCount(); ++e)
    for (const topo::Port& p : t.ports(t.endpointNode(e))) {
      const topo::Link& l = t.link(p.link);
      mu += toSeconds(s.workload.traffic.duration) * s.workload.traffic.load * l.bandwidth * l.efficiency / wire;
    }
  return mu;
}

// cais-4gpu's layer cut to 512 tokens and one layer: a run of a second.
Scenario smallTpLayer() {
  Scenario tp = loadScenario(FABRICLAB_SCENARIOS "/cais-4gpu.yaml");
  tp.sweep.clear();
  tp.workload.tp.seq_len = 512;
  tp.workload.tp.batch = 1;
  tp.workload.tp.layers = 1;
  return tp;
}

// The bytes of the estimate's part named `what`; -1 when it has none.
std::int64_t partBytes(const MemoryEstimate& e, const std::string& what) {
  for (const auto& p : e.parts)
    if (p.what == what) return p.bytes;
  return -1;
}

}  // namespace

class TestMemoryEstimate : public QObject {
  Q_OBJECT
 private slots:
  // Runs each scenario and compares the engine's peak of live packets with the bound.
  void boundHoldsOnRuns_data() {
    QTest::addColumn<Scenario>("scenario");
    QTest::newRow("mesh 8x8 uniform, 30 %") << mesh(0.3);
    QTest::newRow("mesh 8x8 uniform, 95 % (saturated)") << mesh(0.95);
    Scenario hot = mesh(0.5);
    hot.workload.traffic.pattern = TrafficPattern::Hotspot;
    hot.workload.traffic.hotspot_fraction = 0.5;
    hot.network.acknowledged_writes = true;
    QTest::newRow("mesh hotspot, acknowledged writes") << hot;
    QTest::newRow("8 DCs behind 5 ms links, deep VCs") << datacenters(8, 2 * kMillisecond);
    QTest::newRow("DGX ring all-reduce 4 MiB") << dgx(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 4 << 20);
    Scenario acked = dgx(CollectiveOp::AllGather, CollectiveAlgorithm::Ring, 3 << 20);
    acked.network.acknowledged_writes = true;
    QTest::newRow("DGX ring all-gather, acknowledged") << acked;
    QTest::newRow("DGX direct all-to-all 1 MiB") << dgx(CollectiveOp::AllToAll, CollectiveAlgorithm::Direct, 1 << 20);
    Scenario skewed = dgx(CollectiveOp::AllToAllV, CollectiveAlgorithm::Direct, (1 << 20) + 77);
    skewed.workload.collective.skew = 1.5;
    QTest::newRow("DGX direct all-to-all-v, skew 1.5") << skewed;
    QTest::newRow("DGX p2p 64 MiB") << dgx(CollectiveOp::P2P, CollectiveAlgorithm::Direct, 64 << 20);
    QTest::newRow("DGX NVLS all-reduce 2 MiB") << dgx(CollectiveOp::AllReduce, CollectiveAlgorithm::Nvls, 2 << 20);
    Scenario moe = loadScenario(FABRICLAB_TEST_DATA "/good/moe_dysharp_nvl32.yaml");
    moe.workload.moe.tokens_per_gpu = 64;
    QTest::newRow("NVL32 DySHARP MoE layer, 64 tokens") << moe;
    Scenario deepep = moe;
    deepep.scheme.communication = MoeCommunication::DeepEp;
    QTest::newRow("NVL32 DeepEP MoE layer, 64 tokens") << deepep;
    Scenario tp = smallTpLayer();
    QTest::newRow("TP layer on 4 GPUs, CAIS") << tp;
    tp.scheme.tp = TpScheme::TpNvls;
    QTest::newRow("TP layer on 4 GPUs, TP-NVLS") << tp;
  }
  void boundHoldsOnRuns() {
    QFETCH(Scenario, scenario);
    const auto topology = topo::buildTopology(scenario.topology);
    const MemoryEstimate e = estimateRunMemory(scenario, *topology);
    const Results r = runScenario(scenario);
    QVERIFY(r.peak_live_packets > 0);
    QVERIFY2(r.peak_live_packets <= e.packetsInFlight,
             qPrintable(QString("peak %1 > bound %2").arg(r.peak_live_packets).arg(e.packetsInFlight)));
  }

  // The closed forms behind the workload's count.
  void workloadCounts() {
    // Ring all-reduce: 2 (n - 1) steps of S/n bytes per GPU, whole packets of 256 B.
    Scenario ring = dgx(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 256 << 10);
    auto t = topo::buildTopology(ring.topology);
    QCOMPARE(estimateRunMemory(ring, *t).packetsInFlight, 8 * 14 * ((256 << 10) / 8 / 256));
    ring.network.acknowledged_writes = true;  // and an ack for each
    QCOMPARE(estimateRunMemory(ring, *t).packetsInFlight, 2 * 8 * 14 * ((256 << 10) / 8 / 256));
    // Direct all-to-all of 64 KiB + 3 B: chunks of 8192 or 8193 B, 33 packets each.
    Scenario a2a = dgx(CollectiveOp::AllToAll, CollectiveAlgorithm::Direct, (64 << 10) + 3);
    QCOMPARE(estimateRunMemory(a2a, *t).packetsInFlight, 8 * 7 * 33);
    // An explicit all-to-all-v matrix: 1 + 2 + 3 packets.
    Scenario v = dgx(CollectiveOp::AllToAllV, CollectiveAlgorithm::Direct, 1 << 20);
    v.workload.collective.matrix.assign(8, std::vector<std::int64_t>(8, 0));
    v.workload.collective.matrix[0][1] = 1;
    v.workload.collective.matrix[2][5] = 512;
    v.workload.collective.matrix[7][3] = 513;
    QCOMPARE(estimateRunMemory(v, *t).packetsInFlight, 6);
  }

  // The switches' logs a run keeps (counted from its Results record by record) fit in the
  // estimate's "switch entry logs" part, of which Results keep one third.
  void logsFitTheirPart_data() {
    QTest::addColumn<Scenario>("scenario");
    QTest::newRow("DGX NVLS all-reduce 2 MiB") << dgx(CollectiveOp::AllReduce, CollectiveAlgorithm::Nvls, 2 << 20);
    Scenario cais = dgx(CollectiveOp::ReduceScatter, CollectiveAlgorithm::Cais, 1 << 20);
    QTest::newRow("DGX CAIS reduce-scatter 1 MiB") << cais;
    cais.workload.collective.op = CollectiveOp::AllGather;
    QTest::newRow("DGX CAIS all-gather 1 MiB") << cais;
    Scenario tp = smallTpLayer();
    QTest::newRow("TP layer on 4 GPUs, CAIS") << tp;
    tp.scheme.tp = TpScheme::TpNvls;
    QTest::newRow("TP layer on 4 GPUs, TP-NVLS") << tp;
    tp.scheme.tp = TpScheme::SpNvls;
    QTest::newRow("TP layer on 4 GPUs, SP-NVLS") << tp;
  }
  void logsFitTheirPart() {
    QFETCH(Scenario, scenario);
    const auto topology = topo::buildTopology(scenario.topology);
    const MemoryEstimate e = estimateRunMemory(scenario, *topology);
    const std::int64_t part = partBytes(e, "switch entry logs");
    QVERIFY(part > 0);
    const Results r = runScenario(scenario);
    double kept = 0, entries = 0;
    for (const SwitchResult& sw : r.switches) {
      entries += double(sw.entry_log.size() + sw.merge_log.size());
      kept += double(sw.entry_log.size() * sizeof(ReductionEntryRecord) + sw.entry_arrivals.size() * 4 +
                     sw.merge_log.size() * sizeof(MergeEntryRecord) + sw.merge_arrivals.size() * sizeof(MergeArrival) +
                     sw.merge_bypasses.size() * sizeof(MergeBypassRecord));
    }
    QVERIFY(entries > 0);
    QVERIFY2(kept <= double(part) / 3, qPrintable(QString("kept %1 B > %2 B").arg(kept).arg(double(part) / 3)));
  }

  // A switch's merge units log together no more than its result keeps: the first
  // kEntryLogLimit entries (and bypasses) of the switch, not that many per unit.
  void mergeUnitsShareTheSwitchLog() {
    net::MergeLogRoom room;
    net::MergeUnit a, b, bypassing({320, 0, 16, false});
    a.enableLog(1000, 0, &room);
    b.enableLog(1000, 1, &room);
    bypassing.enableLog(1000, 2, &room);
    std::vector<net::MergeFlush> flushes;
    net::MergeFlush done;
    const std::uint32_t each = 60000;  // two units: 120 000 complete entries
    for (std::uint32_t i = 0; i < each; ++i)
      QCOMPARE(a.reduce(i, 1, 1, 128, 0, 0, i, flushes, done, 0), net::ReduceOutcome::Complete);
    for (std::uint32_t i = 0; i < each; ++i)
      QCOMPARE(b.reduce(i, 1, 1, 128, 0, 0, each + i, flushes, done, 1), net::ReduceOutcome::Complete);
    QCOMPARE(a.log().size() + b.log().size(), kEntryLogLimit);
    QCOMPARE(a.log().size(), std::size_t(each));  // a's 60 000 came first
    QVERIFY(!a.logTruncated());
    QVERIFY(b.logTruncated());
    QCOMPARE(b.logArrivals().size(), kEntryLogLimit - each);  // one request each, logged ones only
    for (std::uint32_t i = 0; i < 2 * kEntryLogLimit; ++i) bypassing.reduce(i, 1, 2, 128, 0, 0, i, flushes, done, 0);
    QCOMPARE(bypassing.bypassLog().size(), kEntryLogLimit);
    // A unit without a shared room counts for itself.
    net::MergeUnit alone;
    alone.enableLog(1000, 0);
    for (std::uint32_t i = 0; i < each; ++i) alone.reduce(i, 1, 1, 128, 0, 0, i, flushes, done, 0);
    QCOMPARE(alone.log().size(), std::size_t(each));
  }

  // The flow model's route entries (xdc::flowRouteEntries) by hand, and against the routes
  // built for every GPU, level and peer group (netmodel::FlowTreeRoutes::fanOut).
  void flowRouteEntries() {
    xdc::CrossDcSetup setup;
    setup.plan.workers = {4, 2};  // 8 GPUs
    setup.plan.domains = {1, 2};
    // level 0: 3 across peers, (3 + 1) x 2 links; level 1: 1 domain peer, (1 + 1) x 2
    QCOMPARE(xdc::flowRouteEntries(setup, 2), std::int64_t{8 * (8 + 4)});
    setup.plan.training = true;  // and the whole level: 3 and 1 peers more
    QCOMPARE(xdc::flowRouteEntries(setup, 2), std::int64_t{8 * (8 + 4 + 8 + 4)});

    Scenario s = loadScenario(FABRICLAB_SCENARIOS "/xdc-ablation-24-8.yaml");
    s.sweep.clear();
    const auto t = topo::buildTopology(s.topology);
    const xdc::CrossDcSetup real = xdc::prepareCrossDc(s, *t);
    const netmodel::FlowTreeRoutes routes(*t);
    const int depth = t->node(t->endpointNode(0)).level;
    std::int64_t built = 0;
    std::vector<std::int32_t> route;
    std::vector<std::uint32_t> counts;
    std::vector<std::int64_t> to;
    const std::int64_t gpus = xdc::gpuCount(real.plan.workers);
    for (std::int64_t g = 0; g < gpus; ++g)
      for (int l = 0; l < int(real.plan.workers.size()); ++l)
        for (const xdc::PairKind k : {xdc::PairKind::AllGather, xdc::PairKind::AllToAll}) {
          xdc::peers(g, l, k, real.plan.workers, real.plan.domains, to);
          if (to.empty()) continue;
          routes.fanOut(int(g), to, route, counts);
          built += std::int64_t(route.size());
        }
    QVERIFY(built > 0);
    QVERIFY2(built <= xdc::flowRouteEntries(real, depth),
             qPrintable(QString("built %1 > %2").arg(built).arg(xdc::flowRouteEntries(real, depth))));
  }

  // The models without packets (the analytical wafer model, HybridEP's flow model) are
  // estimated by their own state: no packets in flight; recorded bins for the whole
  // makespan the run reports (each bin at least its 12 B in Results and 2 B of JSON text).
  void modelsWithoutPackets_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("part");
    QTest::newRow("wafer, analytical, balancer") << "wsc-balancer-single.yaml" << "recorded time bins";
    QTest::newRow("wafer, analytical") << "wsc-4x4-paper.yaml" << "recorded time bins";
    QTest::newRow("cross-DC, flow") << "xdc-1000-fixed-proportion.yaml" << "flow routes and solver";
    // Sized by HybridEP's prediction, times the layers and both passes (it was sized as an
    // MoE layer of the moe_layer keys: 35 KiB of bins for 74 KB).
    QTest::newRow("cross-DC training, flow") << "xdc-training.yaml" << "recorded time bins";
  }
  void modelsWithoutPackets() {
    QFETCH(QString, file);
    QFETCH(QString, part);
    Scenario s = loadScenario(FABRICLAB_SCENARIOS "/" + file.toStdString());
    s.sweep.clear();
    const auto t = topo::buildTopology(s.topology);
    const MemoryEstimate e = estimateRunMemory(s, *t);
    QCOMPARE(partBytes(e, "packets in flight"), std::int64_t{-1});
    QVERIFY(partBytes(e, part.toStdString()) >= 0);
    QCOMPARE(e.packetsInFlight, std::int64_t{0});
    const Results r = runScenario(s);
    QCOMPARE(r.peak_live_packets, std::int64_t{0});  // no packet engine ran
    const double bins = double(r.links.size()) * double(r.bins);
    QVERIFY2(double(e.binBytes) >= 14 * bins, qPrintable(QString("%1 B for %2 bins").arg(e.binBytes).arg(bins)));
  }

  // A wafer run's layer plan holds every iteration's items: the estimate's part, sized
  // from one iteration, covers the plan built whole here (its items and their deps,
  // counted), balancers' copies included, and stays within a few times it.
  void waferPlanPart_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("balancer");  // "" keeps the file's
    QTest::addColumn<int>("iterations");
    QTest::newRow("4x4 paper, 1 iteration") << "wsc-4x4-paper.yaml" << "" << 1;
    QTest::newRow("4x4 paper, 7 iterations") << "wsc-4x4-paper.yaml" << "" << 7;
    QTest::newRow("8x8 mixed load, greedy, 100") << "wsc-balancer-mixed.yaml" << "greedy" << 100;
    QTest::newRow("8x8 mixed load, non-invasive, 100") << "wsc-balancer-mixed.yaml" << "non_invasive" << 100;
  }
  void waferPlanPart() {
    QFETCH(QString, file);
    QFETCH(QString, balancer);
    QFETCH(int, iterations);
    Scenario s = loadScenario(FABRICLAB_SCENARIOS "/" + file.toStdString());
    s.sweep.clear();
    s.workload.wsc.iterations = iterations;
    if (!balancer.isEmpty()) setValue(s, "balancer.kind", balancer.toStdString());
    const auto t = topo::buildTopology(s.topology);
    const std::int64_t part = partBytes(estimateRunMemory(s, *t), "wafer layer plan");
    QVERIFY(part > 0);
    const wsc::WscSetup whole = wsc::prepareWsc(s, *t);
    double bytes = 0;  // the items themselves and their deps' elements, no allocator overhead
    for (const netmodel::PlanItem& item : whole.layer.plan.items)
      bytes += sizeof(netmodel::PlanItem) + sizeof(std::int32_t) * double(item.deps.size());
    QVERIFY2(double(part) >= bytes, qPrintable(QString("%1 B for a plan of %2 B").arg(part).arg(bytes)));
    QVERIFY2(double(part) <= 4 * bytes, qPrintable(QString("%1 B for a plan of %2 B").arg(part).arg(bytes)));
  }

  // Runs far beyond the machine are refused by the estimate at once, naming the part
  // and the keys to change, without building what they would hold (the estimate of a
  // plan of 100,000 iterations used to build it: ~85 GB); and a flow-model run with
  // bins far narrower than its length stops with run.bin's error at its share of them.
  void hugeRunsRefusedAtOnce_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("overrides");
    QTest::addColumn<QString>("named");  // in the error's text
    QTest::newRow("wafer, 100000 iterations")
        << "wsc-balancer-mixed.yaml" << QStringList{"balancer.kind=none", "workload.wsc.iterations=100000"}
        << "wafer layer plan: workload.wsc.iterations";
    QTest::newRow("wafer, 1 ns bins over 1000 iterations")
        << "wsc-balancer-mixed.yaml" << QStringList{"balancer.kind=none", "workload.wsc.iterations=1000", "run.bin=1 ns"}
        << "analytical model's dense bins: run.bin";
    QTest::newRow("cross-DC flow, 1 ns bins over 1.9 s")
        << "xdc-ablation-24-8.yaml"
        << QStringList{"topology.preset=cluster-l", "scheme.hybrid.compression_ratio=1", "run.bin=1 ns"}
        << "time bins of traffic per link";
  }
  void hugeRunsRefusedAtOnce() {
    QFETCH(QString, file);
    QFETCH(QStringList, overrides);
    QFETCH(QString, named);
    Scenario s = loadScenario(FABRICLAB_SCENARIOS "/" + file.toStdString());
    std::vector<std::string> sets;
    for (const QString& o : overrides) sets.push_back(o.toStdString());
    s.sweep.clear();  // the overrides set swept keys
    applyOverrides(s, sets);
    s.run.memory_limit = std::int64_t{8} << 30;
    try {
      (void)runScenario(s);
      QFAIL("the run was not refused");
    } catch (const InputError& e) {
      QVERIFY2(QString(e.what()).contains(named), e.what());
      QVERIFY2(e.keyPath() == "run.memory_limit" || e.keyPath() == "run.bin", e.what());
    }
  }

  // The benchmark's 1000-DC case: 1.49 TiB of buffer space, but 8000 GPUs posting at
  // 0.05 % of 50 GB/s for 2 ms send about 1.3 M packets; it fits in 4 GiB.
  void deepBuffersDoNotRefuseALightRun() {
    const Scenario s = datacenters(1000, 2 * kMillisecond);
    const auto t = topo::buildTopology(s.topology);
    const MemoryEstimate e = estimateRunMemory(s, *t);
    const double mu = meanTrafficPackets(s, *t);
    QVERIFY(mu > 1.0e6 && mu < 1.5e6);
    QVERIFY(double(e.packetsInFlight) >= mu + 5 * std::sqrt(mu));  // safe: 5 sigma above the mean
    QVERIFY(double(e.packetsInFlight) <= mu * 1.01 + 100);          // tight: within 1 %
    requireFits(e, std::int64_t{4} << 30, "the run");
    // With shallow buffers and one outstanding request those are the smaller again.
    Scenario shallow = s;
    shallow.network.vc_depth_flits = 64;
    shallow.network.outstanding_requests = 1;
    QVERIFY(estimateRunMemory(shallow, *t).packetsInFlight < e.packetsInFlight);
  }
};

QTEST_GUILESS_MAIN(TestMemoryEstimate)
#include "test_memory_estimate.moc"
