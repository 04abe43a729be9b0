#include "views/format_units.h"

#include <QRegularExpression>

#include <cmath>

namespace fl::views {

namespace {
// Three significant figures with a unit prefix from the table.
QString scaled(double v, const char* const* units, int count, double step) {
  int i = 0;
  while (std::abs(v) >= step * 0.9995 && i + 1 < count) {
    v /= step;
    ++i;
  }
  const int decimals = std::abs(v) >= 99.95 || i == 0 ? 0 : std::abs(v) >= 9.995 ? 1 : 2;
  return QString("%1 %2").arg(v, 0, 'f', decimals).arg(QString::fromUtf8(units[i]));
}
}  // namespace

// Sizes in binary units and rates in decimal ones, as the schema, the CLI and the
// report write them ("256 MiB", "450 GB/s").
QString formatBytes(double bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  return scaled(bytes, units, 6, 1024);
}

QString formatRate(double bps) {
  static const char* const units[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s", "PB/s"};
  return scaled(bps, units, 6, 1000);
}

QString formatTime(Time t) {
  if (t == 0) return QStringLiteral("0");
  static const char* const units[] = {"ps", "ns", "µs", "ms", "s"};
  return scaled(static_cast<double>(t), units, 5, 1000);
}

QString formatPercent(double fraction) {
  const double p = fraction * 100;
  return QString("%1 %").arg(p, 0, 'f', p != 0 && std::abs(p) < 10 ? 1 : 0);
}

QString formatCount(std::int64_t n) {
  QString s = QString::number(n);
  for (int i = s.size() - 3; i > (n < 0 ? 1 : 0); i -= 3) s.insert(i, QChar(0x2009));  // thin space
  return s;
}

QString displayUnits(const QString& value) {
  static const QRegularExpression us(QStringLiteral("(\\d)\\s*us\\b"));
  return QString(value).replace(us, QStringLiteral("\\1 µs"));
}

QString binNumber(int bin, int count) { return QStringLiteral("%1 of %2").arg(bin).arg(count); }

TimeUnit timeUnitFor(Time span) {
  if (span >= 2 * kSecond) return {"s", static_cast<double>(kSecond)};
  if (span >= 2 * kMillisecond) return {"ms", static_cast<double>(kMillisecond)};
  if (span >= 2 * kMicrosecond) return {"µs", static_cast<double>(kMicrosecond)};
  if (span >= 2 * kNanosecond) return {"ns", static_cast<double>(kNanosecond)};
  return {"ps", 1};
}

}  // namespace fl::views
