// An open group on the canvas (a wafer, or an expanded datacenter/node): a translucent
// rounded box with its label in the strip at its top, under the devices and links.
#pragma once
#include <QGraphicsItem>
#include <QString>

namespace fl::views {

class GroupItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 3 };
  GroupItem(int group, const QRectF& rect, int level, const QString& label, bool collapsible);

  int type() const override { return Type; }
  int group() const { return group_; }
  bool collapsible() const { return collapsible_; }  // hierarchy groups: double-click closes
  const QRectF& rect() const { return rect_; }
  static constexpr double kTitleHeight = 26;  // the label strip at the top
  QRectF boundingRect() const override { return rect_.adjusted(-2, -2, 2, 2); }
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  int group_;
  QRectF rect_;
  int level_;
  QString label_;
  bool collapsible_;
};

}  // namespace fl::views
