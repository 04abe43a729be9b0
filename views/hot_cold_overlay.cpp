#include "views/hot_cold_overlay.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "views/colour_map.h"
#include "wsc/hot_cold_links.h"

namespace fl::views {

QColor hotColour() { return QColor(235, 72, 59); }
QColor coldColour() { return QColor(84, 150, 230); }
QColor idleColour() { return QColor(88, 92, 104); }

namespace {
constexpr double kCaption = 20;     // pixels above each panel for a caption line
constexpr double kDieNumbers = 18;  // die boxes at least this wide show their numbers
constexpr double kTwoLineDie = 20;  // a second caption line only where dies keep this much
}  // namespace

HotColdOverlay::HotColdOverlay(QWidget* parent) : QWidget(parent) {
  setAutoFillBackground(true);
  QPalette pal = palette();
  pal.setColor(QPalette::Window, QColor(30, 33, 41));
  setPalette(pal);
  setToolTip(tr("Each die-to-die link as two lanes, each on the right of its direction of travel. Red: hot "
                "(utilisation over the phase at or above the threshold, or at or above that fraction of the phase's "
                "busiest link when the run's threshold is relative); blue: cold; grey: idle (no bytes). "
                "Solid: both ends in one Full Token Domain (intra-FTD); dashed: inter-FTD."));
}

void HotColdOverlay::setTopology(std::shared_ptr<const topo::Topology> topology) {
  topology_ = std::move(topology);
  grid_ = topology_ ? WaferGrid(*topology_) : WaferGrid();
  setPanels(panels_);
}

void HotColdOverlay::setPanels(std::vector<Panel> panels) {
  panels_ = std::move(panels);
  index_.clear();
  for (const Panel& p : panels_) {
    std::vector<int> idx(topology_ ? topology_->links().size() * 2 : 0, -1);
    if (p.results)
      for (size_t i = 0; i < p.results->links.size(); ++i) {
        const auto& d = p.results->links[i];
        const size_t k = static_cast<size_t>(d.link) * 2 + static_cast<size_t>(d.direction);
        if (k < idx.size()) idx[k] = static_cast<int>(i);
      }
    index_.push_back(std::move(idx));
  }
  updateCutoffs();
  update();
}

void HotColdOverlay::setHotThreshold(double hot) {
  hot_ = hot;
  updateCutoffs();
  update();
}

void HotColdOverlay::updateCutoffs() {
  cutoff_.clear();
  for (int i = 0; i < panelCount(); ++i) {
    const Panel& p = panels_[static_cast<size_t>(i)];
    cutoff_.push_back(p.results ? wsc::hotCutoff(p.results->links, p.phase.toStdString(), relativeThreshold(i),
                                                 hotThreshold(i))
                                : hotThreshold(i));
  }
}

void HotColdOverlay::setColourBy(ColourBy c) {
  colourBy_ = c;
  update();
}

const LinkPhaseResult* HotColdOverlay::figures(int panel, int link, int direction) const {
  if (panel < 0 || panel >= panelCount() || link < 0 || direction < 0 || direction > 1) return nullptr;
  const auto& idx = index_[static_cast<size_t>(panel)];
  const size_t k = static_cast<size_t>(link) * 2 + static_cast<size_t>(direction);
  if (k >= idx.size() || idx[k] < 0) return nullptr;
  const std::string phase = panels_[static_cast<size_t>(panel)].phase.toStdString();
  for (const LinkPhaseResult& f : panels_[static_cast<size_t>(panel)].results->links[static_cast<size_t>(idx[k])].phases)
    if (f.phase == phase) return &f;
  return nullptr;
}

double HotColdOverlay::hotThreshold(int panel) const {
  if (hot_ >= 0) return hot_;
  const Panel& p = panels_[static_cast<size_t>(panel)];
  return p.results && p.results->wsc ? p.results->wsc->hot_threshold : 0.9;
}

bool HotColdOverlay::relativeThreshold(int panel) const {
  if (panel < 0 || panel >= panelCount()) return false;
  const Panel& p = panels_[static_cast<size_t>(panel)];
  return p.results && p.results->wsc && p.results->wsc->hot_threshold_kind == "relative";
}

double HotColdOverlay::hotCutoff(int panel) const {
  return panel >= 0 && panel < static_cast<int>(cutoff_.size()) ? cutoff_[static_cast<size_t>(panel)] : 1;
}

// The class from the bytes and the threshold (core's rule, so the spin box can move it).
QString HotColdOverlay::laneClass(int panel, int link, int direction) const {
  const LinkPhaseResult* f = figures(panel, link, direction);
  if (!f) return {};
  return QString::fromLatin1(wsc::linkClass(f->bytes, f->utilization, hotCutoff(panel)));
}

double HotColdOverlay::laneUtilisation(int panel, int link, int direction) const {
  const LinkPhaseResult* f = figures(panel, link, direction);
  return f ? f->utilization : 0;
}

double HotColdOverlay::utilisationTop() const {
  double top = 0;
  for (int p = 0; p < panelCount(); ++p)
    for (const auto& s : grid_.segments())
      for (int dir = 0; dir < 2; ++dir) top = std::max(top, laneUtilisation(p, s.link, dir));
  return top > 0 ? top : 1;
}

QColor HotColdOverlay::laneColour(int panel, int link, int direction) const {
  const QString cls = laneClass(panel, link, direction);
  if (cls.isEmpty()) return {};
  if (colourBy_ == ColourBy::Utilisation)
    return cls == QLatin1String("idle") ? idleColour() : colourMap(laneUtilisation(panel, link, direction) / utilisationTop());
  return cls == QLatin1String("hot") ? hotColour() : cls == QLatin1String("cold") ? coldColour() : idleColour();
}

bool HotColdOverlay::laneDashed(int panel, int link) const {
  if (panel < 0 || panel >= panelCount()) return false;
  const auto& idx = index_[static_cast<size_t>(panel)];
  const size_t k = static_cast<size_t>(link) * 2;
  if (k >= idx.size() || idx[k] < 0) return false;
  return panels_[static_cast<size_t>(panel)].results->links[static_cast<size_t>(idx[k])].ftd == "inter";
}

int HotColdOverlay::countOf(int panel, const QString& cls) const {
  int n = 0;
  for (const auto& s : grid_.segments())
    for (int dir = 0; dir < 2; ++dir) n += laneClass(panel, s.link, dir) == cls;
  return n;
}

void HotColdOverlay::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  if (!grid_.dies() || panels_.empty()) {
    p.setPen(QColor(220, 222, 228));
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
               tr("Hot and cold links appear here for a wafer-scale inference run (workload.kind wsc_inference)."));
    return;
  }
  const auto rects = panelRects();
  for (int i = 0; i < panelCount(); ++i) paintPanel(p, i, rects[static_cast<size_t>(i)]);
  const double legend = legendHeight();
  key().paint(p, QRectF(8, height() - legend, width() - 16, legend), QColor(225, 228, 236));
}

namespace {
constexpr double kGap = 16;  // between panels and at the sides

std::vector<QRectF> layoutPanels(int n, double width, double height, double legend, bool stack) {
  std::vector<QRectF> out;
  if (n <= 0) return out;
  const double top = 4, h = height - legend - 8;
  if (!stack) {
    const double w = (width - kGap * (n + 1)) / n;
    for (int i = 0; i < n; ++i) out.emplace_back(kGap + i * (w + kGap), top, w, h);
  } else {
    const double each = (h - kGap / 2 * (n - 1)) / n;
    for (int i = 0; i < n; ++i) out.emplace_back(kGap, top + i * (each + kGap / 2), width - 2 * kGap, each);
  }
  return out;
}

}  // namespace

// Two lines (the title, then the counts) where some panel's title and counts do not fit
// side by side, so the counts move down instead of being cut, unless that second line
// would shrink the dies below 20 px (numbers are drawn from 18) while one line keeps
// more: a short dock keeps its die numbers and shortens the counts (idle, then cold go first).
bool HotColdOverlay::captionFits(double panelWidth) const {
  QFont bold = font();
  bold.setBold(true);
  const QFontMetricsF fb(bold), fm(font());
  for (int i = 0; i < panelCount(); ++i)
    if (fb.horizontalAdvance(caption(i) + QStringLiteral("  ")) + fm.horizontalAdvance(countsText(i)) > panelWidth)
      return false;
  return true;
}

double HotColdOverlay::captionHeight(const QRectF& panel) const {
  if (captionFits(panel.width())) return kCaption;
  const auto die = [&](double caption) {
    WaferGrid g = grid_;
    g.fit(panel.adjusted(0, caption + 2, 0, 0));
    return g.dies() ? g.dieRect(0).width() : 0.0;
  };
  const double two = die(2 * kCaption);
  return two >= kTwoLineDie || two >= die(kCaption) ? 2 * kCaption : kCaption;
}

double HotColdOverlay::scaleIn(const QRectF& panel) const {
  WaferGrid g = grid_;
  g.fit(panel.adjusted(0, captionHeight(panel) + 2, 0, 0));
  return g.scale();
}

double HotColdOverlay::legendHeight() const { return key().height(width() - 16) + 4; }

bool HotColdOverlay::stacked() const {
  if (panelCount() < 2 || !grid_.dies()) return false;
  const double legend = legendHeight();
  const auto side = layoutPanels(panelCount(), width(), height(), legend, false);
  const auto stack = layoutPanels(panelCount(), width(), height(), legend, true);
  return scaleIn(stack.front()) > scaleIn(side.front());
}

std::vector<QRectF> HotColdOverlay::panelRects() const {
  return layoutPanels(panelCount(), width(), height(), legendHeight(), stacked());
}

double HotColdOverlay::diePixels() const {
  const auto rects = panelRects();
  if (rects.empty() || !grid_.dies()) return 0;
  WaferGrid g = grid_;
  g.fit(rects.front().adjusted(0, captionHeight(rects.front()) + 2, 0, 0));
  return g.dieRect(0).width();
}

QString HotColdOverlay::countsText(int panel) const {
  return tr("%1 hot · %2 cold · %3 idle")
      .arg(countOf(panel, QStringLiteral("hot")))
      .arg(countOf(panel, QStringLiteral("cold")))
      .arg(countOf(panel, QStringLiteral("idle")));
}

QString HotColdOverlay::countsFitting(int panel, double width) const {
  const QFontMetricsF fm(font());
  const QString hot = QString::number(countOf(panel, QStringLiteral("hot"))),
                cold = QString::number(countOf(panel, QStringLiteral("cold")));
  for (const QString& text : {countsText(panel), tr("%1 hot · %2 cold").arg(hot, cold), tr("%1 hot").arg(hot)})
    if (fm.horizontalAdvance(text) <= width) return text;
  return {};
}

void HotColdOverlay::paintPanel(QPainter& p, int panel, const QRectF& area) {
  const Panel& pn = panels_[static_cast<size_t>(panel)];
  QFont f = font();
  f.setBold(true);
  p.setFont(f);
  p.setPen(QColor(235, 238, 244));
  // The title, then its counts beside it or (two-line caption) under it; elided only
  // where even a line of its own is too short.
  const double capH = captionHeight(area);
  const bool below = capH > kCaption;
  const QString title = p.fontMetrics().elidedText(pn.caption, Qt::ElideRight, static_cast<int>(area.width()));
  p.drawText(QRectF(area.left(), area.top(), area.width(), kCaption), Qt::AlignLeft | Qt::AlignVCenter, title);
  const double used = below ? 0 : p.fontMetrics().horizontalAdvance(title + QStringLiteral("  "));
  p.setFont(font());
  const QRectF countsAt(area.left() + used, area.top() + (below ? kCaption : 0), std::max(0.0, area.width() - used), kCaption);
  // Whole counts, fewer of them where the width is short (countsFitting).
  p.drawText(countsAt, Qt::AlignLeft | Qt::AlignVCenter, countsFitting(panel, countsAt.width()));
  WaferGrid g = grid_;
  g.fit(area.adjusted(0, capH + 2, 0, 0));
  const double s = g.scale();
  for (const QRectF& w : g.waferRects()) {
    p.setPen(QPen(QColor(90, 96, 110), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(w, 4, 4);
  }
  const double laneW = std::clamp(10 * s, 1.5, 7.0), off = laneW * 0.75;
  for (const auto& seg : g.segments()) {
    const QLineF l = seg.line;
    if (l.length() <= 0) continue;
    const QPointF n(-l.dy() / l.length(), l.dx() / l.length());  // right of a -> b on screen (y down)
    const bool dashed = laneDashed(panel, seg.link);
    for (int dir = 0; dir < 2; ++dir) {
      const QColor c = laneColour(panel, seg.link, dir);
      if (!c.isValid()) continue;
      // Direction 0 runs a -> b on its right-hand side; direction 1 the other way.
      const QPointF shift = n * (dir == 0 ? off : -off);
      QPen pen(c, laneW, dashed ? Qt::DashLine : Qt::SolidLine, Qt::FlatCap);
      if (dashed) pen.setDashPattern({1.6, 0.9});
      p.setPen(pen);
      p.drawLine(QLineF(l.p1() + shift, l.p2() + shift));
    }
  }
  QFont small = font();
  small.setPixelSize(std::clamp(static_cast<int>(18 * s), 7, 12));
  p.setFont(small);
  for (int d = 0; d < g.dies(); ++d) {
    const QRectF r = g.dieRect(d);
    p.setPen(QPen(QColor(120, 126, 140), 1));
    p.setBrush(QColor(52, 56, 68));
    p.drawRoundedRect(r, 3, 3);
    if (r.width() >= kDieNumbers) {
      p.setPen(QColor(200, 204, 214));
      p.drawText(r, Qt::AlignCenter, QString::number(d));
    }
  }
}

// The key: the classes (or the utilisation scale), then what solid and dashed mean (the
// tooltip says the lanes keep right of their direction: a row less at 1024 x 768).
WaferKey HotColdOverlay::key() const {
  const auto stroke = [](const QColor& c, bool dashed) {
    QPen pen(c, 5, dashed ? Qt::DashLine : Qt::SolidLine, Qt::FlatCap);
    if (dashed) pen.setDashPattern({1.6, 0.9});
    return pen;
  };
  std::vector<WaferKeyEntry> e;
  if (colourBy_ == ColourBy::Class) {
    const double hot = panelCount() ? hotThreshold(0) * 100 : 90;
    e.push_back({(relativeThreshold(0) ? tr("hot ≥ %1 % of max") : tr("hot ≥ %1 %")).arg(hot, 0, 'f', 0),
                 stroke(hotColour(), false)});
    e.push_back({tr("cold"), stroke(coldColour(), false)});
  } else {
    QLinearGradient g = colourMapGradient(QPointF(0, 0), QPointF(1, 0));
    g.setCoordinateMode(QGradient::ObjectMode);
    e.push_back({tr("0 – %1 % utilisation (one scale)").arg(utilisationTop() * 100, 0, 'f', 0), Qt::NoPen, g, 120});
  }
  e.push_back({tr("idle"), stroke(idleColour(), false)});
  const QColor grey(170, 176, 190);
  e.push_back({tr("intra-FTD link"), stroke(grey, false)});
  e.push_back({tr("inter-FTD link"), stroke(grey, true)});
  return WaferKey(std::move(e), keyFont(font()));
}

}  // namespace fl::views
