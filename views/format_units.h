// Human-readable quantities for labels and tooltips: sizes in binary units (KiB, MiB,
// GiB, as the schema, CLI and report write them), rates in decimal ones (GB/s),
// simulated times and percentages.
#pragma once
#include <QLabel>
#include <QString>
#include <cstdint>

#include "engine/time.h"

namespace fl::views {

QString formatBytes(double bytes);          // "1.23 MiB"
QString formatRate(double bytesPerSecond);  // "371 GB/s"
QString formatTime(Time t);                 // "12.5 µs", "3.20 ms"
QString formatPercent(double fraction);     // "83.4 %"
QString formatCount(std::int64_t n);        // "1 234 567"
// A time bin as the report and the CSVs number it, from 0: "201 of 218" (bin 201 is the
// 202nd of 218). Every view says "bin " + this, so that the GUI and the report agree.
QString binNumber(int bin, int count);
// A scenario value as the GUI shows it: microseconds as "µs", as every view writes them,
// where files and the schema's canonical text say "us" ("5 us" -> "5 µs"; both parse).
QString displayUnits(const QString& value);

// The unit that suits a span of time (for plot axes): its name and its length in ps.
struct TimeUnit {
  QString name;
  double ps = 1;
};
TimeUnit timeUnitFor(Time span);

// The greyed, centred, word-wrapped text a panel shows instead of its content when the
// results have nothing for it (e.g. not an MoE layer).
inline QLabel* makeNoticeLabel(QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setWordWrap(true);
  label->setAlignment(Qt::AlignCenter);
  label->setEnabled(false);
  return label;
}

// The red, word-wrapped, selectable message of a rejected edit (the validator's text),
// hidden until there is one.
inline QLabel* makeErrorLabel(QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label->setStyleSheet(QStringLiteral("QLabel { color: #b00020; padding: 4px; }"));
  label->hide();
  return label;
}

}  // namespace fl::views
