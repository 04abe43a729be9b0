// A combo box that does not need the width of its longest item: it asks for that width
// but makes do with `minimumChars` characters, eliding the current text in the middle
// ("2. all_gather (637 µs … 1.27 ms)") so that its end (a closing bracket, a unit)
// stays in view; the tooltip gives it whole, and the popup list is as wide as its
// longest item.
#pragma once
#include <QComboBox>

namespace fl::views {

class ElidedComboBox : public QComboBox {
  Q_OBJECT
 public:
  explicit ElidedComboBox(QWidget* parent = nullptr, int minimumChars = 14);

  // What the tooltip says under the current item's full text.
  void setDescription(const QString& description);
  // The text as drawn at the current width.
  QString displayText() const;

  QSize minimumSizeHint() const override;
  void showPopup() override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  void updateToolTip();
  QRect textRect() const;
  int widestItem() const;

  int minimumChars_;
  QString description_;
};

}  // namespace fl::views
