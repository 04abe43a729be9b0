// The key under a wafer view (Hot/Cold Links, Migrations): swatches with their texts
// flowed into as many rows as the width needs, so a narrow dock wraps the key instead of
// cutting it ("local (intra-FTD, in all-redu" at 1024 x 768); an entry wider than a whole
// row breaks over rows. The views ask height() first and lay out their wafers above it.
#pragma once
#include <QBrush>
#include <QFont>
#include <QPen>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <utility>
#include <vector>

class QPainter;

namespace fl::views {

struct WaferKeyEntry {
  WaferKeyEntry(QString t, QPen l = Qt::NoPen, QBrush b = {}, double s = 26)
      : text(std::move(t)), line(std::move(l)), bar(std::move(b)), swatch(s) {}
  QString text;
  QPen line;      // a short stroke in this pen before the text (NoPen: none)
  QBrush bar;     // or a bar filled with this (gradients in object mode); NoBrush: none
  double swatch;  // the stroke's or bar's length
};

// A key's type: a point smaller than the view's, as the plots' keys (legend_under_plot.h).
QFont keyFont(const QFont& viewFont);

class WaferKey {
 public:
  WaferKey(std::vector<WaferKeyEntry> entries, const QFont& font);

  // Where each entry goes in a key `width` pixels wide: its first row, left edge, width
  // (swatch and text) and its text's lines. An entry wider than a row starts a row of its
  // own and breaks at spaces into as many rows as it needs; a word wider than a row is elided.
  // A swatch is drawn at most a quarter of the width long (26 px at least), so a long bar
  // leaves its text room in a narrow key.
  struct Place {
    int row;
    double x, width, swatch;
    QStringList lines;
  };
  std::vector<Place> layout(double width) const;
  int rows(double width) const;
  double height(double width) const;  // rows x rowHeight()
  double rowHeight() const;
  void paint(QPainter& p, const QRectF& area, const QColor& text) const;
  const std::vector<WaferKeyEntry>& entries() const { return entries_; }
  const QFont& font() const { return font_; }

 private:
  double swatchRoom(const WaferKeyEntry& e, double width) const;

  std::vector<WaferKeyEntry> entries_;
  QFont font_;
};

}  // namespace fl::views
