// TopologyCanvas: view behaviour (zoom, pan, clicks, tooltips, fitting) and exports.
// Building the scene and recolouring it live in topology_canvas_scene.cpp.
#include "views/topology_canvas.h"

#include <QAction>
#include <QGraphicsScene>
#include <QHelpEvent>
#include <QImage>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QSvgGenerator>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "views/canvas_caption.h"
#include "views/canvas_find_box.h"
#include "views/colour_legend.h"
#include "views/device_item.h"
#include "views/group_item.h"
#include "views/run_model.h"

namespace fl::views {

namespace {
const QColor kBackground(28, 31, 36);
constexpr double kMaxFitScale = 1.6;   // small fabrics: do not blow boxes up
constexpr double kMinScale = 0.02, kMaxScale = 8;
constexpr int kLegendBand = 120;  // exports: room for the legend under the fabric
}  // namespace

TopologyCanvas::TopologyCanvas(RunModel* model, QWidget* parent)
    : QGraphicsView(parent), model_(model), scene_(new QGraphicsScene(this)) {
  setScene(scene_);
  setBackgroundBrush(kBackground);
  setRenderHint(QPainter::Antialiasing);
  setDragMode(QGraphicsView::ScrollHandDrag);
  setTransformationAnchor(QGraphicsView::NoAnchor);  // zoomAt keeps the cursor's point itself
  setResizeAnchor(QGraphicsView::AnchorViewCenter);
  // Recolouring touches most items at once; one full repaint is cheaper than merging rects.
  setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
  setOptimizationFlags(QGraphicsView::DontAdjustForAntialiasing);
  setMinimumSize(300, 160);  // a laptop screen keeps room for the docks around it
  // Drag pans and the wheel zooms: no scroll bars (one that came and went with a fit's
  // rounding moved a centred fabric by its width).
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

  legend_ = new ColourLegend(viewport());
  legend_->setOverlay(true);
  legend_->setThresholds(model_->coldThreshold(), model_->hotThreshold());
  info_ = new QLabel(viewport());
  info_->setStyleSheet("QLabel { background: rgba(24, 26, 31, 215); color: #ebebf0; border-radius: 6px; padding: 4px 8px; }");
  info_->setAttribute(Qt::WA_TransparentForMouseEvents);
  findBox_ = new CanvasFindBox(viewport());
  connect(findBox_, &CanvasFindBox::nodeRequested, this, [this](const QString& name) {
    if (findNode(name)) findBox_->hide(), setFocus();
  });
  findAction_ = new QAction(tr("Find Device…"), this);
  findAction_->setObjectName(QStringLiteral("findDeviceAction"));
  findAction_->setShortcut(QKeySequence::Find);
  findAction_->setShortcutContext(Qt::WindowShortcut);
  findAction_->setToolTip(tr("Jump to a device of the fabric by name (Ctrl+F)"));
  connect(findAction_, &QAction::triggered, this, &TopologyCanvas::openFindBox);
  addAction(findAction_);

  connect(model_, &RunModel::topologyChanged, this, [this] {
    options_ = {};
    follow_.reset();  // its hops name another fabric's links
    phaseA_ = phaseB_ = -1;
    fitMode_ = FitMode::Initial;
    rebuild();
    if (isVisible()) initialView();
  });
  connect(model_, &RunModel::resultsChanged, this, [this] {
    const int phases = model_->results() ? static_cast<int>(model_->results()->phases.size()) : 0;
    if (isSideBySide() && (phaseA_ >= phases || phaseB_ >= phases)) clearSideBySide();
    else recolour();
  });
  // Phase means (one phase, or two side by side) do not change with the bin.
  connect(model_, &RunModel::currentBinChanged, this, [this] {
    isSideBySide() || model_->phase() >= 0 ? updateInfo() : recolour();
  });
  connect(model_, &RunModel::phaseChanged, this, [this] { recolour(); });
  connect(model_, &RunModel::thresholdsChanged, this, [this] {
    legend_->setThresholds(model_->coldThreshold(), model_->hotThreshold());
    recolour();
  });
  connect(model_, &RunModel::selectionChanged, this, [this] { updateSelection(); });
  connect(model_, &RunModel::directionFilterChanged, this, [this] { recolour(); });
  rebuild();
}

TopologyCanvas::~TopologyCanvas() = default;

void TopologyCanvas::fitToView() {
  fitMode_ = FitMode::Fit;
  fitScene();
}

void TopologyCanvas::initialView() { fitScene(); }

// Fits the whole scene into the room the overlays leave, centred there: under the
// caption, and above the legend or beside it (the legend standing upright at the right
// edge when that gives the fabric more room), so the legend never covers the fabric.
// Large hierarchies too (the wheel zooms at the cursor and Ctrl+F finds a device, so
// the overview is where they start).
void TopologyCanvas::fitScene() {
  const QRectF r = scene_->sceneRect();
  if (r.isEmpty() || viewport()->width() < 10) return;
  const double top = overlayTop(), vw = viewport()->width(), vh = viewport()->height();
  auto scaleIn = [&](const QMarginsF& m) {
    return std::min({(vw - m.left() - m.right()) / r.width(), (vh - m.top() - m.bottom()) / r.height(), kMaxFitScale});
  };
  // Candidates, best scale wins; ties keep the horizontal legend (the first).
  const bool legendHidden = legend_->isHidden() && legend_->testAttribute(Qt::WA_WState_ExplicitShowHide);
  legend_->setOrientation(Qt::Horizontal);
  const QSize h = legend_->sizeHint();
  const double hw = std::min<double>(h.width(), vw - 16);
  struct Candidate {
    Qt::Orientation orientation;
    QMarginsF room;
  };
  std::vector<Candidate> candidates = {{Qt::Horizontal, {8, top, 8, h.height() + 16.0}},
                                       {Qt::Horizontal, {8, top, hw + 24, 8}}};
  legend_->setOrientation(Qt::Vertical);
  const QSize v = legend_->sizeHint();
  const double vertical = std::min<double>(v.height(), vh - top - 16);
  if (vertical >= legendMinimumUpright()) candidates.push_back({Qt::Vertical, {8, top, v.width() + 24.0, 8}});
  if (legendHidden) candidates = {{Qt::Horizontal, {8, top, 8, 8}}};
  Candidate best = candidates.front();
  for (const Candidate& c : candidates)
    if (scaleIn(c.room) > scaleIn(best.room) + 1e-9) best = c;
  legend_->setOrientation(best.orientation);
  placeLegend();
  fitScale_ = std::max(scaleIn(best.room), kMinScale);
  const double s = fitScaleLimit_ > 0 ? std::max(std::min(fitScale_, fitScaleLimit_), kMinScale) : fitScale_;
  setTransform(QTransform::fromScale(s, s));
  setAlignment(Qt::AlignCenter);
  room_ = best.room;
  // The slack split evenly: the fabric sits in the middle of its room.
  const double ex = std::max(0.0, vw - room_.left() - room_.right() - s * r.width());
  const double ey = std::max(0.0, vh - room_.top() - room_.bottom() - s * r.height());
  slack_ = QMarginsF(ex / 2, ey / 2, ex / 2, ey / 2);
  updateViewRect();
  const QRectF view = sceneRect();  // larger than the viewport only at the smallest zoom
  centerOn(view.left() + vw / (2 * s), view.top() + vh / (2 * s));
  emit fitted();
}

void TopologyCanvas::setFitScaleLimit(double scale) {
  if (scale == fitScaleLimit_) return;
  fitScaleLimit_ = scale;
  if (fitMode_ != FitMode::User && isVisible()) fitScene();
}

// The shortest upright legend that still reads (ticks 25 % apart a line or more).
double TopologyCanvas::legendMinimumUpright() const { return 10.0 * QFontMetrics(legend_->font()).height(); }

// The scrollable area: the scene plus the room kept for the overlays at the current zoom,
// so nothing has to hide under the caption or the legend.
void TopologyCanvas::updateViewRect() {
  const double s = std::max(transform().m11(), 1e-6);
  // Once the user zooms or pans, a viewport of room on every side: any point of the
  // fabric can be brought under the cursor, so zooming never drags it away.
  const bool user = fitMode_ == FitMode::User;
  const QMarginsF extra = user ? QMarginsF(viewport()->width(), viewport()->height(), viewport()->width(), viewport()->height())
                               : slack_;
  const QMarginsF m = room_ + extra;
  setSceneRect(scene_->sceneRect().adjusted(-m.left() / s, -m.top() / s, m.right() / s, m.bottom() / s));
  updateCaptions();
}

double TopologyCanvas::overlayTop() const {
  return info_->sizeHint().height() + 12 + (isSideBySide() ? captionHeight() : 0);
}

void TopologyCanvas::showEvent(QShowEvent* e) {
  QGraphicsView::showEvent(e);
  if (!shownOnce_) {
    shownOnce_ = true;
    initialView();
  }
  placeLegend();
}

void TopologyCanvas::resizeEvent(QResizeEvent* e) {
  QGraphicsView::resizeEvent(e);
  placeLegend();
  if (fitMode_ == FitMode::Initial) initialView();
  else if (fitMode_ == FitMode::Fit) fitToView();
  else {  // the room around the fabric follows the viewport's size; the centre stays
    const QPointF centre = mapToScene(viewport()->rect().center());
    updateViewRect();
    centerOn(centre);
  }
}

void TopologyCanvas::placeLegend() {
  const QSize s = legend_->sizeHint();
  const int w = std::min(s.width(), viewport()->width() - 16);
  // Upright, as tall as fits under the caption (fitScene chose it only where that reads).
  const int h = legend_->orientation() == Qt::Vertical
                    ? std::max(int(legendMinimumUpright()), std::min(s.height(), int(viewport()->height() - overlayTop() - 16)))
                    : s.height();
  legend_->setGeometry(viewport()->width() - w - 8, viewport()->height() - h - 8, w, h);
  legend_->raise();
  fitCaption(info_, viewport()->width() - 16);
  info_->move(8, 8);
  info_->raise();
  placeFindBox();
}

void TopologyCanvas::wheelEvent(QWheelEvent* e) {
  zoomAt(e->position(), std::pow(1.0015, e->angleDelta().y()));
  e->accept();
}

void TopologyCanvas::zoomAt(QPointF viewportPos, double factor) {
  const double s0 = transform().m11();
  const double s = std::clamp(s0 * factor, kMinScale, kMaxScale);
  if (s == s0) return;
  const QPointF anchor = viewportTransform().inverted().map(viewportPos);
  fitMode_ = FitMode::User;
  setTransform(QTransform::fromScale(s, s));
  updateViewRect();
  // Scroll the anchor back under the cursor (to within half a pixel: scroll steps are whole).
  const QPointF off = viewportTransform().map(anchor) - viewportPos;
  horizontalScrollBar()->setValue(horizontalScrollBar()->value() + qRound(off.x()));
  verticalScrollBar()->setValue(verticalScrollBar()->value() + qRound(off.y()));
}

void TopologyCanvas::mousePressEvent(QMouseEvent* e) {
  pressPos_ = e->position().toPoint();
  QGraphicsView::mousePressEvent(e);
}

// A press and release without dragging is a click: select what is under the cursor.
void TopologyCanvas::mouseReleaseEvent(QMouseEvent* e) {
  QGraphicsView::mouseReleaseEvent(e);
  if (e->button() != Qt::LeftButton || (e->position().toPoint() - pressPos_).manhattanLength() > 4) {
    if (e->button() == Qt::LeftButton) fitMode_ = FitMode::User;  // dragged: the user pans
    return;
  }
  for (QGraphicsItem* item : items(e->position().toPoint())) {
    if (auto* d = qgraphicsitem_cast<DeviceItem*>(item)) return model_->select(SelectionKind::Node, d->node());
    if (auto* l = qgraphicsitem_cast<LinkItem*>(item)) return model_->select(SelectionKind::Link, l->link());
  }
  model_->select(SelectionKind::None, -1);
}

void TopologyCanvas::mouseDoubleClickEvent(QMouseEvent* e) {
  for (QGraphicsItem* item : items(e->position().toPoint())) {
    if (auto* d = qgraphicsitem_cast<DeviceItem*>(item)) {
      if (d->group >= 0) return expandGroup(d->group);
      return;
    }
    if (auto* l = qgraphicsitem_cast<LinkItem*>(item)) {  // a bundle opens; a link of an open one closes it
      const topo::Topology* t = model_->topology();
      if (!t) return;
      int parallel = 0;
      const topo::Link& k = t->link(l->link());
      for (const auto& o : t->links()) parallel += std::min(o.a, o.b) == std::min(k.a, k.b) && std::max(o.a, o.b) == std::max(k.a, k.b);
      if (parallel > 1) toggleBundle(l->link());
      return;
    }
    if (auto* g = qgraphicsitem_cast<GroupItem*>(item)) {  // its title strip closes it
      const QPointF at = mapToScene(e->position().toPoint());
      if (g->collapsible() && at.y() - g->rect().top() <= GroupItem::kTitleHeight) return collapseGroup(g->group());
      continue;  // inside: maybe an enclosing group's title
    }
  }
  QGraphicsView::mouseDoubleClickEvent(e);
}

bool TopologyCanvas::viewportEvent(QEvent* e) {
  if (e->type() != QEvent::ToolTip) return QGraphicsView::viewportEvent(e);
  auto* help = static_cast<QHelpEvent*>(e);
  QString text;
  for (QGraphicsItem* item : items(help->pos())) {
    if (auto* d = qgraphicsitem_cast<DeviceItem*>(item)) {
      text = deviceToolTip(*d);
      break;
    }
    if (auto* l = qgraphicsitem_cast<LinkItem*>(item)) {
      const int lane = l->laneAt(l->mapFromScene(mapToScene(help->pos())));
      text = l->isBundle() ? bundleToolTip(*l, lane, l->copy) : laneToolTip(l->link(), lane, l->copy);
      break;
    }
  }
  if (text.isEmpty()) QToolTip::hideText();
  else QToolTip::showText(help->globalPos(), text, viewport());
  return true;
}

void TopologyCanvas::expandGroup(int group) {
  options_.expandedGroups.insert(group);
  const bool valid = group >= 0 && group < static_cast<int>(layout_.groups.size());
  if (valid) fitMode_ = FitMode::User;  // before the rebuild: room around it to centre it
  rebuild();
  if (valid) {
    const auto& g = layout_.groups[static_cast<size_t>(group)];
    centerOn(g.x + g.width / 2, g.y + g.height / 2);
  }
}

void TopologyCanvas::collapseGroup(int group) {
  options_.expandedGroups.erase(group);
  rebuild();
  if (group >= 0 && group < static_cast<int>(layout_.groups.size())) {
    const auto& g = layout_.groups[static_cast<size_t>(group)];
    centerOn(g.x + g.width / 2, g.y + g.height / 2);
  }
}

void TopologyCanvas::setSideBySidePhases(int phaseA, int phaseB) {
  const int phases = model_->results() ? static_cast<int>(model_->results()->phases.size()) : 0;
  if (phaseA < 0 || phaseB < 0 || phaseA >= phases || phaseB >= phases) return clearSideBySide();
  phaseA_ = phaseA;
  phaseB_ = phaseB;
  rebuild();
  if (fitMode_ != FitMode::User) fitToView();
}

void TopologyCanvas::clearSideBySide() {
  if (phaseA_ < 0) return;
  phaseA_ = phaseB_ = -1;
  rebuild();
  if (fitMode_ != FitMode::User) fitMode_ == FitMode::Fit ? fitToView() : initialView();
}

// The whole scene scaled into `target` on the canvas background; the caption and the
// legend in a band below, drawn `ui` times their on-screen size to match the fabric.
void TopologyCanvas::renderExport(QPainter& p, const QRectF& target, double ui) {
  const double band = kLegendBand * ui;
  p.fillRect(target, kBackground);
  p.setRenderHint(QPainter::Antialiasing);
  p.setRenderHint(QPainter::TextAntialiasing);
  // Cached items would be pasted as bitmaps (blurry PNGs, raster blocks in SVGs): draw
  // them afresh for the export.
  std::vector<QGraphicsItem*> cached;
  for (QGraphicsItem* item : scene_->items())
    if (item->cacheMode() != QGraphicsItem::NoCache) {
      cached.push_back(item);
      item->setCacheMode(QGraphicsItem::NoCache);
    }
  scene_->render(&p, target.adjusted(0, 0, 0, -band), scene_->sceneRect(), Qt::KeepAspectRatio);
  for (QGraphicsItem* item : cached) item->setCacheMode(QGraphicsItem::DeviceCoordinateCache);
  p.save();
  p.translate(target.left(), target.bottom() - band);
  p.scale(ui, ui);
  const QRectF strip(0, 0, target.width() / ui, kLegendBand);
  QFont f = p.font();
  f.setPixelSize(13);
  p.setFont(f);
  const QSizeF legend(300, 3 * QFontMetricsF(f).height() + 46);
  p.setPen(QColor(235, 235, 240));
  p.drawText(strip.adjusted(12, 10, -legend.width() - 30, -10), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap,
             captionText(info_));
  ColourLegend::paintLegend(p, QRectF(strip.bottomRight() - QPointF(legend.width() + 10, legend.height() + 10), legend),
                            Qt::Horizontal, legend_->title(), model_->coldThreshold(), model_->hotThreshold(),
                            QColor(235, 235, 240), QColor(24, 26, 31, 215));
  p.restore();
}

bool TopologyCanvas::exportPng(const QString& path) {
  const QRectF r = scene_->sceneRect();
  if (r.isEmpty()) return false;
  // About 2000 px on the long side, never above 12000 px.
  const double s = std::clamp(2000 / std::max(r.width(), r.height()), 1.0, 3.0) *
                   std::min(1.0, 12000 / std::max(r.width(), r.height()));
  const double ui = std::max(1.0, s);
  const QSize size(std::max(int(340 * ui), int(std::ceil(r.width() * s))), int(std::ceil(r.height() * s + kLegendBand * ui)));
  QImage image(size, QImage::Format_ARGB32_Premultiplied);
  QPainter p(&image);
  renderExport(p, QRectF(QPointF(0, 0), size), ui);
  p.end();
  return image.save(path, "PNG");
}

bool TopologyCanvas::exportSvg(const QString& path) {
  const QRectF r = scene_->sceneRect();
  if (r.isEmpty()) return false;
  const QSize size(std::max(340, int(std::ceil(r.width()))), int(std::ceil(r.height())) + kLegendBand);
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(size);
  svg.setViewBox(QRect(QPoint(0, 0), size));
  svg.setTitle(QStringLiteral("FabricLab topology"));
  svg.setDescription(model_->topology() ? QString::fromStdString(model_->topology()->description) : QString());
  QPainter p;
  if (!p.begin(&svg)) return false;
  renderExport(p, QRectF(QPointF(0, 0), size), 1);
  return p.end();
}

}  // namespace fl::views
