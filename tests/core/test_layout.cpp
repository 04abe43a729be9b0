// Topology layout (core/layout). Expected values come from closed forms (node and link
// counts per kind) or from independent walks over the topology (parent chains for which
// nodes a collapsed group hides), never from the layout code under test.
#include <QElapsedTimer>
#include <QtTest>

#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "layout/topology_layout.h"
#include "scenario/scenario.h"
#include "topology/presets.h"
#include "topology/topology.h"
#include "../common/topology_specs.h"

using namespace fl;
using namespace fl::topo;
using fl::layout::LayoutOptions;
using fl::layout::TopologyLayout;

Q_DECLARE_METATYPE(fl::TopologySpec)
Q_DECLARE_METATYPE(fl::layout::LayoutOptions)

namespace {

TopologySpec preset(const char* name) {
  TopologySpec s;
  applyTopologyPreset(name, s);
  return s;
}

TopologySpec mesh(int rows, int cols, int waferRows = 1, int waferCols = 1) {
  return fl::test::meshSpec(rows, cols, waferRows, waferCols);
}

TopologySpec hierarchy(std::vector<int> counts) { return fl::test::hierarchySpec(counts); }

// The same with a NIC per GPU (uplinks: per_gpu) on the levels named in `nicLevels`.
TopologySpec withNics(std::vector<int> counts, std::set<size_t> nicLevels) {
  TopologySpec s = fl::test::hierarchySpec(counts);
  for (size_t i : nicLevels) s.levels[i].uplinks = LevelUplinks::PerGpu;
  return s;
}

// Sum over levels of the product of counts so far: the nodes below the root.
int treeNodes(const std::vector<int>& counts) {
  int total = 0, width = 1;
  for (int c : counts) total += (width *= c);
  return total;
}

bool overlaps(const layout::NodePlacement& a, const layout::NodePlacement& b) {
  return std::abs(a.center.x - b.center.x) * 2 < a.width + b.width - 1e-6 &&
         std::abs(a.center.y - b.center.y) * 2 < a.height + b.height - 1e-6;
}

bool same(layout::Point p, layout::Point q) { return std::abs(p.x - q.x) < 1e-6 && std::abs(p.y - q.y) < 1e-6; }

struct Rect {
  double x0, y0, x1, y1;
};
Rect rectOf(const layout::NodePlacement& n) {
  return {n.center.x - n.width / 2, n.center.y - n.height / 2, n.center.x + n.width / 2, n.center.y + n.height / 2};
}
Rect rectOf(const layout::GroupBox& g) { return {g.x, g.y, g.x + g.width, g.y + g.height}; }
Rect grown(Rect r, double by) { return {r.x0 - by, r.y0 - by, r.x1 + by, r.y1 + by}; }

// The stretch of segment pq inside r, as parameters [t0, t1] of p + t (q - p) (Liang-
// Barsky); empty when t0 >= t1.
std::pair<double, double> clip(layout::Point p, layout::Point q, Rect r) {
  double t0 = 0, t1 = 1;
  const double d[2] = {q.x - p.x, q.y - p.y}, lo[2] = {r.x0 - p.x, r.y0 - p.y}, hi[2] = {r.x1 - p.x, r.y1 - p.y};
  for (int a = 0; a < 2; ++a) {
    if (d[a] == 0) {
      if (lo[a] > 0 || hi[a] < 0) return {1, 0};
      continue;
    }
    const double ta = lo[a] / d[a], tb = hi[a] / d[a];
    t0 = std::max(t0, std::min(ta, tb));
    t1 = std::min(t1, std::max(ta, tb));
  }
  return {t0, t1};
}

// Does pq pass through the inside of r (running along its border does not count)?
bool crosses(layout::Point p, layout::Point q, Rect r) {
  const auto [t0, t1] = clip(p, q, grown(r, -0.5));
  return t1 - t0 > 1e-9;
}

layout::Point at(layout::Point p, layout::Point q, double t) { return {p.x + t * (q.x - p.x), p.y + t * (q.y - p.y)}; }

// The pieces of pq outside every rectangle in `rects`.
std::vector<std::pair<layout::Point, layout::Point>> outside(layout::Point p, layout::Point q, const std::vector<Rect>& rects) {
  std::vector<std::pair<double, double>> pieces{{0, 1}}, next;
  for (const Rect& r : rects) {
    const auto [t0, t1] = clip(p, q, r);
    next.clear();
    for (const auto& [a, b] : pieces) {
      if (t0 >= t1 || t1 <= a || t0 >= b) {
        next.push_back({a, b});
        continue;
      }
      if (t0 > a) next.push_back({a, t0});
      if (t1 < b) next.push_back({t1, b});
    }
    pieces.swap(next);
  }
  std::vector<std::pair<layout::Point, layout::Point>> out;
  for (const auto& [a, b] : pieces) out.push_back({at(p, q, a), at(p, q, b)});
  return out;
}

double cross(layout::Point o, layout::Point a, layout::Point b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

// Do segments ab and cd share a point (crossing, touching or overlapping)?
bool meet(layout::Point a, layout::Point b, layout::Point c, layout::Point d) {
  constexpr double eps = 1e-6;
  const double d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d);
  if (((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps)) && ((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps)))
    return true;
  auto within = [](layout::Point p, layout::Point q, layout::Point r) {
    return std::min(p.x, q.x) - 1e-9 <= r.x && r.x <= std::max(p.x, q.x) + 1e-9 && std::min(p.y, q.y) - 1e-9 <= r.y &&
           r.y <= std::max(p.y, q.y) + 1e-9;
  };
  return (std::abs(d1) <= eps && within(c, d, a)) || (std::abs(d2) <= eps && within(c, d, b)) ||
         (std::abs(d3) <= eps && within(a, b, c)) || (std::abs(d4) <= eps && within(a, b, d));
}

// Non-root switches in id order: the group indices LayoutOptions refers to.
std::vector<NodeId> groupSwitches(const Topology& t) {
  std::vector<NodeId> v;
  for (const Node& n : t.nodes())
    if (n.kind == NodeKind::Switch && n.parent >= 0) v.push_back(n.id);
  return v;
}

}  // namespace

class TestLayout : public QObject {
  Q_OBJECT

 private slots:
  void geometry_data();
  void geometry();
  void meshMonotone_data();
  void meshMonotone();
  void hierarchyCollapse_data();
  void hierarchyCollapse();
  void thousandDatacenters();
  void parallelLinksApart_data();
  void parallelLinksApart();
  void nicRoutesClear_data();
  void nicRoutesClear();
};

void TestLayout::geometry_data() {
  QTest::addColumn<TopologySpec>("spec");
  QTest::addColumn<LayoutOptions>("options");
  QTest::addColumn<int>("visibleNodes");
  QTest::addColumn<int>("visibleLinks");

  const LayoutOptions defaults;
  QTest::newRow("dgx-h100") << preset("dgx-h100") << defaults << 8 + 4 << 8 * 18;
  QTest::newRow("gb200-nvl72") << preset("gb200-nvl72") << defaults << 72 + 18 << 72 * 18;
  // Mesh R x C: dies only (routers hidden), R(C-1) + C(R-1) router links (Local hidden).
  QTest::newRow("mesh 4x4") << mesh(4, 4) << defaults << 16 << 4 * 3 + 4 * 3;
  QTest::newRow("mesh 2x(4x4)") << mesh(4, 4, 1, 2) << defaults << 32 << 4 * 7 + 8 * 3;
  QTest::newRow("mesh 2x2 wafers of 3x5") << mesh(3, 5, 2, 2) << defaults << 60 << 6 * 9 + 10 * 5;
  QTest::newRow("mesh 16x16") << mesh(16, 16) << defaults << 256 << 2 * 16 * 15;
  // Small hierarchies open completely: every node and link.
  QTest::newRow("hierarchy 2x2x4") << hierarchy({2, 2, 4}) << defaults << 1 + treeNodes({2, 2, 4})
                                   << treeNodes({2, 2, 4});
  QTest::newRow("hierarchy 16 (one wide level)") << hierarchy({16}) << defaults << 17 << 16;
  QTest::newRow("hierarchy 3x12x2") << hierarchy({3, 12, 2}) << defaults << 1 + treeNodes({3, 12, 2})
                                    << treeNodes({3, 12, 2});
  // Large ones (>= autoExpandBelow endpoints) show the root and the top-level boxes.
  QTest::newRow("hierarchy 16x4x8 collapsed") << hierarchy({16, 4, 8}) << defaults << 1 + 16 << 16;
  QTest::newRow("hierarchy 1000x2x4 collapsed") << hierarchy({1000, 2, 4}) << defaults << 1 + 1000
                                                << 1000;
  LayoutOptions all;
  all.expandAll = true;
  QTest::newRow("hierarchy 16x4x8 expandAll") << hierarchy({16, 4, 8}) << all << 1 + treeNodes({16, 4, 8})
                                              << treeNodes({16, 4, 8});
  // Per-GPU NICs: the nodes have no uplink; each GPU has its access link and a NIC.
  QTest::newRow("4x4 per-GPU NICs") << withNics({4, 4}, {0}) << defaults << 1 + 4 + 16 << 16 + 16;
  QTest::newRow("2x3x4 NICs to the dc") << withNics({2, 3, 4}, {1}) << defaults << 1 + 2 + 6 + 24
                                        << 2 + 24 + 24;
}

// Counts, no overlapping nodes, links ending at their nodes' centres, nodes inside their
// group boxes, everything inside the bounding box.
void TestLayout::geometry() {
  QFETCH(TopologySpec, spec);
  QFETCH(LayoutOptions, options);
  QFETCH(int, visibleNodes);
  QFETCH(int, visibleLinks);
  const auto t = buildTopology(spec);
  const TopologyLayout l = layout::layoutTopology(*t, options);
  QCOMPARE(l.nodes.size(), t->nodes().size());
  QCOMPARE(l.links.size(), t->links().size());

  std::vector<const layout::NodePlacement*> shown;
  for (size_t i = 0; i < l.nodes.size(); ++i) {
    QCOMPARE(l.nodes[i].node, NodeId(i));
    if (l.nodes[i].visible) shown.push_back(&l.nodes[i]);
  }
  QCOMPARE(int(shown.size()), visibleNodes);
  int links = 0;
  for (const auto& p : l.links) links += p.visible ? 1 : 0;
  QCOMPARE(links, visibleLinks);

  for (size_t i = 0; i < shown.size(); ++i) {
    QVERIFY(shown[i]->width > 0 && shown[i]->height > 0);
    for (size_t j = i + 1; j < shown.size(); ++j)
      QVERIFY2(!overlaps(*shown[i], *shown[j]),
               qPrintable(QString("%1 overlaps %2").arg(QString::fromStdString(t->node(shown[i]->node).name),
                                                        QString::fromStdString(t->node(shown[j]->node).name))));
  }
  for (const Link& k : t->links()) {
    const auto& p = l.links[size_t(k.id)];
    QVERIFY(p.points.size() >= 2);
    if (!p.visible) continue;
    QVERIFY(l.nodes[size_t(k.a)].center.x >= 0);
    QVERIFY2(same(p.points.front(), l.nodes[size_t(k.a)].center), qPrintable(QString("link %1 a").arg(k.id)));
    QVERIFY2(same(p.points.back(), l.nodes[size_t(k.b)].center), qPrintable(QString("link %1 b").arg(k.id)));
  }
  for (const auto* n : shown) {
    QVERIFY(n->center.x - n->width / 2 >= 0 && n->center.x + n->width / 2 <= l.width);
    QVERIFY(n->center.y - n->height / 2 >= 0 && n->center.y + n->height / 2 <= l.height);
    if (n->group < 0) continue;
    const auto& g = l.groups[size_t(n->group)];
    QVERIFY(g.visible);
    QVERIFY2(n->center.x - n->width / 2 >= g.x - 1e-6 && n->center.x + n->width / 2 <= g.x + g.width + 1e-6 &&
                 n->center.y - n->height / 2 >= g.y - 1e-6 && n->center.y + n->height / 2 <= g.y + g.height + 1e-6,
             qPrintable(QString::fromStdString(t->node(n->node).name + " outside " + g.label)));
  }
  for (const auto& g : l.groups)  // visible nested groups sit inside their parents
    if (g.visible && g.parent >= 0) {
      const auto& p = l.groups[size_t(g.parent)];
      QVERIFY(p.visible && !p.collapsed);
      QVERIFY2(g.x >= p.x && g.y >= p.y && g.x + g.width <= p.x + p.width && g.y + g.height <= p.y + p.height,
               qPrintable(QString("%1 (%2,%3 %4x%5) outside %6 (%7,%8 %9x%10)")
                              .arg(QString::fromStdString(g.label)).arg(g.x).arg(g.y).arg(g.width).arg(g.height)
                              .arg(QString::fromStdString(p.label)).arg(p.x).arg(p.y).arg(p.width).arg(p.height)));
    }
}

void TestLayout::meshMonotone_data() {
  QTest::addColumn<TopologySpec>("spec");
  QTest::newRow("4x4") << mesh(4, 4);
  QTest::newRow("2x(4x4)") << mesh(4, 4, 1, 2);
  QTest::newRow("3x2 wafers of 2x5") << mesh(2, 5, 3, 2);
}

// x grows with the column and y with the row; a row shares one y, a column one x.
void TestLayout::meshMonotone() {
  QFETCH(TopologySpec, spec);
  const auto t = buildTopology(spec);
  const TopologyLayout l = layout::layoutTopology(*t);
  const int R = spec.rows * spec.wafer_rows, C = spec.cols * spec.wafer_cols;
  auto at = std::vector<std::vector<layout::Point>>(size_t(R), std::vector<layout::Point>(size_t(C)));
  for (const Node& n : t->nodes()) {
    const auto& p = l.nodes[size_t(n.id)];
    if (n.kind == NodeKind::Die) {
      QVERIFY(p.visible);
      at[size_t(n.row)][size_t(n.col)] = p.center;
    } else {
      QVERIFY(!p.visible);  // the router sits under its die
    }
  }
  for (const Node& n : t->nodes())
    if (n.kind == NodeKind::Router) QVERIFY(same(l.nodes[size_t(n.id)].center, at[size_t(n.row)][size_t(n.col)]));
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      if (c + 1 < C) {
        QVERIFY(at[size_t(r)][size_t(c + 1)].x > at[size_t(r)][size_t(c)].x);
        QCOMPARE(at[size_t(r)][size_t(c + 1)].y, at[size_t(r)][size_t(c)].y);
      }
      if (r + 1 < R) {
        QVERIFY(at[size_t(r + 1)][size_t(c)].y > at[size_t(r)][size_t(c)].y);
        QCOMPARE(at[size_t(r + 1)][size_t(c)].x, at[size_t(r)][size_t(c)].x);
      }
    }
  QCOMPARE(int(l.groups.size()), spec.wafer_rows * spec.wafer_cols);
}

void TestLayout::hierarchyCollapse_data() {
  QTest::addColumn<TopologySpec>("spec");
  QTest::addColumn<LayoutOptions>("options");
  // Groups left collapsed by these options (indices into groupSwitches); the rest open.
  QTest::addColumn<QList<int>>("collapsed");

  LayoutOptions none;
  none.autoExpandBelow = 0;
  QTest::newRow("2x2x4 all collapsed") << hierarchy({2, 2, 4}) << none << QList<int>{0, 1, 2, 3, 4, 5};
  // Preorder: dc0 = 0, dc0/node0 = 1, dc0/node1 = 2, dc1 = 3, dc1/node0 = 4, dc1/node1 = 5.
  LayoutOptions dc0 = none;
  dc0.expandedGroups = {0};
  QTest::newRow("2x2x4 dc0 open") << hierarchy({2, 2, 4}) << dc0 << QList<int>{1, 2, 3, 4, 5};
  LayoutOptions dc0node1 = none;
  dc0node1.expandedGroups = {0, 2};
  QTest::newRow("2x2x4 dc0 and dc0/node1 open") << hierarchy({2, 2, 4}) << dc0node1 << QList<int>{1, 3, 4, 5};
  // An open group inside a collapsed one stays hidden with it.
  LayoutOptions inner = none;
  inner.expandedGroups = {4};
  QTest::newRow("2x2x4 only dc1/node0 open") << hierarchy({2, 2, 4}) << inner << QList<int>{0, 1, 2, 3, 5};
  // 1000 x 2 x 4: dc g is group 3g, its nodes 3g + 1 and 3g + 2.
  LayoutOptions big;
  big.expandedGroups = {3 * 17, 3 * 17 + 2, 3 * 999};
  QList<int> bigCollapsed;
  for (int g = 0; g < 3000; ++g)
    if (!big.expandedGroups.count(g)) bigCollapsed << g;
  QTest::newRow("1000x2x4 dc17, dc17/node1, dc999 open") << hierarchy({1000, 2, 4}) << big << bigCollapsed;
  LayoutOptions all = none;
  all.expandAll = true;
  QTest::newRow("2x2x4 expandAll") << hierarchy({2, 2, 4}) << all << QList<int>{};
}

// A node is hidden exactly when one of its strict ancestors is a collapsed group; a link
// is shown exactly when both its ends are.
void TestLayout::hierarchyCollapse() {
  QFETCH(TopologySpec, spec);
  QFETCH(LayoutOptions, options);
  QFETCH(QList<int>, collapsed);
  const auto t = buildTopology(spec);
  const TopologyLayout l = layout::layoutTopology(*t, options);
  const auto groups = groupSwitches(*t);
  QCOMPARE(l.groups.size(), groups.size());
  std::set<NodeId> collapsedSwitches;
  for (int g : collapsed) collapsedSwitches.insert(groups[size_t(g)]);
  for (size_t g = 0; g < groups.size(); ++g) {
    QCOMPARE(l.groups[g].switchNode, groups[g]);
    QCOMPARE(l.groups[g].collapsed, collapsedSwitches.count(groups[g]) > 0);
  }
  for (const Node& n : t->nodes()) {
    bool hidden = false;
    for (NodeId a = n.parent; a >= 0; a = t->node(a).parent) hidden |= collapsedSwitches.count(a) > 0;
    QVERIFY2(l.nodes[size_t(n.id)].visible == !hidden, n.name.c_str());
    const int g = int(std::find(groups.begin(), groups.end(), n.id) - groups.begin());
    if (g < int(groups.size())) QCOMPARE(l.groups[size_t(g)].visible, !hidden);
  }
  for (const Link& k : t->links())
    QCOMPARE(l.links[size_t(k.id)].visible, l.nodes[size_t(k.a)].visible && l.nodes[size_t(k.b)].visible);
}

// The 1000-datacenter fabric: laid out fast, every datacenter a visible collapsed box.
void TestLayout::thousandDatacenters() {
  const auto t = buildTopology(hierarchy({1000, 2, 4}));
  QElapsedTimer timer;
  timer.start();
  const TopologyLayout l = layout::layoutTopology(*t);
  const qint64 ms = timer.elapsed();
  qInfo("1000 x 2 x 4 hierarchy laid out in %lld ms (%zu nodes, %zu links)", ms, l.nodes.size(), l.links.size());
  QVERIFY2(ms < 2000, "layout of 1000 datacenters is far too slow");  // budget 100 ms; 20x headroom
  int boxes = 0;
  for (const auto& g : l.groups)
    if (g.level == 0) {
      ++boxes;
      QVERIFY(g.visible && g.collapsed && g.width > 0 && g.height > 0);
      QVERIFY(g.x >= 0 && g.y >= 0 && g.x + g.width <= l.width && g.y + g.height <= l.height);
      QCOMPARE(t->node(g.switchNode).level, 1);
    }
  QCOMPARE(boxes, 1000);
  // A readable default: the grid is roughly as wide as it is tall (not one long row).
  QVERIFY(l.width / l.height < 4 && l.height / l.width < 4);
}

void TestLayout::parallelLinksApart_data() {
  QTest::addColumn<TopologySpec>("spec");
  QTest::addColumn<int>("bundle");  // links between one GPU and one chip (the largest)
  QTest::newRow("dgx-h100 (5/4/4/5)") << preset("dgx-h100") << 5;
  QTest::newRow("gb200-nvl72 (1 each)") << preset("gb200-nvl72") << 1;
}

// Links of one GPU-chip bundle run side by side between the boxes, at least a lane pair's
// width apart, so each one can be seen and clicked.
void TestLayout::parallelLinksApart() {
  QFETCH(TopologySpec, spec);
  QFETCH(int, bundle);
  const auto t = buildTopology(spec);
  const TopologyLayout l = layout::layoutTopology(*t);
  std::map<std::pair<NodeId, NodeId>, std::vector<LinkId>> bundles;
  for (const Link& k : t->links()) bundles[{k.a, k.b}].push_back(k.id);
  int largest = 0;
  for (const auto& [ends, ids] : bundles) {
    largest = std::max(largest, int(ids.size()));
    for (size_t i = 0; i < ids.size(); ++i)
      for (size_t j = i + 1; j < ids.size(); ++j) {
        const auto& p = l.links[size_t(ids[i])].points;
        const auto& q = l.links[size_t(ids[j])].points;
        QVERIFY(p.size() >= 3 && q.size() >= 3);
        const auto& a = p[p.size() / 2], &b = q[q.size() / 2];  // between the boxes
        QVERIFY(std::hypot(a.x - b.x, a.y - b.y) >= 6);
      }
  }
  QCOMPARE(largest, bundle);
}

void TestLayout::nicRoutesClear_data() {
  QTest::addColumn<TopologySpec>("spec");
  QTest::addColumn<LayoutOptions>("options");
  QTest::addColumn<int>("routes");  // NICs drawn: those whose ends are not in one collapsed box

  const LayoutOptions open;
  // scenarios/flashdmoe-multinode.yaml: 4 nodes x 4 GPUs, a NIC per GPU to the root.
  QTest::newRow("4x4 (flashdmoe-multinode)") << withNics({4, 4}, {0}) << open << 16;
  QTest::newRow("2x8") << withNics({2, 8}, {0}) << open << 16;
  QTest::newRow("3x4") << withNics({3, 4}, {0}) << open << 12;
  QTest::newRow("16x8 (a grid of nodes)") << withNics({16, 8}, {0}) << open << 128;
  QTest::newRow("2x3x4 NICs to the dc switch") << withNics({2, 3, 4}, {1}) << open << 24;
  QTest::newRow("2x2x4 NICs to the root") << withNics({2, 2, 4}, {0}) << open << 16;
  LayoutOptions shut;
  shut.autoExpandBelow = 0;
  QTest::newRow("8x4 nodes collapsed") << withNics({8, 4}, {0}) << shut << 32;
  LayoutOptions some = shut;
  some.expandedGroups = {1, 4};
  QTest::newRow("8x4 nodes 1 and 4 open") << withNics({8, 4}, {0}) << some << 32;
  LayoutOptions dc0 = shut;
  dc0.expandedGroups = {0};
  // dc1 collapsed: its GPUs' NICs to dc1 are unseen (both ends in its box).
  QTest::newRow("2x3x4 NICs to the dc, dc1 collapsed") << withNics({2, 3, 4}, {1}) << dc0 << 12;
}

// Each NIC shown is routed clear of everything but its own ends: it crosses no group
// box's label strip (from the box's top to its switch, or the top half of a collapsed
// box), no device box but its two ends, no group box that does not hold its GPU, and
// no other NIC route outside their end boxes.
void TestLayout::nicRoutesClear() {
  QFETCH(TopologySpec, spec);
  QFETCH(LayoutOptions, options);
  QFETCH(int, routes);
  const auto t = buildTopology(spec);
  const TopologyLayout l = layout::layoutTopology(*t, options);
  auto drawnIn = [&](NodeId v) {  // the shown box a node is drawn in: itself or an ancestor
    while (!l.nodes[size_t(v)].visible) v = t->node(v).parent;
    return v;
  };
  auto holds = [&](NodeId ancestor, NodeId v) {
    for (NodeId a = v; a >= 0; a = t->node(a).parent)
      if (a == ancestor) return true;
    return false;
  };
  struct Piece {
    layout::Point p, q;
    LinkId link;
  };
  std::vector<Piece> pieces;
  int shown = 0;
  for (const Link& k : t->links()) {
    if (k.kind != LinkKind::Nic) continue;
    const auto& path = l.links[size_t(k.id)];
    const NodeId from = drawnIn(k.a);
    QCOMPARE(path.visible, from != drawnIn(k.b));
    if (!path.visible) continue;
    ++shown;
    const std::vector<Rect> ends{grown(rectOf(l.nodes[size_t(from)]), 1), grown(rectOf(l.nodes[size_t(k.b)]), 1)};
    for (size_t i = 0; i + 1 < path.points.size(); ++i) {
      const layout::Point p = path.points[i], q = path.points[i + 1];
      const QString where = QString("NIC of %1, segment %2 (%3,%4)-(%5,%6)")
                                .arg(QString::fromStdString(t->node(k.a).name))
                                .arg(i)
                                .arg(p.x).arg(p.y).arg(q.x).arg(q.y);
      for (const auto& g : l.groups) {
        if (!g.visible) continue;
        const auto& sw = l.nodes[size_t(g.switchNode)];
        const double labelBottom = g.collapsed ? g.y + g.height / 2 : sw.center.y - sw.height / 2;
        QVERIFY2(!crosses(p, q, {g.x, g.y, g.x + g.width, labelBottom}),
                 qPrintable(where + " crosses the label of " + QString::fromStdString(g.label)));
        QVERIFY2(holds(g.switchNode, k.a) || !crosses(p, q, rectOf(g)),
                 qPrintable(where + " crosses the box of " + QString::fromStdString(g.label)));
      }
      for (const auto& n : l.nodes)
        QVERIFY2(!n.visible || n.node == from || n.node == k.b || !crosses(p, q, rectOf(n)),
                 qPrintable(where + " crosses " + QString::fromStdString(t->node(n.node).name)));
      for (const auto& [a, b] : outside(p, q, ends)) pieces.push_back({a, b, k.id});
    }
  }
  QCOMPARE(shown, routes);
  for (size_t i = 0; i < pieces.size(); ++i)
    for (size_t j = i + 1; j < pieces.size(); ++j)
      if (pieces[i].link != pieces[j].link)
        QVERIFY2(!meet(pieces[i].p, pieces[i].q, pieces[j].p, pieces[j].q),
                 qPrintable(QString("NIC routes of %1 and %2 meet")
                                .arg(QString::fromStdString(t->node(t->link(pieces[i].link).a).name),
                                     QString::fromStdString(t->node(t->link(pieces[j].link).a).name))));
}

QTEST_GUILESS_MAIN(TestLayout)
#include "test_layout.moc"
