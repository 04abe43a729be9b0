#include "views/flow_layout.h"

#include <QHBoxLayout>
#include <QWidget>
#include <algorithm>

namespace fl::views {

FlowLayout::FlowLayout(QWidget* parent, int spacing) : QLayout(parent) { setSpacing(spacing); }

FlowLayout::~FlowLayout() {
  while (QLayoutItem* item = takeAt(0)) delete item;
}

void FlowLayout::addItem(QLayoutItem* item) { items_.append(item); }

QLayoutItem* FlowLayout::takeAt(int index) {
  return index >= 0 && index < items_.size() ? items_.takeAt(index) : nullptr;
}

QSize FlowLayout::sizeHint() const {
  int width = 0, height = 0, shown = 0;
  for (QLayoutItem* item : items_) {
    if (item->isEmpty()) continue;
    const QSize s = item->sizeHint();
    width += s.width() + (shown++ > 0 ? spacing() : 0);
    height = std::max(height, s.height());
  }
  const QMargins m = contentsMargins();
  return QSize(width + m.left() + m.right(), height + m.top() + m.bottom());
}

QSize FlowLayout::minimumSize() const {
  QSize size;
  for (QLayoutItem* item : items_)
    if (!item->isEmpty()) size = size.expandedTo(item->minimumSize());
  const QMargins m = contentsMargins();
  return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

void FlowLayout::setGeometry(const QRect& rect) {
  QLayout::setGeometry(rect);
  arrange(rect, true);
}

// Lines are filled greedily at the items' size hints (their minimum where a hint alone
// is wider than the line); the room left on a line goes to its expanding items.
int FlowLayout::arrange(const QRect& rect, bool apply) const {
  const QRect area = rect.marginsRemoved(contentsMargins());
  const int gap = spacing();
  int y = area.y(), taken = 0;
  QList<QLayoutItem*> line;
  auto place = [&](const QList<QLayoutItem*>& items) {
    int used = 0, expanding = 0, height = 0;
    for (QLayoutItem* item : items) {
      used += std::min(item->sizeHint().width(), area.width());
      expanding += (item->expandingDirections() & Qt::Horizontal) ? 1 : 0;
      height = std::max(height, item->sizeHint().height());
    }
    used += gap * int(items.size() - 1);
    int spare = std::max(0, area.width() - used);
    int x = area.x();
    for (QLayoutItem* item : items) {
      int w = std::max(std::min(item->sizeHint().width(), area.width()), item->minimumSize().width());
      if (expanding > 0 && (item->expandingDirections() & Qt::Horizontal)) {
        const int share = spare / expanding--;
        w += share;
        spare -= share;
      }
      if (apply) item->setGeometry(QRect(x, y + (height - item->sizeHint().height()) / 2, w, item->sizeHint().height()));
      x += w + gap;
    }
    return height;
  };
  for (QLayoutItem* item : items_) {
    if (item->isEmpty()) continue;
    const int w = std::min(item->sizeHint().width(), area.width());
    if (!line.isEmpty() && taken + gap + w > area.width()) {
      y += place(line) + gap;
      line.clear();
      taken = 0;
    }
    taken += (line.isEmpty() ? 0 : gap) + w;
    line.append(item);
  }
  if (!line.isEmpty()) y += place(line);
  return y - rect.y() + contentsMargins().bottom();
}

QWidget* flowGroup(QWidget* parent, std::initializer_list<QWidget*> widgets, int stretch) {
  auto* group = new QWidget(parent);
  auto* layout = new QHBoxLayout(group);
  layout->setContentsMargins(0, 0, 0, 0);
  int i = 0;
  for (QWidget* w : widgets) {
    w->setParent(group);
    layout->addWidget(w, i++ == stretch ? 1 : 0);
  }
  group->setSizePolicy(stretch >= 0 ? QSizePolicy::Expanding : QSizePolicy::Preferred, QSizePolicy::Fixed);
  return group;
}

}  // namespace fl::views
