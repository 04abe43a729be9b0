#include "gui/value_delegate.h"

#include <QComboBox>
#include <QLineEdit>

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
