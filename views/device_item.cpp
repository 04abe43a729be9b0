#include "views/device_item.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <algorithm>

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

void DeviceItem::setHighlighted(bool on) {
  if (on == highlighted_) return;
  highlighted_ = on;
  update();
}

void DeviceItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
  const Palette pal = paletteFor(style_);
  const double radius = std::min(rect_.height(), rect_.width()) * 0.18;
  p->setRenderHint(QPainter::Antialiasing);
  QPen pen(highlighted_ ? QColor(0, 229, 255) : pal.border, highlighted_ ? 4 : 1.5);
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

}  // namespace fl::views
