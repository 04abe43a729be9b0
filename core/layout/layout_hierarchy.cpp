// Hierarchies: nested group boxes, root switch at the top. Every non-root switch is a
// group (its box holds the switch at the top and its children below); groups are indexed
// in preorder, so an index names the same group whatever is collapsed. A collapsed group
// is one box (its switch's placement); everything inside it is hidden at its centre.
// Children go in one row when few, else in rows beside a spine (in the middle, or at the
// left), with links routed as a comb (up to the channel above their row, along it to the
// spine, up the spine to the parent), so 1000 datacenter boxes form a grid instead of a
// hairball and a few wide datacenters stack instead of making one long strip. A GPU's own
// NIC (per-GPU uplinks) leads to a switch above its node: the boxes holding NICs always
// hang on a comb, with room beside its spine and under its rows for one lane per NIC
// (layout_nic.h routes them), since a straight line would cut through node boxes.
#include <algorithm>
#include <cmath>
#include <vector>

#include "layout/layout_internal.h"
#include "layout/layout_nic.h"

namespace fl::layout::detail {

namespace {

constexpr double kMargin = 40;
constexpr double kGpuW = 84, kGpuH = 40;
constexpr double kSwW = 110, kSwH = 36;
constexpr double kCollapsedW = 150, kCollapsedH = 64;
constexpr double kPad = 14, kLabel = 24;  // group box padding, label strip at its top
constexpr double kSwGap = 56;             // parent switch to its first row of children
constexpr double kGap = 20, kRowGap = 56, kSpine = 40;
constexpr double kStrand = 13;            // spacing of trunks sharing a spine (two lanes each)
constexpr int kOneRowMax = 8;             // up to this many children: a single row
constexpr double kAspect = 1.6;           // target width / height of a multi-row grid
constexpr double kMaxRowAspect = 3.5;     // a single row of groups wider than this is combed

struct Item {
  topo::NodeId node;
  double x = 0, y = 0;  // top-left, relative to the content origin
};
struct Row {
  double top = 0, height = 0;
};
struct Arrangement {
  std::vector<Item> items;
  std::vector<int> rowOf;  // per item
  std::vector<char> leftOf;  // per item: left of the spine (two-sided combs)
  std::vector<Row> rows;
  double width = 0, height = 0;
  double spine = 0;  // x of the parent switch and the comb's spine, from the content's left
  bool comb = false;
};

class HierarchyLayout {
 public:
  HierarchyLayout(const topo::Topology& t, const LayoutOptions& o) : t_(t), l_(emptyLayout(t)) {
    const size_t n = t.nodes().size();
    children_.resize(n);
    group_.assign(n, -1);
    for (const auto& node : t.nodes()) {
      if (node.parent >= 0) children_[static_cast<size_t>(node.parent)].push_back(node.id);
      if (node.kind == topo::NodeKind::Switch && node.parent >= 0) {
        group_[static_cast<size_t>(node.id)] = static_cast<int>(l_.groups.size());
        GroupBox g;
        g.label = node.name;
        g.level = std::max(0, node.level - 1);
        g.parent = group_[static_cast<size_t>(node.parent)];
        g.switchNode = node.id;
        const bool open = o.expandAll || t.endpointCount() < o.autoExpandBelow ||
                          o.expandedGroups.count(static_cast<int>(l_.groups.size())) > 0;
        g.collapsed = !open;
        l_.groups.push_back(g);
      }
    }
    size_.assign(n, {0, 0});
    arrangement_.resize(n);
    origin_.assign(n, {});
    shown_.assign(n, 0);
    // NICs: which child of the far end (the member box) each one leaves from.
    nicsUp_.assign(n, 0);
    for (const auto& k : t.links()) {
      if (k.kind != topo::LinkKind::Nic) continue;
      topo::NodeId member = k.a;
      while (member >= 0 && t.node(member).parent != k.b) member = t.node(member).parent;
      if (member < 0) continue;  // not below its far end: left a straight line
      ++nicsUp_[static_cast<size_t>(member)];
      nicMember_.push_back({k.id, member});
    }
  }

  TopologyLayout run() {
    std::vector<topo::NodeId> roots;
    for (const auto& node : t_.nodes())
      if (node.parent < 0) roots.push_back(node.id);
    double x = kMargin;
    for (topo::NodeId r : roots) {  // one root in practice; side by side otherwise
      measure(r);
      placeVisible(r, x, kMargin);
      x += size_[static_cast<size_t>(r)].w + kGap;
    }
    for (const auto& node : t_.nodes())  // parents come first: preorder ids
      if (node.parent >= 0 && !isShown(node.id)) hide(node.id);
    routeAllNics();
    for (const auto& k : t_.links())
      if (l_.links[static_cast<size_t>(k.id)].points.empty()) {
        straightPath(l_, k);
        // A NIC left unrouted has both ends in one collapsed box (unseen), unless it
        // leads somewhere other than above its GPU: then a straight line shows it.
        const auto& a = l_.nodes[static_cast<size_t>(k.a)].center;
        const auto& b = l_.nodes[static_cast<size_t>(k.b)].center;
        l_.links[static_cast<size_t>(k.id)].visible = k.kind == topo::LinkKind::Nic && (a.x != b.x || a.y != b.y);
      }
    finishBounds(l_, kMargin);
    return std::move(l_);
  }

 private:
  struct Size {
    double w, h;
  };

  bool isOpen(topo::NodeId v) const {
    const int g = group_[static_cast<size_t>(v)];
    return g < 0 ? !children_[static_cast<size_t>(v)].empty() : !l_.groups[static_cast<size_t>(g)].collapsed;
  }
  bool isShown(topo::NodeId v) const { return shown_[static_cast<size_t>(v)] != 0; }

  void hide(topo::NodeId v) {
    auto& p = l_.nodes[static_cast<size_t>(v)];
    const auto& parent = l_.nodes[static_cast<size_t>(t_.node(v).parent)];
    p.center = parent.center;  // collapsed into the nearest shown ancestor
    p.width = p.height = 0;
    p.visible = false;
    p.group = parent.group;
    const int g = group_[static_cast<size_t>(v)];
    if (g >= 0) {
      auto& box = l_.groups[static_cast<size_t>(g)];
      box.visible = false;
      box.x = p.center.x;
      box.y = p.center.y;
      box.width = box.height = 0;
    }
  }

  // Sizes bottom-up for the shown part of the tree.
  void measure(topo::NodeId v) {
    const auto& node = t_.node(v);
    Size& s = size_[static_cast<size_t>(v)];
    if (node.kind != topo::NodeKind::Switch) {
      s = {kGpuW, kGpuH};
      return;
    }
    if (!isOpen(v)) {
      const bool group = group_[static_cast<size_t>(v)] >= 0;
      s = {group ? kCollapsedW : kSwW, group ? kCollapsedH : kSwH};
      return;
    }
    for (topo::NodeId c : children_[static_cast<size_t>(v)]) measure(c);
    Arrangement& a = arrangement_[static_cast<size_t>(v)];
    arrange(children_[static_cast<size_t>(v)], a);
    const bool boxed = group_[static_cast<size_t>(v)] >= 0;
    s.w = std::max(a.width, kSwW) + (boxed ? 2 * kPad : 0);
    s.h = (boxed ? kLabel + kPad : 0) + kSwH + kSwGap + a.height;
  }

  // One row when few children and not too wide; else a comb, two-sided (spine in the
  // middle) or one-sided (spine at the left, like a file tree), whichever is closer to
  // a screen-like aspect ratio.
  void arrange(const std::vector<topo::NodeId>& kids, Arrangement& a) const {
    bool groups = false, nics = false;
    for (topo::NodeId c : kids) {
      groups |= group_[static_cast<size_t>(c)] >= 0;
      nics |= nicsUp_[static_cast<size_t>(c)] > 0;
    }
    if (kids.size() <= static_cast<size_t>(kOneRowMax) && !nics) {  // a row has no spine for NICs
      row(kids, a);
      if (!groups || badness(a) <= std::log(kMaxRowAspect / kAspect)) return;
    }
    Arrangement two, one;
    comb(kids, 2, two);
    comb(kids, 1, one);
    // Two-sided (the parent in the middle) unless clearly worse: a few wide groups.
    a = badness(two) > 0.3 && badness(one) < badness(two) * 0.85 ? std::move(one) : std::move(two);
  }

  // How far the block's aspect ratio (with its switch header) is from kAspect.
  static double badness(const Arrangement& a) {
    return std::abs(std::log(std::max(a.width, kSwW) / (a.height + kSwH + kSwGap) / kAspect));
  }

  void row(const std::vector<topo::NodeId>& kids, Arrangement& a) const {
    a = {};
    double x = 0, h = 0;
    for (topo::NodeId c : kids) {
      const Size& s = size_[static_cast<size_t>(c)];
      a.items.push_back({c, x, 0});
      a.rowOf.push_back(0);
      x += s.w + kGap;
      h = std::max(h, s.h);
    }
    a.rows.push_back({0, h});
    a.width = std::max(0.0, x - kGap);
    a.height = h;
    a.spine = a.width / 2;
  }

  // Rows filled up to a width chosen for kAspect; with two sides each row is split
  // into a left and a right half around the spine. Children with NICs widen the spine
  // (a lane per NIC on their side) and the gap under their row (a channel per NIC).
  void comb(const std::vector<topo::NodeId>& kids, int sides, Arrangement& a) const {
    a = {};
    a.comb = true;
    double area = 0, maxW = 0;
    for (topo::NodeId c : kids) {
      const Size& s = size_[static_cast<size_t>(c)];
      area += (s.w + kGap) * (s.h + kRowGap);
      maxW = std::max(maxW, s.w);
    }
    // The spine's distance from the content's left edge: room for the left half, or
    // (one side) for the parent switch above it.
    const double oneSideSpine = std::max(kSpine / 2, kSwW / 2);
    const double sideW =
        std::max(maxW, (std::sqrt(area * kAspect) - (sides == 2 ? kSpine : oneSideSpine + kSpine / 2)) / sides);
    size_t i = 0;
    double y = 0, used[2] = {0, 0};  // per side as filled (one side: only [0], on the right)
    int lanes[2] = {0, 0}, channels = 0;  // NICs left and right of the spine; under the last row
    while (i < kids.size()) {
      const int row = static_cast<int>(a.rows.size());
      if (row > 0) y += std::max(kRowGap, nicChannelRoom(channels));
      double rowH = 0;
      channels = 0;
      for (int side = 0; side < sides && i < kids.size(); ++side) {
        const bool left = sides == 2 && side == 0;
        double w = 0;
        int nics = 0;
        const size_t first = a.items.size();
        while (i < kids.size()) {
          const Size& s = size_[static_cast<size_t>(kids[i])];
          if (w > 0 && w + kGap + s.w > sideW) break;
          a.items.push_back({kids[i], w > 0 ? w + kGap : 0, y});
          a.rowOf.push_back(row);
          a.leftOf.push_back(left);
          nics += nicsUp_[static_cast<size_t>(kids[i])];
          w += (w > 0 ? kGap : 0) + s.w;
          rowH = std::max(rowH, s.h);
          ++i;
        }
        used[side] = std::max(used[side], w);
        lanes[left ? 0 : 1] += nics;
        channels = std::max(channels, nics);
        // x relative to the spine: the left half ends at it, a right side starts after it.
        for (size_t k = first; k < a.items.size(); ++k)
          a.items[k].x += left ? -(w + kSpine / 2) : kSpine / 2;
      }
      a.rows.push_back({y, rowH});
      y += rowH;
    }
    y += nicChannelRoom(channels);
    const double roomL = nicSpineRoom(lanes[0]), roomR = nicSpineRoom(lanes[1]);
    for (size_t k = 0; k < a.items.size(); ++k) a.items[k].x += a.leftOf[k] ? -roomL : roomR;
    const double half = std::max(used[0] + roomL, used[1] + roomR);
    a.spine = sides == 2 ? half + kSpine / 2 : oneSideSpine;
    a.width = a.spine + kSpine / 2 + (sides == 2 ? half : used[0] + roomR);
    a.height = y;
    for (Item& it : a.items) it.x += a.spine;
  }

  void placeVisible(topo::NodeId v, double x, double y) {
    shown_[static_cast<size_t>(v)] = 1;
    const Size s = size_[static_cast<size_t>(v)];
    auto& p = l_.nodes[static_cast<size_t>(v)];
    const int g = group_[static_cast<size_t>(v)];
    const topo::NodeId parent = t_.node(v).parent;
    p.group = g >= 0 ? g : (parent >= 0 ? l_.nodes[static_cast<size_t>(parent)].group : -1);
    if (g >= 0) {
      auto& box = l_.groups[static_cast<size_t>(g)];
      box.x = x;
      box.y = y;
      box.width = s.w;
      box.height = s.h;
    }
    if (t_.node(v).kind != topo::NodeKind::Switch || !isOpen(v)) {
      place(p, x + s.w / 2, y + s.h / 2, s.w, s.h);
      return;
    }
    const bool boxed = g >= 0;
    const Arrangement& a = arrangement_[static_cast<size_t>(v)];
    const double swY = y + (boxed ? kLabel : 0) + kSwH / 2;
    const double ox = x + (s.w - a.width) / 2, oy = swY + kSwH / 2 + kSwGap;
    place(p, ox + a.spine, swY, kSwW, kSwH);  // above the spine (the middle of a row)
    origin_[static_cast<size_t>(v)] = {ox, oy};
    for (size_t k = 0; k < a.items.size(); ++k) {
      const Item& it = a.items[k];
      placeVisible(it.node, ox + it.x, oy + it.y);
      const auto& c = l_.nodes[static_cast<size_t>(it.node)];
      std::vector<Point> path{c.center};
      if (a.comb) {
        const int row = a.rowOf[k];
        const double channel = oy + a.rows[static_cast<size_t>(row)].top - (row == 0 ? kSwGap : kRowGap) / 2;
        const double spineX = p.center.x + spineOffset(a, k);
        path.push_back({c.center.x, channel});
        path.push_back({spineX, channel});
        if (spineX != p.center.x) path.push_back({spineX, p.center.y});  // own strand, then under the switch
      }
      path.push_back(p.center);
      // The uplink is ports(child)[0]; its a end is the child for the builder's links.
      // Members of a per-GPU level have none (their port 0 leads down to a GPU).
      const topo::LinkId link = t_.ports(it.node).empty() ? -1 : t_.ports(it.node)[0].link;
      if (link < 0 || t_.ports(it.node)[0].peer != v) continue;
      if (t_.link(link).a != it.node) std::reverse(path.begin(), path.end());
      l_.links[static_cast<size_t>(link)].points = std::move(path);
    }
  }

  // Few children share the spine side by side (each trunk visible and clickable) when
  // their strands fit in the spine's gap; many share one strand.
  static double spineOffset(const Arrangement& a, size_t k) {
    const double n = static_cast<double>(a.items.size());
    const bool oneSided = a.spine < a.width / 2 - 1;
    const double room = oneSided ? a.spine + kSpine / 2 - 8 : kSpine - 8;
    if (n < 2 || (n - 1) * kStrand > room) return 0;
    // Two-sided: centred on the spine; one-sided: from the spine leftwards, so strands
    // never cross the rows to the right.
    return oneSided ? -static_cast<double>(k) * kStrand + (kSpine / 2 - 8) : (static_cast<double>(k) - (n - 1) / 2) * kStrand;
  }

  // Each open, shown switch's NICs: from their GPUs (or the collapsed box hiding them)
  // through its comb. Ends hidden together in a collapsed box stay unrouted (unseen).
  void routeAllNics() {
    std::vector<std::vector<NicRoute>> routes(t_.nodes().size());
    for (const auto& [link, nicOf] : nicMember_) {
      const topo::NodeId member = nicOf;  // a copy: Clang before 16 cannot capture a structured binding in a lambda
      const topo::NodeId up = t_.node(member).parent;
      if (!isShown(up) || !isOpen(up)) continue;
      topo::NodeId drawn = t_.link(link).a;  // the GPU, or the shown box hiding it
      while (!l_.nodes[static_cast<size_t>(drawn)].visible) drawn = t_.node(drawn).parent;
      const Arrangement& a = arrangement_[static_cast<size_t>(up)];
      const int box = static_cast<int>(
          std::find_if(a.items.begin(), a.items.end(), [&](const Item& it) { return it.node == member; }) -
          a.items.begin());
      routes[static_cast<size_t>(up)].push_back({link, box, l_.nodes[static_cast<size_t>(t_.link(link).a)].center,
                                                 l_.nodes[static_cast<size_t>(drawn)].width});
    }
    for (size_t up = 0; up < routes.size(); ++up) {
      if (routes[up].empty()) continue;
      const Arrangement& a = arrangement_[up];
      const Point o = origin_[up];
      std::vector<NicBox> boxes;
      for (size_t k = 0; k < a.items.size(); ++k) {
        const Row& r = a.rows[static_cast<size_t>(a.rowOf[k])];
        boxes.push_back({o.y + r.top + r.height, a.rowOf[k], a.leftOf[k] != 0});
      }
      routeNics(l_, l_.nodes[up], o.y - kSwGap / 2, boxes, std::move(routes[up]));
    }
  }

  const topo::Topology& t_;
  TopologyLayout l_;
  std::vector<std::vector<topo::NodeId>> children_;
  std::vector<int> group_;  // node -> its own group index (non-root switches), else -1
  std::vector<Size> size_;
  std::vector<Arrangement> arrangement_;
  std::vector<Point> origin_;  // open switches: top-left of their arrangement
  std::vector<int> nicsUp_;    // per node: NICs from below it to its parent
  std::vector<std::pair<topo::LinkId, topo::NodeId>> nicMember_;  // NIC -> child of its far end
  std::vector<char> shown_;  // placed as visible
};

}  // namespace

TopologyLayout layoutHierarchy(const topo::Topology& t, const LayoutOptions& options) {
  return HierarchyLayout(t, options).run();
}

}  // namespace fl::layout::detail
