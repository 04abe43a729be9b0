// The key to the canvas colours: the colour map as a gradient bar with 0 %..100 % ticks,
// titled "link utilisation", with markers for the cold and hot thresholds (the cold end
// drawn dimmed and the hot end outlined, as the canvas draws such links).
// TopologyCanvas shows one as an overlay in its viewport's bottom-right corner (the only
// one the main window shows). paintLegend() draws the same picture into exports.
#pragma once
#include <QWidget>

namespace fl::views {

class ColourLegend : public QWidget {
  Q_OBJECT
 public:
  explicit ColourLegend(QWidget* parent = nullptr);

  void setThresholds(double cold, double hot);
  double coldThreshold() const { return cold_; }
  double hotThreshold() const { return hot_; }
  void setOrientation(Qt::Orientation o);
  Qt::Orientation orientation() const { return orientation_; }
  void setTitle(const QString& title);
  QString title() const { return title_; }
  // Overlay style: a translucent dark panel with light text, for drawing over the canvas.
  void setOverlay(bool on);

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override { return sizeHint(); }

  // Draws a legend into `r` (any painter: widget, PNG, SVG). `panel` may be transparent.
  static void paintLegend(QPainter& p, const QRectF& r, Qt::Orientation o, const QString& title,
                          double cold, double hot, const QColor& text, const QColor& panel);

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  double cold_ = 0.05, hot_ = 0.7;
  Qt::Orientation orientation_ = Qt::Horizontal;
  QString title_;
  bool overlay_ = false;
};

}  // namespace fl::views
