// Follow one (results/packet_follow.h, sim/follow_run.h): the recorded hops of the chosen
// packets against routes and fan-outs worked out here by hand. A mesh's XY route is walked
// from the dies' coordinates; an NVLS switch's fan-out is the group (every GPU of the
// DGX-H100, N = 8): one multimem.st in, N copies out (N - 1 replicas besides the original),
// N reads and N contributions for one ld_reduce, one reduced result of N operands.
#include <QtTest>
#include <algorithm>
#include <map>
#include <set>

#include "network/packet.h"
#include "scenario/scenario_io.h"
#include "sim/follow_run.h"
#include "topology/topology.h"

using namespace fl;

namespace {

// 8 KiB from every die to every other: two 4 KiB pieces per message.
Scenario meshAllToAll(int rows, int cols) {
  const QString yaml = QStringLiteral(R"(fabriclab: 1
name: follow mesh
topology: {kind: mesh, rows: %1, cols: %2, link: {bandwidth: 400 GB/s, latency: 5 ns}, die_injection_bandwidth: 1600 GB/s}
network: {packet_payload: 4 KiB, vc_depth_flits: 1024}
workload: {kind: collective, collective: {op: all_to_all, algorithm: direct, size: %3 KiB}}
run: {bin: 100 ns}
)")
                           .arg(rows)
                           .arg(cols)
                           .arg(rows * cols * 8);
  return parseScenario(yaml.toStdString(), "follow.yaml");
}

Scenario nvlsAllReduce(int partitions) {
  Scenario s = parseScenario(R"(fabriclab: 1
name: follow nvls
topology: {preset: dgx-h100}
network: {packet_payload: 4 KiB, vc_depth_flits: 1024, switch: {reduction_buffer: 1 MiB}}
workload: {kind: collective, collective: {op: all_reduce, algorithm: nvls, size: 1 MiB}}
run: {bin: 1 us}
)",
                             "nvls.yaml");
  s.run.partitions = partitions;
  return s;
}

struct Followed {
  std::shared_ptr<topo::Topology> topology;
  Results results;
  PacketFollow follow;
};

Followed follow(const Scenario& s, int gpu, int item, int piece, std::int64_t maxHops = 100000) {
  Followed f;
  f.topology.reset(topo::buildTopology(s.topology).release());
  FollowSpec spec = followSpecFor(s, *f.topology, gpu, item, piece);
  spec.maxHops = maxHops;
  f.results = runFollowing(s, *f.topology, &spec, &f.follow);
  return f;
}

std::vector<FollowedHop> ofOp(const PacketFollow& f, net::Op op) {
  std::vector<FollowedHop> out;
  for (const auto& h : f.hops)
    if (h.op == static_cast<std::uint8_t>(op)) out.push_back(h);
  return out;
}

}  // namespace

class TestPacketFollow : public QObject {
  Q_OBJECT

 private slots:
  void meshRouteByHand_data();
  void meshRouteByHand();
  void nvlsFanOut_data();
  void nvlsFanOut();
  void sameForAnyPartitioning();
  void boundedAndTruncated();
};

// Die (r0, c0) to die (r1, c1): die -> its router, along the row to column c1, along the
// column to row r1, -> the die; each hop starts where the last one arrived.
void TestPacketFollow::meshRouteByHand_data() {
  QTest::addColumn<int>("rows");
  QTest::addColumn<int>("cols");
  QTest::addColumn<int>("from");
  QTest::addColumn<int>("to");
  QTest::addColumn<int>("piece");
  QTest::newRow("3x4 corner to corner") << 3 << 4 << 0 << 11 << 0;
  QTest::newRow("3x4 east then north, piece 1") << 3 << 4 << 9 << 2 << 1;
  QTest::newRow("4x4 same row") << 4 << 4 << 5 << 7 << 0;
  QTest::newRow("4x4 same column west edge") << 4 << 4 << 12 << 0 << 1;
}

void TestPacketFollow::meshRouteByHand() {
  QFETCH(int, rows);
  QFETCH(int, cols);
  QFETCH(int, from);
  QFETCH(int, to);
  QFETCH(int, piece);
  const Followed f = follow(meshAllToAll(rows, cols), from, to, piece);
  const topo::Topology& t = *f.topology;
  std::map<std::tuple<int, int, topo::NodeKind>, int> at;  // (row, col, kind) -> node
  for (const auto& n : t.nodes()) at[{n.row, n.col, n.kind}] = n.id;
  const auto die = [&](int r, int c) { return at.at({r, c, topo::NodeKind::Die}); };
  const auto router = [&](int r, int c) { return at.at({r, c, topo::NodeKind::Router}); };
  int r = from / cols, c = from % cols;
  const int r1 = to / cols, c1 = to % cols;
  QCOMPARE(t.node(t.endpointNode(from)).row, r);
  QCOMPARE(t.node(t.endpointNode(to)).col, c1);
  std::vector<int> path = {die(r, c), router(r, c)};
  while (c != c1) c += c1 > c ? 1 : -1, path.push_back(router(r, c));
  while (r != r1) r += r1 > r ? 1 : -1, path.push_back(router(r, c));
  path.push_back(die(r1, c1));

  const auto writes = ofOp(f.follow, net::Op::Write);
  QCOMPARE(writes.size(), path.size() - 1);
  for (size_t i = 0; i < writes.size(); ++i) {
    QCOMPARE(writes[i].from, path[i]);
    QCOMPARE(writes[i].to, path[i + 1]);
    QCOMPARE(int(writes[i].piece), piece);
    const topo::Link& l = t.link(writes[i].link);
    QCOMPARE(writes[i].direction == 0 ? l.a : l.b, path[i]);
    QVERIFY(writes[i].start < writes[i].end && writes[i].end <= writes[i].arrive);  // local links: no latency
    if (i > 0) QVERIFY(writes[i].start >= writes[i - 1].start);  // cut-through: the head may leave before the tail arrives
  }
  QVERIFY(!f.follow.truncated);
  QCOMPARE(f.follow.spec.piece, std::int64_t(piece));
}

void TestPacketFollow::nvlsFanOut_data() {
  QTest::addColumn<int>("gpu");
  QTest::addColumn<int>("piece");
  QTest::newRow("gpu 0 piece 0") << 0 << 0;
  QTest::newRow("gpu 5 piece 3") << 5 << 3;
}

void TestPacketFollow::nvlsFanOut() {
  QFETCH(int, gpu);
  QFETCH(int, piece);
  const Followed f = follow(nvlsAllReduce(0), gpu, 0, piece);
  const topo::Topology& t = *f.topology;
  const int n = t.endpointCount();
  QCOMPARE(n, 8);
  const int me = t.endpointNode(gpu);
  std::set<int> gpus(t.endpoints().begin(), t.endpoints().end());
  const auto destinations = [](const std::vector<FollowedHop>& hops) {
    std::multiset<int> to;
    for (const auto& h : hops) to.insert(h.to);
    return to;
  };
  const std::multiset<int> everyGpuOnce(gpus.begin(), gpus.end());

  // ld_reduce: one request up to a switch; it reads all N members and gets N
  // contributions back; one result of N operands goes down to the requester.
  const auto request = ofOp(f.follow, net::Op::LdReduce);
  QCOMPARE(request.size(), size_t(1));
  QCOMPARE(request[0].from, me);
  const int sw = request[0].to;
  QVERIFY(!gpus.count(sw));
  const auto reads = ofOp(f.follow, net::Op::LdReduceRead);
  QCOMPARE(destinations(reads), everyGpuOnce);
  for (const auto& h : reads) {
    QCOMPARE(h.from, sw);
    QVERIFY(h.start >= request[0].start);  // cut-through: the head is enough to start
  }
  const auto data = ofOp(f.follow, net::Op::LdReduceData);
  QCOMPARE(int(data.size()), n);
  for (const auto& h : data) QCOMPARE(h.to, sw);
  const auto result = ofOp(f.follow, net::Op::LdReduceResult);
  QCOMPARE(result.size(), size_t(1));
  QCOMPARE(result[0].from, sw);
  QCOMPARE(result[0].to, me);
  QCOMPARE(int(result[0].contributions), n);
  for (const auto& h : data) QVERIFY(result[0].start > h.start);  // merged once every operand has come

  // multimem.st of the reduced piece: one packet in, one copy per member out (a replica
  // leaves the switch as a plain store to its member).
  const auto stores = ofOp(f.follow, net::Op::McStore);
  QCOMPARE(stores.size(), size_t(1));
  QCOMPARE(stores[0].from, me);
  const int mcSwitch = stores[0].to;
  QVERIFY(!gpus.count(mcSwitch));
  const auto copies = ofOp(f.follow, net::Op::Write);
  for (const auto& h : copies) {
    QCOMPARE(h.from, mcSwitch);
    QVERIFY(h.start >= stores[0].start);
  }
  QCOMPARE(destinations(copies), everyGpuOnce);
  QCOMPARE(int(copies.size()) - 1, n - 1);  // replicas made in the switch besides the original
  QCOMPARE(int(f.follow.hops.size()), 2 + 2 * n + 1 + n);  // nothing else: no acknowledgements
}

// The recording is part of the deterministic run: the same for 1 or 16 partitions on 1
// or 2 threads, and recording changes no result.
void TestPacketFollow::sameForAnyPartitioning() {
  Scenario one = nvlsAllReduce(1), many = nvlsAllReduce(16);
  many.run.threads = 2;
  const Followed a = follow(one, 3, 0, 2), b = follow(many, 3, 0, 2);
  QVERIFY(!a.follow.hops.empty());
  QVERIFY(a.follow.hops == b.follow.hops);
  const Results plain = runScenario(one);
  QCOMPARE(a.results.makespan, plain.makespan);
  QCOMPARE(a.results.events, plain.events);
  QCOMPARE(a.results.links.size(), plain.links.size());
  for (size_t i = 0; i < plain.links.size(); ++i) QCOMPARE(a.results.links[i].bin_bytes, plain.links[i].bin_bytes);
}

// Every piece of a GPU's chunk, at most 2 hops a node: truncated, and no node above 2.
void TestPacketFollow::boundedAndTruncated() {
  const Followed all = follow(nvlsAllReduce(0), 1, 0, -1);
  const Followed capped = follow(nvlsAllReduce(0), 1, 0, -1, 2);
  QVERIFY(!all.follow.truncated);
  QVERIFY(capped.follow.truncated);
  std::map<int, int> perNode;
  for (const auto& h : capped.follow.hops) ++perNode[h.from];
  for (const auto& [node, hops] : perNode) QVERIFY(hops <= 2);
  QVERIFY(capped.follow.hops.size() < all.follow.hops.size());
  // The capped hops are each node's first two of the full recording.
  std::map<int, std::vector<FollowedHop>> first;
  for (const auto& h : all.follow.hops)
    if (first[h.from].size() < 2) first[h.from].push_back(h);
  size_t expected = 0;
  for (const auto& [node, hops] : first) expected += hops.size();
  QCOMPARE(capped.follow.hops.size(), expected);
}

QTEST_GUILESS_MAIN(TestPacketFollow)
#include "test_packet_follow.moc"
