// A device on the canvas: a labelled rounded rectangle coloured by kind (GPU/die green,
// switch blue), or a collapsed hierarchy group (one box standing for everything inside,
// drawn with a dashed border and a "+" badge; double-click opens it). Labels are sized to
// fit the box; where the box is too small on screen for them at their scene size (a
// zoomed-out NVL32) the name alone is drawn at the largest legible pixel size that fits
// the box on screen, and nothing only where not even that fits.
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

  // Smallest text drawn, in device pixels: below it a label is not legible.
  static constexpr int kMinLabelPx = 7;
  // The pixel size at which a one-line label as wide as `text` fits a box of `box` device
  // pixels (the largest that fits, at most `maxPx`); 0 where not even kMinLabelPx fits.
  static int oneLinePixelSize(const QString& text, const QSizeF& box, int maxPx = 14);
  // Whether the label is drawn at `lod` device pixels per scene unit, and how: both lines
  // at their scene fonts, or the name alone at oneLinePixelSize.
  enum class LabelMode { None, Scene, OneLine };
  LabelMode labelModeAt(double lod) const;

  QRectF boundingRect() const override { return rect_.adjusted(-4, -4, 4, 4); }
  void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

 private:
  int node_;
  QRectF rect_;
  Style style_;
  QString label_, sublabel_, sizeBy_;
  QFont labelFont_, subFont_;
  bool highlighted_ = false;
};

}  // namespace fl::views
