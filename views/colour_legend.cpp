#include "views/colour_legend.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>

#include "views/colour_map.h"

namespace fl::views {

namespace {
const QColor kColdMark(120, 180, 255);
const QColor kHotMark(255, 120, 60);
}  // namespace

ColourLegend::ColourLegend(QWidget* parent) : QWidget(parent), title_(tr("link utilisation")) {
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void ColourLegend::setThresholds(double cold, double hot) {
  cold_ = cold;
  hot_ = hot;
  update();
}

void ColourLegend::setOrientation(Qt::Orientation o) {
  orientation_ = o;
  setSizePolicy(o == Qt::Horizontal ? QSizePolicy::Preferred : QSizePolicy::Fixed,
                o == Qt::Horizontal ? QSizePolicy::Fixed : QSizePolicy::Preferred);
  updateGeometry();
  update();
}

void ColourLegend::setTitle(const QString& title) {
  title_ = title;
  update();
}

void ColourLegend::setOverlay(bool on) {
  overlay_ = on;
  setAttribute(Qt::WA_TranslucentBackground, on);
  update();
}

QSize ColourLegend::sizeHint() const {
  const QFontMetrics fm(font());
  QFont bold = font();
  bold.setBold(true);
  const int titleW = QFontMetrics(bold).horizontalAdvance(title_) + 20;  // painted bold
  const int line = fm.height();
  if (orientation_ == Qt::Horizontal) return {std::max(300, titleW), 3 * line + 46};
  return {std::max(titleW, fm.horizontalAdvance("cold ≤ 100 %") + 20), 16 * line};
}

void ColourLegend::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const QColor text = overlay_ ? QColor(235, 235, 240) : palette().color(QPalette::WindowText);
  const QColor panel = overlay_ ? QColor(24, 26, 31, 215) : QColor(Qt::transparent);
  paintLegend(p, rect(), orientation_, title_, cold_, hot_, text, panel);
}

void ColourLegend::paintLegend(QPainter& p, const QRectF& r, Qt::Orientation o, const QString& title,
                               double cold, double hot, const QColor& text, const QColor& panel) {
  p.save();
  p.setRenderHint(QPainter::Antialiasing);
  if (panel.alpha() > 0) {
    p.setPen(QPen(QColor(255, 255, 255, 40), 1));
    p.setBrush(panel);
    p.drawRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
  }
  const QFont normal = p.font();
  const QFontMetricsF fm(normal);
  const double line = fm.height(), pad = 8;

  // Rows, top to bottom: title, threshold words, bar (+ ticks). Vertical: title, hot
  // word, bar with ticks to its right, cold word.
  const bool horizontal = o == Qt::Horizontal;
  const QRectF bar = horizontal
                         ? QRectF(r.left() + pad + 14, r.top() + pad + 2 * line + 10, r.width() - 2 * pad - 28, 14)
                         : QRectF(r.left() + pad + 12, r.top() + pad + 2 * line + 6, 16,
                                  r.height() - 2 * pad - 3 * line - 12);
  auto at = [&](double u) {
    return horizontal ? QPointF(bar.left() + u * bar.width(), bar.center().y())
                      : QPointF(bar.center().x(), bar.bottom() - u * bar.height());
  };

  QFont bold = normal;
  bold.setBold(true);
  p.setFont(bold);
  p.setPen(text);
  p.drawText(QRectF(r.left() + pad, r.top() + pad, r.width() - 2 * pad, line),
             horizontal ? Qt::AlignHCenter : Qt::AlignLeft, title);
  p.setFont(normal);

  p.setPen(Qt::NoPen);
  p.setBrush(horizontal ? colourMapGradient(bar.topLeft(), bar.topRight())
                        : colourMapGradient(bar.bottomLeft(), bar.topLeft()));
  p.drawRect(bar);
  // The cold end dimmed and the hot end outlined, as the canvas draws such links.
  const QPointF c0 = at(cold), h0 = at(hot);
  const QRectF coldPart = horizontal ? QRectF(QPointF(bar.left(), bar.top()), QPointF(c0.x(), bar.bottom()))
                                     : QRectF(QPointF(bar.left(), c0.y()), bar.bottomRight());
  const QRectF hotPart = horizontal ? QRectF(QPointF(h0.x(), bar.top()), bar.bottomRight())
                                    : QRectF(bar.topLeft(), QPointF(bar.right(), h0.y()));
  p.setBrush(QColor(20, 20, 24, 150));
  p.drawRect(coldPart);
  p.setBrush(Qt::NoBrush);
  p.setPen(QPen(Qt::white, 2));
  p.drawRect(hotPart.adjusted(1, 1, -1, -1));

  p.setPen(text);
  for (int i = 0; i <= 4; ++i) {  // ticks every 25 %
    const QPointF c = at(i / 4.0);
    const QString label = QString("%1 %").arg(i * 25);
    if (horizontal) {
      p.drawLine(QPointF(c.x(), bar.bottom()), QPointF(c.x(), bar.bottom() + 4));
      p.drawText(QPointF(c.x() - fm.horizontalAdvance(label) / 2, bar.bottom() + 4 + fm.ascent()), label);
    } else {
      p.drawLine(QPointF(bar.right(), c.y()), QPointF(bar.right() + 4, c.y()));
      p.drawText(QPointF(bar.right() + 7, c.y() + fm.ascent() / 2 - 1), label);
    }
  }

  // Threshold markers: a triangle pointing at the bar, and the threshold in words.
  const QString coldText = QObject::tr("cold ≤ %1 %").arg(qRound(cold * 100));
  const QString hotText = QObject::tr("hot ≥ %1 %").arg(qRound(hot * 100));
  auto triangle = [&](QPointF c, const QColor& colour) {
    QPainterPath tri;
    if (horizontal) {
      tri.moveTo(c.x(), bar.top() - 1);
      tri.lineTo(c.x() - 5, bar.top() - 9);
      tri.lineTo(c.x() + 5, bar.top() - 9);
    } else {
      tri.moveTo(bar.left() - 1, c.y());
      tri.lineTo(bar.left() - 9, c.y() - 5);
      tri.lineTo(bar.left() - 9, c.y() + 5);
    }
    tri.closeSubpath();
    p.setPen(Qt::NoPen);
    p.setBrush(colour);
    p.drawPath(tri);
  };
  triangle(c0, kColdMark);
  triangle(h0, kHotMark);
  if (horizontal) {
    // Centred over their markers, pushed apart when the thresholds are close.
    const double cw = fm.horizontalAdvance(coldText), hw = fm.horizontalAdvance(hotText);
    double cx = std::max(r.left() + 2, c0.x() - cw / 2);
    double hx = std::min(r.right() - hw - 2, h0.x() - hw / 2);
    if (cx + cw + 8 > hx) {
      const double mid = (cx + cw + hx) / 2;
      cx = std::max(r.left() + 2, mid - 4 - cw);
      hx = std::min(r.right() - hw - 2, cx + cw + 8);
    }
    const double y = bar.top() - 11 - fm.descent();
    p.setPen(kColdMark);
    p.drawText(QPointF(cx, y), coldText);
    p.setPen(kHotMark);
    p.drawText(QPointF(hx, y), hotText);
  } else {
    p.setPen(kHotMark);
    p.drawText(QPointF(r.left() + pad, bar.top() - 6 - fm.descent()), hotText);
    p.setPen(kColdMark);
    p.drawText(QPointF(r.left() + pad, bar.bottom() + 6 + fm.ascent()), coldText);
  }
  p.restore();
}

}  // namespace fl::views
