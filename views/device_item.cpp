#include "views/device_item.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <algorithm>

#include "views/colour_map.h"
#include "views/format_units.h"

namespace fl::views {

namespace {

struct Palette {
  QColor fill, border;
};
Palette paletteFor(DeviceItem::Style s) {
  switch (s) {
    case DeviceItem::Style::Gpu:
    case DeviceItem::Style::Die: return {QColor(38, 84, 52), QColor(118, 185, 0)};
    case DeviceItem::Style::Switch: return {QColor(40, 58, 108), QColor(130, 160, 255)};
    case DeviceItem::Style::CollapsedGroup: return {QColor(58, 62, 76), QColor(200, 204, 214)};
  }
  return {Qt::darkGray, Qt::lightGray};
}

// The largest pixel size (<= maxPx) at which `text` fits `width`.
QFont fitted(const QString& text, double width, int maxPx, bool bold) {
  QFont f;
  f.setBold(bold);
  for (int px = maxPx; px >= 6; --px) {
    f.setPixelSize(px);
    if (QFontMetricsF(f).horizontalAdvance(text) <= width) break;
  }
  return f;
}

}  // namespace

DeviceItem::DeviceItem(int node, const QRectF& rect, Style style, const QString& label,
                       const QString& sublabel, const QString& sizeBy)
    : node_(node), rect_(rect), style_(style), label_(label), sublabel_(sublabel),
      sizeBy_(sizeBy.isEmpty() ? label : sizeBy) {
  const double h = rect.height(), w = rect.width() - 10;
  const bool two = !sublabel.isEmpty();
  labelFont_ = fitted(sizeBy_, w, std::clamp(int(h * (two ? 0.34 : 0.4)), 8, 22), true);
  subFont_ = fitted(sublabel, w, std::clamp(int(h * 0.24), 7, 15), false);
  setCacheMode(DeviceCoordinateCache);  // text is the costly part; it rarely changes
  setZValue(2);
}

int DeviceItem::oneLinePixelSize(const QString& text, const QSizeF& box, int maxPx) {
  QFont f;
  f.setBold(true);
  for (int px = std::min(maxPx, int((box.height() - 2) / 1.2)); px >= kMinLabelPx; --px) {
    f.setPixelSize(px);
    if (QFontMetricsF(f).horizontalAdvance(text) <= box.width() - 4) return px;
  }
  return 0;
}

DeviceItem::LabelMode DeviceItem::labelModeAt(double lod) const {
  if (lod * labelFont_.pixelSize() >= 6) return LabelMode::Scene;
  if (oneLinePixelSize(sizeBy_, rect_.size() * lod) > 0) return LabelMode::OneLine;
  return LabelMode::None;
}

void DeviceItem::setActivity(const Activity& a) {
  const bool first = activity_.kind == Activity::Kind::None && a.kind != Activity::Kind::None;
  activity_ = a;
  if (first) compactFont_ = fitted(sizeBy_, rect_.width() - 8, std::clamp(int(rect_.height() * 0.3), 7, 16), true);
  update();
}

void DeviceItem::setHighlighted(bool on) {
  if (on == highlighted_) return;
  highlighted_ = on;
  update();
}

void DeviceItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
  const Palette pal = paletteFor(style_);
  const double radius = std::min(rect_.height(), rect_.width()) * 0.18;
  p->setRenderHint(QPainter::Antialiasing);
  QPen pen(highlighted_ ? selectionColour() : pal.border, highlighted_ ? 4 : 1.5);
  if (style_ == Style::CollapsedGroup && !highlighted_) pen.setStyle(Qt::DashLine);
  p->setPen(pen);
  p->setBrush(pal.fill);
  p->drawRoundedRect(rect_, radius, radius);

  const double lod = option->levelOfDetailFromTransform(p->worldTransform());
  if (style_ == Style::CollapsedGroup && lod * rect_.height() >= 14) {  // "+": can be opened
    const double s = std::min(14.0, rect_.height() * 0.22);
    const QPointF c(rect_.right() - s - 4, rect_.top() + s + 4);
    p->setPen(QPen(pal.border, 2));
    p->drawLine(c - QPointF(s / 2, 0), c + QPointF(s / 2, 0));
    p->drawLine(c - QPointF(0, s / 2), c + QPointF(0, s / 2));
  }
  if (activity_.kind != Activity::Kind::None && style_ != Style::CollapsedGroup) {
    // The name in the top band, what the device did below it.
    const QRectF top(rect_.left(), rect_.top() + 1, rect_.width(), rect_.height() * 0.36);
    if (lod * compactFont_.pixelSize() >= 6) {
      p->setPen(QColor(240, 242, 245));
      p->setFont(compactFont_);
      p->drawText(top, Qt::AlignCenter, label_);
    }
    paintActivity(p, QRectF(rect_.left() + 4, top.bottom(), rect_.width() - 8, rect_.bottom() - top.bottom() - 3), lod);
    return;
  }
  const LabelMode mode = labelModeAt(lod);
  if (mode == LabelMode::None) return;  // no room for legible text: leave the box plain
  if (mode == LabelMode::OneLine) {     // the name alone, sized in device pixels
    QFont f = labelFont_;
    f.setPixelSize(oneLinePixelSize(sizeBy_, rect_.size() * lod));
    p->save();
    p->scale(1 / lod, 1 / lod);
    p->setPen(QColor(240, 242, 245));
    p->setFont(f);
    p->drawText(QRectF(rect_.topLeft() * lod, rect_.size() * lod), Qt::AlignCenter, label_);
    p->restore();
    return;
  }
  const bool two = !sublabel_.isEmpty() && lod * subFont_.pixelSize() >= 6;
  const QFontMetricsF lm(labelFont_), sm(subFont_);
  const double block = lm.height() + (two ? sm.height() : 0);
  const double top = rect_.center().y() - block / 2;
  p->setPen(QColor(240, 242, 245));
  p->setFont(labelFont_);
  p->drawText(QRectF(rect_.left(), top, rect_.width(), lm.height()), Qt::AlignCenter, label_);
  if (two) {
    p->setPen(QColor(200, 206, 214));
    p->setFont(subFont_);
    p->drawText(QRectF(rect_.left(), top + lm.height(), rect_.width(), sm.height()), Qt::AlignCenter, sublabel_);
  }
}

namespace {

// "12", "1.2k", "34k", "1.5M": counts that fit a glyph.
QString compactCount(std::int64_t n) {
  if (n < 1000) return QString::number(n);
  if (n < 10000) return QString::number(n / 1000.0, 'f', 1) + "k";
  if (n < 1000000) return QString::number(n / 1000) + "k";
  return QString::number(n / 1e6, 'f', 1) + "M";
}

const QColor kWorkOn(255, 196, 61), kWorkOff(120, 128, 140);

// Lines from `ins` points converging on `join`, then one arrow to `out` (a reduction);
// called with in and out swapped and the arrow at the start for a multicast.
void drawFunnel(QPainter* p, const QRectF& r, bool reduce, const QColor& c, double pen) {
  p->setPen(QPen(c, pen, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
  const double many = reduce ? r.left() : r.right(), one = reduce ? r.right() : r.left();
  const QPointF join(r.center().x(), r.center().y());
  for (double f : {0.1, 0.5, 0.9}) p->drawLine(QPointF(many, r.top() + f * r.height()), join);
  p->drawLine(join, QPointF(one, join.y()));
  const double head = r.height() * 0.22, dir = reduce ? 1 : -1;
  const QPointF tip = reduce ? QPointF(one, join.y()) : QPointF(many, r.top() + 0.5 * r.height());
  if (reduce) {
    p->drawLine(tip, tip + QPointF(-dir * head, -head));
    p->drawLine(tip, tip + QPointF(-dir * head, head));
  } else {  // arrow heads on the fanned-out ends
    for (double f : {0.1, 0.5, 0.9}) {
      const QPointF t(many, r.top() + f * r.height());
      p->drawLine(t, t + QPointF(-head * 0.8, 0));
    }
  }
}

}  // namespace

void DeviceItem::paintActivity(QPainter* p, const QRectF& band, double lod) const {
  const Activity& a = activity_;
  const bool text = lod * band.height() * 0.42 >= 6;  // counts legible on screen
  QFont f;
  f.setPixelSize(std::max(1, int(band.height() * 0.42)));
  p->setFont(f);
  if (a.kind == Activity::Kind::Switch) {
    const double gaugeW = std::max(3.0, band.width() * 0.07);
    const QRectF work(band.left(), band.top(), band.width() - gaugeW - 4, band.height());
    const double half = work.width() / 2;
    const double icon = std::min(band.height() * 0.7, half * 0.45);
    const std::int64_t counts[2] = {a.reductions, a.replicas};
    for (int k = 0; k < 2; ++k) {
      const QRectF cell(work.left() + k * half, work.top(), half, work.height());
      const QColor c = counts[k] > 0 ? kWorkOn : kWorkOff;
      const QRectF iconRect(cell.left() + 2, cell.center().y() - icon / 2, icon, icon);
      drawFunnel(p, iconRect, k == 0, c, std::max(0.8, icon * 0.09));
      if (text) {
        p->setPen(c);
        p->drawText(QRectF(iconRect.right() + 2, cell.top(), cell.right() - iconRect.right() - 2, cell.height()),
                    Qt::AlignVCenter | Qt::AlignLeft, compactCount(counts[k]));
      }
    }
    // The gauge: a frame filled from the bottom.
    const QRectF g(band.right() - gaugeW, band.top() + 1, gaugeW, band.height() - 2);
    p->setPen(QPen(QColor(200, 206, 214), 0.8));
    p->setBrush(Qt::NoBrush);
    p->drawRect(g);
    if (a.fill > 0) {
      const double h = g.height() * std::min(1.0, a.fill);
      p->fillRect(QRectF(g.left(), g.bottom() - h, g.width(), h), a.fill >= 0.999 ? QColor(255, 107, 107) : kWorkOn);
    }
    return;
  }
  // A GPU: injected (up) and received (down), each a bar of its capacity share.
  const double rowH = band.height() / 2;
  const double values[2] = {a.injected, a.received};
  const double shares[2] = {a.injectedShare, a.receivedShare};
  for (int k = 0; k < 2; ++k) {
    const QRectF row(band.left(), band.top() + k * rowH, band.width(), rowH);
    const QRectF bar(row.left(), row.bottom() - std::max(1.5, rowH * 0.2), row.width(), std::max(1.5, rowH * 0.2));
    p->fillRect(bar, QColor(255, 255, 255, 40));
    p->fillRect(QRectF(bar.left(), bar.top(), bar.width() * std::clamp(shares[k], 0.0, 1.0), bar.height()),
                values[k] > 0 ? kWorkOn : kWorkOff);
    if (text) {
      p->setPen(values[k] > 0 ? QColor(240, 242, 245) : kWorkOff);
      p->drawText(row.adjusted(0, 0, 0, -bar.height()), Qt::AlignCenter,
                  (k == 0 ? QStringLiteral("↑ ") : QStringLiteral("↓ ")) + formatBytes(values[k]));
    }
  }
}

}  // namespace fl::views
