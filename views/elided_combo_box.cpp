#include "views/elided_combo_box.h"

#include <QAbstractItemView>
#include <QStyleOptionComboBox>
#include <QStylePainter>
#include <algorithm>

namespace fl::views {

ElidedComboBox::ElidedComboBox(QWidget* parent, int minimumChars) : QComboBox(parent), minimumChars_(minimumChars) {
  setSizeAdjustPolicy(QComboBox::AdjustToContents);
  connect(this, &QComboBox::currentTextChanged, this, &ElidedComboBox::updateToolTip);
}

void ElidedComboBox::setDescription(const QString& description) {
  description_ = description;
  updateToolTip();
}

void ElidedComboBox::updateToolTip() {
  const QString text = currentText();
  setToolTip(text.isEmpty() ? description_ : description_.isEmpty() ? text : text + QLatin1Char('\n') + description_);
}

QRect ElidedComboBox::textRect() const {
  QStyleOptionComboBox opt;
  initStyleOption(&opt);
  return style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, this);
}

QString ElidedComboBox::displayText() const {
  return fontMetrics().elidedText(currentText(), Qt::ElideMiddle, textRect().width());
}

int ElidedComboBox::widestItem() const {
  int widest = 0;
  for (int i = 0; i < count(); ++i) widest = std::max(widest, fontMetrics().horizontalAdvance(itemText(i)));
  return widest;
}

// The size hint (AdjustToContents: the longest item) less what `minimumChars_` spares.
QSize ElidedComboBox::minimumSizeHint() const {
  QSize s = sizeHint();
  const int widest = widestItem(), floor = fontMetrics().averageCharWidth() * minimumChars_;
  if (widest > floor) s.setWidth(s.width() - widest + floor);
  return s;
}

void ElidedComboBox::showPopup() {
  view()->setMinimumWidth(widestItem() + 40);  // room for the item margins and a scroll bar
  QComboBox::showPopup();
}

void ElidedComboBox::paintEvent(QPaintEvent*) {
  QStylePainter p(this);
  QStyleOptionComboBox opt;
  initStyleOption(&opt);
  p.drawComplexControl(QStyle::CC_ComboBox, opt);
  opt.currentText = displayText();
  p.drawControl(QStyle::CE_ComboBoxLabel, opt);
}

}  // namespace fl::views
