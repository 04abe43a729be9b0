// A layout that lines its items up left to right and starts a new line when the next
// one does not fit, so that a row of controls narrower than its contents wraps instead
// of widening its dock (and the window past a small screen). Items whose horizontal
// size policy expands (a slider, a status text) share the room left on their line.
#pragma once
#include <QLayout>
#include <QList>
#include <initializer_list>

namespace fl::views {

class FlowLayout : public QLayout {
 public:
  explicit FlowLayout(QWidget* parent = nullptr, int spacing = 6);
  ~FlowLayout() override;

  void addItem(QLayoutItem* item) override;
  int count() const override { return int(items_.size()); }
  QLayoutItem* itemAt(int index) const override { return items_.value(index); }
  QLayoutItem* takeAt(int index) override;

  Qt::Orientations expandingDirections() const override { return Qt::Horizontal; }
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override { return arrange(QRect(0, 0, width, 0), false); }
  QSize sizeHint() const override;  // everything on one line
  QSize minimumSize() const override;  // the widest item: one per line
  void setGeometry(const QRect& rect) override;

 private:
  int arrange(const QRect& rect, bool apply) const;  // the height it takes

  QList<QLayoutItem*> items_;
};

// `widgets` side by side in one widget (a child of `parent`), to wrap as one item of a
// FlowLayout; `stretch` is the index of one that takes the room the group gets beyond
// its size hint (-1: none; the group then keeps its hint).
QWidget* flowGroup(QWidget* parent, std::initializer_list<QWidget*> widgets, int stretch = -1);

}  // namespace fl::views
