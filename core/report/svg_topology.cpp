#include "report/svg_topology.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "report/chart_axes.h"
#include "report/colormap.h"
#include "report/report_format.h"
#include "report/svg_document.h"

namespace fl::report {
namespace {

constexpr double kMargin = 12, kLegendHeight = 58;
constexpr std::size_t kMaxTooltips = 2000;  // lane tooltips beyond this would dominate the file size
const char* const kIdle = "#dedede";
const char* const kHot = "#d62728";

using Path = std::vector<SvgPoint>;

// The polyline shifted sideways by `d` (positive: right of the direction of travel in
// screen coordinates), with mitred joints limited to 2 d.
Path offsetPath(const Path& p, double d) {
  Path out;
  const std::size_t n = p.size();
  auto normal = [&](std::size_t i) {  // of segment i -> i + 1
    const double dx = p[i + 1].x - p[i].x, dy = p[i + 1].y - p[i].y, len = std::hypot(dx, dy);
    return len < 1e-9 ? SvgPoint{0, 0} : SvgPoint{-dy / len, dx / len};
  };
  for (std::size_t i = 0; i < n; ++i) {
    SvgPoint a = i > 0 ? normal(i - 1) : normal(i), b = i + 1 < n ? normal(i) : normal(i - 1);
    if (a.x == 0 && a.y == 0) a = b;
    if (b.x == 0 && b.y == 0) b = a;
    SvgPoint m{a.x + b.x, a.y + b.y};
    const double len = std::hypot(m.x, m.y);
    if (len < 1e-9) {
      m = a;
    } else {
      m = {m.x / len, m.y / len};
    }
    const double cosHalf = m.x * a.x + m.y * a.y;
    const double k = std::min(2.0, cosHalf > 1e-6 ? 1 / cosHalf : 2.0);
    out.push_back({p[i].x + m.x * d * k, p[i].y + m.y * d * k});
  }
  return out;
}

double pathLength(const Path& p) {
  double s = 0;
  for (std::size_t i = 1; i < p.size(); ++i) s += std::hypot(p[i].x - p[i - 1].x, p[i].y - p[i - 1].y);
  return s;
}

SvgPoint midpoint(const Path& p) {
  const double half = pathLength(p) / 2;
  double s = 0;
  for (std::size_t i = 1; i < p.size(); ++i) {
    const double seg = std::hypot(p[i].x - p[i - 1].x, p[i].y - p[i - 1].y);
    if (s + seg >= half && seg > 0) {
      const double f = (half - s) / seg;
      return {p[i - 1].x + f * (p[i].x - p[i - 1].x), p[i - 1].y + f * (p[i].y - p[i - 1].y)};
    }
    s += seg;
  }
  return p.empty() ? SvgPoint{} : p.front();
}

// Lanes as wide as the drawing allows: a link's two lanes must leave a gap to the next
// link of a parallel bundle (same two nodes), and stay thin next to long links.
double laneWidth(const std::vector<Path>& paths, const std::vector<std::pair<topo::NodeId, topo::NodeId>>& ends) {
  std::vector<double> lengths;
  for (const Path& p : paths) lengths.push_back(pathLength(p));
  if (lengths.empty()) return 4;
  std::nth_element(lengths.begin(), lengths.begin() + static_cast<long>(lengths.size() / 2), lengths.end());
  double w = std::clamp(lengths[lengths.size() / 2] * 0.1, 1.0, 6.0);
  std::map<std::pair<topo::NodeId, topo::NodeId>, std::vector<SvgPoint>> bundles;
  for (std::size_t i = 0; i < paths.size(); ++i) bundles[ends[i]].push_back(midpoint(paths[i]));
  double nearest = 1e300;
  for (const auto& [pair, mids] : bundles)
    for (std::size_t i = 0; i < mids.size(); ++i)
      for (std::size_t j = i + 1; j < mids.size() && j < i + 8; ++j)
        nearest = std::min(nearest, std::hypot(mids[i].x - mids[j].x, mids[i].y - mids[j].y));
  if (nearest < 1e300) w = std::min(w, std::max(1.0, nearest * 0.36));
  return w;
}

std::string shortName(const std::string& name) {
  const auto slash = name.rfind('/');
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

void drawLegend(SvgDocument& doc, double top, double hot) {
  doc.open("g", {{"class", "legend"}});
  const double x0 = kMargin + 4, barW = 240, barH = 12, y = top + 16;
  doc.text(x0, y - 4, "utilisation in the bin shown", "start", {{"fill", "#333"}});
  constexpr int kStripes = 64;  // stripes rather than a gradient: renders the same everywhere
  for (int i = 0; i < kStripes; ++i)
    doc.rect(x0 + barW * i / kStripes, y, barW / kStripes + 0.3, barH,
             {{"fill", viridis((i + 0.5) / kStripes)}});
  for (int p = 0; p <= 100; p += 25) {
    const double x = x0 + barW * p / 100.0;
    doc.line(x, y + barH, x, y + barH + 4, {{"stroke", "#666"}});
    doc.text(x, y + barH + 16, std::to_string(p) + "%", "middle", {{"fill", "#333"}, {"font-size", "11"}});
  }
  const double x1 = x0 + barW + 28;
  doc.rect(x1, y, 24, barH, {{"fill", kIdle}});
  doc.text(x1 + 30, y + 10, "idle", "start", {{"fill", "#333"}});
  const double x2 = x1 + 74;
  doc.rect(x2, y, 24, barH, {{"fill", viridis(0.85)}, {"stroke", kHot}, {"stroke-width", "1.6"}});
  doc.text(x2 + 30, y + 10, "hot (≥ " + formatFixed(hot * 100, 0) + "%)", "start", {{"fill", "#333"}});
  doc.close();
}

}  // namespace

TopologyPicture renderTopologySvg(const topo::Topology& t, const layout::TopologyLayout& l,
                                  const std::vector<LaneValue>& lanes, const TopologyPictureOptions& o) {
  TopologyPicture pic;
  const double lw = std::max(1.0, l.width), lh = std::max(1.0, l.height);
  // Fit the page; small fabrics are enlarged at most 1.6 times (beyond, boxes look bloated).
  const double scale =
      std::min({(o.maxWidth - 2 * kMargin) / lw, (o.maxHeight - 2 * kMargin - kLegendHeight) / lh, 1.6});
  auto at = [&](const layout::Point& p) { return SvgPoint{kMargin + p.x * scale, kMargin + p.y * scale}; };
  const double width = std::max(lw * scale + 2 * kMargin, 520.0);
  const double drawingBottom = lh * scale + 2 * kMargin;
  SvgDocument doc(width, drawingBottom + kLegendHeight, "topology", "fabric topology coloured by link utilisation");

  std::size_t visibleNodes = 0;
  for (const layout::NodePlacement& n : l.nodes) visibleNodes += n.visible && n.width > 0;
  pic.nodeLabels = visibleNodes <= o.labelNodeLimit;
  std::vector<bool> inCollapsed(t.nodes().size(), false);

  // Open groups are the background; collapsed ones stand for their contents and are drawn
  // over the lanes that end at their centre, like nodes. An open group's label goes
  // top-left, where there is room above the nodes and boxes under it.
  std::vector<std::vector<const layout::NodePlacement*>> members(l.groups.size());
  for (const layout::NodePlacement& n : l.nodes)
    if (n.visible && n.group >= 0 && n.group < static_cast<int>(l.groups.size()))
      members[static_cast<std::size_t>(n.group)].push_back(&n);
  auto labelRoom = [&](std::size_t index, double labelWidthPx) {
    const layout::GroupBox& g = l.groups[index];
    const double left = g.x, right = g.x + (labelWidthPx + 12) / scale;
    double top = g.y + g.height;
    for (const layout::NodePlacement* n : members[index])
      if (n->center.x + n->width / 2 > left && n->center.x - n->width / 2 < right)
        top = std::min(top, n->center.y - n->height / 2);
    for (const layout::GroupBox& c : l.groups)  // nested boxes count as content too
      if (c.visible && c.parent == static_cast<int>(index) && c.x + c.width > left && c.x < right)
        top = std::min(top, c.y);
    return (top - g.y) * scale;
  };
  auto drawGroup = [&](const layout::GroupBox& g) {
    const SvgPoint p = at({g.x, g.y});
    const auto index = static_cast<std::size_t>(&g - l.groups.data());
    const double gw = g.width * scale, gh = g.height * scale;
    const std::string fill = g.collapsed ? "#e6e9ee" : (g.level % 2 ? "#ffffff" : "#f3f5f8");
    doc.open("g", {{"class", g.collapsed ? "group collapsed" : "group"}});
    doc.title(g.label);
    doc.rect(p.x, p.y, gw, gh, {{"rx", "6"}, {"fill", fill}, {"stroke", "#b9c0ca"}, {"stroke-width", "1"}});
    if (g.collapsed && textWidth(g.label, 11) < gw - 8)
      doc.text(p.x + gw / 2, p.y + gh / 2 + 4, g.label, "middle", {{"fill", "#333"}, {"font-size", "11"}});
    else if (!g.collapsed && pic.nodeLabels && textWidth(g.label, 11) < gw - 8 &&
             labelRoom(index, textWidth(g.label, 11)) >= 17)
      doc.text(p.x + 6, p.y + 14, g.label, "start", {{"fill", "#555"}, {"font-size", "11"}});
    doc.close();
  };
  doc.open("g", {{"class", "groups"}});
  for (const layout::GroupBox& g : l.groups) {
    if (!g.visible || g.width <= 0) continue;
    if (g.collapsed && g.switchNode >= 0) inCollapsed[static_cast<std::size_t>(g.switchNode)] = true;
    if (!g.collapsed) drawGroup(g);
  }
  doc.close();

  // Bundles: the visible links between the same two nodes (an NVSwitch fabric's GPU-chip
  // links) drawn as one item, as the app's canvas draws them: the members' mean path,
  // two lanes as wide as the bundle's capacity (0.55 of a link's lane per link, at most
  // 8 links' worth) with a gap between them, coloured by the bundle's bytes over its
  // capacity. Drawn one by one, 4-18 parallel links merged into a solid slab.
  struct Item {
    std::vector<topo::LinkId> members;  // the first sets direction 0 (its a -> b)
    Path path;
    double capacity = 0;  // usable bytes/s, all members
  };
  std::vector<Item> items;
  std::map<std::pair<topo::NodeId, topo::NodeId>, std::size_t> itemOf;
  std::vector<std::pair<topo::NodeId, topo::NodeId>> ends;
  double unitCapacity = 0;  // the thinnest link's: one lane of the base width
  for (const layout::LinkPath& lp : l.links) {
    if (!lp.visible || lp.points.size() < 2 || lp.link < 0) continue;
    const topo::Link& k = t.link(lp.link);
    const std::pair<topo::NodeId, topo::NodeId> pair{std::min(k.a, k.b), std::max(k.a, k.b)};
    const double c = k.bandwidth * k.efficiency;
    if (c > 0 && (unitCapacity == 0 || c < unitCapacity)) unitCapacity = c;
    Path p;
    for (const layout::Point& q : lp.points) p.push_back(at(q));
    auto found = o.bundles ? itemOf.find(pair) : itemOf.end();
    if (found == itemOf.end()) {
      itemOf[pair] = items.size();
      items.push_back({{lp.link}, std::move(p), c});
      ends.push_back(pair);
      continue;
    }
    Item& item = items[found->second];
    // Sum the paths that run the same way with as many points; divided below.
    if (t.link(item.members.front()).a == k.a && p.size() == item.path.size())
      for (std::size_t i = 0; i < p.size(); ++i) item.path[i].x += p[i].x, item.path[i].y += p[i].y;
    item.members.push_back(lp.link);
    item.capacity += c;
  }
  std::vector<Path> paths;
  for (Item& item : items) {
    int same = 0;
    const topo::Link& first = t.link(item.members.front());
    for (topo::LinkId id : item.members)
      same += t.link(id).a == first.a && l.links[static_cast<std::size_t>(id)].points.size() == item.path.size();
    for (SvgPoint& q : item.path) q = {q.x / std::max(1, same), q.y / std::max(1, same)};
    paths.push_back(item.path);
  }
  // A link's two lanes stay narrower than the smallest node they run into.
  double smallest = 1e300;
  for (const layout::NodePlacement& n : l.nodes)
    if (n.visible && n.width > 0 && n.height > 0) smallest = std::min({smallest, n.width * scale, n.height * scale});
  double w = std::min(laneWidth(paths, ends), std::max(1.0, smallest * 0.3));
  // Dense fabrics (NVL32: 288 bundles fanning into 9 switches): lanes thin enough that
  // the bundles arriving at the busiest node fit side by side along its longer side, so
  // that they read as separate lines rather than one solid slab.
  std::map<topo::NodeId, int> arriving;
  for (const auto& [a, b] : ends) ++arriving[a], ++arriving[b];
  for (const layout::NodePlacement& n : l.nodes) {
    const auto it = n.node >= 0 ? arriving.find(n.node) : arriving.end();
    if (!n.visible || it == arriving.end() || it->second < 4) continue;
    const double side = std::max(n.width, n.height) * scale;
    w = std::min(w, std::max(0.6, side / (it->second * 3.2)));  // two lanes and a gap per bundle
  }
  // Per item: lane width and the offset of each lane's centre from the path.
  auto geometry = [&](const Item& item) -> std::pair<double, double> {
    if (item.members.size() < 2) return {w, w / 2};
    const double bw = std::min(w * 0.55 * std::clamp(unitCapacity > 0 ? item.capacity / unitCapacity : 1.0, 1.0, 8.0),
                               std::max(1.0, smallest * 0.3));
    const double gap = std::max(std::min(1.5, w), 0.35 * bw);
    return {bw, bw / 2 + gap / 2};
  };
  // A bundle's value in one direction: its members' bytes, and their bytes-weighted
  // utilisation over their capacity together (direction 0 from the first member's a).
  auto laneValue = [&](std::size_t i, int dir) {
    const Item& item = items[i];
    const topo::NodeId a = t.link(item.members.front()).a;
    LaneValue sum;
    double used = 0, capacity = 0;
    for (topo::LinkId id : item.members) {
      const topo::Link& k = t.link(id);
      const std::size_t idx = static_cast<std::size_t>(id) * 2 + static_cast<std::size_t>(k.a == a ? dir : 1 - dir);
      const LaneValue v = idx < lanes.size() ? lanes[idx] : LaneValue{};
      const double c = k.bandwidth * k.efficiency;
      sum.bytes += v.bytes;
      used += v.utilization * c;
      capacity += c;
    }
    sum.utilization = capacity > 0 ? used / capacity : 0;
    if (item.members.size() == 1) {
      const std::size_t idx = static_cast<std::size_t>(item.members.front()) * 2 + static_cast<std::size_t>(dir);
      return idx < lanes.size() ? lanes[idx] : LaneValue{};
    }
    return sum;
  };
  auto isHot = [&](const LaneValue& v) { return v.bytes > 0 && v.utilization >= o.hotThreshold; };
  auto pointsText = [](const Path& p) {
    std::string pts;
    for (const SvgPoint& q : p) pts += (pts.empty() ? "" : " ") + svgNumber(q.x) + "," + svgNumber(q.y);
    return pts;
  };
  // Drawing order: hot lanes' red halos under everything (they show as an outline where a
  // lane borders anything but another lane), then idle lanes, then by rising utilisation,
  // so busy lanes stay on top where links cross.
  std::vector<std::pair<std::size_t, int>> order;
  for (std::size_t i = 0; i < items.size(); ++i)
    for (int dir = 0; dir < 2; ++dir) order.push_back({i, dir});
  auto rank = [&](const std::pair<std::size_t, int>& e) {
    const LaneValue v = laneValue(e.first, e.second);
    return v.bytes > 0 ? v.utilization : -1.0;
  };
  std::stable_sort(order.begin(), order.end(), [&](const auto& x, const auto& y) { return rank(x) < rank(y); });
  doc.open("g", {{"class", "hot-halos"}, {"fill", "none"}, {"stroke", kHot}, {"stroke-linejoin", "round"}});
  for (const auto& [i, dir] : order)
    if (isHot(laneValue(i, dir))) {
      const auto [lw, off] = geometry(items[i]);
      doc.element("polyline", {{"points", pointsText(offsetPath(paths[i], dir == 0 ? off : -off))},
                               // thin lanes (dense fabrics) get a thin outline: a 1 px halo
                               // round 0.6 px lanes turned NVL32 red
                               {"stroke-width", svgNumber(lw + std::clamp(lw * 0.7, std::min(1.0, lw * 0.5), 4.0))}});
    }
  doc.close();
  doc.open("g", {{"class", "lanes"}, {"fill", "none"}, {"stroke-linejoin", "round"}});
  for (const auto& [i, dir] : order) {
    const Item& item = items[i];
    const LaneValue v = laneValue(i, dir);
    const bool hot = isHot(v);
    const auto [lw, off] = geometry(item);
    const topo::Link& link = t.link(item.members.front());
    std::string memberList;
    for (topo::LinkId id : item.members) memberList += (memberList.empty() ? "" : " ") + std::to_string(id);
    SvgAttrs attrs = {{"class", hot ? "lane hot" : "lane"},
                      {"data-link", std::to_string(link.id)},
                      {"data-dir", std::to_string(dir)}};
    if (item.members.size() > 1) attrs.push_back({"data-links", memberList});
    attrs.insert(attrs.end(), {{"points", pointsText(offsetPath(paths[i], dir == 0 ? off : -off))},
                               {"stroke", v.bytes > 0 ? viridis(v.utilization) : kIdle},
                               {"stroke-width", svgNumber(lw)}});
    doc.open("polyline", attrs);
    const topo::Node& from = t.node(dir == 0 ? link.a : link.b);
    const topo::Node& to = t.node(dir == 0 ? link.b : link.a);
    const std::string what = item.members.size() > 1
                                 ? "a bundle of " + std::to_string(item.members.size()) + " links"
                                 : "link " + std::to_string(link.id);
    if (order.size() <= kMaxTooltips)
      doc.title(from.name + " → " + to.name + " (" + what + "): " + formatPercent(v.utilization) + ", " +
                formatBytes(static_cast<double>(v.bytes)));
    doc.close();
    ++pic.lanes;
    pic.hotLanes += hot;
  }
  pic.bundles = 0;
  for (const Item& item : items) pic.bundles += item.members.size() > 1;
  doc.close();

  doc.open("g", {{"class", "nodes"}});
  for (const layout::GroupBox& g : l.groups)
    if (g.visible && g.width > 0 && g.collapsed) drawGroup(g);
  for (const layout::NodePlacement& n : l.nodes) {
    if (!n.visible || n.width <= 0 || n.node < 0 || inCollapsed[static_cast<std::size_t>(n.node)]) continue;
    const topo::Node& node = t.node(n.node);
    const bool endpoint = topo::isEndpoint(node.kind);
    const double bw = std::max(3.0, n.width * scale), bh = std::max(3.0, n.height * scale);
    const SvgPoint c = at(n.center);
    doc.open("g", {{"class", endpoint ? "node endpoint" : "node switch"}});
    doc.title(node.name + " (" + topo::toString(node.kind) + ")");
    doc.rect(c.x - bw / 2, c.y - bh / 2, bw, bh,
             {{"rx", endpoint ? "3" : "5"}, {"fill", endpoint ? "#ffffff" : "#4a5568"},
              {"stroke", endpoint ? "#2d3748" : "#1a202c"}, {"stroke-width", "1.2"}});
    if (pic.nodeLabels) {
      // The full (last path part of the) name, else what is in its parentheses: "2,5" for
      // "die(2,5)" on a crowded wafer.
      std::string label = shortName(node.name);
      double fs = bh >= 40 ? 13 : bh >= 22 ? 11 : 9;
      while (fs > 8 && textWidth(label, fs) > bw - 4) fs -= fs > 9 ? 2 : 1;
      const auto open = label.find('('), close = label.rfind(')');
      if (textWidth(label, fs) > bw - 4 && open != std::string::npos && close > open)
        label = label.substr(open + 1, close - open - 1);
      if (textWidth(label, fs) <= bw - 4 && bh >= fs + 2)
        doc.text(c.x, c.y + fs * 0.36, label, "middle",
                 {{"fill", endpoint ? "#1a202c" : "#ffffff"}, {"font-size", svgNumber(fs)}});
    }
    doc.close();
  }
  doc.close();

  drawLegend(doc, drawingBottom, o.hotThreshold);
  pic.svg = doc.finish();
  return pic;
}

}  // namespace fl::report
