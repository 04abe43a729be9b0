#include "views/wafer_key.h"

#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>

namespace fl::views {

namespace {
constexpr double kGap = 16;       // between entries of a row
constexpr double kSwatchGap = 6;  // between a swatch and its text
}  // namespace

QFont keyFont(const QFont& viewFont) {
  QFont f = viewFont;
  if (f.pointSizeF() > 0) f.setPointSizeF(std::max(6.0, f.pointSizeF() - 1));
  return f;
}

WaferKey::WaferKey(std::vector<WaferKeyEntry> entries, const QFont& font)
    : entries_(std::move(entries)), font_(font) {}

namespace {
double swatchLength(const WaferKeyEntry& e, double width) { return std::min(e.swatch, std::max(26.0, width / 4)); }
}  // namespace

double WaferKey::swatchRoom(const WaferKeyEntry& e, double width) const {
  const bool any = e.line.style() != Qt::NoPen || e.bar.style() != Qt::NoBrush;
  return any ? swatchLength(e, width) + kSwatchGap : 0;
}

std::vector<WaferKey::Place> WaferKey::layout(double width) const {
  const QFontMetricsF fm(font_);
  std::vector<Place> out;
  double x = 0;
  int row = 0;
  for (const WaferKeyEntry& e : entries_) {
    const double swatch = swatchRoom(e, width), room = std::max(1.0, width - swatch), drawn = swatchLength(e, width);
    const double whole = swatch + fm.horizontalAdvance(e.text);
    if (whole <= width || !e.text.contains(u' ')) {
      const double w = std::min(std::max(1.0, width), whole);
      if (x > 0 && x + w > width) ++row, x = 0;
      out.push_back({row, x, w, drawn, {fm.elidedText(e.text, Qt::ElideRight, w - swatch)}});
      x += w + kGap;
      continue;
    }
    // Too wide for any row: a row of its own, broken at spaces.
    if (x > 0) ++row, x = 0;
    QStringList lines;
    QString current;
    for (const QString& word : e.text.split(u' ', Qt::SkipEmptyParts)) {
      const QString joined = current.isEmpty() ? word : current + u' ' + word;
      if (current.isEmpty() || fm.horizontalAdvance(joined) <= room) {
        current = joined;
      } else {
        lines << fm.elidedText(current, Qt::ElideRight, room);
        current = word;
      }
    }
    lines << fm.elidedText(current, Qt::ElideRight, room);
    out.push_back({row, 0, width, drawn, lines});
    row += static_cast<int>(lines.size());  // the next entry starts under it
  }
  return out;
}

int WaferKey::rows(double width) const {
  const auto places = layout(width);
  return places.empty() ? 0 : places.back().row + static_cast<int>(places.back().lines.size());
}

double WaferKey::rowHeight() const { return std::max(12.0, QFontMetricsF(font_).height()) + 2; }

double WaferKey::height(double width) const { return rows(width) * rowHeight(); }

void WaferKey::paint(QPainter& p, const QRectF& area, const QColor& text) const {
  p.save();
  p.setFont(font_);
  const auto places = layout(area.width());
  const double rowH = rowHeight();
  for (size_t i = 0; i < entries_.size(); ++i) {
    const WaferKeyEntry& e = entries_[i];
    const Place& pl = places[i];
    const double x = area.left() + pl.x, top = area.top() + pl.row * rowH, mid = top + rowH / 2;
    if (e.line.style() != Qt::NoPen) {
      p.setPen(e.line);
      p.drawLine(QPointF(x, mid), QPointF(x + pl.swatch, mid));
    } else if (e.bar.style() != Qt::NoBrush) {
      p.setPen(Qt::NoPen);
      p.setBrush(e.bar);
      p.drawRect(QRectF(x, mid - 5, pl.swatch, 10));
    }
    const double room = swatchRoom(e, area.width());
    p.setPen(text);
    for (int l = 0; l < pl.lines.size(); ++l)
      p.drawText(QRectF(x + room, top + l * rowH, std::max(0.0, pl.width - room), rowH), Qt::AlignLeft | Qt::AlignVCenter,
                 pl.lines[l]);
  }
  p.restore();
}

}  // namespace fl::views
