#include "report/svg_charts.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "report/colormap.h"

namespace fl::report {
namespace {

// Data extent over finite values (positive ones only on log axes).
std::pair<double, double> extent(const std::vector<const std::vector<double>*>& values, bool log) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto* v : values)
    for (double x : *v)
      if (std::isfinite(x) && (!log || x > 0)) lo = std::min(lo, x), hi = std::max(hi, x);
  if (!std::isfinite(lo)) return {log ? 1.0 : 0.0, log ? 10.0 : 1.0};
  return {lo, hi};
}

// Y axes start at zero (bandwidths, counts, utilisation) unless told otherwise.
AxisLayout yAxisFor(const AxisSpec& spec, double lo, double hi) {
  if (!spec.log) lo = std::min(lo, 0.0);
  if (!spec.log && !(hi > lo)) hi = lo + 1;
  return layoutAxis(spec, lo, hi, 5, true);
}

std::string chartLabel(const std::string& title) { return title.empty() ? "chart" : title; }

}  // namespace

std::string renderLineChart(const LineChart& c) {
  std::vector<const std::vector<double>*> xs, ys;
  std::vector<LegendEntry> legend;
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    const ChartSeries& s = c.series[i];
    xs.push_back(&s.x);
    ys.push_back(&s.y);
    legend.push_back({s.name, seriesColor(s.colorIndex >= 0 ? s.colorIndex : static_cast<int>(i)),
                      s.markers ? LegendEntry::Style::Marker
                                : s.dashed ? LegendEntry::Style::Dashed : LegendEntry::Style::Line});
  }
  const auto [xlo, xhi] = extent(xs, c.x.log);
  const auto [ylo, yhi] = extent(ys, c.y.log);
  const AxisLayout xAxis = layoutAxis(c.x, xlo, xhi, 8, false);
  const AxisLayout yAxis = yAxisFor(c.y, ylo, yhi);

  SvgDocument doc(c.width, c.height, "chart", chartLabel(c.title));
  const PlotArea a = drawFrame(doc, c.title, c.series.size() > 1 ? legend : std::vector<LegendEntry>{},
                               leftMarginFor(yAxis));
  const Scale sx{xAxis.lo, xAxis.hi, a.left, a.right, c.x.log};
  const Scale sy{yAxis.lo, yAxis.hi, a.bottom, a.top, c.y.log};
  drawYAxis(doc, a, sy, yAxis, c.y.label);
  drawXAxis(doc, a, sx, xAxis, c.x.label);

  for (std::size_t i = 0; i < c.series.size(); ++i) {
    const ChartSeries& s = c.series[i];
    const std::string color = seriesColor(s.colorIndex >= 0 ? s.colorIndex : static_cast<int>(i));
    doc.open("g", {{"class", "series"}});
    doc.title(s.name);
    std::vector<SvgPoint> run;
    auto flush = [&] {
      if (run.size() > 1)
        doc.polyline(run, {{"fill", "none"}, {"stroke", color}, {"stroke-width", "1.8"},
                           {"stroke-linejoin", "round"},
                           {"stroke-dasharray", s.dashed ? "5 3" : "none"}});
      run.clear();
    };
    const std::size_t n = std::min(s.x.size(), s.y.size());
    for (std::size_t k = 0; k < n; ++k) {
      if (!std::isfinite(s.x[k]) || !std::isfinite(s.y[k]) || (c.y.log && s.y[k] <= 0)) {
        flush();
        continue;
      }
      // Clamp into the plot: a forced range (utilisation 0-100 %) must not spill out.
      const double y = std::clamp(sy(s.y[k]), a.top, a.bottom);
      run.push_back({sx(s.x[k]), y});
    }
    flush();
    if (s.markers) {
      for (std::size_t k = 0; k < n; ++k)
        if (std::isfinite(s.x[k]) && std::isfinite(s.y[k]) && (!c.y.log || s.y[k] > 0))
          doc.circle(sx(s.x[k]), std::clamp(sy(s.y[k]), a.top, a.bottom), 3.2,
                     {{"fill", color}, {"stroke", "#ffffff"}, {"stroke-width", "1"}});
    }
    doc.close();
  }
  if (c.series.empty())
    doc.text((a.left + a.right) / 2, (a.top + a.bottom) / 2, "no data", "middle", {{"fill", "#888"}});
  return doc.finish();
}

std::string renderHistogram(const HistogramChart& c) {
  const std::size_t n = std::min(c.counts.size(), c.edges.empty() ? 0 : c.edges.size() - 1);
  double ymax = 0;
  for (std::size_t i = 0; i < n; ++i) ymax = std::max(ymax, static_cast<double>(c.counts[i]));
  double xlo = n ? c.edges.front() : 0, xhi = n ? c.edges[n] : 1;
  for (const auto& m : c.markers) xlo = std::min(xlo, m.second), xhi = std::max(xhi, m.second);
  const AxisLayout xAxis = layoutAxis(c.x, xlo, xhi, 8, false);
  const AxisLayout yAxis = yAxisFor(c.y, 0, ymax);

  std::vector<LegendEntry> legend = {{"packets", seriesColor(0), LegendEntry::Style::Box}};
  for (std::size_t i = 0; i < c.markers.size(); ++i)
    legend.push_back({c.markers[i].first, seriesColor(static_cast<int>(i) + 1), LegendEntry::Style::Dashed});

  SvgDocument doc(c.width, c.height, "chart", chartLabel(c.title));
  const PlotArea a = drawFrame(doc, c.title, legend, leftMarginFor(yAxis));
  const Scale sx{xAxis.lo, xAxis.hi, a.left, a.right, false};
  const Scale sy{yAxis.lo, yAxis.hi, a.bottom, a.top, false};
  drawYAxis(doc, a, sy, yAxis, c.y.label);
  doc.open("g", {{"class", "bars"}, {"fill", seriesColor(0)}});
  for (std::size_t i = 0; i < n; ++i) {
    if (c.counts[i] <= 0) continue;
    const double x0 = sx(c.edges[i]), x1 = sx(c.edges[i + 1]);
    const double gap = x1 - x0 > 4 ? 1 : 0;
    const double y = sy(static_cast<double>(c.counts[i]));
    doc.open("rect", {{"x", svgNumber(x0 + gap / 2)}, {"y", svgNumber(y)},
                      {"width", svgNumber(std::max(0.5, x1 - x0 - gap))}, {"height", svgNumber(a.bottom - y)}});
    doc.title(svgNumber(c.edges[i]) + "–" + svgNumber(c.edges[i + 1]) + ": " + std::to_string(c.counts[i]));
    doc.close();
  }
  doc.close();
  for (std::size_t i = 0; i < c.markers.size(); ++i) {
    const double x = sx(c.markers[i].second);
    doc.line(x, a.top, x, a.bottom, {{"stroke", seriesColor(static_cast<int>(i) + 1)}, {"stroke-width", "1.5"},
                                     {"stroke-dasharray", "4 3"}});
  }
  drawXAxis(doc, a, sx, xAxis, c.x.label);
  return doc.finish();
}

std::string renderBarChart(const BarChart& c) {
  const std::size_t n = c.categories.size();
  double ymax = 0;
  std::vector<LegendEntry> legend;
  for (std::size_t s = 0; s < c.series.size(); ++s) {
    for (double v : c.series[s].y)
      if (std::isfinite(v)) ymax = std::max(ymax, v);
    legend.push_back({c.series[s].name, seriesColor(static_cast<int>(s)), LegendEntry::Style::Box});
  }
  const AxisLayout yAxis = yAxisFor(c.y, 0, ymax);
  AxisLayout xAxis;
  xAxis.lo = -0.5;
  xAxis.hi = static_cast<double>(n) - 0.5;
  for (std::size_t i = 0; i < n; ++i) xAxis.ticks.push_back({static_cast<double>(i), c.categories[i]});

  SvgDocument doc(c.width, c.height, "chart", chartLabel(c.title));
  const PlotArea a = drawFrame(doc, c.title, c.series.size() > 1 ? legend : std::vector<LegendEntry>{},
                               leftMarginFor(yAxis));
  const Scale sx{xAxis.lo, xAxis.hi, a.left, a.right, false};
  const Scale sy{yAxis.lo, yAxis.hi, a.bottom, a.top, false};
  drawYAxis(doc, a, sy, yAxis, c.y.label);
  const double band = n ? a.width() / static_cast<double>(n) : a.width();
  const double group = band * 0.7;
  const double bar = c.series.empty() ? group : group / static_cast<double>(c.series.size());
  for (std::size_t s = 0; s < c.series.size(); ++s) {
    doc.open("g", {{"class", "series"}, {"fill", seriesColor(static_cast<int>(s))}});
    for (std::size_t i = 0; i < n && i < c.series[s].y.size(); ++i) {
      const double v = c.series[s].y[i];
      if (!std::isfinite(v)) continue;
      const double x = sx(static_cast<double>(i)) - group / 2 + bar * static_cast<double>(s);
      const double y = sy(v);
      doc.open("rect", {{"x", svgNumber(x + 1)}, {"y", svgNumber(y)}, {"width", svgNumber(std::max(1.0, bar - 2))},
                        {"height", svgNumber(a.bottom - y)}});
      doc.title(c.series[s].name + " @ " + c.categories[i] + ": " + svgNumber(v));
      doc.close();
    }
    doc.close();
  }
  drawXAxis(doc, a, sx, xAxis, c.xLabel);
  return doc.finish();
}

}  // namespace fl::report
