#include "gui/story_step_delegate.h"

#include <QApplication>
#include <QListView>
#include <QPainter>
#include <algorithm>

namespace fl::gui {

StoryStepDelegate::StoryStepDelegate(QListView* view) : QStyledItemDelegate(view), view_(view) {}

int StoryStepDelegate::textWidth(int viewportWidth) const {
  return std::max(40, viewportWidth - 2 * view_->spacing() - 2 * kMargin);
}

QSize StoryStepDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
  QStyleOptionViewItem opt = option;
  initStyleOption(&opt, index);
  const int width = textWidth(view_->viewport()->width());
  const QRect text = opt.fontMetrics.boundingRect(QRect(0, 0, width, 1 << 20), Qt::TextWordWrap, opt.text);
  return {width + 2 * kMargin, text.height() + 2 * kMargin};
}

void StoryStepDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
  QStyleOptionViewItem opt = option;
  initStyleOption(&opt, index);
  const QString text = opt.text;
  opt.text.clear();  // the style draws the background, selection and focus only
  const QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
  style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
  painter->save();
  painter->setFont(opt.font);
  painter->setPen(opt.palette.color(opt.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled,
                                    opt.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
  const QRect area = opt.rect.adjusted(kMargin, kMargin, -kMargin, -kMargin);
  painter->drawText(area, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, text);
  painter->restore();
}

}  // namespace fl::gui
