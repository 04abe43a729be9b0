// The packet-level network against closed forms and brute-force counts.
#include <QtTest>

#include <cmath>
#include <map>

#include "scenario/scenario.h"
#include "sim/run.h"
#include "topology/topology.h"

using namespace fl;

namespace {

// Two endpoints joined by one link: the simplest fabric, built by hand.
class DirectRouting : public topo::Routing {
 public:
  void candidates(const topo::Topology&, topo::NodeId at, topo::NodeId dst,
                  std::vector<int>& ports) const override {
    ports.clear();
    if (at != dst) ports.push_back(0);
  }
  const char* name() const override { return "direct"; }
};

std::unique_ptr<topo::Topology> twoEndpoints(double bandwidth, Time latency, double efficiency) {
  auto t = std::make_unique<topo::Topology>();
  const auto a = t->addNode(topo::NodeKind::Gpu, "gpu0");
  const auto b = t->addNode(topo::NodeKind::Gpu, "gpu1");
  t->addLink(topo::LinkKind::Access, a, b, bandwidth, latency, efficiency);
  t->setRouting(std::make_unique<DirectRouting>());
  t->kind = "custom";
  return t;
}

Scenario p2pScenario(std::int64_t size, std::int64_t packetPayload) {
  Scenario s;
  s.workload.kind = WorkloadKind::Collective;
  s.workload.collective.op = CollectiveOp::P2P;
  s.workload.collective.algorithm = CollectiveAlgorithm::Direct;
  s.workload.collective.size = size;
  s.network.packet_payload = packetPayload;
  s.network.vc_depth_flits = 4096;
  return s;
}

// Wire bytes of a write of `payload` bytes under the default framing: per NVLink packet
// of up to 256 B, one header, one address and one byte-enable flit, plus the data flits.
double writeWireBytes(double payload) {
  const double packets = std::ceil(payload / 256.0);
  return packets * 3 * 16 + std::ceil(payload / 16.0) * 16;
}

Scenario dgxCollective(CollectiveOp op, CollectiveAlgorithm alg, std::int64_t size, int gpus,
                       int switches, int links) {
  Scenario s;
  s.topology.kind = TopologyKind::NvSwitch;
  s.topology.gpus = gpus;
  s.topology.switches = switches;
  s.topology.links_per_gpu = links;
  s.topology.switch_ports = 64;
  s.topology.link_efficiency = 0.98;
  s.workload.collective.op = op;
  s.workload.collective.algorithm = alg;
  s.workload.collective.size = size;
  // Coarse 4 KiB packets (framing still per 256 B NVLink packet); buffers sized so that
  // credits and reduction entries cover the round trip, as 256 B packets do by default.
  s.network.packet_payload = 4096;
  s.network.virtual_channels = 16;
  s.network.vc_depth_flits = 1024;
  s.network.reduction_buffer = 16 << 20;
  return s;
}

std::int64_t linkPayload(const Results& r, const std::string& from, const std::string& to) {
  std::int64_t b = 0;
  for (const auto& l : r.links)
    if ((from.empty() || l.from == from) && (to.empty() || l.to == to)) b += l.payload_bytes;
  return b;
}

}  // namespace

class TestNetwork : public QObject {
  Q_OBJECT
 private slots:
  void singleLinkTransfer_data();
  void singleLinkTransfer();
  void ringAllReduceMatchesClosedForm_data();
  void ringAllReduceMatchesClosedForm();
  void nvlsAllReduceVolumes_data();
  void nvlsAllReduceVolumes();
  void nvlsKeepsBothDirectionsBusy_data();
  void nvlsKeepsBothDirectionsBusy();
  void meshAllToAllLinkBytes_data();
  void meshAllToAllLinkBytes();
  void saturatedTrafficConservesPackets_data();
  void saturatedTrafficConservesPackets();
  void smallReductionBufferEvictsButCompletes();
  void identicalForAnyThreadCount_data();
  void identicalForAnyThreadCount();
};

void TestNetwork::singleLinkTransfer_data() {
  QTest::addColumn<qint64>("size");
  QTest::addColumn<qint64>("packet");
  QTest::addColumn<double>("bandwidth");
  QTest::addColumn<qint64>("latencyNs");
  QTest::addColumn<double>("efficiency");
  QTest::newRow("64 MiB, 256 B packets, NVLink 4 link") << qint64(64 << 20) << qint64(256) << 25e9 << qint64(250) << 1.0;
  QTest::newRow("64 MiB, 4 KiB packets") << qint64(64 << 20) << qint64(4096) << 25e9 << qint64(250) << 1.0;
  QTest::newRow("16 MiB, 256 B, 10 Gb/s, 5 us, 0.9 efficiency") << qint64(16 << 20) << qint64(256) << 1.25e9 << qint64(5000) << 0.9;
  QTest::newRow("100 MB, 1000 B packets") << qint64(100000000) << qint64(1000) << 50e9 << qint64(100) << 1.0;
}

void TestNetwork::singleLinkTransfer() {
  QFETCH(qint64, size);
  QFETCH(qint64, packet);
  QFETCH(double, bandwidth);
  QFETCH(qint64, latencyNs);
  QFETCH(double, efficiency);
  auto topo = twoEndpoints(bandwidth, latencyNs * kNanosecond, efficiency);
  const Results r = runOnTopology(p2pScenario(size, packet), *topo);
  // Closed form: size x wire/payload / bandwidth + latency.
  const double packets = std::ceil(double(size) / double(packet));
  const double fullPacketWire = writeWireBytes(double(packet));
  const double wire = (packets - 1) * fullPacketWire + writeWireBytes(double(size) - (packets - 1) * double(packet));
  const double expectedPs = wire / (bandwidth * efficiency) * 1e12 + double(latencyNs * kNanosecond);
  QVERIFY2(std::abs(double(r.makespan) - expectedPs) / expectedPs < 0.01,
           qPrintable(QString("makespan %1 ps, closed form %2 ps").arg(r.makespan).arg(expectedPs)));
  QCOMPARE(r.payload_bytes, size);
  QCOMPARE(double(r.wire_bytes), wire);
}

void TestNetwork::ringAllReduceMatchesClosedForm_data() {
  QTest::addColumn<int>("gpus");
  QTest::addColumn<int>("switches");
  QTest::addColumn<int>("links");
  QTest::newRow("DGX-H100 shape: 8 GPUs, 4 chips, 18 links") << 8 << 4 << 18;
  QTest::newRow("4 GPUs, 2 chips, 4 links") << 4 << 2 << 4;
  QTest::newRow("16 GPUs, 1 chip, 2 links") << 16 << 1 << 2;
}

void TestNetwork::ringAllReduceMatchesClosedForm() {
  QFETCH(int, gpus);
  QFETCH(int, switches);
  QFETCH(int, links);
  const std::int64_t size = 256ll << 20;
  const Scenario s = dgxCollective(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, size, gpus, switches, links);
  const Results r = runScenario(s);
  // Per-GPU bandwidth B: links x 25 GB/s x 0.98, times the payload share of the wire.
  const double payloadShare = 4096.0 / writeWireBytes(4096);
  const double B = links * 25e9 * 0.98 * payloadShare;
  // A step: chunk serialisation plus two link latencies and one packet's store-and-forward.
  const double n = gpus;
  const double stepLatency = 2 * 250e-9 + writeWireBytes(4096) / (25e9 * 0.98);
  const double expected = 2 * (n - 1) / n * double(size) / B + 2 * (n - 1) * stepLatency;
  const double t = toSeconds(r.makespan);
  QVERIFY2(std::abs(t - expected) / expected < 0.02,
           qPrintable(QString("ring all-reduce %1 s, closed form %2 s").arg(t).arg(expected)));
  QVERIFY(r.busbw_GBps.has_value());
  QVERIFY(std::abs(*r.busbw_GBps - B / 1e9) / (B / 1e9) < 0.02);
}

// NVLS all-reduce moves S(1 + 1/N) through each GPU's links in each direction at once:
// its makespan stays near that volume over the GPU's link rate, and below ring's
// 2S(N-1)/N. Requesting a GPU's whole chunk at once took 1.8x the bound (uplinks busy
// answering reads first, downlinks storing after); with a window of ld_reduce in flight
// both directions work together.
void TestNetwork::nvlsKeepsBothDirectionsBusy_data() {
  QTest::addColumn<qint64>("window");
  QTest::addColumn<double>("atLeast");  // makespan over the bound
  QTest::addColumn<double>("atMost");
  QTest::addColumn<bool>("beatsRing");
  QTest::newRow("1 MiB window (default)") << qint64(1 << 20) << 1.0 << 1.3 << true;
  QTest::newRow("whole chunk at once") << qint64(1ll << 30) << 1.6 << 2.2 << false;
}

void TestNetwork::nvlsKeepsBothDirectionsBusy() {
  QFETCH(qint64, window);
  QFETCH(double, atLeast);
  QFETCH(double, atMost);
  QFETCH(bool, beatsRing);
  const std::int64_t size = 256 << 20;
  Scenario s = dgxCollective(CollectiveOp::AllReduce, CollectiveAlgorithm::Nvls, size, 8, 4, 18);
  s.network.packet_payload = 64 << 10;  // as scenarios/dgx-h100-allreduce-ring-vs-nvls.yaml
  s.network.vc_depth_flits = 16384;
  s.workload.collective.nvls_window = window;
  const Results nvls = runScenario(s);
  QCOMPARE(nvls.agents_unfinished, qint64(0));
  QCOMPARE(nvls.packets_in_flight, qint64(0));
  // gpu0's uplinks: their wire bytes over their summed capacity bound the makespan.
  double wire = 0, capacity = 0;
  for (const LinkDirectionResult& l : nvls.links)
    if (l.from == "gpu0") {
      wire += static_cast<double>(l.bytes);
      capacity += l.capacity_Bps;
    }
  const double ratio = toSeconds(nvls.makespan) / (wire / capacity);
  QVERIFY2(ratio >= atLeast && ratio <= atMost, qPrintable(QString("makespan %1 x the bound").arg(ratio)));
  s.workload.collective.algorithm = CollectiveAlgorithm::Ring;
  const Results ring = runScenario(s);
  QCOMPARE(nvls.makespan < ring.makespan, beatsRing);
}

void TestNetwork::nvlsAllReduceVolumes_data() {
  QTest::addColumn<int>("gpus");
  QTest::addColumn<int>("switches");
  QTest::addColumn<int>("links");
  QTest::addColumn<qint64>("size");
  QTest::newRow("8 GPUs, 4 chips, 18 links, 64 MiB") << 8 << 4 << 18 << qint64(64 << 20);
  QTest::newRow("4 GPUs, 2 chips, 2 links, 8 MiB") << 4 << 2 << 2 << qint64(8 << 20);
  QTest::newRow("6 GPUs (uneven chunks), 1 chip, 1 link, 6 MB + 5") << 6 << 1 << 1 << qint64(6000005);
}

void TestNetwork::nvlsAllReduceVolumes() {
  QFETCH(int, gpus);
  QFETCH(int, switches);
  QFETCH(int, links);
  QFETCH(qint64, size);
  Scenario s = dgxCollective(CollectiveOp::AllReduce, CollectiveAlgorithm::Nvls, size, gpus, switches, links);
  const Results r = runScenario(s);
  for (int g = 0; g < gpus; ++g) {
    const std::string name = "gpu" + std::to_string(g);
    // Own chunk of S/N (uneven split: the first S mod N chunks are one byte larger).
    const std::int64_t chunk = size / gpus + (g < size % gpus ? 1 : 0);
    // Up: a contribution to every chunk's reduction (S) plus the own reduced chunk
    // multicast once (S/N). Down: the own reduced chunk (S/N) plus every chunk (S).
    QCOMPARE(linkPayload(r, name, ""), size + chunk);
    QCOMPARE(linkPayload(r, "", name), size + chunk);
  }
  qint64 reductions = 0;
  for (const auto& sw : r.switches) {
    reductions += sw.reductions;
    QCOMPARE(sw.evictions, qint64(0));
  }
  // One reduction per ld_reduce packet: ceil(chunk / 4096) per GPU.
  qint64 expectedReductions = 0;
  for (int g = 0; g < gpus; ++g) expectedReductions += (size / gpus + (g < size % gpus ? 1 : 0) + 4095) / 4096;
  QCOMPARE(reductions, expectedReductions);
  QCOMPARE(r.packets_in_flight, qint64(0));
}

void TestNetwork::meshAllToAllLinkBytes_data() {
  QTest::addColumn<int>("rows");
  QTest::addColumn<int>("cols");
  QTest::newRow("4 x 4") << 4 << 4;
  QTest::newRow("3 x 5") << 3 << 5;
  QTest::newRow("8 x 8") << 8 << 8;
}

void TestNetwork::meshAllToAllLinkBytes() {
  QFETCH(int, rows);
  QFETCH(int, cols);
  const int n = rows * cols;
  Scenario s;
  s.topology.kind = TopologyKind::Mesh;
  s.topology.rows = rows;
  s.topology.cols = cols;
  s.workload.collective.op = CollectiveOp::AllToAll;
  s.workload.collective.algorithm = CollectiveAlgorithm::Direct;
  s.workload.collective.size = std::int64_t(n) * 1024;  // 1 KiB to every peer
  const Results r = runScenario(s);
  // Brute force: walk every pair's XY route on the grid and count directed hops.
  std::map<std::pair<std::string, std::string>, std::int64_t> uses;
  const auto router = [](int rr, int cc) { return "router(" + std::to_string(rr) + "," + std::to_string(cc) + ")"; };
  double hops = 0;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      int r0 = a / cols, c0 = a % cols;
      const int r1 = b / cols, c1 = b % cols;
      while (c0 != c1) {
        const int c = c0 + (c1 > c0 ? 1 : -1);
        uses[{router(r0, c0), router(r0, c)}]++;
        c0 = c;
        ++hops;
      }
      while (r0 != r1) {
        const int rr = r0 + (r1 > r0 ? 1 : -1);
        uses[{router(r0, c0), router(rr, c0)}]++;
        r0 = rr;
        ++hops;
      }
    }
  const std::int64_t perPair = static_cast<std::int64_t>(writeWireBytes(1024));
  int meshLinks = 0;
  for (const auto& l : r.links) {
    if (l.kind != "mesh") continue;
    ++meshLinks;
    const auto it = uses.find({l.from, l.to});
    const std::int64_t expected = it == uses.end() ? 0 : it->second * perPair;
    QVERIFY2(l.bytes == expected, qPrintable(QString::fromStdString(l.from + " -> " + l.to)));
  }
  QCOMPARE(meshLinks, 2 * (rows * (cols - 1) + cols * (rows - 1)));
  // Mean hop count, closed form: E|dr| + E|dc| over distinct pairs.
  const double closed = ((rows * rows - 1.0) / (3.0 * rows) + (cols * cols - 1.0) / (3.0 * cols)) * n / (n - 1.0);
  QVERIFY(std::abs(hops / (double(n) * (n - 1)) - closed) < 1e-9);
}

void TestNetwork::saturatedTrafficConservesPackets_data() {
  QTest::addColumn<int>("pattern");
  QTest::addColumn<int>("depth");
  QTest::newRow("uniform, 2-packet buffers") << int(TrafficPattern::Uniform) << 38;
  QTest::newRow("hotspot, 1-packet buffers") << int(TrafficPattern::Hotspot) << 19;
  QTest::newRow("transpose, 4-packet buffers") << int(TrafficPattern::Transpose) << 76;
}

void TestNetwork::saturatedTrafficConservesPackets() {
  QFETCH(int, pattern);
  QFETCH(int, depth);
  Scenario s;
  s.topology.kind = TopologyKind::Mesh;
  s.topology.rows = 4;
  s.topology.cols = 4;
  s.network.vc_depth_flits = depth;
  s.workload.kind = WorkloadKind::Traffic;
  s.workload.traffic.pattern = static_cast<TrafficPattern>(pattern);
  s.workload.traffic.load = 1.0;
  s.workload.traffic.duration = 5 * kMicrosecond;
  s.workload.traffic.warmup = 1 * kMicrosecond;
  const Results r = runScenario(s);
  QCOMPARE(r.buffer_overflows, qint64(0));
  for (const auto& sw : r.switches) QVERIFY(sw.max_buffer_flits <= depth);
  QVERIFY(r.packets_injected > 1000);
  QCOMPARE(r.packets_injected + r.packets_created_in_switches,
           r.packets_consumed + r.packets_consumed_in_switches);
  QCOMPARE(r.packets_in_flight, qint64(0));
  QVERIFY(*r.accepted_fraction < 1.0);  // saturated: the fabric accepts less than offered
}

void TestNetwork::smallReductionBufferEvictsButCompletes() {
  Scenario s = dgxCollective(CollectiveOp::AllReduce, CollectiveAlgorithm::Nvls, 8 << 20, 8, 4, 18);
  s.network.packet_payload = 256;
  s.network.vc_depth_flits = 256;
  s.network.reduction_buffer = 64 * 1024;
  const Results roomy = runScenario(s);
  s.network.reduction_buffer = 512;  // two 256 B partial sums per port
  const Results tight = runScenario(s);
  qint64 evictions = 0;
  for (const auto& sw : tight.switches) evictions += sw.evictions;
  QVERIFY(evictions > 0);
  // Evicted partial sums travel separately: more downlink traffic, same work done.
  QVERIFY(tight.downlink_payload_bytes > roomy.downlink_payload_bytes);
  QCOMPARE(tight.uplink_payload_bytes, roomy.uplink_payload_bytes);
  QCOMPARE(tight.packets_in_flight, qint64(0));
}

void TestNetwork::identicalForAnyThreadCount_data() {
  QTest::addColumn<int>("kind");
  QTest::newRow("mesh traffic") << 0;
  QTest::newRow("nvswitch nvls all-reduce") << 1;
  // Endpoints waiting on credits with work queued, multicast and in-switch reduction.
  QTest::newRow("nvl32 dysharp moe layer") << 2;
  // Stopped by the time limit with credits still in flight.
  QTest::newRow("nvl32 deepep moe layer, time limit") << 3;
}

void TestNetwork::identicalForAnyThreadCount() {
  QFETCH(int, kind);
  Scenario s;
  if (kind == 0) {
    s.topology.kind = TopologyKind::Mesh;
    s.workload.kind = WorkloadKind::Traffic;
    s.workload.traffic.load = 0.4;
    s.workload.traffic.duration = 4 * kMicrosecond;
    s.workload.traffic.warmup = 1 * kMicrosecond;
  } else if (kind == 1) {
    s = dgxCollective(CollectiveOp::AllReduce, CollectiveAlgorithm::Nvls, 4 << 20, 8, 4, 18);
  } else {
    s.topology.gpus = 32;
    s.topology.switches = 9;
    s.topology.links_per_gpu = 18;
    s.workload.kind = WorkloadKind::MoeLayer;
    s.workload.moe.tokens_per_gpu = 16;
    s.scheme.communication = kind == 2 ? MoeCommunication::DySharp : MoeCommunication::DeepEp;
    s.scheme.fusion = MoeFusion::Sequential;
    s.network.packet_payload = 256;
    s.network.vc_depth_flits = 64;
    if (kind == 3) s.run.time_limit = 3 * kMicrosecond;
  }
  s.run.partitions = 1;
  const Results one = runScenario(s);
  s.run.threads = 2;
  for (const int parts : {3, 0}) {  // by hand, automatic (up to 16)
  s.run.partitions = parts;
  const Results two = runScenario(s);
  if (parts > 0) QCOMPARE(two.partitions, parts);
  else QVERIFY(two.partitions > 3);
  QCOMPARE(one.events, two.events);
  // Counted in the run's order of events: the same for any partitioning.
  QCOMPARE(one.peak_live_packets, two.peak_live_packets);
  QCOMPARE(one.sim_time, two.sim_time);
  QCOMPARE(one.makespan, two.makespan);
  QCOMPARE(one.links.size(), two.links.size());
  for (std::size_t i = 0; i < one.links.size(); ++i) {
    QCOMPARE(one.links[i].bytes, two.links[i].bytes);
    QCOMPARE(one.links[i].busy, two.links[i].busy);
    QVERIFY(one.links[i].bin_bytes == two.links[i].bin_bytes);
  }
  if (one.latency) QCOMPARE(one.latency->p99_ns, two.latency->p99_ns);
  }
}

QTEST_GUILESS_MAIN(TestNetwork)
#include "test_network.moc"
