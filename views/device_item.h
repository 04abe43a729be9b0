// A device on the canvas: a labelled rounded rectangle coloured by kind (GPU/die green,
// switch blue), or a collapsed hierarchy group (one box standing for everything inside,
// drawn with a dashed border and a "+" badge; double-click opens it). Labels are sized to
// fit the box and skipped when too small on screen to read.
#pragma once
#include <QFont>
#include <QGraphicsItem>
#include <QString>

namespace fl::views {

class DeviceItem : public QGraphicsItem {
 public:
  enum { Type = UserType + 1 };
  enum class Style { Gpu, Die, Switch, CollapsedGroup };

  // `rect` in scene coordinates; `sublabel` is a second, smaller line (may be empty); the
  // label's font is the largest that fits `sizeBy` (default: the label itself).
  DeviceItem(int node, const QRectF& rect, Style style, const QString& label, const QString& sublabel,
             const QString& sizeBy = QString());

  int type() const override { return Type; }
  int node() const { return node_; }
  Style style() const { return style_; }
  int group = -1;  // the collapsed group this box stands for (CollapsedGroup only)
  int copy = 0;    // which side-by-side copy (0 = the main one)
  const QString& label() const { return label_; }
  void setHighlighted(bool on);

  QRectF boundingRect() const override { return rect_.adjusted(-4, -4, 4, 4); }
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  int node_;
  QRectF rect_;
  Style style_;
  QString label_, sublabel_;
  QFont labelFont_, subFont_;
  bool highlighted_ = false;
};

}  // namespace fl::views
