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
#include "results/results_codec.h"
#include "scenario/follow_selector.h"
#include "scenario/input_error.h"
#include "scenario/scenario_io.h"
#include "scenario/schema.h"
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
  void selectorGrammar_data();
  void selectorGrammar();
  void selectorFitsWorkload_data();
  void selectorFitsWorkload();
  void runFollowMeshByHand();
  void runFollowNvlsByHand();
  void runFollowSurvivesCodec();
  void selectorList_data();
  void selectorList();
  void runFollowTwoNvlsChunks();
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

// run.follow's grammar: what each text names (gpu, item word, number, piece), or "".
void TestPacketFollow::selectorGrammar_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<bool>("ok");
  QTest::addColumn<int>("gpu");
  QTest::addColumn<int>("item");  // FollowSelector::Item
  QTest::addColumn<int>("number");
  QTest::addColumn<int>("piece");
  using I = FollowSelector::Item;
  QTest::newRow("none") << "none" << true << -1 << int(I::None) << -1 << 0;
  QTest::newRow("token, commas") << "gpu 3, token 17" << true << 3 << int(I::Token) << 17 << 0;
  QTest::newRow("chunk, piece") << "chunk 2 piece 5" << true << -1 << int(I::Chunk) << 2 << 5;
  QTest::newRow("to gpu") << "GPU 1 to gpu 6" << true << 1 << int(I::To) << 6 << 0;
  QTest::newRow("to, bare number") << "gpu 1 to 6" << true << 1 << int(I::To) << 6 << 0;
  QTest::newRow("tag, every piece") << "gpu 2, tag 7, every piece" << true << 2 << int(I::Tag) << 7 << -1;
  QTest::newRow("piece all") << "gpu 2, piece all" << true << 2 << int(I::None) << -1 << -1;
  QTest::newRow("empty") << "" << false << 0 << 0 << 0 << 0;
  QTest::newRow("misspelt") << "gpu 0, pice 3" << false << 0 << 0 << 0 << 0;
  QTest::newRow("no number") << "chunk" << false << 0 << 0 << 0 << 0;
  QTest::newRow("negative") << "gpu -1" << false << 0 << 0 << 0 << 0;
  QTest::newRow("two items") << "gpu 0 token 1 tag 2" << false << 0 << 0 << 0 << 0;
  QTest::newRow("two gpus") << "gpu 0 gpu 1" << false << 0 << 0 << 0 << 0;
  QTest::newRow("piece only") << "piece 3" << false << 0 << 0 << 0 << 0;
}

void TestPacketFollow::selectorGrammar() {
  QFETCH(QString, text);
  QFETCH(bool, ok);
  FollowProblem problem;
  const auto sel = parseFollowSelector(text.toStdString(), &problem);
  QCOMPARE(sel.has_value(), ok);
  if (!ok) {
    QVERIFY(!problem.expected.empty() && !problem.found.empty());
    return;
  }
  QFETCH(int, gpu);
  QFETCH(int, item);
  QFETCH(int, number);
  QFETCH(int, piece);
  QCOMPARE(int(sel->gpu), gpu);
  QCOMPARE(int(sel->item), item);
  QCOMPARE(int(sel->number), number);
  QCOMPARE(int(sel->piece), piece);
}

// Each workload's own words: what fits and what does not (8 GPUs).
void TestPacketFollow::selectorFitsWorkload_data() {
  QTest::addColumn<QString>("workload");
  QTest::addColumn<QString>("text");
  QTest::addColumn<bool>("fits");
  const QString ring = "{kind: collective, collective: {op: all_reduce, algorithm: ring}}";
  const QString nvls = "{kind: collective, collective: {op: all_reduce, algorithm: nvls}}";
  const QString direct = "{kind: collective, collective: {op: all_to_all, algorithm: direct}}";
  QTest::newRow("ring chunk") << ring << "chunk 7" << true;
  QTest::newRow("ring chunk 8 of 8") << ring << "chunk 8" << false;
  QTest::newRow("ring gpu") << ring << "gpu 0" << false;
  QTest::newRow("nvls gpu") << nvls << "gpu 7, piece 3" << true;
  QTest::newRow("nvls gpu 8") << nvls << "gpu 8" << false;
  QTest::newRow("nvls token") << nvls << "gpu 0, token 1" << false;
  QTest::newRow("direct") << direct << "gpu 0 to gpu 7" << true;
  QTest::newRow("direct to itself") << direct << "gpu 3 to gpu 3" << false;
  QTest::newRow("direct chunk") << direct << "chunk 1" << false;
  QTest::newRow("none anywhere") << direct << "none" << true;
}

void TestPacketFollow::selectorFitsWorkload() {
  QFETCH(QString, workload);
  QFETCH(QString, text);
  QFETCH(bool, fits);
  const Scenario s = parseScenario(("fabriclab: 1\ntopology: {preset: dgx-h100}\nworkload: " + workload + "\n").toStdString(), "w.yaml");
  const auto sel = parseFollowSelector(text.toStdString());
  QVERIFY(sel);
  QCOMPARE(!followMisfit(s, *sel).has_value(), fits);
  // The same through the file: a misfit is an error at run.follow.
  const std::string yaml = "fabriclab: 1\ntopology: {preset: dgx-h100}\nworkload: " + workload.toStdString() +
                           "\nrun: {follow: '" + text.toStdString() + "'}\n";
  try {
    const Scenario read = parseScenario(yaml, "f.yaml");
    QVERIFY(fits);
    QCOMPARE(read.run.follow, text.toStdString());
  } catch (const InputError& e) {
    QVERIFY2(!fits, e.what());
    QCOMPARE(e.keyPath(), std::string("run.follow"));
    QCOMPARE(e.where().line, 4);
  }
}

// run.follow in the scenario: runScenario records the hops into Results::follow. Die 0 to
// die 11 of a 3 x 4 mesh, piece 1: die -> router (0,0), east along row 0 to column 3,
// south to row 2, -> die: 1 + 3 + 2 + 1 = 7 hops, in that order of nodes.
void TestPacketFollow::runFollowMeshByHand() {
  Scenario s = meshAllToAll(3, 4);
  setValue(s, "run.follow", "gpu 0 to gpu 11, piece 1");
  const Results r = runScenario(s);
  QVERIFY(r.follow);
  const auto t = topo::buildTopology(s.topology);
  std::map<std::tuple<int, int, topo::NodeKind>, int> at;
  for (const auto& n : t->nodes()) at[{n.row, n.col, n.kind}] = n.id;
  using K = topo::NodeKind;
  const std::vector<int> path = {at.at({0, 0, K::Die}),    at.at({0, 0, K::Router}), at.at({0, 1, K::Router}),
                                 at.at({0, 2, K::Router}), at.at({0, 3, K::Router}), at.at({1, 3, K::Router}),
                                 at.at({2, 3, K::Router}), at.at({2, 3, K::Die})};
  QCOMPARE(r.follow->hops.size(), size_t(7));
  for (size_t i = 0; i < 7; ++i) {
    QCOMPARE(r.follow->hops[i].from, path[i]);
    QCOMPARE(r.follow->hops[i].to, path[i + 1]);
    QCOMPARE(int(r.follow->hops[i].piece), 1);
  }
  QCOMPARE(r.follow->what, std::string("GPU 0's data for GPU 11, piece 1"));
  // The names the outputs write: the link table's names of those nodes.
  const std::vector<NamedHop> named = namedHops(r);
  QCOMPARE(named.size(), size_t(7));
  QCOMPARE(named.front().from, t->node(path[0]).name);
  QCOMPARE(named.back().to, t->node(path[7]).name);
  QCOMPARE(named.front().op, std::string("write"));
  // Without run.follow nothing is recorded, and recording changes no result.
  Scenario plain = meshAllToAll(3, 4);
  const Results q = runScenario(plain);
  QVERIFY(!q.follow);
  QCOMPARE(q.makespan, r.makespan);
  QCOMPARE(q.events, r.events);
}

// NVLS all-reduce on the DGX-H100 (N = 8), GPU 5's chunk, piece 3: the ld_reduce up, N
// reads out, N contributions in, one result of N operands down; one multimem.st up and N
// copies out: 1 + N + N + 1 + 1 + N = 3 N + 3 = 27 hops.
void TestPacketFollow::runFollowNvlsByHand() {
  Scenario s = nvlsAllReduce(0);
  setValue(s, "run.follow", "gpu 5, piece 3");
  const Results r = runScenario(s);
  QVERIFY(r.follow);
  QCOMPARE(r.follow->hops.size(), size_t(3 * 8 + 3));
  int results = 0;
  for (const FollowedHop& h : r.follow->hops) {
    QCOMPARE(int(h.piece), 3);
    if (h.op == std::uint8_t(net::Op::LdReduceResult)) {
      ++results;
      QCOMPARE(int(h.contributions), 8);
    }
  }
  QCOMPARE(results, 1);
  QCOMPARE(r.follow->what, std::string("the chunk of GPU 5, piece 3"));
}

// The hops travel with the results between processes (MPI sweeps).
void TestPacketFollow::runFollowSurvivesCodec() {
  Scenario s = nvlsAllReduce(0);
  setValue(s, "run.follow", "gpu 1, piece 0");
  const Results r = runScenario(s);
  const Results back = decodeResults(encodeResults(r));
  QVERIFY(back.follow);
  QVERIFY(back.follow->hops == r.follow->hops);
  QCOMPARE(back.follow->what, r.follow->what);
  QVERIFY(back.follow->spec == r.follow->spec);
}

// run.follow as a list: ';' between selectors (a YAML list is held so), each one valid,
// "none" only alone, at most kMaxFollowSelectors.
void TestPacketFollow::selectorList_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<int>("count");  // -1: refused
  QTest::newRow("one") << "gpu 1, token 2" << 1;
  QTest::newRow("none") << "none" << 1;
  QTest::newRow("two") << "gpu 1, token 2; gpu 3, token 4" << 2;
  QTest::newRow("spaces") << "  chunk 1 ;chunk 2  ;  chunk 3" << 3;
  QTest::newRow("trailing ;") << "gpu 1;" << -1;
  QTest::newRow("none in a list") << "none; gpu 1" << -1;
  QTest::newRow("bad second") << "gpu 1; gpu 2, pice 3" << -1;
  QTest::newRow("eight") << "chunk 0; chunk 1; chunk 2; chunk 3; chunk 4; chunk 5; chunk 6; chunk 7" << 8;
  QTest::newRow("nine") << "chunk 0; chunk 1; chunk 2; chunk 3; chunk 4; chunk 5; chunk 6; chunk 7; chunk 0" << -1;
}

void TestPacketFollow::selectorList() {
  QFETCH(QString, text);
  QFETCH(int, count);
  FollowProblem problem;
  const auto sels = parseFollowSelectors(text.toStdString(), &problem);
  QCOMPARE(sels.has_value(), count > 0);
  if (count < 0) {
    QVERIFY(!problem.expected.empty() && !problem.found.empty());
    return;
  }
  QCOMPARE(int(sels->size()), count);
  QCOMPARE(int(splitFollowList(text.toStdString()).size()), count);
  QCOMPARE(joinFollowList(splitFollowList(text.toStdString())), joinFollowList(splitFollowList(joinFollowList(splitFollowList(text.toStdString())))));
}

// Two NVLS chunks at once (a YAML list): each one's 3 N + 3 hops (runFollowNvlsByHand),
// told apart by selectorOf, and the very hops each records when followed alone.
void TestPacketFollow::runFollowTwoNvlsChunks() {
  Scenario s = parseScenario(R"(fabriclab: 1
name: follow two
topology: {preset: dgx-h100}
network: {packet_payload: 4 KiB, vc_depth_flits: 1024, switch: {reduction_buffer: 1 MiB}}
workload: {kind: collective, collective: {op: all_reduce, algorithm: nvls, size: 1 MiB}}
run:
  bin: 1 us
  follow:
    - gpu 5, piece 3
    - gpu 2, piece 0
)",
                             "two.yaml");
  QCOMPARE(s.run.follow, std::string("gpu 5, piece 3; gpu 2, piece 0"));
  const int n = 8;
  const Results r = runScenario(s);
  QVERIFY(r.follow);
  QCOMPARE(r.follow->hops.size(), size_t(2 * (3 * n + 3)));
  QCOMPARE(r.follow->parts, (std::vector<std::string>{"the chunk of GPU 5, piece 3", "the chunk of GPU 2, piece 0"}));
  QCOMPARE(r.follow->what, std::string("the chunk of GPU 5, piece 3 and the chunk of GPU 2, piece 0"));
  std::vector<FollowedHop> each[2];
  for (const FollowedHop& h : r.follow->hops) {
    const int k = r.follow->selectorOf(h);
    QVERIFY(k == 0 || k == 1);
    QCOMPARE(int(h.piece), k == 0 ? 3 : 0);
    each[k].push_back(h);
  }
  QCOMPARE(each[0].size(), size_t(3 * n + 3));
  QCOMPARE(each[1].size(), size_t(3 * n + 3));
  for (const auto& [text, k] : {std::pair{"gpu 5, piece 3", 0}, std::pair{"gpu 2, piece 0", 1}}) {
    Scenario one = s;
    setValue(one, "run.follow", text);
    const Results alone = runScenario(one);
    QVERIFY(alone.follow && alone.follow->parts.empty());
    QVERIFY(alone.follow->hops == each[k]);
  }
  const Results back = decodeResults(encodeResults(r));
  QCOMPARE(back.follow->parts, r.follow->parts);
  QVERIFY(back.follow->spec == r.follow->spec);
}

QTEST_GUILESS_MAIN(TestPacketFollow)
#include "test_packet_follow.moc"
