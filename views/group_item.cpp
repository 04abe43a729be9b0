#include "views/group_item.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <algorithm>

namespace fl::views {

GroupItem::GroupItem(int group, const QRectF& rect, int level, const QString& label, bool collapsible)
    : group_(group), rect_(rect), level_(level), label_(label), collapsible_(collapsible) {
  setZValue(0.01 * std::min(level, 90));  // inner over outer, all under links (z 1) and devices (z 2)
  setCacheMode(DeviceCoordinateCache);
}

void GroupItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*) {
  p->setRenderHint(QPainter::Antialiasing);
  p->setPen(QPen(QColor(150, 158, 172, 180), 1.5));
  p->setBrush(QColor(255, 255, 255, 10 + 8 * level_));
  p->drawRoundedRect(rect_, 8, 8);
  QFont f;
  f.setPixelSize(level_ == 0 ? 18 : 15);
  f.setBold(level_ == 0);
  const double lod = option->levelOfDetailFromTransform(p->worldTransform());
  if (lod * f.pixelSize() < 6) return;
  p->setFont(f);
  p->setPen(QColor(190, 196, 208));
  QString text = label_;
  if (collapsible_) text += QStringLiteral("  \u2212");  // "−": double-click closes it
  p->drawText(rect_.adjusted(10, 4, -10, 0), Qt::AlignLeft | Qt::AlignTop, text);
}

}  // namespace fl::views
