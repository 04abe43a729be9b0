#include "report/report_compare.h"

#include <algorithm>

#include "report/html_util.h"
#include "report/report_data.h"
#include "report/report_format.h"
#include "report/report_sections.h"
#include "report/svg_charts.h"
#include "report/svg_moe_charts.h"
#include "scenario/story.h"

namespace fl::report {
namespace {

constexpr double kSmallWidth = 560;  // two to a row in a browser, one on a printed page

std::string pointName(const std::vector<std::string>& labels, int i) {
  const std::string label = i < static_cast<int>(labels.size()) ? labels[static_cast<std::size_t>(i)] : "";
  return "Point " + std::to_string(i + 1) + (label.empty() ? "" : ": " + label);
}

// Up- and downlink GB/s per bin, the x axis to `end` and the y axis to `peak` for all.
std::string bandwidthChart(const Results& r, const std::string& title, Time end, double peakGBps) {
  const RateSeries rates = uplinkDownlinkRates(r);
  const TimeUnit unit = timeUnitFor(std::max<Time>(end, 1));
  LineChart c;
  c.title = title;
  c.width = kSmallWidth;
  c.height = 240;
  c.x.label = std::string("time (") + unit.name + ")";
  c.x.min = 0;
  c.x.max = static_cast<double>(end) / unit.picoseconds;
  c.y.label = "bandwidth (GB/s)";
  c.y.min = 0;
  c.y.max = std::max(peakGBps, 1e-9);
  ChartSeries up, down;
  up.name = "uplink";
  down.name = "downlink";
  down.dashed = true;
  for (std::size_t b = 0; b < rates.start.size(); ++b) {
    const double mid = static_cast<double>(rates.start[b]) + static_cast<double>(binDuration(r, static_cast<int>(b))) / 2;
    up.x.push_back(mid / unit.picoseconds);
    down.x.push_back(mid / unit.picoseconds);
    up.y.push_back(rates.uplink_Bps[b] / 1e9);
    down.y.push_back(rates.downlink_Bps[b] / 1e9);
  }
  c.series = {up, down};
  return renderLineChart(c);
}

std::string grid(const std::string& figures) { return "<div class=\"compare-grid\">\n" + figures + "</div>\n"; }

}  // namespace

std::string compareSection(const Scenario& s, const std::vector<SweepPoint>& points, const std::vector<int>& detail) {
  if (detail.size() < 2) return {};
  const std::vector<std::string> labels = sweepPointLabels(s);
  Time end = 0;
  double peak = 0, bytesTop = 0;
  bool breakdown = false, pipeline = false, binned = false;
  for (int i : detail) {
    const Results& r = points[static_cast<std::size_t>(i)].results;
    end = std::max(end, runEnd(r));
    const RateSeries rates = uplinkDownlinkRates(r);
    for (std::size_t b = 0; b < rates.start.size(); ++b)
      peak = std::max({peak, rates.uplink_Bps[b] / 1e9, rates.downlink_Bps[b] / 1e9});
    binned = binned || (r.bin > 0 && binCount(r) > 0);
    bytesTop = std::max(bytesTop, breakdownTop(r.breakdown));
    breakdown = breakdown || !r.breakdown.empty();
    pipeline = pipeline || (r.pipeline && !r.pipeline->tasks.empty());
  }
  std::string body = "<p class=\"note\">" +
                     htmlEscape("The " + std::to_string(detail.size()) +
                                " points shown in detail side by side, as the app's Compare view shows two: every "
                                "chart of one kind has the same scale, so bar heights and bar lengths compare "
                                "directly.") +
                     "</p>\n";
  if (binned) {
    std::string figures;
    for (int i : detail)
      figures += "<figure class=\"compare-bandwidth\">\n" +
                 bandwidthChart(points[static_cast<std::size_t>(i)].results, pointName(labels, i), end, peak) +
                 "</figure>\n";
    body += "<h3>Endpoint bandwidth over time (one time axis, one rate scale)</h3>\n" + grid(figures) +
            "<p class=\"note\">Wire bytes per second summed over the uplink (endpoint → fabric) and downlink "
            "(fabric → endpoint) link directions, per time bin.</p>\n";
  }
  if (breakdown) {
    std::string figures;
    for (int i : detail) {
      const Results& r = points[static_cast<std::size_t>(i)].results;
      const std::string d =
          r.moe ? " (d = " + formatFixed(r.moe->distinct_remote_gpus_per_token, 2) + ")" : std::string();
      const std::string svg = renderBreakdownChart(r.breakdown, pointName(labels, i) + d, bytesTop, kSmallWidth, 260);
      if (!svg.empty()) figures += "<figure class=\"compare-breakdown\">\n" + svg + "</figure>\n";
    }
    body += "<h3>MoE traffic breakdown (one byte scale)</h3>\n" + grid(figures) +
            "<p class=\"note\">Useful, redundant, useless and overhead bytes per phase and direction; the same "
            "byte scale for every point. d: distinct remote GPUs per token.</p>\n";
  }
  if (pipeline) {
    body += "<h3>Token pipeline (one time axis)</h3>\n";
    for (int i : detail) {
      const Results& r = points[static_cast<std::size_t>(i)].results;
      if (!r.pipeline || r.pipeline->tasks.empty()) continue;
      body += "<h4>" + htmlEscape(pointName(labels, i) + ": makespan " + formatDuration(r.makespan)) + "</h4>\n" +
              pipelineFigure(r, end, 220);  // compact rows: four of them share a few pages
    }
  }
  return htmlSection("compare", "Compare sweep points", body);
}

}  // namespace fl::report
