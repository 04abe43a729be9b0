// Follow one on the canvas (views/follow_item.h) and its bar (views/follow_bar.h): the
// hops of a mesh all-to-all message recorded by the core, drawn at chosen times. Where a
// dot must be is worked out here from the layout's polyline (half way along its length at
// a hop's middle time); the playback step from the speed (simulated time per second) and
// the 33 ms tick.
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>
#include <cmath>

#include "../common/view_helpers.h"
#include "network/packet.h"
#include "scenario/scenario_io.h"
#include "sim/follow_run.h"
#include "topology/topology.h"
#include "views/follow_bar.h"
#include "views/follow_item.h"
#include "views/run_model.h"
#include "views/topology_canvas.h"

using namespace fl;
using namespace fl::views;

namespace {

struct Recorded {
  std::shared_ptr<const topo::Topology> topology;
  std::shared_ptr<const Results> results;
  std::shared_ptr<const PacketFollow> follow;
};

// Die 0 -> die 11 of a 3 x 4 mesh (2 + 3 + 2 = 7 hops of its Write), piece 0.
const Recorded& meshFollow() {
  static const Recorded r = [] {
    const Scenario s = parseScenario(R"(fabriclab: 1
name: follow view
topology: {kind: mesh, rows: 3, cols: 4, link: {bandwidth: 400 GB/s, latency: 5 ns}, die_injection_bandwidth: 1600 GB/s}
network: {packet_payload: 4 KiB, vc_depth_flits: 1024}
workload: {kind: collective, collective: {op: all_to_all, algorithm: direct, size: 96 KiB}}
run: {bin: 100 ns}
)",
                                     "follow.yaml");
    Recorded out;
    out.topology.reset(topo::buildTopology(s.topology).release());
    const FollowSpec spec = followSpecFor(s, *out.topology, 0, 11, 0);
    auto f = std::make_shared<PacketFollow>();
    out.results = std::make_shared<Results>(runFollowing(s, *out.topology, &spec, f.get()));
    out.follow = f;
    return out;
  }();
  return r;
}

// Half way along a polyline, by its length.
QPointF halfWay(const std::vector<layout::Point>& pts) {
  double total = 0;
  for (size_t i = 1; i < pts.size(); ++i) total += std::hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y);
  double left = total / 2;
  for (size_t i = 1; i < pts.size(); ++i) {
    const double seg = std::hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y);
    if (left <= seg) {
      const double k = seg > 0 ? left / seg : 0;
      return QPointF(pts[i - 1].x + (pts[i].x - pts[i - 1].x) * k, pts[i - 1].y + (pts[i].y - pts[i - 1].y) * k);
    }
    left -= seg;
  }
  return QPointF(pts.back().x, pts.back().y);
}

}  // namespace

class TestFollowView : public QObject {
  Q_OBJECT

 private slots:
  void dotsAlongTheRoute_data();
  void dotsAlongTheRoute();
  void beforeAndAfter();
  void barPlaysAtItsSpeed();
};

void TestFollowView::dotsAlongTheRoute_data() {
  QTest::addColumn<int>("hop");  // index among the followed Write hops
  for (int i = 0; i < 7; ++i) QTest::addRow("write hop %d", i) << i;
}

void TestFollowView::dotsAlongTheRoute() {
  QFETCH(int, hop);
  const Recorded& rec = meshFollow();
  std::vector<int> writes;
  for (size_t i = 0; i < rec.follow->hops.size(); ++i)
    if (rec.follow->hops[i].op == static_cast<std::uint8_t>(net::Op::Write)) writes.push_back(int(i));
  QCOMPARE(int(writes.size()), 7);
  RunModel model;
  TopologyCanvas canvas(&model);
  test::load(model, {rec.topology, rec.results});
  canvas.setFollow(rec.follow);
  const FollowedHop& h = rec.follow->hops[size_t(writes[size_t(hop)])];
  const Time mid = h.start + (h.arrive - h.start) / 2;
  canvas.setFollowTime(mid);
  const FollowItem* item = canvas.followItem();
  QVERIFY(item);
  // Every hop under way at `mid` has a dot, and no other.
  int moving = 0;
  for (const auto& x : rec.follow->hops) moving += x.start <= mid && mid < x.arrive;
  QCOMPARE(int(item->dots().size()), moving);
  const FollowItem::Dot* dot = nullptr;
  for (const auto& d : item->dots()) dot = d.hop == writes[size_t(hop)] ? &d : dot;
  QVERIFY(dot);
  const double f = double(mid - h.start) / double(h.arrive - h.start);
  QVERIFY(std::abs(f - 0.5) < 1e-3);  // ps rounding of the middle
  const auto& path = canvas.currentLayout().links[size_t(h.link)].points;
  const QPointF expected = halfWay(path);
  QVERIFY2(std::hypot(dot->at.x() - expected.x(), dot->at.y() - expected.y()) < 0.01 * std::max(1.0, std::hypot(path.back().x - path.front().x, path.back().y - path.front().y)),
           qPrintable(QString("dot at (%1, %2), expected (%3, %4)").arg(dot->at.x()).arg(dot->at.y()).arg(expected.x()).arg(expected.y())));
  QCOMPARE(dot->role, FollowItem::Role::Data);
  QCOMPARE(item->hopsDone(), int(std::count_if(rec.follow->hops.begin(), rec.follow->hops.end(),
                                               [&](const FollowedHop& x) { return x.arrive <= mid; })));
  // A rebuild (opening bundles, a glyph scale) keeps the overlay at its time.
  canvas.setGlyphScale(1.6);
  QVERIFY(canvas.followItem());
  QCOMPARE(canvas.followItem()->time(), mid);
  QCOMPARE(int(canvas.followItem()->dots().size()), moving);
  if (hop == 3) test::saveArtefact(canvas, "follow_mesh_hop3", QSize(900, 600));
}

void TestFollowView::beforeAndAfter() {
  const Recorded& rec = meshFollow();
  RunModel model;
  TopologyCanvas canvas(&model);
  test::load(model, {rec.topology, rec.results});
  canvas.setFollow(rec.follow);
  canvas.setFollowTime(rec.follow->hops.front().start - 1);
  QCOMPARE(int(canvas.followItem()->dots().size()), 0);
  QCOMPARE(canvas.followItem()->hopsDone(), 0);
  Time last = 0;
  for (const auto& h : rec.follow->hops) last = std::max(last, h.arrive);
  canvas.setFollowTime(last);
  QCOMPARE(int(canvas.followItem()->dots().size()), 0);
  QCOMPARE(canvas.followItem()->hopsDone(), int(rec.follow->hops.size()));
  canvas.setFollow(nullptr);
  QVERIFY(!canvas.followItem());
  // A new fabric drops the hops (they name the old one's links).
  canvas.setFollow(rec.follow);
  model.setTopology(rec.topology);
  QVERIFY(!canvas.followItem());
}

// The bar opens at the first hop's start with the slowest listed speed (1 ns/s x 10^k)
// that plays the whole way in 20 s; each tick moves it by speed x 33 ms.
void TestFollowView::barPlaysAtItsSpeed() {
  const Recorded& rec = meshFollow();
  FollowBar bar;
  bar.setFollow(rec.follow, "GPU 0's data for GPU 11");
  Time last = 0;
  for (const auto& h : rec.follow->hops) last = std::max(last, h.arrive);
  const Time first = rec.follow->hops.front().start;
  QCOMPARE(bar.time(), first);
  QCOMPARE(bar.lastTime(), last);
  double speed = 1e3;
  while (speed < double(last - first) / 20 && speed < 1e7) speed *= 10;
  QCOMPARE(bar.speed(), speed);
  QVERIFY(bar.statusText().contains(QString("of %1 hops done").arg(rec.follow->hops.size())));
  QSignalSpy moved(&bar, &FollowBar::timeChanged);
  bar.play();
  QVERIFY(moved.wait(2000));
  bar.pause();
  const Time step = Time(std::llround(speed * FollowBar::kTickMs / 1000.0));
  QCOMPARE(moved.first().first().value<Time>(), std::min(last, first + step));
  bar.setTime(last + 1000);
  QCOMPARE(bar.time(), last);
  QSignalSpy asked(&bar, &FollowBar::followRequested);
  bar.gpuBox()->setMaximum(7);
  bar.gpuBox()->setValue(3);
  bar.followButton()->click();
  QCOMPARE(asked.count(), 1);
  QCOMPARE(asked.first().first().toInt(), 3);
}

QTEST_MAIN(TestFollowView)
#include "test_follow_view.moc"
