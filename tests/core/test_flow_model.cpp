// The flow-level network model's solver (core/netmodel/flow_solver.h): max-min fair
// sharing by progressive filling, recomputed when flows start or end, plus per-hop
// latency. Expected times are worked by hand in the comments (fluid closed forms).
#include <QtTest>

#include <cmath>
#include <map>
#include <numeric>
#include <vector>

#include "netmodel/flow_routes.h"
#include "netmodel/flow_solver.h"
#include "scenario/input_error.h"
#include "scenario/scenario.h"
#include "sim/run.h"
#include "topology/topology.h"

using namespace fl;
using namespace fl::netmodel;

namespace {
constexpr Time us = kMicrosecond, ms = kMillisecond;

std::map<std::int64_t, Time> runAll(FlowSolver& s) {
  std::map<std::int64_t, Time> done;
  s.run([&](std::int64_t id, std::uint64_t, Time at) { done[id] = at; });
  return done;
}

std::int64_t binTotal(const BinSeries& b) { return std::accumulate(b.bytes.begin(), b.bytes.end(), std::int64_t(0)); }
}  // namespace

class TestFlowModel : public QObject {
  Q_OBJECT

 private slots:
  void singleFlow();
  void twoFlowsShareABottleneck();
  void parkingLot();
  void parkingLotEqual_data();
  void parkingLotEqual();
  void dependentFlowsFromCallback();
  void slotReusedAtTheSameInstant();
  void zeroByteFlowTakesTheLatency();
  void treeRoutesFollowTheRouting();
  void agreesWithThePacketModel();
  void bundleIsItsMembers();
  void bundleMembersShareOneRate();
  void sharedRouteRepeats();
  void binBudgetPerLink_data();
  void binBudgetPerLink();
};

void TestFlowModel::singleFlow() {
  // 1 MB over links of 1 and 2 GB/s (latency 1 and 3 us) from t = 5 us: the slower link
  // sets the rate, 1 ms of sending, delivered at 5 us + 1 ms + 4 us.
  FlowSolver s({1e9, 2e9}, {1 * us, 3 * us}, 100 * us);
  const std::int32_t route[] = {0, 1};
  s.addFlow(route, 1'000'000, 5 * us);
  const auto done = runAll(s);
  QCOMPARE(done.at(0), 5 * us + 1 * ms + 4 * us);
  QCOMPARE(s.links()[0].bytes, 1'000'000);
  QCOMPARE(s.links()[1].bytes, 1'000'000);
  QCOMPARE(s.links()[0].busy, 1 * ms);
  QCOMPARE(s.links()[1].busy, 500 * us);
  // Bins of 100 us at 1 GB/s from 5 us to 1005 us: 95 kB, 9 x 100 kB, 5 kB.
  const BinSeries& b = s.links()[1].bins;
  QCOMPARE(b.bins.size(), std::size_t(11));
  QCOMPARE(b.bins.front(), 0);
  QCOMPARE(b.bytes.front(), 95'000);
  for (int i = 1; i < 10; ++i) QCOMPARE(b.at(i), 100'000);
  QCOMPARE(b.at(10), 5'000);
  QCOMPARE(binTotal(b), 1'000'000);
}

void TestFlowModel::twoFlowsShareABottleneck() {
  // One 1 GB/s link; A = 1 MB from 0, B = 3 MB from 0.5 ms. A alone sends 0.5 MB by
  // 0.5 ms; then 0.5 GB/s each: A's last 0.5 MB ends at 1.5 ms, when B has 2.5 MB left
  // at the full 1 GB/s: 4.0 ms.
  FlowSolver s({1e9}, {0}, 1 * ms);
  const std::int32_t route[] = {0};
  s.addFlow(route, 1'000'000, 0);
  s.addFlow(route, 3'000'000, 500 * us);
  const auto done = runAll(s);
  QCOMPARE(done.at(0), 1500 * us);
  QCOMPARE(done.at(1), 4 * ms);
  QCOMPARE(s.links()[0].bytes, 4'000'000);
  // Busy the whole time at line rate: 1 MB in each 1 ms bin.
  for (int i = 0; i < 4; ++i) QCOMPARE(s.links()[0].bins.at(i), 1'000'000);

}

void TestFlowModel::parkingLot() {
  // Links of 1, 2, 3 GB/s in a row; a long flow L (1 MB) over all three, one short flow
  // per link: s0 0.5 MB, s1 3 MB, s2 5 MB, all from 0.
  // [0, 1 ms): link 0 is the bottleneck (1 GB/s / 2): L = s0 = 0.5, s1 = 1.5, s2 = 2.5 GB/s.
  //   s0 ends at 1 ms; L has 0.5 MB left, s1 1.5 MB, s2 2.5 MB.
  // [1, 1.5 ms): links 0 and 1 both offer 1 GB/s a flow: L = s1 = 1, s2 = 3 - 1 = 2.
  //   L ends at 1.5 ms; s1 has 1 MB left, s2 1.5 MB.
  // [1.5, 2 ms): s1 alone at 2 GB/s, s2 alone at 3 GB/s: both end at 2.0 ms.
  FlowSolver s({1e9, 2e9, 3e9}, {0, 0, 0}, 1 * ms);
  const std::int32_t all[] = {0, 1, 2}, l0[] = {0}, l1[] = {1}, l2[] = {2};
  const auto L = s.addFlow(all, 1'000'000, 0);
  const auto s0 = s.addFlow(l0, 500'000, 0);
  const auto s1 = s.addFlow(l1, 3'000'000, 0);
  const auto s2 = s.addFlow(l2, 5'000'000, 0);
  const auto done = runAll(s);
  QCOMPARE(done.at(s0), 1 * ms);
  QCOMPARE(done.at(L), 1500 * us);
  QCOMPARE(done.at(s1), 2 * ms);
  QCOMPARE(done.at(s2), 2 * ms);
  QCOMPARE(s.links()[0].bytes, 1'500'000);
  QCOMPARE(s.links()[1].bytes, 4'000'000);
  QCOMPARE(s.links()[2].bytes, 6'000'000);
  QCOMPARE(s.lastDelivery(), 2 * ms);
}

void TestFlowModel::parkingLotEqual_data() {
  QTest::addColumn<int>("n");
  for (int n : {1, 2, 5, 50}) QTest::addRow("%d links", n) << n;
}

void TestFlowModel::parkingLotEqual() {
  // n equal links of 1 GB/s, a long flow over all and a short flow on each, 1 MB each:
  // every link has two flows, so every flow gets 0.5 GB/s and all end at 2 ms; each link
  // carries 2 MB.
  QFETCH(int, n);
  FlowSolver s(std::vector<double>(std::size_t(n), 1e9), std::vector<Time>(std::size_t(n), 0), 1 * ms);
  std::vector<std::int32_t> all(static_cast<std::size_t>(n));
  std::iota(all.begin(), all.end(), 0);
  s.addFlow(all, 1'000'000, 0);
  for (std::int32_t i = 0; i < n; ++i) s.addFlow(std::span<const std::int32_t>(&all[std::size_t(i)], 1), 1'000'000, 0);
  const auto done = runAll(s);
  QCOMPARE(int(done.size()), n + 1);
  for (const auto& [id, at] : done) QCOMPARE(at, 2 * ms);
  for (int i = 0; i < n; ++i) QCOMPARE(s.links()[std::size_t(i)].bytes, 2'000'000);
}

void TestFlowModel::dependentFlowsFromCallback() {
  // A chain: each delivery starts the next flow (1 MB at 1 GB/s, 10 us latency): the k-th
  // is delivered at k x (1 ms + 10 us).
  FlowSolver s({1e9}, {10 * us}, 1 * ms);
  const std::int32_t route[] = {0};
  s.addFlow(route, 1'000'000, 0, 1);
  std::vector<Time> at;
  s.run([&](std::int64_t, std::uint64_t tag, Time t) {
    at.push_back(t);
    if (tag < 5) s.addFlow(route, 1'000'000, t, tag + 1);
  });
  QCOMPARE(at.size(), std::size_t(5));
  for (std::size_t k = 0; k < 5; ++k) QCOMPARE(at[k], Time(k + 1) * (1 * ms + 10 * us));
  QCOMPARE(s.links()[0].bytes, 5'000'000);
  QCOMPARE(s.links()[0].busy, 5 * ms);
}

void TestFlowModel::slotReusedAtTheSameInstant() {
  // Links 0 and 1 of 1 GB/s, no latency. A = 1 MB on {0} and B = 3 MB on {0, 1} from 0:
  // 0.5 GB/s each, A ends at 2 ms and its delivery (same instant) starts C = 1 MB on {1},
  // which takes A's freed slot. Then link 0 carries B alone and link 1 B and C: 0.5 GB/s
  // each, C ends at 4 ms (B has 1 MB left), B alone at 1 GB/s ends at 5 ms. (The links'
  // flow counts are updated as flows end and start: A must leave link 0 before C.)
  FlowSolver s({1e9, 1e9}, {0, 0}, 1 * ms);
  const std::int32_t a[] = {0}, b[] = {0, 1}, c[] = {1};
  s.addFlow(a, 1'000'000, 0, 0);
  s.addFlow(b, 3'000'000, 0, 1);
  std::map<std::uint64_t, Time> at;
  s.run([&](std::int64_t, std::uint64_t tag, Time t) {
    at[tag] = t;
    if (tag == 0) s.addFlow(c, 1'000'000, t, 2);
  });
  QCOMPARE(at.at(0), 2 * ms);
  QCOMPARE(at.at(2), 4 * ms);
  QCOMPARE(at.at(1), 5 * ms);
  QCOMPARE(s.links()[0].bytes, 4'000'000);
  QCOMPARE(s.links()[1].bytes, 4'000'000);
}

void TestFlowModel::zeroByteFlowTakesTheLatency() {
  FlowSolver s({1e9, 1e9}, {2 * us, 3 * us}, 1 * ms);
  const std::int32_t route[] = {0, 1};
  s.addFlow(route, 0, 7 * us);
  const auto done = runAll(s);
  QCOMPARE(done.at(0), 12 * us);
  QCOMPARE(s.links()[0].bytes, 0);
}

void TestFlowModel::treeRoutesFollowTheRouting() {
  // Every ordered GPU pair of 3 x 2 x 4: the route equals a walk of the topology's own
  // routing (first candidate port at each hop), as the packet model takes it.
  TopologySpec spec;
  spec.kind = TopologyKind::Hierarchy;
  spec.levels = {{"dc", 3, 1.25e9, 0}, {"node", 2, 16e9, 0}, {"gpu", 4, 25e9, 0}};
  const auto t = topo::buildTopology(spec);
  const FlowTreeRoutes routes(*t);
  std::vector<std::int32_t> got;
  std::vector<int> ports;
  for (int a = 0; a < t->endpointCount(); ++a)
    for (int b = 0; b < t->endpointCount(); ++b) {
      std::vector<std::int32_t> want;
      topo::NodeId at = t->endpointNode(a);
      while (at != t->endpointNode(b)) {
        t->candidates(at, t->endpointNode(b), ports);
        QVERIFY(!ports.empty());
        const topo::Port& p = t->ports(at)[std::size_t(ports[0])];
        want.push_back(2 * p.link + p.direction);
        at = p.peer;
      }
      routes.route(a, b, got);
      QCOMPARE(got, want);
    }
}

void TestFlowModel::agreesWithThePacketModel() {
  // A 2-DC all-to-all (2 DCs x 4 GPUs, 10 Gb/s between DCs, 16 GB/s inside, 2 MiB per
  // GPU) on the packet model and as flows on the same routes: link bytes equal exactly,
  // makespans within 5 % (framing flits off so both carry payload at line rate).
  Scenario s;
  s.topology.kind = TopologyKind::Hierarchy;
  s.topology.levels = {{"dc", 2, 1.25e9, 2 * us}, {"gpu", 4, 16e9, 1 * us}};
  s.network.header_flits = s.network.address_flits = s.network.byte_enable_flits = 0;
  s.network.packet_payload = 4096;
  s.network.max_packet_payload = 4096;
  s.network.vc_depth_flits = 4096;
  s.workload.kind = WorkloadKind::Collective;
  s.workload.collective.op = CollectiveOp::AllToAll;
  s.workload.collective.algorithm = CollectiveAlgorithm::Direct;
  s.workload.collective.size = 2 << 20;
  s.run.bin = 100 * us;
  const Results packet = runScenario(s);

  const auto t = topo::buildTopology(s.topology);
  std::vector<double> cap;
  std::vector<Time> lat;
  for (const topo::Link& l : t->links())
    for (int d = 0; d < 2; ++d) cap.push_back(l.bandwidth * l.efficiency), lat.push_back(l.latency);
  FlowSolver flow(cap, lat, 100 * us);
  const FlowTreeRoutes routes(*t);
  std::vector<std::int32_t> r;
  const int n = t->endpointCount();
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (a != b) {
        routes.route(a, b, r);
        flow.addFlow(r, (2 << 20) / n, 0);  // 2 MiB / 8: the collective's chunk
      }
  flow.run();
  for (const LinkDirectionResult& d : packet.links)
    QCOMPARE(flow.links()[std::size_t(2 * d.link + d.direction)].bytes, d.payload_bytes);
  const double p = toNs(packet.makespan), f = toNs(flow.lastDelivery());
  qInfo("2-DC all-to-all: flow %.0f ns, packet %.0f ns", f, p);
  QVERIFY2(std::fabs(f - p) <= 0.05 * p, qPrintable(QString("flow %1 ns, packet %2 ns").arg(f).arg(p)));
}

void TestFlowModel::bundleIsItsMembers() {
  // A source link (3 GB/s) fanning out to three 1 GB/s links, 1 MB to each: as three flows
  // each gets min(3/3, 1) = 1 GB/s and ends at 1 ms (+ 2 us of latency); as one bundle
  // (link 0 crossed by 3 members, links 1-3 by one each) the same, and the same link bytes.
  const std::vector<double> cap = {3e9, 1e9, 1e9, 1e9};
  const std::vector<Time> lat = {1 * us, 1 * us, 1 * us, 1 * us};
  FlowSolver flows(cap, lat, 1 * ms), bundle(cap, lat, 1 * ms);
  for (std::int32_t d = 1; d <= 3; ++d) {
    const std::int32_t r[] = {0, d};
    flows.addFlow(r, 1'000'000, 0);
  }
  const std::int32_t route[] = {0, 1, 2, 3};
  const std::uint32_t counts[] = {3, 1, 1, 1};
  QCOMPARE(bundle.routeLatency(std::span<const std::int32_t>(route, 2)), 2 * us);
  bundle.addBundle(route, counts, 1'000'000, 2 * us, 0);
  const auto a = runAll(flows), b = runAll(bundle);
  for (const auto& [id, at] : a) QCOMPARE(at, 1 * ms + 2 * us);
  QCOMPARE(b.at(0), 1 * ms + 2 * us);
  for (std::size_t l = 0; l < cap.size(); ++l) QCOMPARE(bundle.links()[l].bytes, flows.links()[l].bytes);
  QCOMPARE(bundle.links()[0].bytes, 3'000'000);
  QCOMPARE(bundle.links()[0].busy, 1 * ms);
}

void TestFlowModel::bundleMembersShareOneRate() {
  // The same bundle with a plain 1 MB flow on link 1: link 1's share is 1/2 GB/s, the
  // smallest, so the bundle's members all move at 0.5 GB/s (one rate for the bundle)
  // and the plain flow too: everything ends at 2 ms. Link 0 carries 3 x 0.5 GB/s.
  FlowSolver s({3e9, 1e9, 1e9, 1e9}, {0, 0, 0, 0}, 1 * ms);
  const std::int32_t route[] = {0, 1, 2, 3}, l1[] = {1};
  const std::uint32_t counts[] = {3, 1, 1, 1};
  const auto b = s.addBundle(route, counts, 1'000'000, 0, 0);
  const auto f = s.addFlow(l1, 1'000'000, 0);
  const auto done = runAll(s);
  QCOMPARE(done.at(b), 2 * ms);
  QCOMPARE(done.at(f), 2 * ms);
  QCOMPARE(s.links()[0].bins.at(0), 1'500'000);
  QCOMPARE(s.links()[1].bytes, 2'000'000);
}

void TestFlowModel::sharedRouteRepeats() {
  // The bundle of bundleIsItsMembers on a shared route, sent again from each delivery
  // (as a GPU repeats a step every layer): each send takes 1 ms at 1 GB/s per member plus
  // 2 us of latency, so the third ends at 3 x 1.002 ms; link 0 carries 3 x 3 MB, links
  // 1-3 3 MB each. Bad routes are refused where they are registered.
  FlowSolver s({3e9, 1e9, 1e9, 1e9}, {1 * us, 1 * us, 1 * us, 1 * us}, 1 * ms);
  const std::int32_t route[] = {0, 1, 2, 3};
  const std::uint32_t counts[] = {3, 1, 1, 1};
  const std::int32_t id = s.addSharedRoute(route, counts);
  QCOMPARE(id, 0);
  s.addBundle(id, 1'000'000, 2 * us, 0, 1);
  std::vector<Time> at;
  s.run([&](std::int64_t, std::uint64_t tag, Time t) {
    at.push_back(t);
    if (tag < 3) s.addBundle(id, 1'000'000, 2 * us, t, tag + 1);
  });
  QCOMPARE(at, (std::vector<Time>{1002 * us, 2004 * us, 3006 * us}));
  QCOMPARE(s.links()[0].bytes, 9'000'000);
  for (std::size_t l = 1; l < 4; ++l) QCOMPARE(s.links()[l].bytes, 3'000'000);
  const std::int32_t bad[] = {0, 7};
  const std::uint32_t one[] = {1, 1}, none[] = {1, 0};
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s.addSharedRoute(bad, one));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s.addSharedRoute(route, std::span<const std::uint32_t>(none, 2)));
  QVERIFY_THROWS_EXCEPTION(std::invalid_argument, s.addBundle(5, 1, 0, 0));
}

void TestFlowModel::binBudgetPerLink_data() {
  QTest::addColumn<std::int64_t>("bytes");
  QTest::addColumn<bool>("refused");
  // 1 GB/s, bins of 1 us, at most 10 bins per link: a flow of 10 kB is busy across
  // exactly 10 bins (0..9 us); 10.001 kB spills into an 11th.
  QTest::newRow("10 bins") << std::int64_t{10'000} << false;
  QTest::newRow("11 bins") << std::int64_t{10'001} << true;
  QTest::newRow("a million bins") << std::int64_t{1'000'000'000} << true;
}

// A link busy across more bins than its share stops the run with run.bin's error (as a
// packet channel does), rather than grow its series and loop without bound.
void TestFlowModel::binBudgetPerLink() {
  QFETCH(std::int64_t, bytes);
  QFETCH(bool, refused);
  FlowSolver s({1e9}, {0}, 1 * us, 10);
  const std::int32_t route[] = {0};
  s.addFlow(route, bytes, 0);
  try {
    runAll(s);
    QVERIFY(!refused);
    QCOMPARE(s.links()[0].bins.bins.size(), std::size_t(10));
    QCOMPARE(binTotal(s.links()[0].bins), bytes);
  } catch (const InputError& e) {
    QVERIFY2(refused, e.what());
    QCOMPARE(e.keyPath(), std::string("run.bin"));
    QVERIFY2(std::string(e.expected()).find("at most 10 time bins") != std::string::npos, e.what());
  }
}

QTEST_GUILESS_MAIN(TestFlowModel)
#include "test_flow_model.moc"
