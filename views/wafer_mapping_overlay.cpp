#include "views/wafer_mapping_overlay.h"

#include <QGraphicsObject>
#include <QGraphicsScene>
#include <QMouseEvent>
#include <QPainter>
#include <QTimer>
#include <algorithm>
#include <cmath>

#include "mapping/full_token_domain.h"
#include "views/colour_map.h"
#include "views/device_item.h"
#include "views/hot_cold_overlay.h"
#include "views/topology_canvas.h"
#include "views/wafer_grid.h"

namespace fl::views {

// Paints for the overlay (which keeps the state), over the canvas's devices (z 2).
class MappingOverlayItem : public QGraphicsObject {
 public:
  explicit MappingOverlayItem(WaferMappingOverlay* o) : o_(o) {
    setZValue(2.5);
    setAcceptedMouseButtons(Qt::NoButton);  // clicks reach the canvas (selection)
  }
  QRectF boundingRect() const override {
    QRectF r;
    for (const QRectF& d : o_->dieRects_) r |= d;
    return r.adjusted(-40, -60, 40, 80);  // below: the preview's caption
  }
  void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override;
  void changed() {
    prepareGeometryChange();
    update();
  }

 private:
  WaferMappingOverlay* o_;
};

namespace {
QFont sceneFont(double px, bool bold = false) {
  QFont f;
  f.setPixelSize(std::max(1, static_cast<int>(px)));
  f.setBold(bold);
  return f;
}
}  // namespace

void MappingOverlayItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
  const auto& rects = o_->dieRects_;
  p->setRenderHint(QPainter::Antialiasing);
  // Rings first (between the dies; under the faces, which keep their labels readable),
  // member to member, each group set a little apart from the others.
  if (o_->rings_)
    for (int g = 0; g < static_cast<int>(o_->groups_.size()); ++g) {
      const auto pts = o_->ringPath(g);
      if (pts.size() < 2) continue;
      QColor c = groupColour(g);
      p->setPen(QPen(c, 4, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
      p->setBrush(Qt::NoBrush);
      p->drawPolyline(pts.data(), static_cast<int>(pts.size()));
    }
  // The previewed links: two lanes per die pair, each on the right of its direction of
  // travel (as the canvas draws them), under the faces, which hide the centre parts.
  for (const auto& lane : o_->lanes_) {
    const QRectF a = o_->dieSceneRect(lane.from), b = o_->dieSceneRect(lane.to);
    if (a.isEmpty() || b.isEmpty()) continue;
    const QLineF l(a.center(), b.center());
    if (l.length() <= 0) continue;
    const double w = std::min(a.width(), a.height()) * 0.10;
    const QPointF n(-l.dy() / l.length() * w * 0.8, l.dx() / l.length() * w * 0.8);
    const bool hot = lane.cls == QLatin1String("hot");
    const QColor c = hot ? hotColour() : lane.cls == QLatin1String("cold") ? coldColour() : idleColour();
    p->setPen(QPen(c, hot ? w * 1.3 : w, Qt::SolidLine, Qt::FlatCap));
    p->drawLine(QLineF(l.p1() + n, l.p2() + n));
  }
  // Die faces: the group's colour, group and ring position on it (expert mode: the die,
  // its group and its experts as chips).
  const bool expertMode = o_->mode_ == WaferMappingOverlay::DragMode::Experts;
  for (int d = 0; d < static_cast<int>(rects.size()); ++d) {
    const QRectF r = rects[static_cast<size_t>(d)];
    if (r.isEmpty()) continue;
    const int g = o_->groupOf(d);
    const QColor c = o_->dieColour(d);
    p->setPen(QPen(c.darker(170), 1.5));
    p->setBrush(c);  // opaque: the canvas's own die label under it would blur the group's
    p->drawRoundedRect(r, 6, 6);
    if (expertMode) {
      p->setPen(QColor(20, 20, 28));
      p->setFont(sceneFont(r.height() * 0.17, true));
      const QRectF top = r.adjusted(4, 2, -4, -r.height() * 0.72);
      p->drawText(top, Qt::AlignLeft | Qt::AlignVCenter, QString::number(d));
      if (g >= 0) p->drawText(top, Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("G%1").arg(g));
      const auto chips = o_->chipRects(d);  // empty unless d has experts
      for (size_t k = 0; k < chips.size(); ++k) {
        const int e = o_->experts_[static_cast<size_t>(d)][k];
        const bool picked = e == o_->dragExpert_ || e == o_->dragOther_;
        p->setPen(QPen(picked ? selectionColour() : QColor(60, 60, 70), picked ? 3 : 1));
        p->setBrush(QColor(250, 250, 252, 235));
        p->drawRoundedRect(chips[k], 3, 3);
        p->setPen(QColor(20, 20, 28));
        p->setFont(sceneFont(std::min(chips[k].height() * 0.62, chips[k].width() * 0.42)));
        p->drawText(chips[k], Qt::AlignCenter, QString::number(e));
      }
      continue;
    }
    p->setPen(QColor(20, 20, 28));
    p->setFont(sceneFont(r.height() * 0.30, true));
    p->drawText(r.adjusted(0, -r.height() * 0.08, 0, 0), Qt::AlignCenter, g >= 0 ? QStringLiteral("G%1").arg(g) : QStringLiteral("?"));
    p->setFont(sceneFont(r.height() * 0.18));
    p->drawText(r.adjusted(4, 2, -4, -2), Qt::AlignTop | Qt::AlignLeft, QString::number(d));
    if (g >= 0)
      p->drawText(r.adjusted(4, 2, -4, -2), Qt::AlignBottom | Qt::AlignLeft, QStringLiteral("#%1").arg(o_->ringIndexOf(d)));
    const int f = o_->ftdOf(d);
    if (f >= 0 && !o_->ftdIsTile(f))
      p->drawText(r.adjusted(4, 2, -4, -2), Qt::AlignBottom | Qt::AlignRight, QStringLiteral("F%1").arg(f));
  }
  // FTD tiles: one dashed outline around the rectangle of dies, named above it.
  const int ftds = static_cast<int>(o_->ftds_.size());
  for (int f = 0; f < ftds; ++f) {
    if (!o_->ftdIsTile(f)) continue;
    QRectF box;
    for (auto d : o_->ftds_[static_cast<size_t>(f)]) box |= o_->dieSceneRect(static_cast<int>(d));
    box.adjust(-10, -10, 10, 10);
    p->setBrush(Qt::NoBrush);
    p->setPen(QPen(QColor(250, 250, 250), 4, Qt::DashLine));
    p->drawRoundedRect(box, 8, 8);
    p->setFont(sceneFont(13, true));
    p->setPen(QColor(250, 250, 250));
    p->drawText(box.topLeft() + QPointF(4, -3), QStringLiteral("FTD %1").arg(f));
  }
  // The drag: the source and target outlined in the selection colour, a line between.
  if (o_->dragFrom_ >= 0) {
    p->setBrush(Qt::NoBrush);
    p->setPen(QPen(selectionColour(), 5));
    p->drawRoundedRect(o_->dieSceneRect(o_->dragFrom_).adjusted(-3, -3, 3, 3), 7, 7);
    if (o_->dragTo_ >= 0) p->drawRoundedRect(o_->dieSceneRect(o_->dragTo_).adjusted(-3, -3, 3, 3), 7, 7);
    p->setPen(QPen(selectionColour(), 3, Qt::DashLine));
    const QRectF chip = o_->expertChipRect(o_->dragExpert_);
    p->drawLine(chip.isEmpty() ? o_->dieSceneRect(o_->dragFrom_).center() : chip.center(), o_->dragPos_);
  }
  if (!o_->laneCaption_.isEmpty() && !o_->lanes_.empty()) {
    const QRectF all = boundingRect();
    const QRectF box(all.left() + 40, all.bottom() - 60, all.width() - 80, 54);
    p->setPen(Qt::NoPen);
    p->setBrush(QColor(20, 22, 30, 220));
    p->drawRoundedRect(box, 6, 6);
    p->setFont(sceneFont(14, true));
    p->setPen(QColor(250, 250, 250));
    const QRectF text = box.adjusted(8, 4, -8, -4);
    p->drawText(text, Qt::AlignLeft | Qt::AlignTop,
                p->fontMetrics().elidedText(o_->laneCaption_, Qt::ElideRight, static_cast<int>(text.width())));
    // The key: the lane colours of the hot / cold overlay.
    p->setFont(sceneFont(13));
    double x = text.left();
    const double y = text.bottom() - 9;
    for (const auto& [colour, name] : {std::pair{hotColour(), QObject::tr("hot")}, std::pair{coldColour(), QObject::tr("cold")},
                                       std::pair{idleColour(), QObject::tr("idle")}}) {
      p->setPen(QPen(colour, 5, Qt::SolidLine, Qt::FlatCap));
      p->drawLine(QPointF(x, y), QPointF(x + 22, y));
      p->setPen(QColor(235, 235, 240));
      p->drawText(QPointF(x + 27, y + 5), name);
      x += 34 + p->fontMetrics().horizontalAdvance(name) + 10;
    }
    p->drawText(QPointF(x, y + 5), p->fontMetrics().elidedText(QObject::tr("(hottest of all-reduce, dispatch, combine)"),
                                                             Qt::ElideRight, static_cast<int>(std::max(0.0, text.right() - x))));
  }
  if (!o_->message_.isEmpty()) {
    const QRectF all = boundingRect();
    p->setFont(sceneFont(14, true));
    // As tall as the wrapped reason needs (a key path and what was expected), up to 6 lines.
    const double w = all.width() - 80;
    const double h = std::min(6.0 * p->fontMetrics().height(),
                              static_cast<double>(p->fontMetrics()
                                                      .boundingRect(QRect(0, 0, static_cast<int>(w - 16), 10000),
                                                                    Qt::TextWordWrap, o_->message_)
                                                      .height())) + 8;
    const QRectF box(all.left() + 40, all.top() + 4, w, std::max(46.0, h));
    p->setPen(QPen(QColor(190, 30, 30), 2));
    p->setBrush(QColor(255, 236, 236, 240));
    p->drawRoundedRect(box, 6, 6);
    p->setPen(QColor(140, 0, 0));
    p->drawText(box.adjusted(8, 2, -8, -2), Qt::AlignVCenter | Qt::AlignLeft | Qt::TextWordWrap, o_->message_);
  }
}

WaferMappingOverlay::WaferMappingOverlay(TopologyCanvas* canvas) : QObject(canvas), canvas_(canvas) {
  connect(canvas_, &TopologyCanvas::layoutRebuilt, this, &WaferMappingOverlay::rebuild);
  canvas_->viewport()->installEventFilter(this);
}

WaferMappingOverlay::~WaferMappingOverlay() {
  if (item_) delete item_.data();
}

void WaferMappingOverlay::setMapping(const DieLists& groups, const DieLists& ftds) {
  groups_ = groups;
  ftds_ = ftds.empty() ? DieLists{} : ftds;
  if (ftds_.empty() && !groups_.empty()) {
    std::vector<std::vector<int>> g;
    for (const auto& m : groups_) g.emplace_back(m.begin(), m.end());
    bool sameSize = true;
    for (const auto& m : g) sameSize = sameSize && m.size() == g.front().size();
    if (sameSize)
      for (const auto& f : mapping::ftdsFromGroups(g)) ftds_.emplace_back(f.begin(), f.end());
  }
  int dies = 0;
  for (const auto& m : groups_) for (auto d : m) dies = std::max(dies, static_cast<int>(d) + 1);
  groupOf_ = groupOfDies(groups_, dies);
  ringOf_.assign(static_cast<size_t>(dies), -1);
  for (const auto& m : groups_)
    for (size_t k = 0; k < m.size(); ++k) ringOf_[static_cast<size_t>(m[k])] = static_cast<int>(k);
  ftdOf_ = groupOfDies(ftds_, dies);
  refresh();
}

void WaferMappingOverlay::setShown(bool on) {
  shown_ = on;
  if (on && !item_) rebuild();
  if (item_) item_->setVisible(on);
}

void WaferMappingOverlay::setRingsShown(bool on) {
  rings_ = on;
  refresh();
}

void WaferMappingOverlay::flashMessage(const QString& text) {
  message_ = text;
  refresh();
  QTimer::singleShot(6000, this, [this, text] {
    if (message_ == text) message_.clear(), refresh();
  });
}

int WaferMappingOverlay::groupOf(int die) const {
  return die >= 0 && die < static_cast<int>(groupOf_.size()) ? groupOf_[static_cast<size_t>(die)] : -1;
}
int WaferMappingOverlay::ringIndexOf(int die) const {
  return die >= 0 && die < static_cast<int>(ringOf_.size()) ? ringOf_[static_cast<size_t>(die)] : -1;
}
int WaferMappingOverlay::ftdOf(int die) const {
  return die >= 0 && die < static_cast<int>(ftdOf_.size()) ? ftdOf_[static_cast<size_t>(die)] : -1;
}

QColor WaferMappingOverlay::dieColour(int die) const {
  if (!shown_ || dieSceneRect(die).isEmpty()) return {};
  return groupColour(groupOf(die));
}

QRectF WaferMappingOverlay::dieSceneRect(int die) const {
  return die >= 0 && die < static_cast<int>(dieRects_.size()) ? dieRects_[static_cast<size_t>(die)] : QRectF();
}

bool WaferMappingOverlay::ftdIsTile(int ftd) const {
  if (ftd < 0 || ftd >= static_cast<int>(ftds_.size()) || cols_ <= 0) return false;
  int r0 = 1 << 30, r1 = -1, c0 = 1 << 30, c1 = -1;
  for (auto d : ftds_[static_cast<size_t>(ftd)]) {
    const int r = static_cast<int>(d) / cols_, c = static_cast<int>(d) % cols_;
    r0 = std::min(r0, r), r1 = std::max(r1, r), c0 = std::min(c0, c), c1 = std::max(c1, c);
  }
  return static_cast<int>(ftds_[static_cast<size_t>(ftd)].size()) == (r1 - r0 + 1) * (c1 - c0 + 1);
}

std::vector<QPointF> WaferMappingOverlay::ringPath(int group) const {
  std::vector<QPointF> pts;
  if (group < 0 || group >= static_cast<int>(groups_.size()) || cols_ <= 0) return pts;
  const auto& m = groups_[static_cast<size_t>(group)];
  const QPointF shift(((group % 5) - 2) * 3.0, ((group / 5 % 5) - 2) * 3.0);
  auto centre = [&](int d) { return dieSceneRect(d).center() + shift; };
  for (size_t k = 0; k < m.size(); ++k) {
    const int a = static_cast<int>(m[k]), b = static_cast<int>(m[(k + 1) % m.size()]);
    if (dieSceneRect(a).isEmpty() || dieSceneRect(b).isEmpty()) return {};
    if (k == 0) pts.push_back(centre(a));
    const int corner = (a / cols_) * cols_ + b % cols_;  // XY: along the row first
    if (corner != a && corner != b) pts.push_back(centre(corner));
    pts.push_back(centre(b));
  }
  return m.size() > 1 ? pts : std::vector<QPointF>{};
}

int WaferMappingOverlay::dieAtScene(const QPointF& scenePos) const {
  for (int d = 0; d < static_cast<int>(dieRects_.size()); ++d)
    if (dieRects_[static_cast<size_t>(d)].contains(scenePos)) return d;
  return -1;
}

bool WaferMappingOverlay::pressAt(const QPointF& scenePos) {
  if (!shown_ || !editable_) return false;
  const int d = dieAtScene(scenePos);
  if (d < 0 || groupOf(d) < 0) return false;
  dragExpert_ = mode_ == DragMode::Experts ? expertAtScene(scenePos) : -1;
  if (mode_ == DragMode::Experts && dragExpert_ < 0) return false;  // not on a chip: the canvas selects
  dragFrom_ = d;
  dragTo_ = dragOther_ = -1;
  dragPos_ = scenePos;
  refresh();
  return true;
}

void WaferMappingOverlay::moveTo(const QPointF& scenePos) {
  if (dragFrom_ < 0) return;
  dragPos_ = scenePos;
  const int d = dieAtScene(scenePos);
  const int to = d == dragFrom_ ? -1 : d;
  if (dragExpert_ >= 0) {
    const int other = to >= 0 ? expertAtScene(scenePos) : -1;
    if (to != dragTo_ || other != dragOther_) {
      dragTo_ = to, dragOther_ = other;
      emit expertHovered(dragExpert_, dragTo_, dragOther_);
    }
  } else if (to != dragTo_) {
    dragTo_ = to;
    emit swapHovered(dragFrom_, dragTo_);
  }
  refresh();
}

void WaferMappingOverlay::releaseAt(const QPointF& scenePos) {
  if (dragFrom_ < 0) return;
  const int from = dragFrom_, to = dieAtScene(scenePos), expert = dragExpert_;
  const int other = to >= 0 && to != from && expert >= 0 ? expertAtScene(scenePos) : -1;
  dragFrom_ = dragTo_ = dragExpert_ = dragOther_ = -1;
  refresh();
  emit dragEnded();
  if (to >= 0 && to != from) {
    if (expert < 0) emit swapRequested(from, to);
    else if (other >= 0) emit expertSwapRequested(expert, other);
    else emit expertMoveRequested(expert, to);
  } else if (to == from) {
    emit dieClicked(from);  // a click, not a drag: the canvas would have selected it
  }
}

void WaferMappingOverlay::setDragMode(DragMode mode) {
  mode_ = mode;
  refresh();
}

void WaferMappingOverlay::setExperts(const std::vector<std::vector<int>>& onDie) {
  experts_ = onDie;
  dieOfExpert_.clear();
  for (size_t d = 0; d < experts_.size(); ++d)
    for (int e : experts_[d]) {
      if (e < 0) continue;
      if (e >= static_cast<int>(dieOfExpert_.size())) dieOfExpert_.resize(static_cast<size_t>(e) + 1, -1);
      dieOfExpert_[static_cast<size_t>(e)] = static_cast<int>(d);
    }
  refresh();
}

// A die's chips: a grid under its label row, about square cells, one per expert.
std::vector<QRectF> WaferMappingOverlay::chipRects(int die) const {
  const QRectF r = dieSceneRect(die);
  if (r.isEmpty() || die >= static_cast<int>(experts_.size())) return {};
  const int n = static_cast<int>(experts_[static_cast<size_t>(die)].size());
  if (n == 0) return {};
  const QRectF area = r.adjusted(r.width() * 0.05, r.height() * 0.28, -r.width() * 0.05, -r.height() * 0.05);
  const int cols = std::max(1, static_cast<int>(std::ceil(std::sqrt(n * area.width() / area.height()))));
  const int rows = (n + cols - 1) / cols;
  const double h = area.height() / rows, w = std::min(area.width() / cols, h * 1.3);  // one expert: not a slab
  std::vector<QRectF> out;
  for (int k = 0; k < n; ++k)
    out.emplace_back(QRectF(area.left() + (k % cols) * w, area.top() + (k / cols) * h, w, h).adjusted(1, 1, -1, -1));
  return out;
}

QRectF WaferMappingOverlay::expertChipRect(int expert) const {
  if (!shown_ || mode_ != DragMode::Experts || expert < 0 || expert >= static_cast<int>(dieOfExpert_.size())) return {};
  const int d = dieOfExpert_[static_cast<size_t>(expert)];
  if (d < 0) return {};
  const auto& list = experts_[static_cast<size_t>(d)];
  const auto chips = chipRects(d);
  for (size_t k = 0; k < list.size() && k < chips.size(); ++k)
    if (list[k] == expert) return chips[k];
  return {};
}

int WaferMappingOverlay::expertAtScene(const QPointF& scenePos) const {
  if (!shown_ || mode_ != DragMode::Experts) return -1;
  const int d = dieAtScene(scenePos);
  if (d < 0 || d >= static_cast<int>(experts_.size())) return -1;
  const auto chips = chipRects(d);
  for (size_t k = 0; k < chips.size(); ++k)
    if (chips[k].contains(scenePos)) return experts_[static_cast<size_t>(d)][k];
  return -1;
}

void WaferMappingOverlay::setPreviewLanes(std::vector<PreviewLane> lanes, const QString& caption) {
  lanes_ = std::move(lanes);
  laneCaption_ = caption;
  refresh();
}

void WaferMappingOverlay::clearPreviewLanes() {
  if (lanes_.empty() && laneCaption_.isEmpty()) return;
  lanes_.clear();
  laneCaption_.clear();
  refresh();
}

bool WaferMappingOverlay::eventFilter(QObject* watched, QEvent* e) {
  // The event's type first: while the canvas is destroyed its viewport still sends events
  // through this filter, and canvas_->viewport() on a half-destroyed view is undefined
  // (UBSan, clang 14: a member call on an object that is no QAbstractScrollArea any more).
  const QEvent::Type t = e->type();
  if (t != QEvent::MouseButtonPress && t != QEvent::MouseMove && t != QEvent::MouseButtonRelease) return false;
  if (watched != canvas_->viewport()) return false;
  auto* me = dynamic_cast<QMouseEvent*>(e);
  if (!me) return false;
  const QPointF scenePos = canvas_->mapToScene(me->position().toPoint());
  switch (e->type()) {
    case QEvent::MouseButtonPress:
      return me->button() == Qt::LeftButton && pressAt(scenePos);
    case QEvent::MouseMove:
      if (dragFrom_ < 0) return false;
      moveTo(scenePos);
      return true;
    case QEvent::MouseButtonRelease:
      if (dragFrom_ < 0 || me->button() != Qt::LeftButton) return false;
      releaseAt(scenePos);
      return true;
    default:
      return false;
  }
}

void WaferMappingOverlay::collectDies() {
  dieRects_.clear();
  cols_ = 0;
  QGraphicsScene* scene = canvas_->scene();
  if (!scene) return;
  for (QGraphicsItem* it : scene->items()) {
    auto* d = qgraphicsitem_cast<DeviceItem*>(it);
    if (!d || d->copy != 0 || d->style() != DeviceItem::Style::Die) continue;
    const int die = d->node() / 2;  // die d is node 2d (topology/mesh.cpp)
    if (die >= static_cast<int>(dieRects_.size())) dieRects_.resize(static_cast<size_t>(die) + 1);
    dieRects_[static_cast<size_t>(die)] = d->sceneBoundingRect().adjusted(4, 4, -4, -4);
  }
  // Columns: dies sharing die 0's row (same top edge).
  if (!dieRects_.empty())
    for (const QRectF& r : dieRects_) cols_ += qFuzzyCompare(r.top() + 1, dieRects_[0].top() + 1) ? 1 : 0;
}

void WaferMappingOverlay::rebuild() {
  collectDies();
  if (!item_ && canvas_->scene()) {
    auto* item = new MappingOverlayItem(this);
    canvas_->scene()->addItem(item);
    item_ = item;
  }
  if (item_) item_->setVisible(shown_);
  refresh();
}

void WaferMappingOverlay::refresh() {
  if (auto* item = static_cast<MappingOverlayItem*>(item_.data())) item->changed();
}

}  // namespace fl::views
