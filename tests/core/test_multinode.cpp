// Multi-node fabrics (seed 001 §6.7): hierarchies whose GPUs have their own NICs
// (topology.levels[i].uplinks: per_gpu), routing over NVLink inside a node and NICs
// between nodes, the Maximal Incast Volume closed form (moe.miv_bytes) and the measured
// NIC incast (traffic.max_nic_incast_bytes). Expected values come from hand arithmetic,
// breadth-first search over the link list, and brute-force counts over the routing;
// never from the code under test.
#include <QtTest>

#include <algorithm>
#include <map>
#include <queue>
#include <set>
#include <string>
#include <vector>

#include "gpu/dtype.h"
#include "moe/routing.h"
#include "report/html_report.h"
#include "results/json_writer.h"
#include "scenario/input_error.h"
#include "scenario/scenario_io.h"
#include "scenario/schema.h"
#include "scenario/validate.h"
#include "sim/run.h"
#include "topology/topology.h"
#include "workloads/moe_incast.h"

using namespace fl;
using namespace fl::topo;

Q_DECLARE_METATYPE(fl::TopologySpec)

namespace {

const std::string kScenario = std::string(FABRICLAB_SCENARIOS) + "/flashdmoe-multinode.yaml";

QString q(const std::string& s) { return QString::fromStdString(s); }

// Levels "name:count[:r]" outermost first; ":r" gives the level per-GPU uplinks. Level i
// has bandwidth (i + 1) GB/s and latency (levels - i) ns.
TopologySpec levels(std::vector<std::string> spec) {
  TopologySpec s;
  s.kind = TopologyKind::Hierarchy;
  for (size_t i = 0; i < spec.size(); ++i) {
    const std::string& l = spec[i];
    const auto colon = l.find(':');
    LevelSpec level{l.substr(0, colon), std::stoi(l.substr(colon + 1)), 1e9 * double(i + 1),
                    Time(1000) * Time(spec.size() - i), LevelUplinks::Shared};
    if (l.size() > 2 && l.substr(l.size() - 2) == ":r") level.uplinks = LevelUplinks::PerGpu;
    s.levels.push_back(level);
  }
  return s;
}

QString label(const TopologySpec& s) {
  QString l;
  for (const auto& v : s.levels)
    l += QString("%1%2x%3 ").arg(v.uplinks == LevelUplinks::PerGpu ? "rail " : "").arg(q(v.name)).arg(v.count);
  return l.trimmed();
}

// The lowest common ancestor by parent pointers.
NodeId lca(const Topology& t, NodeId x, NodeId y) {
  while (t.node(x).level > t.node(y).level) x = t.node(x).parent;
  while (t.node(y).level > t.node(x).level) y = t.node(y).parent;
  while (x != y) x = t.node(x).parent, y = t.node(y).parent;
  return x;
}

bool inSubtree(const Topology& t, NodeId v, NodeId root) {
  for (; v >= 0; v = t.node(v).parent)
    if (v == root) return true;
  return false;
}

// Hops from src to dst over the link list when only switches inside `within`'s subtree
// may forward (endpoints do not, and traffic never climbs above the common ancestor).
int restrictedDistance(const Topology& t, NodeId src, NodeId dst, NodeId within) {
  std::vector<int> dist(t.nodes().size(), -1);
  std::queue<NodeId> q;
  dist[size_t(src)] = 0;
  q.push(src);
  while (!q.empty()) {
    const NodeId v = q.front();
    q.pop();
    if (v == dst) return dist[size_t(v)];
    if (v != src && isEndpoint(t.node(v).kind)) continue;
    for (const Port& p : t.ports(v)) {
      const NodeId w = p.peer;
      if (dist[size_t(w)] >= 0 || !inSubtree(t, w, within)) continue;
      dist[size_t(w)] = dist[size_t(v)] + 1;
      q.push(w);
    }
  }
  return -1;
}

struct Path {
  std::vector<LinkId> links;
  std::vector<NodeId> nodes;  // visited after src
  bool ok = true;
};

Path walk(const Topology& t, NodeId src, NodeId dst) {
  Path path;
  std::vector<int> cand;
  for (NodeId at = src; at != dst;) {
    t.candidates(at, dst, cand);
    if (cand.size() != 1 || path.links.size() > t.nodes().size()) {
      path.ok = false;
      return path;
    }
    const Port& p = t.ports(at)[size_t(cand[0])];
    path.links.push_back(p.link);
    path.nodes.push_back(p.peer);
    at = p.peer;
  }
  return path;
}

Scenario bundled(int tokens) {
  Scenario s = loadScenario(kScenario);
  s.sweep.clear();
  s.workload.moe.tokens_per_gpu = tokens;
  return s;
}

// Payload bytes into each GPU, split by phase and by whether it came from another node
// (through the GPU's NIC) or its own node (through NVLink), counted from the routing
// itself: deepep sends a token once to each distinct GPU hosting one of its experts and
// gets one output back from each. Experts are placed contiguously.
struct Expected {
  std::vector<std::int64_t> nic[2], nvlink[2];  // [phase][gpu]: 0 dispatch, 1 combine
  std::vector<std::int64_t> nicOut[2];          // [phase][gpu]: out through the GPU's NIC
};
Expected bruteForce(const Scenario& s, int gpusPerNode) {
  RoutingParams p = routingParams(s);
  const fl::Routing routing = generateRouting(p);
  const MoeSpec& m = s.workload.moe;
  const int gpus = p.gpus, perGpu = m.experts / gpus;
  const std::int64_t dispatch = std::int64_t(m.hidden) * dtypeBytes(m.dispatch_dtype);
  const std::int64_t combine = std::int64_t(m.hidden) * dtypeBytes(m.combine_dtype);
  Expected e;
  for (int ph = 0; ph < 2; ++ph) {
    e.nic[ph].assign(size_t(gpus), 0);
    e.nvlink[ph].assign(size_t(gpus), 0);
    e.nicOut[ph].assign(size_t(gpus), 0);
  }
  for (int g = 0; g < gpus; ++g)
    for (int t = 0; t < m.tokens_per_gpu; ++t) {
      std::set<int> dests;
      for (int expert : routing.chosen(g, t)) dests.insert(expert / perGpu);
      dests.erase(g);
      for (int d : dests) {
        const bool remote = d / gpusPerNode != g / gpusPerNode;
        (remote ? e.nic : e.nvlink)[0][size_t(d)] += dispatch;  // the token into d
        (remote ? e.nic : e.nvlink)[1][size_t(g)] += combine;   // d's output back into g
        if (remote) e.nicOut[0][size_t(g)] += dispatch, e.nicOut[1][size_t(d)] += combine;
      }
    }
  return e;
}

}  // namespace

class TestMultiNode : public QObject {
  Q_OBJECT

 private slots:
  void railCounts();
  void railRoutes_data();
  void railRoutes();
  void railInvalid();
  void railKeys();
  void remotePeerCount_data();
  void remotePeerCount();
  void mivClosedForm_data();
  void mivClosedForm();
  void bundledScenarioMiv_data();
  void bundledScenarioMiv();
  void measuredIncast_data();
  void measuredIncast();
  void reported();
  void idealIsNicBound_data();
  void idealIsNicBound();
};

// 4 nodes x 4 GPUs with a NIC per GPU: root + 4 node switches + 16 GPUs; 16 NVLink access
// links and 16 NICs, no trunks. The root has one port per NIC, a node switch one per GPU.
void TestMultiNode::railCounts() {
  auto t = buildTopology(levels({"node:4:r", "gpu:4"}));
  QCOMPARE(int(t->nodes().size()), 21);
  QCOMPARE(t->endpointCount(), 16);
  std::map<LinkKind, int> kinds;
  for (const Link& l : t->links()) ++kinds[l.kind];
  QCOMPARE(kinds[LinkKind::Access], 16);
  QCOMPARE(kinds[LinkKind::Nic], 16);
  QCOMPARE(kinds[LinkKind::Trunk], 0);
  QCOMPARE(int(t->ports(0).size()), 16);
  for (const Node& n : t->nodes()) {
    if (n.level == 1) QCOMPARE(int(t->ports(n.id).size()), 4);
    if (n.level == 2) QCOMPARE(int(t->ports(n.id).size()), 2);
  }
  for (const Link& l : t->links()) {
    QCOMPARE(isNicLink(*t, l), l.kind == LinkKind::Nic);
    if (l.kind != LinkKind::Nic) continue;
    QCOMPARE(t->node(l.a).kind, NodeKind::Gpu);  // the GPU's own NIC, to the root
    QCOMPARE(l.b, NodeId(0));
    QCOMPARE(l.bandwidth, 1e9);  // the node level's
    QCOMPARE(l.latency, Time(2000));
  }
  QVERIFY(!t->routing().endpointLinksInterchangeable());
  QVERIFY(q(t->description).contains("NIC per GPU across node"));
  // Shared uplinks: the node's one trunk is its NIC.
  auto shared = buildTopology(levels({"node:4", "gpu:4"}));
  int nics = 0;
  for (const Link& l : shared->links()) nics += isNicLink(*shared, l);
  QCOMPARE(nics, 4);
  QVERIFY(shared->routing().endpointLinksInterchangeable());
}

void TestMultiNode::railRoutes_data() {
  QTest::addColumn<TopologySpec>("spec");
  for (const TopologySpec& s :
       {levels({"node:4:r", "gpu:4"}), levels({"dc:2", "node:3:r", "gpu:2"}), levels({"dc:2:r", "node:2:r", "gpu:3"}),
        levels({"dc:3:r", "node:2", "gpu:2"}), levels({"dc:2", "rack:2:r", "node:2", "gpu:2"}),
        levels({"node:3:r", "gpu:1"})})
    QTest::newRow(qPrintable(label(s))) << s;
}

// Every GPU pair: one candidate per hop, shortest among paths that forward only through
// switches and stay below the pair's common ancestor; GPUs of one node never use a NIC,
// GPUs of different nodes use exactly their own two NICs when the node level is per-GPU.
void TestMultiNode::railRoutes() {
  QFETCH(TopologySpec, spec);
  auto t = buildTopology(spec);
  const bool nodeRail = spec.levels[spec.levels.size() - 2].uplinks == LevelUplinks::PerGpu;
  for (int a = 0; a < t->endpointCount(); ++a)
    for (int b = 0; b < t->endpointCount(); ++b) {
      if (a == b) continue;
      const NodeId src = t->endpointNode(a), dst = t->endpointNode(b);
      const Path path = walk(*t, src, dst);
      QVERIFY2(path.ok, qPrintable(q(t->node(src).name + " -> " + t->node(dst).name)));
      const NodeId top = lca(*t, src, dst);
      QCOMPARE(int(path.links.size()), restrictedDistance(*t, src, dst, top));
      for (size_t i = 0; i + 1 < path.nodes.size(); ++i) {
        QCOMPARE(t->node(path.nodes[i]).kind, NodeKind::Switch);
        QVERIFY(inSubtree(*t, path.nodes[i], top));
      }
      int nicHops = 0;
      for (LinkId l : path.links) nicHops += t->link(l).kind == LinkKind::Nic;
      const bool sameNode = t->node(src).parent == t->node(dst).parent;
      if (sameNode) QCOMPARE(nicHops, 0);
      if (nodeRail && !sameNode) {
        QCOMPARE(nicHops, 2);
        QCOMPARE(t->link(path.links.front()).a, src);  // leaves by its own NIC
        QCOMPARE(t->link(path.links.back()).a, dst);   // arrives by the destination's
      }
    }
}

void TestMultiNode::railInvalid() {
  try {
    buildTopology(levels({"node:4", "gpu:4:r"}));
    QFAIL("no InputError for per_gpu on the GPU level");
  } catch (const InputError& e) {
    QCOMPARE(q(e.keyPath()), QString("topology.levels[1].uplinks"));
  }
  Scenario s;
  try {
    setValue(s, "topology.levels", "[{name: node, count: 2, bandwidth: 1 GB/s, latency: 0 ns, uplinks: rails}]");
    QFAIL("no InputError for a bad uplinks value");
  } catch (const InputError& e) {
    QCOMPARE(q(e.keyPath()), QString("topology.levels[0].uplinks"));
    QVERIFY(q(e.expected()).contains("per_gpu"));
  }
  // In-switch multicast cannot leave a node whose GPUs own the uplinks.
  Scenario x = bundled(256);
  x.scheme.communication = MoeCommunication::Explicit;
  try {
    validateScenario(x);
    QFAIL("no InputError for explicit on per-GPU uplinks");
  } catch (const InputError& e) {
    QCOMPARE(q(e.keyPath()), QString("scheme.communication"));
  }
}

// The key reads and writes as an element path, and is written only when not shared.
void TestMultiNode::railKeys() {
  Scenario s = bundled(256);
  QCOMPARE(q(getValue(s, "topology.levels[0].uplinks")), QString("per_gpu"));
  QCOMPARE(q(getValue(s, "topology.levels[1].uplinks")), QString("shared"));
  QVERIFY(q(getValue(s, "topology.levels")).contains("uplinks: per_gpu"));
  QCOMPARE(q(getValue(s, "topology.levels")).count("uplinks"), 1);
  setValue(s, "topology.levels[0].uplinks", "shared");
  QCOMPARE(s.topology.levels[0].uplinks, LevelUplinks::Shared);
  QVERIFY(parseScenario(saveScenarioText(bundled(256)), "again.yaml") == bundled(256));
}

void TestMultiNode::remotePeerCount_data() {
  QTest::addColumn<TopologySpec>("spec");
  QTest::addColumn<int>("peers");
  QTest::newRow("4 nodes x 4, NIC per GPU") << levels({"node:4:r", "gpu:4"}) << 12;
  QTest::newRow("4 nodes x 4, node uplinks") << levels({"node:4", "gpu:4"}) << 12;
  QTest::newRow("2 dc x 3 nodes x 2") << levels({"dc:2", "node:3:r", "gpu:2"}) << 10;
  QTest::newRow("one level: no NICs") << levels({"gpu:16"}) << 0;
  TopologySpec nv;  // DGX-H100-like: one node
  QTest::newRow("nvswitch") << nv << 0;
}

void TestMultiNode::remotePeerCount() {
  QFETCH(TopologySpec, spec);
  QFETCH(int, peers);
  QCOMPARE(work::remotePeers(*buildTopology(spec)), peers);
}

// MIV = Tokens / Experts x local_experts x precision x hidden x 2 x n_rg, by hand.
void TestMultiNode::mivClosedForm_data() {
  QTest::addColumn<int>("tokens");
  QTest::addColumn<int>("experts");
  QTest::addColumn<int>("local");
  QTest::addColumn<int>("precision");
  QTest::addColumn<int>("hidden");
  QTest::addColumn<int>("peers");
  QTest::addColumn<qint64>("miv");
  // Seed 001 §6.7's setup at 2048 tokens, FP32: 128 x 4 x 1024 x 2 x 12 = 12 MiB.
  QTest::newRow("seed 2048 fp32") << 2048 << 16 << 1 << 4 << 1024 << 12 << qint64(12582912);
  QTest::newRow("seed 256 fp32") << 256 << 16 << 1 << 4 << 1024 << 12 << qint64(1572864);
  QTest::newRow("seed 2048 bf16") << 2048 << 16 << 1 << 2 << 1024 << 12 << qint64(6291456);
  // 64 x 8 x 2 x 2048 x 2 x 56 = 234,881,024.
  QTest::newRow("8 experts per GPU") << 4096 << 64 << 8 << 2 << 2048 << 56 << qint64(234881024);
  QTest::newRow("single node") << 4096 << 16 << 1 << 4 << 1024 << 0 << qint64(0);
}

void TestMultiNode::mivClosedForm() {
  QFETCH(int, tokens);
  QFETCH(int, experts);
  QFETCH(int, local);
  QFETCH(int, precision);
  QFETCH(int, hidden);
  QFETCH(int, peers);
  QFETCH(qint64, miv);
  QCOMPARE(qint64(work::maximalIncastVolume(tokens, experts, local, precision, hidden, peers)), miv);
}

// The bundled scenario sweeps 256..4096 tokens; its MIV is T x 6 KiB (fp32: 4 B, n_rg 12),
// as its comments say. Two points are run (the rest differ only in T).
void TestMultiNode::bundledScenarioMiv_data() {
  QTest::addColumn<int>("tokens");
  QTest::addColumn<qint64>("miv");
  QTest::newRow("256") << 256 << qint64(256) * 6144;
  QTest::newRow("1024") << 1024 << qint64(1024) * 6144;
}

void TestMultiNode::bundledScenarioMiv() {
  QFETCH(int, tokens);
  QFETCH(qint64, miv);
  const Scenario file = loadScenario(kScenario);
  QCOMPARE(file.sweep.size(), size_t(1));
  QCOMPARE(q(file.sweep[0].key), QString("workload.moe.tokens_per_gpu"));
  QCOMPARE(file.sweep[0].values, (std::vector<std::string>{"256", "512", "1024", "2048", "4096"}));
  const Results r = runScenario(bundled(tokens));
  QVERIFY(r.moe && r.moe->miv_bytes);
  QCOMPARE(qint64(*r.moe->miv_bytes), miv);
  QCOMPARE(r.moe->miv_remote_peers, 12);
  QCOMPARE(r.packets_in_flight, std::int64_t(0));
  QVERIFY(r.pipeline && r.pipeline->kernel_launches == 1);
}

void TestMultiNode::measuredIncast_data() {
  QTest::addColumn<int>("fusion");
  QTest::addColumn<int>("topK");
  QTest::newRow("persistent top-1") << int(MoeFusion::Persistent) << 1;
  QTest::newRow("persistent top-2") << int(MoeFusion::Persistent) << 2;
  QTest::newRow("sequential") << int(MoeFusion::Sequential) << 1;
  QTest::newRow("overlap") << int(MoeFusion::Overlap) << 1;
  QTest::newRow("token_centric") << int(MoeFusion::TokenCentric) << 2;
  QTest::newRow("comm_only") << int(MoeFusion::CommOnly) << 2;
}

// Every fusion scheme on the 4 x 4 rail fabric: each GPU's NIC downlink carries exactly
// the tokens (dispatch) and outputs (combine) from other nodes, its NVLink downlink
// exactly those from its own node, and traffic.max_nic_incast_bytes is the largest NIC
// figure of either phase.
void TestMultiNode::measuredIncast() {
  QFETCH(int, fusion);
  QFETCH(int, topK);
  Scenario s = bundled(256);
  s.scheme.fusion = MoeFusion(fusion);
  s.workload.moe.top_k = topK;
  s.workload.moe.dispatch_dtype = s.workload.moe.combine_dtype = Dtype::Bf16;
  const Results r = runScenario(s);
  QCOMPARE(r.packets_in_flight, std::int64_t(0));
  QCOMPARE(r.packets_injected, r.packets_consumed);
  const Expected e = bruteForce(s, 4);
  auto t = buildTopology(s.topology);
  std::map<std::string, int> gpuOf;
  for (int g = 0; g < t->endpointCount(); ++g) gpuOf[t->node(t->endpointNode(g)).name] = g;
  std::int64_t most = 0;
  int nics = 0, nvlinks = 0;
  for (const LinkDirectionResult& l : r.links) {
    if (!l.downlink) continue;
    const int g = gpuOf.at(l.to);
    const bool nic = l.kind == "nic";
    QCOMPARE(l.nic_receive, nic);
    (nic ? nics : nvlinks) += 1;
    for (int ph = 0; ph < 2; ++ph) {
      const std::int64_t want = (nic ? e.nic : e.nvlink)[ph][size_t(g)];
      QVERIFY2(l.phase_payload_bytes[size_t(ph) + 1] == want,
               qPrintable(QString("%1 phase %2: %3 vs %4").arg(q(l.id)).arg(ph).arg(l.phase_payload_bytes[size_t(ph) + 1]).arg(want)));
      if (nic) most = std::max(most, want);
    }
  }
  QCOMPARE(nics, 16);
  QCOMPARE(nvlinks, 16);
  QVERIFY(r.nic_incast.has_value());
  QCOMPARE(r.nic_incast->max_bytes, most);
  QCOMPARE(r.nic_incast->nics, 16);
  QVERIFY(r.nic_incast->phase == "dispatch" || r.nic_incast->phase == "combine");
  QVERIFY(most > 0);
}

// JSON keys, the HTML report's totals and sweep table.
void TestMultiNode::reported() {
  Scenario s = bundled(256);
  const Results r = runScenario(s);
  const auto j = resultsToJson(r, s);
  QCOMPARE(j["moe"]["miv_bytes"].get<std::int64_t>(), std::int64_t(256) * 6144);
  QCOMPARE(j["moe"]["miv_remote_peers"].get<int>(), 12);
  QCOMPARE(j["traffic"]["max_nic_incast_bytes"].get<std::int64_t>(), r.nic_incast->max_bytes);
  QCOMPARE(q(j["traffic"]["max_nic_incast_phase"].get<std::string>()), q(r.nic_incast->phase));
  QCOMPARE(j["traffic"]["nics"].get<int>(), 16);
  // No NICs, no incast keys.
  Scenario one = s;
  one.topology = levels({"node:16", "gpu:1"});
  one.topology.levels[0].bandwidth = 25e9;
  one.topology.levels[1].bandwidth = 300e9;
  const auto flat = resultsToJson(runScenario(one), one);
  QVERIFY(flat["traffic"].contains("max_nic_incast_bytes"));  // 16 nodes of one GPU: still NICs
  one.topology = levels({"gpu:16"});
  one.topology.levels[0].bandwidth = 25e9;
  const auto single = resultsToJson(runScenario(one), one);
  QVERIFY(!single["traffic"].contains("max_nic_incast_bytes"));
  QVERIFY(!single["moe"].contains("miv_bytes"));

  auto t = buildTopology(s.topology);
  const std::string html = report::renderHtmlReport(s, {SweepPoint{{}, r}}, *t);
  QVERIFY(html.find("maximal incast volume (MIV)") != std::string::npos);
  QVERIFY(html.find("NIC incast (measured)") != std::string::npos);
  const auto at = html.find("maximal incast volume (MIV)");
  QVERIFY(html.find("1.50 MiB", at) != std::string::npos);  // 256 x 6 KiB
}

void TestMultiNode::idealIsNicBound_data() {
  QTest::addColumn<int>("fusion");
  QTest::newRow("sequential") << int(MoeFusion::Sequential);
  QTest::newRow("comm_only") << int(MoeFusion::CommOnly);
}

// moe.ideal_comm on the rail fabric: with top-1 routing no token is multicast, so the
// busiest 25 GB/s NIC direction decides (NVLink carries 3/16 of the tokens at 300 GB/s).
// Wire bytes of full 256 B NVLink packets: writes 256 + 3 x 16 framing, read responses
// 256 + 16 (network defaults: 16 B flits, header, address and byte-enable flits).
void TestMultiNode::idealIsNicBound() {
  QFETCH(int, fusion);
  Scenario s = bundled(256);
  s.scheme.fusion = MoeFusion(fusion);
  s.workload.moe.dispatch_dtype = s.workload.moe.combine_dtype = Dtype::Bf16;
  const Results r = runScenario(s);
  const Expected e = bruteForce(s, 4);
  const double nic = 25e9, write = 304.0 / 256, read = 272.0 / 256;
  double d = 0, c = 0, both = 0;
  for (size_t g = 0; g < 16; ++g) {
    const double dIn = double(e.nic[0][g]) * write, dOut = double(e.nicOut[0][g]) * write;
    const double cIn = double(e.nic[1][g]) * read, cOut = double(e.nicOut[1][g]) * read;
    d = std::max({d, dIn / nic, dOut / nic});
    c = std::max({c, cIn / nic, cOut / nic});
    both = std::max({both, (dIn + cIn) / nic, (dOut + cOut) / nic});
  }
  const double want = (MoeFusion(fusion) == MoeFusion::CommOnly ? both : d + c) * 1e12;
  QVERIFY2(std::abs(double(r.moe->ideal_comm) - want) <= 2,
           qPrintable(QString("%1 vs %2 ps").arg(double(r.moe->ideal_comm)).arg(want)));
  QVERIFY(r.makespan >= r.moe->ideal_comm);
}

QTEST_GUILESS_MAIN(TestMultiNode)
#include "test_multinode.moc"
