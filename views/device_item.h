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
#include <cstdint>

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

  // What the device did in the time shown (a bin, or a phase), drawn in the lower part of
  // the box under a smaller label. A switch: reductions completed (many in, one out),
  // multicast replicas made (one in, many out) and its reduction-buffer fill (most
  // entries one port held, over the run's peak) as a gauge. A GPU: bytes injected and
  // received, with bars for their share of its links' capacity.
  struct Activity {
    enum class Kind { None, Switch, Gpu } kind = Kind::None;
    std::int64_t reductions = 0, replicas = 0;
    double fill = -1;  // 0..1; < 0: the switch reduced nothing in the run (no gauge)
    std::int64_t fillEntries = 0, peakEntries = 0;
    double injected = 0, received = 0;        // bytes
    double injectedShare = 0, receivedShare = 0;  // of the links' capacity in the window
  };
  void setActivity(const Activity& a);
  const Activity& activity() const { return activity_; }

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
  Activity activity_;
  QFont compactFont_;  // the label over an activity glyph

  void paintActivity(QPainter* p, const QRectF& band, double lod) const;
};

}  // namespace fl::views
