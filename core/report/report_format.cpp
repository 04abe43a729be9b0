#include "report/report_format.h"

#include <cmath>
#include <cstdio>

namespace fl::report {
namespace {

std::string printf1(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// Three significant digits for values below 1000, so columns stay compact.
std::string threeDigits(double v) {
  const double a = std::fabs(v);
  return printf1(a >= 100 ? "%.1f" : "%.2f", v);
}

}  // namespace

std::string formatBytes(double b) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int u = 0;
  double v = b;
  while (std::fabs(v) >= 1024 && u < 5) {
    v /= 1024;
    ++u;
  }
  if (u == 0) return printf1("%.0f B", v);
  return threeDigits(v) + " " + units[u];
}

std::string formatRate(double bps) {
  static const char* units[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s", "PB/s"};
  int u = 0;
  double v = bps;
  while (std::fabs(v) >= 1000 && u < 5) {
    v /= 1000;
    ++u;
  }
  return threeDigits(v) + " " + units[u];
}

std::string formatDuration(Time t) {
  const double ps = static_cast<double>(t);
  const double a = std::fabs(ps);
  if (t == 0) return "0 s";
  if (a < 1e3) return printf1("%.0f ps", ps);
  if (a < 1e6) return threeDigits(ps / 1e3) + " ns";
  if (a < 1e9) return threeDigits(ps / 1e6) + " µs";
  if (a < 1e12) return threeDigits(ps / 1e9) + " ms";
  return printf1("%.3f s", ps / 1e12);
}

std::string formatPercent(double fraction) {
  if (!std::isfinite(fraction)) return "–";
  return printf1("%.1f%%", fraction * 100);
}

std::string formatCount(std::int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string formatFixed(double v, int decimals) {
  char fmt[16];
  std::snprintf(fmt, sizeof fmt, "%%.%df", decimals < 0 ? 0 : decimals > 9 ? 9 : decimals);
  return printf1(fmt, std::isfinite(v) ? v : 0.0);
}

std::string formatSeconds(double s) {
  if (!std::isfinite(s) || s < 0) return "–";
  if (s < 60) return printf1("%.3f s", s);
  const auto total = static_cast<long long>(std::llround(s));
  return std::to_string(total / 60) + " min " + std::to_string(total % 60) + " s";
}

TimeUnit timeUnitFor(Time span) {
  static const TimeUnit units[] = {{1e12, "s"}, {1e9, "ms"}, {1e6, "µs"}, {1e3, "ns"}, {1, "ps"}};
  for (const TimeUnit& u : units)
    if (static_cast<double>(span) >= u.picoseconds) return u;
  return units[4];
}

}  // namespace fl::report
