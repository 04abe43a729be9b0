// Editors for the scenario tree's value column: a combo box for enums and bools
// (committed as soon as a choice is picked), a line edit for everything else, whose text
// the schema parses exactly as in a file ("25 GB/s", "250ns", "[0, 3]").
#pragma once
#include <QStyledItemDelegate>

namespace fl::gui {

class ValueDelegate : public QStyledItemDelegate {
  Q_OBJECT
 public:
  using QStyledItemDelegate::QStyledItemDelegate;

  QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                        const QModelIndex& index) const override;
  void setEditorData(QWidget* editor, const QModelIndex& index) const override;
  void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override;
  // Values are never elided: a value wider than its column wraps onto more lines (at
  // word boundaries, else anywhere), and the row grows to hold them.
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
  void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
  // The lines `text` takes in a column `width` pixels wide (text area) in `font`.
  static QRect wrappedRect(const QString& text, const QFont& font, int width);
  static int textWidth(int columnWidth);  // the text area of a value cell
  // Narrow docks: each row's key drawn above its value, the value indented under it
  // (ScenarioDock hides the key column and moves the tree there); keys then keep a
  // whole line instead of wrapping at their separators in a ~100 px column.
  void setKeyAbove(bool on) { keyAbove_ = on; }
  bool keyAbove() const { return keyAbove_; }
  static constexpr int kValueIndent = 10;

 protected:
  // The text drawn, and the width it wraps in for the row's height (a cell of the
  // first column of a tree starts after the row's indentation).
  virtual QString wrappedText(const QModelIndex& index) const;
  virtual int textAreaWidth(const QModelIndex& index) const;
  // The height `text` takes in `width` px, and drawing it centred in `area`: wrapped at
  // word boundaries, else anywhere (values).
  virtual int textHeight(const QString& text, const QFont& font, int width) const;
  virtual void drawText(QPainter* painter, const QRect& area, const QString& text, const QFont& font) const;

 private:
  bool keyAbove_ = false;
  QFont keyFont(const QModelIndex& index, const QFont& fallback) const;
};

}  // namespace fl::gui
