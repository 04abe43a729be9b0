#include "report/chart_axes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fl::report {
namespace {

constexpr double kTitleBaseline = 18, kLegendRow = 18, kBottomMargin = 44, kRightMargin = 24;
const char* const kAxisColor = "#888888";
const char* const kGridColor = "#e4e4e4";
const char* const kLabelColor = "#333333";

std::string withThousands(const std::string& fixed) {
  const bool negative = !fixed.empty() && fixed[0] == '-';
  const std::string body = negative ? fixed.substr(1) : fixed;
  const std::size_t dot = std::min(body.find('.'), body.size());
  std::string intPart = body.substr(0, dot), out;
  for (std::size_t i = 0; i < intPart.size(); ++i) {
    if (i > 0 && (intPart.size() - i) % 3 == 0) out += ',';
    out += intPart[i];
  }
  return (negative ? "-" : "") + out + body.substr(dot);
}

}  // namespace

std::vector<double> niceTicks(double lo, double hi, int target, double* stepOut) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
  if (!(hi > lo)) hi = lo + (lo == 0 ? 1 : std::fabs(lo));
  const double raw = (hi - lo) / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / mag;
  const double step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
  std::vector<double> ticks;
  const auto first = static_cast<long long>(std::ceil(lo / step - 1e-9));
  const auto last = static_cast<long long>(std::floor(hi / step + 1e-9));
  for (long long k = first; k <= last; ++k) ticks.push_back(static_cast<double>(k) * step);
  if (stepOut) *stepOut = step;
  return ticks;
}

std::string tickLabel(double value, double step) {
  int decimals = 0;
  if (step > 0 && step < 1) decimals = static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", std::min(decimals, 9), value);
  std::string s = buf;
  if (s.find_first_not_of("-0.") == std::string::npos) return "0";
  return std::fabs(value) >= 10000 ? withThousands(s) : s;
}

double textWidth(const std::string& text, double fontSize) {
  // UTF-8 continuation bytes do not start a glyph.
  std::size_t glyphs = 0;
  for (unsigned char c : text) glyphs += (c & 0xC0) != 0x80;
  return static_cast<double>(glyphs) * fontSize * 0.6;
}

double Scale::operator()(double v) const {
  double a = lo, b = hi, x = v;
  if (log) {
    a = std::log(std::max(lo, 1e-300));
    b = std::log(std::max(hi, 1e-300));
    x = std::log(std::max(v, 1e-300));
  }
  if (!(b > a)) return (from + to) / 2;
  return from + (x - a) / (b - a) * (to - from);
}

AxisLayout layoutAxis(const AxisSpec& spec, double dataLo, double dataHi, int targetTicks, bool roundOut) {
  AxisLayout out;
  double lo = spec.min.value_or(dataLo), hi = spec.max.value_or(dataHi);
  if (!spec.ticks.empty()) {
    lo = spec.min.value_or(spec.ticks.front().first);
    hi = spec.max.value_or(spec.ticks.back().first);
    for (const auto& [v, label] : spec.ticks) out.ticks.push_back({v, label});
    if (spec.log && lo > 0 && hi > lo) {  // a little air so end markers are not cut
      const double pad = std::pow(hi / lo, 0.04);
      lo /= pad, hi *= pad;
    } else if (hi > lo) {
      const double pad = (hi - lo) * 0.04;
      lo -= pad, hi += pad;
    } else {
      lo -= 1, hi += 1;
    }
    out.lo = lo, out.hi = hi;
    return out;
  }
  if (spec.log) {
    lo = std::max(lo, 1e-12);
    if (!(hi > lo)) hi = lo * 10;
    for (double p = std::pow(10.0, std::floor(std::log10(lo))); p <= hi * 1.0001; p *= 10)
      for (double m : {1.0, 2.0, 5.0})
        if (p * m >= lo * 0.9999 && p * m <= hi * 1.0001) out.ticks.push_back({p * m, tickLabel(p * m, p * m)});
    out.lo = lo, out.hi = hi;
    return out;
  }
  if (!(hi > lo)) hi = lo + (lo == 0 ? 1 : std::fabs(lo) * 0.1);
  double step = 1;
  niceTicks(lo, hi, targetTicks, &step);
  if (roundOut) {
    if (!spec.min) lo = std::floor(lo / step + 1e-9) * step;
    if (!spec.max) hi = std::ceil(hi / step - 1e-9) * step;
  }
  for (double v : niceTicks(lo, hi, targetTicks, &step)) out.ticks.push_back({v, tickLabel(v, step)});
  out.lo = lo, out.hi = hi;
  return out;
}

PlotArea drawFrame(SvgDocument& doc, const std::string& title, const std::vector<LegendEntry>& legend,
                   double leftMargin) {
  PlotArea a;
  a.left = leftMargin;
  a.right = doc.width() - kRightMargin;
  doc.text(8, kTitleBaseline, title, "start", {{"font-size", "13"}, {"font-weight", "600"}, {"fill", "#222"}});
  double x = a.left, y = kTitleBaseline + 16;
  bool any = false;
  for (const LegendEntry& e : legend) {
    const double w = 22 + textWidth(e.name) + 14;
    if (x + w > doc.width() - 8 && x > a.left) {
      x = a.left;
      y += kLegendRow;
    }
    any = true;
    switch (e.style) {
      case LegendEntry::Style::Box:
        doc.rect(x, y - 9, 16, 10, {{"fill", e.color}});
        break;
      case LegendEntry::Style::Marker:
        doc.line(x, y - 4, x + 16, y - 4, {{"stroke", e.color}, {"stroke-width", "2"}});
        doc.circle(x + 8, y - 4, 3, {{"fill", e.color}});
        break;
      default:
        doc.line(x, y - 4, x + 16, y - 4,
                 {{"stroke", e.color}, {"stroke-width", "2"},
                  {"stroke-dasharray", e.style == LegendEntry::Style::Dashed ? "4 3" : "none"}});
    }
    doc.text(x + 22, y, e.name, "start", {{"fill", kLabelColor}});
    x += w;
  }
  a.top = any ? y + 12 : kTitleBaseline + 14;
  a.bottom = doc.height() - kBottomMargin;
  return a;
}

void drawYAxis(SvgDocument& doc, const PlotArea& a, const Scale& s, const AxisLayout& axis,
               const std::string& label) {
  doc.open("g", {{"class", "axis y"}});
  for (const Tick& t : axis.ticks) {
    const double y = s(t.value);
    if (y < a.top - 0.5 || y > a.bottom + 0.5) continue;
    doc.line(a.left, y, a.right, y, {{"stroke", kGridColor}, {"stroke-width", "1"}});
    doc.text(a.left - 6, y + 4, t.label, "end", {{"fill", kLabelColor}});
  }
  doc.line(a.left, a.top, a.left, a.bottom, {{"stroke", kAxisColor}});
  const double mid = (a.top + a.bottom) / 2;
  doc.text(14, mid, label, "middle",
           {{"fill", kLabelColor}, {"transform", "rotate(-90 14 " + svgNumber(mid) + ")"}});
  doc.close();
}

void drawXAxis(SvgDocument& doc, const PlotArea& a, const Scale& s, const AxisLayout& axis,
               const std::string& label) {
  doc.open("g", {{"class", "axis x"}});
  doc.line(a.left, a.bottom, a.right, a.bottom, {{"stroke", kAxisColor}});
  double lastRight = -1e300;
  for (const Tick& t : axis.ticks) {
    const double x = s(t.value);
    if (x < a.left - 0.5 || x > a.right + 0.5) continue;
    doc.line(x, a.bottom, x, a.bottom + 4, {{"stroke", kAxisColor}});
    const double w = textWidth(t.label);
    if (x - w / 2 < lastRight + 6) continue;  // would overlap the previous label
    doc.text(x, a.bottom + 17, t.label, "middle", {{"fill", kLabelColor}});
    lastRight = x + w / 2;
  }
  doc.text((a.left + a.right) / 2, a.bottom + 36, label, "middle", {{"fill", kLabelColor}});
  doc.close();
}

double leftMarginFor(const AxisLayout& y) {
  double w = 0;
  for (const Tick& t : y.ticks) w = std::max(w, textWidth(t.label));
  return std::max(48.0, w + 34);
}

}  // namespace fl::report
