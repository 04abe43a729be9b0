// Topology builders and routing functions. Expected values come from closed forms or
// from independent brute force over the link list (BFS, coordinate arithmetic, parent
// chains), never from the routing code under test.
#include <QElapsedTimer>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "scenario/input_error.h"
#include "scenario/scenario.h"
#include "topology/nvswitch.h"
#include "topology/topology.h"
#include "../common/topology_specs.h"

using namespace fl;
using namespace fl::topo;

Q_DECLARE_METATYPE(fl::TopologySpec)

namespace {

TopologySpec nvswitch(int gpus, int switches, int links, int ports = 64) {
  TopologySpec s;
  s.kind = TopologyKind::NvSwitch;
  s.gpus = gpus;
  s.switches = switches;
  s.links_per_gpu = links;
  s.switch_ports = ports;
  return s;
}

TopologySpec mesh(int rows, int cols, int waferRows = 1, int waferCols = 1) {
  return fl::test::meshSpec(rows, cols, waferRows, waferCols);
}

// Levels named dc, node, gpu, ...: counts outermost first; level i has bandwidth
// (i + 1) GB/s and latency (levels - i) ns, so each level is distinguishable.
TopologySpec hierarchy(std::vector<int> counts) {
  TopologySpec s;
  s.kind = TopologyKind::Hierarchy;
  const char* names[] = {"dc", "node", "gpu", "x", "y", "z"};
  for (size_t i = 0; i < counts.size(); ++i)
    s.levels.push_back(
        LevelSpec{names[i], counts[i], 1e9 * double(i + 1), Time(1000) * Time(counts.size() - i)});
  return s;
}

// Undirected hop distances from `from` over the link list (independent of routing).
std::vector<int> bfs(const Topology& t, NodeId from) {
  std::vector<std::vector<NodeId>> adj(t.nodes().size());
  for (const Link& l : t.links()) {
    adj[size_t(l.a)].push_back(l.b);
    adj[size_t(l.b)].push_back(l.a);
  }
  std::vector<int> dist(t.nodes().size(), -1);
  std::queue<NodeId> q;
  dist[size_t(from)] = 0;
  q.push(from);
  while (!q.empty()) {
    NodeId v = q.front();
    q.pop();
    for (NodeId w : adj[size_t(v)])
      if (dist[size_t(w)] < 0) {
        dist[size_t(w)] = dist[size_t(v)] + 1;
        q.push(w);
      }
  }
  return dist;
}

// Follows candidates()[0] from src to dst; returns the directed channels used as
// (link, direction) pairs. Fails the test (returns empty + sets ok=false) on a loop.
struct Hop {
  LinkId link;
  int direction;
  NodeId from, to;
};
std::vector<Hop> walk(const Topology& t, NodeId src, NodeId dst, bool& ok) {
  std::vector<Hop> path;
  std::vector<int> cand;
  NodeId at = src;
  ok = true;
  while (at != dst) {
    t.candidates(at, dst, cand);
    if (cand.empty() || path.size() > t.nodes().size()) {
      ok = false;
      return path;
    }
    const Port& p = t.ports(at)[size_t(cand[0])];
    path.push_back({p.link, p.direction, at, p.peer});
    at = p.peer;
  }
  return path;
}

std::vector<TopologySpec> smallTopologies() {
  return {nvswitch(8, 4, 18),          nvswitch(32, 9, 18),   nvswitch(72, 18, 18, 72),
          nvswitch(5, 3, 7, 64),       mesh(8, 8),            mesh(4, 4, 2, 2),
          mesh(2, 5, 3, 2),            mesh(1, 7),            hierarchy({4, 2, 4}),
          hierarchy({16}),             hierarchy({2, 3, 2, 2})};
}

QString q(const std::string& s) { return QString::fromStdString(s); }

QString label(const TopologySpec& s) {
  switch (s.kind) {
    case TopologyKind::NvSwitch:
      return QString("nvswitch %1/%2/%3").arg(s.gpus).arg(s.switches).arg(s.links_per_gpu);
    case TopologyKind::Mesh:
      return QString("mesh %1x%2 wafers of %3x%4")
          .arg(s.wafer_rows).arg(s.wafer_cols).arg(s.rows).arg(s.cols);
    case TopologyKind::Hierarchy: {
      QString l = "hierarchy";
      for (const auto& lv : s.levels) l += QString(" %1").arg(lv.count);
      return l;
    }
  }
  return "?";
}

}  // namespace

class TestTopology : public QObject {
  Q_OBJECT

 private slots:
  void counts_data();
  void counts();
  void portsConsistent_data() { routes_data(); }
  void portsConsistent();
  void nvswitchSplit_data();
  void nvswitchSplit();
  void nvswitchCandidates();
  void meshAttributes();
  void routes_data();
  void routes();
  void meshXy_data();
  void meshXy();
  void meshMeanHops_data() { meshXy_data(); }
  void meshMeanHops();
  void meshLinkLoad_data() { meshXy_data(); }
  void meshLinkLoad();
  void hierarchyAttributes();
  void hierarchyLarge_data();
  void hierarchyLarge();
  void invalid_data();
  void invalid();
};

void TestTopology::counts_data() {
  QTest::addColumn<TopologySpec>("spec");
  QTest::addColumn<int>("nodes");
  QTest::addColumn<int>("endpoints");
  // Links by kind: access, mesh, border, local, trunk.
  QTest::addColumn<QList<int>>("links");
  QTest::addColumn<QString>("kind");

  QTest::newRow("dgx-h100 8/4/18") << nvswitch(8, 4, 18) << 8 + 4 << 8
                                   << QList<int>{8 * 18, 0, 0, 0, 0} << "nvswitch";
  QTest::newRow("nvl32 32/9/18") << nvswitch(32, 9, 18) << 32 + 9 << 32
                                 << QList<int>{32 * 18, 0, 0, 0, 0} << "nvswitch";
  QTest::newRow("nvl72 72/18/18") << nvswitch(72, 18, 18, 72) << 72 + 18 << 72
                                  << QList<int>{72 * 18, 0, 0, 0, 0} << "nvswitch";
  // Mesh: R(C-1) horizontal + C(R-1) vertical router links, of which R(WC-1) + C(WR-1)
  // cross a wafer border; one Local link per die.
  auto meshRow = [](const char* name, int rows, int cols, int wr, int wc) {
    const int R = rows * wr, C = cols * wc;
    const int all = R * (C - 1) + C * (R - 1), border = R * (wc - 1) + C * (wr - 1);
    QTest::newRow(name) << mesh(rows, cols, wr, wc) << 2 * R * C << R * C
                        << QList<int>{0, all - border, border, R * C, 0} << "mesh";
  };
  meshRow("mesh 8x8", 8, 8, 1, 1);
  meshRow("mesh 2x2 wafers of 4x4", 4, 4, 2, 2);
  meshRow("mesh 3x2 wafers of 2x5", 2, 5, 3, 2);
  meshRow("mesh 1x1", 1, 1, 1, 1);
  // Hierarchy a x b x c: 1 + a + ab + abc nodes; trunks a + ab; access abc.
  QTest::newRow("hierarchy 4x2x4") << hierarchy({4, 2, 4}) << 1 + 4 + 8 + 32 << 32
                                   << QList<int>{32, 0, 0, 0, 4 + 8} << "hierarchy";
  QTest::newRow("hierarchy 16") << hierarchy({16}) << 17 << 16 << QList<int>{16, 0, 0, 0, 0}
                                << "hierarchy";
  QTest::newRow("hierarchy 1000x2x8") << hierarchy({1000, 2, 8}) << 1 + 1000 + 2000 + 16000
                                      << 16000 << QList<int>{16000, 0, 0, 0, 3000} << "hierarchy";
}

void TestTopology::counts() {
  QFETCH(TopologySpec, spec);
  QFETCH(int, nodes);
  QFETCH(int, endpoints);
  QFETCH(QList<int>, links);
  QFETCH(QString, kind);
  auto t = buildTopology(spec);
  QCOMPARE(int(t->nodes().size()), nodes);
  QCOMPARE(t->endpointCount(), endpoints);
  QList<int> byKind(5, 0);
  for (const Link& l : t->links()) ++byKind[int(l.kind)];
  QCOMPARE(byKind, links);
  QCOMPARE(QString::fromStdString(t->kind), kind);
  QVERIFY(!t->description.empty());
  QVERIFY(t->description.find('\n') == std::string::npos);
}

void TestTopology::portsConsistent() {
  QFETCH(TopologySpec, spec);
  auto t = buildTopology(spec);
  size_t portCount = 0;
  for (const Node& n : t->nodes()) portCount += t->ports(n.id).size();
  QCOMPARE(portCount, 2 * t->links().size());
  for (const Link& l : t->links()) {
    const Port& pa = t->ports(l.a)[size_t(l.portA)];
    const Port& pb = t->ports(l.b)[size_t(l.portB)];
    QCOMPARE(pa.link, l.id);
    QCOMPARE(pb.link, l.id);
    QCOMPARE(pa.peer, l.b);
    QCOMPARE(pb.peer, l.a);
    QCOMPARE(pa.peerPort, l.portB);
    QCOMPARE(pb.peerPort, l.portA);
    QCOMPARE(pa.direction, 0);
    QCOMPARE(pb.direction, 1);
    QVERIFY(l.bandwidth > 0);
  }
  // Endpoints: exactly the Gpu/Die nodes, numbered consecutively in creation order.
  int next = 0;
  for (const Node& n : t->nodes()) {
    QCOMPARE(isEndpoint(n.kind), n.endpoint >= 0);
    if (n.endpoint >= 0) {
      QCOMPARE(n.endpoint, next++);
      QCOMPARE(t->endpointNode(n.endpoint), n.id);
    }
  }
  QCOMPARE(next, t->endpointCount());
  // Names are unique.
  std::vector<std::string> names;
  for (const Node& n : t->nodes()) names.push_back(n.name);
  std::sort(names.begin(), names.end());
  QVERIFY(std::adjacent_find(names.begin(), names.end()) == names.end());
}

void TestTopology::nvswitchSplit_data() {
  QTest::addColumn<TopologySpec>("spec");
  QTest::addColumn<QList<int>>("split");  // links from each GPU to chip 0, 1, ...
  QTest::newRow("dgx-h100") << nvswitch(8, 4, 18) << QList<int>{5, 4, 4, 5};
  QTest::newRow("nvl32") << nvswitch(32, 9, 18) << QList<int>(9, 2);
  QTest::newRow("nvl64") << nvswitch(64, 18, 18) << QList<int>(18, 1);
  QTest::newRow("nvl72") << nvswitch(72, 18, 18, 72) << QList<int>(18, 1);
  QTest::newRow("5 over 3") << nvswitch(4, 3, 5) << QList<int>{2, 1, 2};
  QTest::newRow("7 over 4") << nvswitch(4, 4, 7) << QList<int>{2, 2, 1, 2};
  QTest::newRow("8 over 4") << nvswitch(4, 4, 8) << QList<int>{2, 2, 2, 2};
}

void TestTopology::nvswitchSplit() {
  QFETCH(TopologySpec, spec);
  QFETCH(QList<int>, split);
  auto t = buildTopology(spec);
  // Count links per (gpu, chip) by peer name.
  for (int g = 0; g < spec.gpus; ++g) {
    const NodeId gpu = t->endpointNode(g);
    QCOMPARE(q(t->node(gpu).name), q("gpu" + std::to_string(g)));
    std::map<std::string, int> perChip;
    for (const Port& p : t->ports(gpu)) {
      QCOMPARE(t->node(p.peer).kind, NodeKind::Switch);
      ++perChip[t->node(p.peer).name];
    }
    for (int c = 0; c < spec.switches; ++c)
      QCOMPARE(perChip["sw" + std::to_string(c)], split[c]);
  }
  for (const Node& n : t->nodes())
    if (n.kind == NodeKind::Switch) QVERIFY(int(t->ports(n.id).size()) <= spec.switch_ports);
  for (const Link& l : t->links()) {
    QCOMPARE(l.bandwidth, spec.link_bandwidth);
    QCOMPARE(l.latency, spec.link_latency);
    QCOMPARE(l.efficiency, spec.link_efficiency);
  }
  QCOMPARE(nvswitchLinkSplit(spec.links_per_gpu, spec.switches),
           std::vector<int>(split.begin(), split.end()));
}

void TestTopology::nvswitchCandidates() {
  auto t = buildTopology(nvswitch(8, 4, 18));
  const int split[] = {5, 4, 4, 5};
  std::vector<int> cand;
  auto chip = [&](int c) { return NodeId(8 + c); };
  for (int g = 0; g < 8; ++g) {
    const NodeId gpu = t->endpointNode(g);
    t->candidates(gpu, t->endpointNode((g + 1) % 8), cand);
    QCOMPARE(int(cand.size()), 18);  // any of its links: every chip reaches every GPU
    for (int c = 0; c < 4; ++c) {
      QCOMPARE(q(t->node(chip(c)).name), q("sw" + std::to_string(c)));
      t->candidates(gpu, chip(c), cand);
      QCOMPARE(int(cand.size()), split[c]);
      for (int p : cand) QCOMPARE(t->ports(gpu)[size_t(p)].peer, chip(c));
      t->candidates(chip(c), gpu, cand);
      QCOMPARE(int(cand.size()), split[c]);  // parallel links down
      for (int p : cand) QCOMPARE(t->ports(chip(c))[size_t(p)].peer, gpu);
    }
    t->candidates(gpu, gpu, cand);
    QVERIFY(cand.empty());
  }
}

void TestTopology::meshAttributes() {
  TopologySpec s = mesh(4, 4, 2, 2);
  s.border_bandwidth = 9e12;
  s.border_latency = 7 * kNanosecond;
  s.link_efficiency = 0.9;
  auto t = buildTopology(s);
  QCOMPARE(t->meshRows, 8);
  QCOMPARE(t->meshCols, 8);
  QCOMPARE(t->waferRows, 2);
  QCOMPARE(t->waferCols, 2);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) {
      const Node& die = t->node(t->endpointNode(r * 8 + c));  // row-major endpoints
      QCOMPARE(die.kind, NodeKind::Die);
      QCOMPARE(q(die.name), q("die(" + std::to_string(r) + "," + std::to_string(c) + ")"));
      QCOMPARE(die.row, r);
      QCOMPARE(die.col, c);
      QCOMPARE(die.wafer, (r / 4) * 2 + c / 4);
      QCOMPARE(int(t->ports(die.id).size()), 1);
      const Node& router = t->node(t->ports(die.id)[0].peer);
      QCOMPARE(router.kind, NodeKind::Router);
      QCOMPARE(q(router.name), q("router(" + std::to_string(r) + "," + std::to_string(c) + ")"));
      QCOMPARE(router.row, r);
      QCOMPARE(router.wafer, die.wafer);
      // Router degree: local + in-grid neighbours.
      const int degree = 1 + (r > 0) + (r < 7) + (c > 0) + (c < 7);
      QCOMPARE(int(t->ports(router.id).size()), degree);
    }
  for (const Link& l : t->links()) {
    const Node& a = t->node(l.a);
    const Node& b = t->node(l.b);
    switch (l.kind) {
      case LinkKind::Local:
        QCOMPARE(l.bandwidth, s.link_bandwidth);  // default: one injection channel
        QCOMPARE(l.latency, Time(0));
        QCOMPARE(l.efficiency, 1.0);
        break;
      case LinkKind::Mesh:
        QCOMPARE(a.wafer, b.wafer);
        QCOMPARE(l.bandwidth, s.link_bandwidth);
        QCOMPARE(l.latency, s.link_latency);
        QCOMPARE(l.efficiency, 0.9);
        break;
      case LinkKind::Border:
        QVERIFY(a.wafer != b.wafer);
        QCOMPARE(l.bandwidth, 9e12);
        QCOMPARE(l.latency, 7 * kNanosecond);
        break;
      default: QFAIL("unexpected link kind in a mesh");
    }
    if (l.kind != LinkKind::Local) QCOMPARE(std::abs(a.row - b.row) + std::abs(a.col - b.col), 1);
  }
  // Defaults: border = link values; an explicit injection bandwidth is kept.
  TopologySpec d = mesh(2, 2, 1, 2);
  d.die_injection_bandwidth = 3e12;
  auto u = buildTopology(d);
  for (const Link& l : u->links()) {
    if (l.kind == LinkKind::Border) {
      QCOMPARE(l.bandwidth, d.link_bandwidth);
      QCOMPARE(l.latency, d.link_latency);
    }
    if (l.kind == LinkKind::Local) QCOMPARE(l.bandwidth, 3e12);
  }
}

void TestTopology::routes_data() {
  QTest::addColumn<TopologySpec>("spec");
  for (const TopologySpec& s : smallTopologies())
    QTest::newRow(qPrintable(label(s))) << s;
}

// Every ordered (src, dst) pair of nodes (endpoints and switches/routers): following
// candidates()[0] arrives in exactly the BFS distance, and every candidate offered at
// every hop moves one BFS step closer (all candidates are minimal).
void TestTopology::routes() {
  QFETCH(TopologySpec, spec);
  auto t = buildTopology(spec);
  const int n = int(t->nodes().size());
  std::vector<int> cand;
  for (NodeId dst = 0; dst < n; ++dst) {
    const std::vector<int> dist = bfs(*t, dst);
    for (NodeId src = 0; src < n; ++src) {
      NodeId at = src;
      int hops = 0;
      while (at != dst) {
        t->candidates(at, dst, cand);
        if (cand.empty()) QFAIL(qPrintable(QString("no candidate at %1 towards %2")
                                               .arg(t->node(at).name.c_str())
                                               .arg(t->node(dst).name.c_str())));
        for (int p : cand) {
          QVERIFY(p >= 0 && p < int(t->ports(at).size()));
          QCOMPARE(dist[size_t(t->ports(at)[size_t(p)].peer)], dist[size_t(at)] - 1);
        }
        at = t->ports(at)[size_t(cand[0])].peer;
        ++hops;
      }
      QCOMPARE(hops, dist[size_t(src)]);
      t->candidates(dst, dst, cand);
      QVERIFY(cand.empty());
    }
  }
}

void TestTopology::meshXy_data() {
  QTest::addColumn<TopologySpec>("spec");
  for (const TopologySpec& s : {mesh(8, 8), mesh(4, 4, 2, 2), mesh(2, 5, 3, 2), mesh(1, 7),
                                mesh(3, 1, 2, 1), mesh(5, 3)})
    QTest::newRow(qPrintable(label(s))) << s;
}

// Die-to-die paths are exactly XY: local hop, |dc| column moves, |dr| row moves, local hop.
void TestTopology::meshXy() {
  QFETCH(TopologySpec, spec);
  auto t = buildTopology(spec);
  const int E = t->endpointCount();
  for (int s = 0; s < E; ++s)
    for (int d = 0; d < E; ++d) {
      if (s == d) continue;
      const Node& src = t->node(t->endpointNode(s));
      const Node& dst = t->node(t->endpointNode(d));
      bool ok = false;
      auto path = walk(*t, src.id, dst.id, ok);
      QVERIFY(ok);
      QCOMPARE(int(path.size()), 2 + std::abs(src.row - dst.row) + std::abs(src.col - dst.col));
      QCOMPARE(t->link(path.front().link).kind, LinkKind::Local);
      QCOMPARE(t->link(path.back().link).kind, LinkKind::Local);
      bool rowMoveSeen = false;
      for (size_t i = 1; i + 1 < path.size(); ++i) {
        const Node& a = t->node(path[i].from);
        const Node& b = t->node(path[i].to);
        if (a.col != b.col) {
          QVERIFY(!rowMoveSeen);  // all column moves before row moves
          QCOMPARE(a.row, src.row);
          QCOMPARE(b.col - a.col, dst.col > src.col ? 1 : -1);
        } else {
          rowMoveSeen = true;
          QCOMPARE(a.col, dst.col);
          QCOMPARE(b.row - a.row, dst.row > src.row ? 1 : -1);
        }
      }
    }
}

// Mean router-to-router hops of uniform all-to-all over ordered distinct die pairs.
// Over all ordered pairs including self, E|dr| = (R^2-1)/(3R) and E|dc| = (C^2-1)/(3C)
// (sum over i,j in [0,n) of |i-j| is n(n^2-1)/3); self pairs contribute 0 hops, so the
// mean over distinct pairs is that times RC/(RC-1).
void TestTopology::meshMeanHops() {
  QFETCH(TopologySpec, spec);
  auto t = buildTopology(spec);
  const double R = t->meshRows, C = t->meshCols, N = R * C;
  if (N < 2) QSKIP("single die");
  double total = 0;
  for (int s = 0; s < t->endpointCount(); ++s)
    for (int d = 0; d < t->endpointCount(); ++d) {
      if (s == d) continue;
      bool ok = false;
      auto path = walk(*t, t->endpointNode(s), t->endpointNode(d), ok);
      QVERIFY(ok);
      for (const Hop& h : path) total += t->link(h.link).kind != LinkKind::Local;
    }
  const double mean = total / (N * (N - 1));
  const double closed = ((R * R - 1) / (3 * R) + (C * C - 1) / (3 * C)) * N / (N - 1);
  QVERIFY2(std::abs(mean - closed) < 1e-9, qPrintable(QString("%1 vs %2").arg(mean).arg(closed)));
}

// Per directed link load of uniform all-to-all under XY, against the closed form: the
// east (or west) link between columns c and c+1 of row r carries (c+1)(C-c-1)R paths,
// the south (or north) link between rows r and r+1 of column c carries (r+1)(R-r-1)C;
// each die's Local link carries RC-1 paths each way.
void TestTopology::meshLinkLoad() {
  QFETCH(TopologySpec, spec);
  auto t = buildTopology(spec);
  const long R = t->meshRows, C = t->meshCols;
  std::vector<long> load(t->links().size() * 2, 0);
  for (int s = 0; s < t->endpointCount(); ++s)
    for (int d = 0; d < t->endpointCount(); ++d) {
      if (s == d) continue;
      bool ok = false;
      for (const Hop& h : walk(*t, t->endpointNode(s), t->endpointNode(d), ok))
        ++load[size_t(h.link) * 2 + size_t(h.direction)];
      QVERIFY(ok);
    }
  for (const Link& l : t->links())
    for (int dir = 0; dir < 2; ++dir) {
      const Node& from = t->node(dir == 0 ? l.a : l.b);
      const Node& to = t->node(dir == 0 ? l.b : l.a);
      long expected;
      if (l.kind == LinkKind::Local) {
        expected = R * C - 1;
      } else if (from.row == to.row) {
        const long c = std::min(from.col, to.col);
        expected = (c + 1) * (C - c - 1) * R;
      } else {
        const long r = std::min(from.row, to.row);
        expected = (r + 1) * (R - r - 1) * C;
      }
      QCOMPARE(load[size_t(l.id) * 2 + size_t(dir)], expected);
    }
}

void TestTopology::hierarchyAttributes() {
  auto t = buildTopology(hierarchy({3, 2, 4}));
  QCOMPARE(t->levelNames, (std::vector<std::string>{"dc", "node", "gpu"}));
  QCOMPARE(q(t->node(0).name), QString("root"));
  QCOMPARE(t->node(0).level, 0);
  QCOMPARE(t->node(0).parent, NodeId(-1));
  // Endpoint e of a x b x c is gpu (e % c) of node (e / c % b) of dc (e / (b c)).
  for (int e = 0; e < t->endpointCount(); ++e) {
    const Node& g = t->node(t->endpointNode(e));
    const std::string expected = "dc" + std::to_string(e / 8) + "/node" +
                                 std::to_string(e / 4 % 2) + "/gpu" + std::to_string(e % 4);
    QCOMPARE(q(g.name), q(expected));
    QCOMPARE(g.kind, NodeKind::Gpu);
    QCOMPARE(g.level, 3);
    const Node& leaf = t->node(g.parent);
    QCOMPARE(q(leaf.name), q(expected.substr(0, expected.rfind('/'))));
    QCOMPARE(leaf.kind, NodeKind::Switch);
    QCOMPARE(leaf.level, 2);
    QCOMPARE(t->node(leaf.parent).level, 1);
    QCOMPARE(t->node(leaf.parent).parent, NodeId(0));
  }
  for (const Link& l : t->links()) {
    // Each link joins a child (a) at depth level+1 to its parent (b).
    QCOMPARE(t->node(l.a).parent, l.b);
    QCOMPARE(t->node(l.a).level, l.level + 1);
    QCOMPARE(l.kind, l.level == 2 ? LinkKind::Access : LinkKind::Trunk);
    QCOMPARE(l.bandwidth, 1e9 * (l.level + 1));
    QCOMPARE(l.latency, Time(1000) * (3 - l.level));
  }
  auto single = buildTopology(hierarchy({5}));
  QCOMPARE(q(single->node(single->endpointNode(3)).name), QString("dc3"));
  QCOMPARE(single->node(single->endpointNode(3)).parent, NodeId(0));
}

void TestTopology::hierarchyLarge_data() {
  QTest::addColumn<TopologySpec>("spec");
  QTest::newRow("1000x2x4") << hierarchy({1000, 2, 4});
  QTest::newRow("1000x2x8") << hierarchy({1000, 2, 8});
  QTest::newRow("10x10x10x8") << hierarchy({10, 10, 10, 8});
}

// Large trees build fast; random routes (GPU to GPU, GPU to switch, switch to GPU) take
// exactly the lowest-common-ancestor path: up from src to the LCA, then down, with the
// latency of the levels below the LCA on both sides.
void TestTopology::hierarchyLarge() {
  QFETCH(TopologySpec, spec);
  QElapsedTimer timer;
  timer.start();
  auto t = buildTopology(spec);
  const qint64 ms = timer.elapsed();
  QVERIFY2(ms < 1000, qPrintable(QString("build took %1 ms").arg(ms)));
  long gpus = 1;
  for (const auto& l : spec.levels) gpus *= l.count;
  QCOMPARE(long(t->endpointCount()), gpus);

  // Stride of each level in endpoint-index digits, outermost first.
  const int k = int(spec.levels.size());
  std::vector<long> stride(size_t(k), 1);
  for (int i = k - 2; i >= 0; --i) stride[size_t(i)] = stride[size_t(i) + 1] * spec.levels[size_t(i) + 1].count;
  auto commonLevels = [&](int a, int b) {  // leading equal digits of two endpoint indices
    int m = 0;
    while (m < k && a / stride[size_t(m)] == b / stride[size_t(m)]) ++m;
    return m;
  };
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> pick(0, t->endpointCount() - 1);
  std::uniform_int_distribution<int> anyNode(0, int(t->nodes().size()) - 1);
  timer.restart();
  for (int i = 0; i < 20000; ++i) {
    const int a = pick(rng), b = pick(rng);
    bool ok = false;
    auto path = walk(*t, t->endpointNode(a), t->endpointNode(b), ok);
    QVERIFY(ok);
    const int m = commonLevels(a, b);
    QCOMPARE(int(path.size()), a == b ? 0 : 2 * (k - m));
    Time latency = 0, expectedLatency = 0;
    for (const Hop& h : path) latency += t->link(h.link).latency;
    for (int lv = m; lv < k && a != b; ++lv) expectedLatency += 2 * spec.levels[size_t(lv)].latency;
    QCOMPARE(latency, expectedLatency);
  }
  // Mixed destinations (switches too): length = depth(src) + depth(dst) - 2 depth(LCA),
  // LCA found by climbing parent pointers.
  auto lcaDepth = [&](NodeId x, NodeId y) {
    while (t->node(x).level > t->node(y).level) x = t->node(x).parent;
    while (t->node(y).level > t->node(x).level) y = t->node(y).parent;
    while (x != y) x = t->node(x).parent, y = t->node(y).parent;
    return t->node(x).level;
  };
  for (int i = 0; i < 20000; ++i) {
    const NodeId x = anyNode(rng), y = anyNode(rng);
    bool ok = false;
    auto path = walk(*t, x, y, ok);
    QVERIFY(ok);
    QCOMPARE(int(path.size()), t->node(x).level + t->node(y).level - 2 * lcaDepth(x, y));
  }
  qInfo("build %lld ms, 40000 routes %lld ms", ms, timer.elapsed());
}

void TestTopology::invalid_data() {
  QTest::addColumn<TopologySpec>("spec");
  QTest::addColumn<QString>("key");
  QTest::newRow("fewer links than chips") << nvswitch(8, 4, 3) << "topology.links_per_gpu";
  QTest::newRow("chip ports exceeded") << nvswitch(72, 18, 18, 64) << "topology.switch_ports";
  QTest::newRow("dgx ports exceeded") << nvswitch(16, 4, 18, 64) << "topology.switch_ports";
  QTest::newRow("no gpus") << nvswitch(0, 4, 18) << "topology.gpus";
  QTest::newRow("no switches") << nvswitch(8, 0, 18) << "topology.switches";
  TopologySpec eff = nvswitch(8, 4, 18);
  eff.link_efficiency = 1.5;
  QTest::newRow("efficiency > 1") << eff << "topology.link_efficiency";
  TopologySpec bw = mesh(4, 4);
  bw.link_bandwidth = 0;
  QTest::newRow("mesh zero bandwidth") << bw << "topology.link_bandwidth";
  QTest::newRow("mesh no rows") << mesh(0, 4) << "topology.rows";
  QTest::newRow("mesh no wafer cols") << mesh(4, 4, 1, 0) << "topology.wafer_cols";
  TopologySpec border = mesh(4, 4, 2, 2);
  border.border_bandwidth = -1;
  QTest::newRow("negative border bandwidth") << border << "topology.border_bandwidth";
  QTest::newRow("huge mesh") << mesh(1000, 1000, 10, 10) << "topology.rows";
  TopologySpec empty;
  empty.kind = TopologyKind::Hierarchy;
  QTest::newRow("no levels") << empty << "topology.levels";
  QTest::newRow("zero count") << hierarchy({4, 0, 2}) << "topology.levels[1].count";
  TopologySpec hbw = hierarchy({4, 2});
  hbw.levels[0].bandwidth = 0;
  QTest::newRow("zero level bandwidth") << hbw << "topology.levels[0].bandwidth";
  TopologySpec slash = hierarchy({4, 2});
  slash.levels[1].name = "a/b";
  QTest::newRow("slash in name") << slash << "topology.levels[1].name";
  QTest::newRow("huge hierarchy") << hierarchy({1000, 1000, 1000, 1000}) << "topology.levels";
}

void TestTopology::invalid() {
  QFETCH(TopologySpec, spec);
  QFETCH(QString, key);
  try {
    buildTopology(spec);
    QFAIL("no InputError thrown");
  } catch (const InputError& e) {
    QCOMPARE(QString::fromStdString(e.keyPath()), key);
    QVERIFY(e.where().file.empty());
    QVERIFY(!e.expected().empty());
    QVERIFY(!e.found().empty());
  }
}

QTEST_GUILESS_MAIN(TestTopology)
#include "test_topology.moc"
