// TopologyCanvas: building the scene from the layout, recolouring lanes, tooltips.
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QLabel>
#include <algorithm>
#include <map>

#include "views/canvas_caption.h"
#include "views/colour_map.h"
#include "views/device_item.h"
#include "views/format_units.h"
#include "views/group_item.h"
#include "views/run_model.h"
#include "views/topology_canvas.h"

namespace fl::views {

namespace {

const QColor kNoData(110, 116, 128);   // lanes before any results arrive
constexpr double kCopyGap = 160;       // between the two side-by-side copies
constexpr double kCaption = 64;        // caption strip above each copy

QString q(const std::string& s) { return QString::fromStdString(s); }

// The last path segment: "node1" for "dc17/node1".
QString shortName(const std::string& name) {
  const auto slash = name.rfind('/');
  return q(slash == std::string::npos ? name : name.substr(slash + 1));
}

LaneGeometry lanesFor(const std::string& kind) {
  if (kind == "nvswitch") return {2.0, 3.2};  // bundles of parallel links 9 apart
  if (kind == "mesh") return {5.5, 9};
  return {3, 4.5};
}

}  // namespace

void TopologyCanvas::rebuild() {
  scene_->clear();
  followItem_ = nullptr;
  captions_[0] = captions_[1] = nullptr;
  for (auto& v : links_) v.clear();
  for (auto& v : items_) v.clear();
  for (auto& v : devices_) v.clear();
  const topo::Topology* t = model_->topology();
  if (!t) {
    layout_ = {};
    scene_->setSceneRect(0, 0, 1, 1);
    updateInfo();
    return;
  }
  layout_ = layout::layoutTopology(*t, options_);
  lanes_ = lanesFor(t->kind);
  lanes_.offset *= glyphScale_;
  lanes_.width *= glyphScale_;
  if (isSideBySide()) {
    buildCopy(0, QPointF(0, kCaption));
    buildCopy(1, QPointF(layout_.width + kCopyGap, kCaption));
    // Each copy's caption in the canvas's own type, whatever the zoom (a scene-sized font
    // shrank to a few pixels with two NVL32s side by side), just above the copy.
    QFont f = font();
    f.setBold(true);
    for (int copy = 0; copy < 2; ++copy) {
      captionText_[copy] = phaseCaption(copy);
      auto* caption = captions_[copy] = scene_->addSimpleText(captionText_[copy], f);
      caption->setFlag(QGraphicsItem::ItemIgnoresTransformations);
      caption->setBrush(QColor(235, 238, 244));
      caption->setPos(copy * (layout_.width + kCopyGap), kCaption);
      caption->setTransform(QTransform::fromTranslate(0, -captionHeight()));
      caption->setZValue(3);
    }
    scene_->setSceneRect(0, 0, 2 * layout_.width + kCopyGap, layout_.height + kCaption);
  } else {
    buildCopy(0, QPointF(0, 0));
    scene_->setSceneRect(0, 0, layout_.width, layout_.height);
  }
  updateViewRect();
  recolour();
  updateSelection();
  addFollowItem();
  emit layoutRebuilt();
}

void TopologyCanvas::buildCopy(int copy, QPointF offset) {
  const topo::Topology& t = *model_->topology();
  const bool hierarchy = t.kind == "hierarchy";
  // Groups can be closed again only where the layout does not open everything anyway.
  const bool collapsible = hierarchy && !options_.expandAll && t.endpointCount() >= options_.autoExpandBelow;

  // Subtree extents (hierarchy ids are preorder): GPUs and children inside a collapsed box.
  std::vector<topo::NodeId> last(t.nodes().size());
  std::vector<int> childCount(t.nodes().size(), 0);
  for (const auto& n : t.nodes()) last[static_cast<size_t>(n.id)] = n.id;
  for (auto it = t.nodes().rbegin(); it != t.nodes().rend(); ++it)
    if (it->parent >= 0) {
      last[static_cast<size_t>(it->parent)] = std::max(last[static_cast<size_t>(it->parent)], last[static_cast<size_t>(it->id)]);
      ++childCount[static_cast<size_t>(it->parent)];
    }

  for (size_t g = 0; g < layout_.groups.size(); ++g) {
    const auto& box = layout_.groups[g];
    if (!box.visible || box.collapsed) continue;  // collapsed ones are drawn as devices
    const QRectF rect = QRectF(box.x, box.y, box.width, box.height).translated(offset);
    const QString label = box.level == 0 ? q(box.label) : shortName(box.label);
    scene_->addItem(new GroupItem(static_cast<int>(g), rect, box.level, label, collapsible && box.switchNode >= 0));
  }

  // Labels first: items of one style share the font that fits the longest label, so a
  // grid reads evenly ("9,9" as large as "15,15").
  struct Pending {
    const topo::Node* node;
    QRectF rect;
    DeviceItem::Style style;
    QString label, sub;
    int group = -1;
  };
  std::vector<Pending> pending;
  QString longest[4];
  for (const auto& n : t.nodes()) {
    const auto& p = layout_.nodes[static_cast<size_t>(n.id)];
    if (!p.visible) continue;
    Pending d{&n, QRectF(p.center.x - p.width / 2 + offset.x(), p.center.y - p.height / 2 + offset.y(), p.width, p.height),
              n.kind == topo::NodeKind::Die ? DeviceItem::Style::Die
              : topo::isEndpoint(n.kind)    ? DeviceItem::Style::Gpu
                                            : DeviceItem::Style::Switch,
              hierarchy ? shortName(n.name) : q(n.name), QString()};
    if (n.kind == topo::NodeKind::Die) {
      d.label = QString("%1,%2").arg(n.row).arg(n.col);
    } else if (t.kind == "nvswitch") {
      d.sub = topo::isEndpoint(n.kind) ? QStringLiteral("GPU") : QStringLiteral("NVSwitch");
    } else if (p.group >= 0 && layout_.groups[static_cast<size_t>(p.group)].collapsed &&
               layout_.groups[static_cast<size_t>(p.group)].switchNode == n.id) {
      d.style = DeviceItem::Style::CollapsedGroup;
      d.group = p.group;
      const auto& eps = t.endpoints();
      const auto gpus = std::upper_bound(eps.begin(), eps.end(), last[static_cast<size_t>(n.id)]) -
                        std::upper_bound(eps.begin(), eps.end(), n.id);
      const int children = childCount[static_cast<size_t>(n.id)];
      const size_t childLevel = static_cast<size_t>(n.level);  // levelNames index of its children
      const bool gpuChildren = childLevel + 1 >= t.levelNames.size();
      d.sub = gpuChildren ? tr("%1 GPUs").arg(gpus)
                          : tr("%1 × %2 · %3 GPUs").arg(children).arg(q(t.levelNames[childLevel])).arg(gpus);
    }
    QString& l = longest[static_cast<int>(d.style)];
    if (d.label.size() > l.size()) l = d.label;
    pending.push_back(std::move(d));
  }

  auto& devices = devices_[copy];
  devices.assign(t.nodes().size(), nullptr);
  for (const Pending& d : pending) {
    auto* item = new DeviceItem(d.node->id, d.rect, d.style, d.label, d.sub, longest[static_cast<int>(d.style)]);
    item->group = d.group;
    item->copy = copy;
    scene_->addItem(item);
    devices[static_cast<size_t>(d.node->id)] = item;
  }

  auto& links = links_[copy];
  auto& items = items_[copy];
  links.assign(t.links().size(), nullptr);
  items.clear();
  auto boxOf = [&](topo::NodeId id) {
    const auto& p = layout_.nodes[static_cast<size_t>(id)];
    return QRectF(p.center.x - p.width / 2, p.center.y - p.height / 2, p.width, p.height).translated(offset);
  };
  auto shifted = [&](const std::vector<layout::Point>& points) {
    std::vector<layout::Point> pts = points;
    for (auto& pt : pts) pt = {pt.x + offset.x(), pt.y + offset.y()};
    return pts;
  };
  // Bundles: visible links between the same two nodes, in id order.
  std::map<std::pair<int, int>, std::vector<int>> bundles;
  double unitCapacity = 0;  // the thinnest link's: a lane of the base width
  for (const auto& k : t.links()) {
    if (!layout_.links[static_cast<size_t>(k.id)].visible) continue;
    bundles[{std::min(k.a, k.b), std::max(k.a, k.b)}].push_back(k.id);
    const double c = k.bandwidth * k.efficiency;
    if (c > 0 && (unitCapacity == 0 || c < unitCapacity)) unitCapacity = c;
  }
  for (const auto& [pair, ids] : bundles) {
    const bool open = bundlesExpanded_ || expandedBundles_.count(pair) || ids.size() < 2;
    if (open) {
      for (int id : ids) {
        const topo::Link& k = t.link(id);
        auto* item = new LinkItem(k.id, shifted(layout_.links[static_cast<size_t>(id)].points), boxOf(k.a), boxOf(k.b),
                                  lanes_);
        item->copy = copy;
        item->setZValue(1);
        scene_->addItem(item);
        links[static_cast<size_t>(id)] = item;
        items.push_back(item);
      }
      continue;
    }
    // One item: the members' mean path (their fans are symmetric about the centre line),
    // lanes as wide as the bundle's capacity in thinnest links, a gap between them.
    const topo::Link& first = t.link(ids.front());
    std::vector<layout::Point> path = layout_.links[static_cast<size_t>(ids.front())].points;
    double capacity = 0;
    for (int id : ids) {
      const auto& pts = layout_.links[static_cast<size_t>(id)].points;
      const topo::Link& k = t.link(id);
      capacity += k.bandwidth * k.efficiency;
      if (id == ids.front() || pts.size() != path.size() || k.a != first.a) continue;
      for (size_t i = 0; i < pts.size(); ++i) {
        path[i].x += pts[i].x;
        path[i].y += pts[i].y;
      }
    }
    int same = 0;
    for (int id : ids) same += layout_.links[static_cast<size_t>(id)].points.size() == path.size() && t.link(id).a == first.a;
    for (auto& pt : path) pt = {pt.x / same, pt.y / same};
    // 0.55 of a link's lane per link: a bundle of 5 reads as one band, not a slab.
    const double w = lanes_.width * 0.55 * std::clamp(unitCapacity > 0 ? capacity / unitCapacity : 1.0, 1.0, 8.0);
    const double gap = std::max(1.5 * glyphScale_, 0.35 * w);
    auto* item = new LinkItem(first.id, shifted(path), boxOf(first.a), boxOf(first.b), {w / 2 + gap / 2, w});
    item->members = ids;
    item->copy = copy;
    item->setZValue(1);
    scene_->addItem(item);
    for (int id : ids) links[static_cast<size_t>(id)] = item;
    items.push_back(item);
  }
}

double TopologyCanvas::laneUtilisation(int linkDirection, int copy) const {
  if (!isSideBySide()) return model_->displayedUtilisation(linkDirection);
  return model_->phaseUtilisation(linkDirection, copy == 0 ? phaseA_ : phaseB_);
}

// A link item's utilisation in one direction: a bundle's is its links' bytes over their
// capacity together (direction 0 from the first link's a end).
double TopologyCanvas::itemUtilisation(const LinkItem& item, int direction, int copy) const {
  if (!item.isBundle()) {
    const int ld = model_->linkDirectionIndex(item.link(), direction);
    return ld < 0 ? -1 : laneUtilisation(ld, copy);
  }
  const topo::Topology& t = *model_->topology();
  const topo::NodeId a = t.link(item.link()).a;
  double used = 0, capacity = 0;
  for (int id : item.members) {
    const int ld = model_->linkDirectionIndex(id, t.link(id).a == a ? direction : 1 - direction);
    if (ld < 0) return -1;
    const double c = model_->results()->links[static_cast<size_t>(ld)].capacity_Bps;
    used += laneUtilisation(ld, copy) * c;
    capacity += c;
  }
  return capacity > 0 ? used / capacity : 0;
}

void TopologyCanvas::recolour() {
  const bool haveResults = model_->results() != nullptr;
  const double cold = model_->coldThreshold(), hot = model_->hotThreshold();
  for (int copy = 0; copy < 2; ++copy)
    for (LinkItem* item : items_[copy]) {
      bool anyHot = false;
      for (int d = 0; d < 2; ++d) {
        item->setLaneShown(d, model_->showsDirection(d));
        const double u = haveResults ? itemUtilisation(*item, d, copy) : -1;
        if (u < 0) {
          item->setLane(d, kNoData, LaneHeat::Normal);
          continue;
        }
        const LaneHeat heat = heatOf(u, cold, hot);
        anyHot |= heat == LaneHeat::Hot && model_->showsDirection(d);
        item->setLane(d, colourMap(u), heat);
      }
      item->setZValue(anyHot ? 1.5 : 1);  // hot lanes over others where paths share a trunk
      item->update();
    }
  updateActivity();
  updateInfo();
}

// The bins the colours cover: the current one, or a phase's (each copy's side by side).
std::pair<int, int> TopologyCanvas::binRange(int copy) const {
  const Results* r = model_->results();
  const int phase = isSideBySide() ? (copy == 0 ? phaseA_ : phaseB_) : model_->phase();
  if (!r || phase < 0 || phase >= static_cast<int>(r->phases.size()) || r->bin <= 0)
    return {model_->currentBin(), model_->currentBin()};
  const auto& ph = r->phases[static_cast<size_t>(phase)];
  return {static_cast<int>(ph.start / r->bin), static_cast<int>(std::max<Time>(ph.start, ph.end - 1) / r->bin)};
}

namespace {
std::int64_t sumIn(const BinSeries& s, int first, int last) {
  std::int64_t n = 0;
  for (size_t k = 0; k < s.bins.size(); ++k)
    if (s.bins[k] >= first && s.bins[k] <= last) n += s.bytes[k];
  return n;
}
std::int64_t maxIn(const BinSeries& s, int first, int last) {
  std::int64_t n = 0;
  for (size_t k = 0; k < s.bins.size(); ++k)
    if (s.bins[k] >= first && s.bins[k] <= last) n = std::max(n, s.bytes[k]);
  return n;
}
}  // namespace

DeviceItem::Activity TopologyCanvas::deviceActivity(int node) const {
  using Kind = DeviceItem::Activity::Kind;
  DeviceItem::Activity a;
  const Results* r = model_->results();
  const topo::Topology* t = model_->topology();
  if (!r || !t || node < 0 || node >= static_cast<int>(t->nodes().size()) || r->bin <= 0) return a;
  const topo::Node& n = t->node(node);
  const auto [first, last] = binRange(0);
  if (topo::isEndpoint(n.kind)) {
    a.kind = Kind::Gpu;
    double outCap = 0, inCap = 0;
    for (const auto& port : t->ports(node)) {
      const int out = model_->linkDirectionIndex(port.link, port.direction);
      const int in = model_->linkDirectionIndex(port.link, 1 - port.direction);
      if (out >= 0) {
        a.injected += static_cast<double>(sumIn(r->links[static_cast<size_t>(out)].bin_bytes, first, last));
        outCap += r->links[static_cast<size_t>(out)].capacity_Bps;
      }
      if (in >= 0) {
        a.received += static_cast<double>(sumIn(r->links[static_cast<size_t>(in)].bin_bytes, first, last));
        inCap += r->links[static_cast<size_t>(in)].capacity_Bps;
      }
    }
    const double window = toSeconds(Time(last - first + 1) * r->bin);
    a.injectedShare = outCap > 0 ? a.injected / (outCap * window) : 0;
    a.receivedShare = inCap > 0 ? a.received / (inCap * window) : 0;
    return a;
  }
  for (const SwitchResult& s : r->switches) {
    if (s.node != node) continue;
    a.kind = Kind::Switch;
    a.reductions = sumIn(s.reduction_bins, first, last);
    a.replicas = sumIn(s.replica_bins, first, last);
    a.peakEntries = s.peak_reduction_entries;
    for (const auto& port : s.reduction_ports) a.fillEntries = std::max(a.fillEntries, maxIn(port.entries, first, last));
    a.fill = a.peakEntries > 0 ? static_cast<double>(a.fillEntries) / static_cast<double>(a.peakEntries) : -1;
    return a;
  }
  return a;
}

void TopologyCanvas::updateActivity() {
  for (int copy = 0; copy < 2; ++copy)
    for (DeviceItem* d : devices_[copy]) {
      if (!d || d->style() == DeviceItem::Style::CollapsedGroup || d->style() == DeviceItem::Style::Die) continue;
      // Side by side the glyphs would need each copy's phase: they show the left one's only.
      if (copy == 1) continue;
      d->setActivity(deviceActivity(d->node()));
    }
}

void TopologyCanvas::updateInfo() {
  const topo::Topology* t = model_->topology();
  const Results* r = model_->results();
  QString text = t ? q(t->description) : tr("no fabric");
  if (!t) {
    // nothing more to say
  } else if (!r) {
    text += tr("\nno results yet: run the scenario to colour the links");
  } else if (isSideBySide()) {
    text += tr("\ncomparing two phases: mean utilisation, A left, B right");
  } else if (model_->phase() >= 0) {
    const auto& ph = r->phases[static_cast<size_t>(model_->phase())];
    text += tr("\nmean utilisation over phase \"%1\" (%2 – %3)").arg(q(ph.name), formatTime(ph.start), formatTime(ph.end));
  } else {
    const int bin = model_->currentBin();
    text += tr("\nbin %1: %2 – %3%4")
                .arg(binNumber(bin, r->bins))
                .arg(formatTime(Time(bin) * r->bin), formatTime(Time(bin + 1) * r->bin))
                .arg(model_->isFinal() ? QString() : tr("  (running: the newest complete bin)"));
  }
  bool collapsed = false;
  for (const auto& g : layout_.groups) collapsed |= g.visible && g.collapsed;
  if (collapsed) text += tr("\ndouble-click a dashed box to open it, an open group's title to close it");
  if (model_->directionFilter() != DirectionFilter::Both)
    text += model_->directionFilter() == DirectionFilter::Up ? tr("\nshowing uplinks only (towards the switches)")
                                                             : tr("\nshowing downlinks only (towards the GPUs)");
  if (text != captionText(info_)) setCaptionText(info_, text, viewport()->width() - 16);
}

void TopologyCanvas::updateSelection() {
  const SelectionKind kind = model_->selectionKind();
  const int id = model_->selectedId();
  for (int copy = 0; copy < 2; ++copy) {
    for (DeviceItem* d : devices_[copy])
      if (d) d->setHighlighted(kind == SelectionKind::Node && d->node() == id);
    for (LinkItem* l : items_[copy])
      l->setHighlighted(kind == SelectionKind::Link &&
                        (l->link() == id || std::find(l->members.begin(), l->members.end(), id) != l->members.end()));
  }
}

int TopologyCanvas::deviceItemCount() const {
  return static_cast<int>(std::count_if(devices_[0].begin(), devices_[0].end(), [](auto* d) { return d != nullptr; }));
}

QStringList TopologyCanvas::drawnLabels() const {
  QStringList labels;
  const double lod = transform().m11();
  for (const DeviceItem* d : devices_[0])
    if (d && d->labelModeAt(lod) != DeviceItem::LabelMode::None) labels << d->label();
  return labels;
}

int TopologyCanvas::linkItemCount() const { return static_cast<int>(items_[0].size()); }

int TopologyCanvas::bundleCount() const {
  return static_cast<int>(std::count_if(items_[0].begin(), items_[0].end(), [](auto* l) { return l->isBundle(); }));
}

const LinkItem* TopologyCanvas::linkItem(int link) const {
  if (link < 0 || link >= static_cast<int>(links_[0].size())) return nullptr;
  return links_[0][static_cast<size_t>(link)];
}

void TopologyCanvas::setBundlesExpanded(bool on) {
  bundlesExpanded_ = on;
  expandedBundles_.clear();
  rebuild();
}

void TopologyCanvas::toggleBundle(int link) {
  const topo::Topology* t = model_->topology();
  if (!t || link < 0 || link >= static_cast<int>(t->links().size())) return;
  const topo::Link& k = t->link(link);
  const std::pair<int, int> pair{std::min(k.a, k.b), std::max(k.a, k.b)};
  if (bundlesExpanded_) {  // all open: close this one by opening all the others
    bundlesExpanded_ = false;
    for (const auto& l : t->links())
      if (std::pair<int, int>{std::min(l.a, l.b), std::max(l.a, l.b)} != pair) expandedBundles_.insert({std::min(l.a, l.b), std::max(l.a, l.b)});
  } else if (!expandedBundles_.erase(pair)) {
    expandedBundles_.insert(pair);
  }
  rebuild();
}

void TopologyCanvas::setGlyphScale(double scale) {
  if (scale == glyphScale_) return;
  glyphScale_ = scale;
  rebuild();
}

QColor TopologyCanvas::laneColour(int link, int direction) const {
  if (link < 0 || link >= static_cast<int>(links_[0].size()) || !links_[0][static_cast<size_t>(link)]) return {};
  return links_[0][static_cast<size_t>(link)]->laneColour(direction & 1);
}

LaneHeat TopologyCanvas::laneHeat(int link, int direction) const {
  if (link < 0 || link >= static_cast<int>(links_[0].size()) || !links_[0][static_cast<size_t>(link)])
    return LaneHeat::Normal;
  return links_[0][static_cast<size_t>(link)]->laneHeat(direction & 1);
}

QString TopologyCanvas::phaseCaption(int copy) const {
  const int phase = copy == 0 ? phaseA_ : phaseB_;
  const auto& ph = model_->results()->phases[static_cast<size_t>(phase)];
  return tr("%1: phase %2, %3 (%4 – %5)")
      .arg(copy == 0 ? "A" : "B")
      .arg(phase + 1)
      .arg(q(ph.name), formatTime(ph.start), formatTime(ph.end));
}

int TopologyCanvas::captionHeight() const {
  QFont f = font();
  f.setBold(true);
  return QFontMetrics(f).height() + 6;
}

// Each caption as wide as its copy on screen (and the gap after it), elided beyond.
void TopologyCanvas::updateCaptions() {
  const double s = transform().m11();
  for (int copy = 0; copy < 2; ++copy) {
    if (!captions_[copy]) continue;
    const int width = std::max(80, int((layout_.width + kCopyGap * 0.8) * s));
    captions_[copy]->setText(QFontMetrics(captions_[copy]->font()).elidedText(captionText_[copy], Qt::ElideRight, width));
    captions_[copy]->setToolTip(captionText_[copy]);
  }
}

QString TopologyCanvas::laneToolTip(int link, int direction, int copy) const {
  const topo::Topology* t = model_->topology();
  if (!t || link < 0 || link >= static_cast<int>(t->links().size())) return {};
  const topo::Link& k = t->link(link);
  const auto& from = t->node(direction == 0 ? k.a : k.b), &to = t->node(direction == 0 ? k.b : k.a);
  QString s = QString("<b>%1 → %2</b><br>link %3 (%4), direction %5")
                  .arg(q(from.name).toHtmlEscaped(), q(to.name).toHtmlEscaped())
                  .arg(link)
                  .arg(QString::fromLatin1(topo::toString(k.kind)))
                  .arg(direction);
  const int ld = model_->linkDirectionIndex(link, direction);
  const Results* r = model_->results();
  if (!r || ld < 0) return s + tr("<br><i>no results yet</i>");
  const auto& l = r->links[static_cast<size_t>(ld)];
  const double u = laneUtilisation(ld, copy);
  const QString state = heatName(heatOf(u, model_->coldThreshold(), model_->hotThreshold()));
  const int bin = model_->currentBin();
  if (isSideBySide() || model_->phase() >= 0) {
    const int phase = isSideBySide() ? (copy == 0 ? phaseA_ : phaseB_) : model_->phase();
    s += tr("<br>phase: %1").arg(q(r->phases[static_cast<size_t>(phase)].name).toHtmlEscaped());
  }
  s += tr("<br>this bin (%1, %2 – %3): %4")
           .arg(binNumber(bin, std::max(1, r->bins)))
           .arg(formatTime(Time(bin) * r->bin), formatTime(Time(bin + 1) * r->bin), formatBytes(double(l.bin_bytes.at(bin))));
  s += tr("<br>total: %1").arg(formatBytes(double(l.bytes)));
  s += tr("<br>utilisation: <b>%1</b> (%2)").arg(formatPercent(u), state);
  s += tr("<br>capacity: %1").arg(formatRate(l.capacity_Bps));
  return s;
}

QString TopologyCanvas::bundleToolTip(const LinkItem& item, int direction, int copy) const {
  const topo::Topology& t = *model_->topology();
  const topo::Link& k = t.link(item.link());
  const auto& from = t.node(direction == 0 ? k.a : k.b), &to = t.node(direction == 0 ? k.b : k.a);
  QString s = tr("<b>%1 → %2</b><br>a bundle of %3 links (%4)")
                  .arg(q(from.name).toHtmlEscaped(), q(to.name).toHtmlEscaped())
                  .arg(item.members.size())
                  .arg(direction == 0 ? tr("up") : tr("down"));
  const Results* r = model_->results();
  double capacity = 0;
  std::int64_t bytes = 0, total = 0;
  const auto [first, last] = binRange(copy);
  for (int id : item.members) {
    const int ld = model_->linkDirectionIndex(id, t.link(id).a == k.a ? direction : 1 - direction);
    if (!r || ld < 0) return s + tr("<br><i>no results yet</i>");
    const auto& l = r->links[static_cast<size_t>(ld)];
    capacity += l.capacity_Bps;
    total += l.bytes;
    for (int b = first; b <= last; ++b) bytes += l.bin_bytes.at(b);
  }
  const double u = itemUtilisation(item, direction, copy);
  s += first == last ? tr("<br>this bin (%1): %2").arg(binNumber(first, std::max(1, r->bins)), formatBytes(double(bytes)))
                     : tr("<br>this phase: %1").arg(formatBytes(double(bytes)));
  s += tr("<br>total: %1").arg(formatBytes(double(total)));
  s += tr("<br>utilisation: <b>%1</b> (%2)").arg(formatPercent(u), heatName(heatOf(u, model_->coldThreshold(), model_->hotThreshold())));
  s += tr("<br>capacity: %1 together").arg(formatRate(capacity));
  s += tr("<br><i>double-click to show its links one by one</i>");
  return s;
}

QString TopologyCanvas::deviceToolTip(const DeviceItem& d) const {
  const topo::Topology* t = model_->topology();
  if (!t) return {};
  const topo::Node& n = t->node(d.node());
  QString s = QString("<b>%1</b><br>%2").arg(q(n.name).toHtmlEscaped(), QString::fromLatin1(topo::toString(n.kind)));
  if (n.endpoint >= 0) s += tr(", endpoint %1").arg(n.endpoint);
  s += tr("<br>%1 ports").arg(t->ports(n.id).size());
  if (d.style() == DeviceItem::Style::CollapsedGroup) s += tr("<br><i>double-click to open this group</i>");
  const DeviceItem::Activity& a = d.activity();
  const auto [first, last] = binRange(d.copy);
  const QString when = first == last ? tr("in bin %1").arg(binNumber(first, std::max(1, model_->binCount())))
                                     : tr("in this phase");
  if (a.kind == DeviceItem::Activity::Kind::Switch) {
    s += tr("<br>%1: %2 reductions completed (many in → one out), %3 multicast replicas (one in → many out)")
             .arg(when, formatCount(a.reductions), formatCount(a.replicas));
    if (a.fill >= 0)
      s += tr("<br>reduction buffer: at most %1 entries on one port (the run's peak: %2)")
               .arg(formatCount(a.fillEntries), formatCount(a.peakEntries));
  } else if (a.kind == DeviceItem::Activity::Kind::Gpu) {
    s += tr("<br>%1: injected %2 (%3 of its links' capacity), received %4 (%5)")
             .arg(when, formatBytes(a.injected), formatPercent(a.injectedShare), formatBytes(a.received),
                  formatPercent(a.receivedShare));
  }
  return s;
}

}  // namespace fl::views
