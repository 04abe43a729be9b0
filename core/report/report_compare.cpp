#include "report/report_compare.h"

#include <algorithm>
#include <array>

#include "report/html_util.h"
#include "report/report_data.h"
#include "report/report_format.h"
#include "report/report_sections.h"
#include "report/svg_charts.h"
#include "report/svg_moe_charts.h"
#include "scenario/story.h"

namespace fl::report {
namespace {

std::string pointName(const std::vector<std::string>& labels, int i) {
  const std::string label = i < static_cast<int>(labels.size()) ? labels[static_cast<std::size_t>(i)] : "";
  return std::to_string(i + 1) + (label.empty() ? "" : ": " + label);
}

// Up- and downlink GB/s per bin for every point in one chart: a colour per point, the
// uplink solid and the downlink dashed; one time axis to `end`, one rate scale to `peakGBps`.
std::string bandwidthChart(const std::vector<SweepPoint>& points, const std::vector<int>& detail,
                           const std::vector<std::string>& labels, Time end, double peakGBps) {
  const TimeUnit unit = timeUnitFor(std::max<Time>(end, 1));
  LineChart c;
  c.title = "Endpoint bandwidth: uplink solid, downlink dashed";
  c.height = 260;
  c.x.label = std::string("time (") + unit.name + ")";
  c.x.min = 0;
  c.x.max = static_cast<double>(end) / unit.picoseconds;
  c.y.label = "bandwidth (GB/s)";
  c.y.min = 0;
  c.y.max = std::max(peakGBps, 1e-9);
  for (std::size_t k = 0; k < detail.size(); ++k) {
    const Results& r = points[static_cast<std::size_t>(detail[k])].results;
    const RateSeries rates = uplinkDownlinkRates(r);
    for (const bool uplink : {true, false}) {
      ChartSeries line;
      line.name = pointName(labels, detail[k]) + (uplink ? " up" : " down");
      line.dashed = !uplink;
      line.colorIndex = static_cast<int>(k);
      for (std::size_t b = 0; b < rates.start.size(); ++b) {
        const double mid = static_cast<double>(rates.start[b]) + static_cast<double>(binDuration(r, static_cast<int>(b))) / 2;
        line.x.push_back(mid / unit.picoseconds);
        line.y.push_back((uplink ? rates.uplink_Bps[b] : rates.downlink_Bps[b]) / 1e9);
      }
      c.series.push_back(std::move(line));
    }
  }
  return renderLineChart(c);
}

// The both-phases breakdown rows of a run, summed over the directions.
std::array<std::int64_t, 4> breakdownTotals(const Results& r) {
  std::array<std::int64_t, 4> t{};
  for (const TrafficBreakdownRow& row : r.breakdown)
    if (row.phase == "all") {
      t[0] += row.useful, t[1] += row.redundant, t[2] += row.useless, t[3] += row.overhead;
    }
  return t;
}

}  // namespace

std::string compareSection(const Scenario& s, const std::vector<SweepPoint>& points, const std::vector<int>& detail) {
  if (detail.size() < 2) return {};
  const std::vector<std::string> labels = sweepPointLabels(s);
  Time end = 0;
  double peak = 0;
  bool breakdown = false, pipeline = false, binned = false;
  for (int i : detail) {
    const Results& r = points[static_cast<std::size_t>(i)].results;
    end = std::max(end, runEnd(r));
    const RateSeries rates = uplinkDownlinkRates(r);
    for (std::size_t b = 0; b < rates.start.size(); ++b)
      peak = std::max({peak, rates.uplink_Bps[b] / 1e9, rates.downlink_Bps[b] / 1e9});
    binned = binned || (r.bin > 0 && binCount(r) > 0);
    breakdown = breakdown || !r.breakdown.empty();
    pipeline = pipeline || (r.pipeline && !r.pipeline->tasks.empty());
  }
  std::string body = "<p class=\"note\">" +
                     htmlEscape("The " + std::to_string(detail.size()) +
                                " points shown in detail, as the app's Compare view shows them: one table, and one "
                                "figure per measure with every point on the same scale.") +
                     "</p>\n";
  // The table: each point's key figures side by side.
  HtmlTable t(htmlAttr("class", "compare"));
  std::vector<Cell> head = {{"point"}, {"makespan"}, {"peak uplink"}, {"peak downlink"}};
  if (breakdown) head.insert(head.end(), {{"useful"}, {"redundant"}, {"useless"}, {"overhead"}});
  if (breakdown) head.push_back({"d"});
  if (pipeline) head.push_back({"SM utilisation"});
  t.header(head);
  for (int i : detail) {
    const Results& r = points[static_cast<std::size_t>(i)].results;
    const RateSeries rates = uplinkDownlinkRates(r);
    double up = 0, down = 0;
    for (std::size_t b = 0; b < rates.start.size(); ++b)
      up = std::max(up, rates.uplink_Bps[b]), down = std::max(down, rates.downlink_Bps[b]);
    std::vector<Cell> row = {{pointName(labels, i)}, numCell(formatDuration(r.makespan)), numCell(formatRate(up)),
                             numCell(formatRate(down))};
    if (breakdown)
      for (std::int64_t bytes : breakdownTotals(r)) row.push_back(numCell(formatBytes(static_cast<double>(bytes))));
    if (breakdown) row.push_back(numCell(r.moe ? formatFixed(r.moe->distinct_remote_gpus_per_token, 2) : std::string()));
    if (pipeline) row.push_back(numCell(r.pipeline ? formatPercent(r.pipeline->sm_utilization) : std::string()));
    t.row(row);
  }
  body += t.html();
  if (breakdown)
    body += "<p class=\"note\">Bytes over both phases and directions: useful, redundant (extra copies), useless (not "
            "needed) and overhead (headers, acknowledgements); each point's breakdown per phase is in its own "
            "section. d: distinct remote GPUs per token.</p>\n";
  if (binned)
    body += "<figure class=\"compare-bandwidth\">\n" + bandwidthChart(points, detail, labels, end, peak) +
            "<figcaption>Wire bytes per second summed over the uplink (endpoint → fabric) and downlink (fabric → "
            "endpoint) link directions, per time bin.</figcaption>\n</figure>\n";
  if (breakdown) {
    std::vector<std::pair<std::string, const std::vector<TrafficBreakdownRow>*>> runs;
    for (int i : detail) runs.push_back({pointName(labels, i), &points[static_cast<std::size_t>(i)].results.breakdown});
    const std::string svg = renderBreakdownComparison(runs, "MoE traffic breakdown, both phases (one byte scale)");
    if (!svg.empty())
      body += "<figure class=\"compare-breakdown\">\n" + svg +
              "<figcaption>Each point's uplink and downlink bytes stacked by class.</figcaption>\n</figure>\n";
  }
  if (pipeline)
    body += "<p class=\"note\">" +
            htmlEscape("Each point's token pipeline Gantt is in its section, on one time axis to " + formatDuration(end) +
                       ".") +
            "</p>\n";
  return htmlSection("compare", "Compare sweep points", body);
}

}  // namespace fl::report
