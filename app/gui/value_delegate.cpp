#include "gui/value_delegate.h"

#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QPainter>
#include <QTextLayout>
#include <QTreeView>
#include <algorithm>
#include <cmath>

#include "gui/key_delegate.h"
#include "gui/scenario_tree_model.h"

namespace fl::gui {

QWidget* ValueDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                                     const QModelIndex& index) const {
  const QStringList choices = index.data(ScenarioTreeModel::ChoicesRole).toStringList();
  if (choices.isEmpty()) {
    auto* edit = new QLineEdit(parent);
    edit->setFrame(false);
    return edit;
  }
  auto* combo = new QComboBox(parent);
  combo->addItems(choices);
  // Commit on pick: a combo that needs a second click elsewhere feels broken.
  connect(combo, &QComboBox::activated, this, [this, combo] {
    auto* self = const_cast<ValueDelegate*>(this);
    emit self->commitData(combo);
    emit self->closeEditor(combo);
  });
  return combo;
}

namespace {
constexpr int kTextMargin = 4;  // each side of the text inside the cell (the style's is ~3)
}  // namespace

// Word boundaries first, anywhere for a word longer than the line.
QRect ValueDelegate::wrappedRect(const QString& text, const QFont& font, int width) {
  QTextLayout layout(text, font);
  QTextOption option;
  option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
  layout.setTextOption(option);
  layout.beginLayout();
  double height = 0, widest = 0;
  for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
    line.setLineWidth(std::max(1, width));
    height += line.height();
    widest = std::max(widest, line.naturalTextWidth());
  }
  layout.endLayout();
  return QRect(0, 0, int(std::ceil(widest)), int(std::ceil(height)));
}

int ValueDelegate::textWidth(int columnWidth) { return columnWidth - 2 * kTextMargin; }

QString ValueDelegate::wrappedText(const QModelIndex& index) const { return index.data(Qt::DisplayRole).toString(); }

int ValueDelegate::textAreaWidth(const QModelIndex& index) const {
  const auto* view = qobject_cast<const QTreeView*>(parent());
  if (!view) return 0;
  int width = view->columnWidth(index.column());
  // The tree's column (the first, or the value column with keys above values) starts
  // after the row's indentation.
  const int tree = view->treePosition() >= 0 ? view->treePosition() : view->header()->logicalIndex(0);
  if (index.column() == tree) {
    int depth = view->rootIsDecorated() ? 1 : 0;
    for (QModelIndex p = index.parent(); p.isValid(); p = p.parent()) ++depth;
    width -= depth * view->indentation();
  }
  return textWidth(width);
}

QSize ValueDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
  QSize s = QStyledItemDelegate::sizeHint(option, index);
  if (!qobject_cast<const QTreeView*>(parent())) return s;
  QStyleOptionViewItem o(option);
  initStyleOption(&o, index);  // the row's own font (changed values are bold)
  if (keyAbove_) {
    const QString key = index.siblingAtColumn(ScenarioTreeModel::KeyColumn).data(Qt::DisplayRole).toString();
    const QFont kf = keyFont(index, o.font);
    const int width = textAreaWidth(index);
    const QString value = wrappedText(index);
    const int keyHeight = int(KeyDelegate::keyLines(key, QFontMetrics(kf), width).size()) * QFontMetrics(kf).height();
    s.setHeight(keyHeight + (value.isEmpty() ? 0 : textHeight(value, o.font, width - kValueIndent)) + 4);
    return s;
  }
  s.setHeight(std::max(s.height(), textHeight(wrappedText(index), o.font, textAreaWidth(index)) + 4));
  return s;
}

QFont ValueDelegate::keyFont(const QModelIndex& index, const QFont& fallback) const {
  const QVariant f = index.siblingAtColumn(ScenarioTreeModel::KeyColumn).data(Qt::FontRole);
  return f.isValid() ? f.value<QFont>() : fallback;
}

int ValueDelegate::textHeight(const QString& text, const QFont& font, int width) const {
  return wrappedRect(text, font, width).height();
}

void ValueDelegate::drawText(QPainter* painter, const QRect& area, const QString& text, const QFont& font) const {
  QTextOption wrap(Qt::AlignLeft | Qt::AlignVCenter);
  wrap.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
  const QRect used = wrappedRect(text, font, area.width());
  painter->drawText(QRectF(area.left(), area.center().y() - used.height() / 2.0, area.width(), used.height()), text, wrap);
}

void ValueDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
  QStyleOptionViewItem o(option);
  initStyleOption(&o, index);
  const QString text = wrappedText(index);
  o.text.clear();  // the background, selection and focus as usual; the text wrapped here
  const QWidget* widget = option.widget;
  QStyle* style = widget ? widget->style() : QApplication::style();
  style->drawControl(QStyle::CE_ItemViewItem, &o, painter, widget);
  painter->save();
  painter->setFont(o.font);
  QColor ink = o.palette.color(o.state & QStyle::State_Enabled ? QPalette::Active : QPalette::Disabled,
                               o.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text);
  if (const QVariant fg = index.data(Qt::ForegroundRole); fg.canConvert<QBrush>() && !(o.state & QStyle::State_Selected))
    ink = fg.value<QBrush>().color();
  painter->setPen(ink);
  const QRect area = option.rect.adjusted(kTextMargin, 0, -kTextMargin, 0);
  if (keyAbove_) {  // the key's lines from the top, the value under them
    const QString key = index.siblingAtColumn(ScenarioTreeModel::KeyColumn).data(Qt::DisplayRole).toString();
    const QFont kf = keyFont(index, o.font);
    const QFontMetrics fm(kf);
    const QStringList lines = KeyDelegate::keyLines(key, fm, area.width());
    QColor keyInk = o.palette.color(QPalette::Active, o.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text);
    painter->setFont(kf);
    painter->setPen(keyInk);
    int y = area.top() + 2;
    for (const QString& line : lines) {
      painter->drawText(QRect(area.left(), y, area.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter, line);
      y += fm.height();
    }
    painter->setFont(o.font);
    painter->setPen(ink);
    if (!text.isEmpty())
      ValueDelegate::drawText(painter, QRect(area.left() + kValueIndent, y, area.width() - kValueIndent, area.bottom() - y - 1),
                              text, o.font);
    painter->restore();
    return;
  }
  drawText(painter, area, text, o.font);
  painter->restore();
}

void ValueDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
  const QString text = index.data(Qt::EditRole).toString();
  if (auto* combo = qobject_cast<QComboBox*>(editor)) combo->setCurrentText(text);
  else if (auto* edit = qobject_cast<QLineEdit*>(editor)) edit->setText(text);
}

void ValueDelegate::setModelData(QWidget* editor, QAbstractItemModel* model,
                                 const QModelIndex& index) const {
  if (auto* combo = qobject_cast<QComboBox*>(editor)) model->setData(index, combo->currentText(), Qt::EditRole);
  else if (auto* edit = qobject_cast<QLineEdit*>(editor)) model->setData(index, edit->text(), Qt::EditRole);
}

}  // namespace fl::gui
