// Draws the Story dock's steps wrapped over as many lines as they need. Qt's own
// delegate measures a wrapped item at one width and may paint it at a narrower one (a
// scroll bar appearing after the layout), then elides its last line ("the switches
// only…"): this one measures and paints at the view's current width, with the same
// margins, so a step is always whole.
#pragma once

#include <QStyledItemDelegate>

class QListView;

namespace fl::gui {

class StoryStepDelegate : public QStyledItemDelegate {
 public:
  static constexpr int kMargin = 4;  // px around a step's text

  explicit StoryStepDelegate(QListView* view);
  void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

  // The width a step's text wraps at, for a view `viewportWidth` px wide.
  int textWidth(int viewportWidth) const;

 private:
  QListView* view_;
};

}  // namespace fl::gui
