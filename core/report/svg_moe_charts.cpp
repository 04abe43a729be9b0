#include "report/svg_moe_charts.h"

#include <tuple>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "report/chart_axes.h"
#include "report/report_format.h"
#include "report/svg_document.h"

namespace fl::report {
namespace {

using Slot = BreakdownSlot;
constexpr const auto& kSlots = kBreakdownSlots;
constexpr const char* kClassNames[] = {"useful", "redundant (extra copies)", "useless (not needed)",
                                       "overhead (headers, targets)"};
constexpr const char* kClassColours[] = {"#009e73", "#e69f00", "#d55e00", "#999999"};

std::int64_t total(const TrafficBreakdownRow& r) { return r.useful + r.redundant + r.useless + r.overhead; }

const char* kindColour(PipelineTaskKind k) {
  switch (k) {
    case PipelineTaskKind::Dispatch: return "#0072b2";
    case PipelineTaskKind::Gemm1: return "#e69f00";
    case PipelineTaskKind::Gemm2: return "#d55e00";
    case PipelineTaskKind::Combine: return "#009e73";
    case PipelineTaskKind::LaunchGap: return "#9a9a9a";
    case PipelineTaskKind::Barrier: return "#cc79a7";
    case PipelineTaskKind::LocalGemm: return "#8c6d31";  // tensor-parallel kinds: views/phase_palette.cpp
    case PipelineTaskKind::Compute: return "#bcbd22";
    case PipelineTaskKind::GemmRs: return "#d55e00";
    case PipelineTaskKind::LayerNorm: return "#56b4e9";
    case PipelineTaskKind::AgGemm: return "#e69f00";
    case PipelineTaskKind::Collective: return "#0072b2";
    case PipelineTaskKind::CaisReduce: return "#009e73";
    case PipelineTaskKind::CaisLoad: return "#332288";
    case PipelineTaskKind::SyncWait: return "#882255";
  }
  return "#000000";
}

}  // namespace

double breakdownTop(const std::vector<TrafficBreakdownRow>& rows) {
  double top = 0;
  for (const TrafficBreakdownRow& r : rows) top = std::max(top, static_cast<double>(total(r)));
  return top;
}

namespace {

// One breakdown row as a bar from x, `width` wide: its classes stacked bottom up (each
// with a tooltip "`what`, class: bytes"), its total written above it.
void drawStack(SvgDocument& doc, const TrafficBreakdownRow& row, double x, double width, const Scale& sy, double unit,
               const std::string& what, const char* fontSize) {
  const std::int64_t parts[] = {row.useful, row.redundant, row.useless, row.overhead};
  double base = 0;
  for (int c = 0; c < 4; ++c) {
    if (parts[c] <= 0) continue;
    const double y0 = sy(base / unit), y1 = sy((base + static_cast<double>(parts[c])) / unit);
    doc.open("rect", {{"class", "bar"}, {"data-class", kClassNames[c]}, {"x", svgNumber(x)}, {"y", svgNumber(y1)},
                      {"width", svgNumber(width)}, {"height", svgNumber(std::max(0.0, y0 - y1))},
                      {"fill", kClassColours[c]}, {"stroke", "#555555"}, {"stroke-width", "0.5"}});
    doc.title(what + ", " + kClassNames[c] + ": " + formatBytes(static_cast<double>(parts[c])));
    doc.close();
    base += static_cast<double>(parts[c]);
  }
  doc.text(x + width / 2, sy(base / unit) - 4, formatBytes(base), "middle",
           {{"class", "total"}, {"fill", "#333333"}, {"font-size", fontSize}});
}

}  // namespace

std::string renderBreakdownChart(const std::vector<TrafficBreakdownRow>& rows, const std::string& title,
                                 double valueTop, double width, double height) {
  std::vector<std::pair<const Slot*, const TrafficBreakdownRow*>> bars;
  for (const TrafficBreakdownRow& r : rows)
    for (const Slot& s : kSlots)
      if (r.phase == s.phase && r.direction == s.direction) bars.push_back({&s, &r});
  if (bars.empty()) return {};
  // One binary unit for the axis, as the bar totals and the tables write sizes.
  const double top = std::max({valueTop, breakdownTop(rows), 1.0});
  constexpr double kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
  const double unit = top >= 2 * kGiB ? kGiB : top >= 2 * kMiB ? kMiB : kKiB;
  AxisSpec ySpec;
  ySpec.label = std::string("bytes (") + (unit == kGiB ? "GiB" : unit == kMiB ? "MiB" : "KiB") + ")";
  ySpec.min = 0;
  const AxisLayout yAxis = layoutAxis(ySpec, 0, top * 1.1 / unit, 5, true);  // headroom for the totals
  AxisLayout xAxis;
  xAxis.lo = 0.2, xAxis.hi = 7.8;
  for (const Slot& s : kSlots) xAxis.ticks.push_back({s.key, s.direction});

  std::vector<LegendEntry> legend;
  for (int c = 0; c < 4; ++c) legend.push_back({kClassNames[c], kClassColours[c], LegendEntry::Style::Box});
  SvgDocument doc(width, height, "chart breakdown", title.empty() ? "traffic breakdown" : title);
  // A title longer than the chart is cut at a word with an ellipsis (13 px bold type).
  std::string shown = title;
  while (shown.size() > 8 && textWidth(shown + " …", 13) > width - 16) {
    const auto space = shown.find_last_of(' ', shown.size() - 2);
    shown = shown.substr(0, space == std::string::npos ? shown.size() - 1 : space);
  }
  if (shown != title) shown += " …";
  const PlotArea a = drawFrame(doc, shown, legend, leftMarginFor(yAxis));
  const Scale sx{xAxis.lo, xAxis.hi, a.left, a.right, false};
  const Scale sy{yAxis.lo, yAxis.hi, a.bottom, a.top, false};
  drawYAxis(doc, a, sy, yAxis, ySpec.label);
  drawXAxis(doc, a, sx, xAxis, "");
  // The phase under each pair of bars, where an axis title would go.
  for (const char* phase : {"dispatch", "combine", "all"}) {
    double lo = 1e300, hi = -1e300;
    for (const Slot& s : kSlots)
      if (std::string(phase) == s.phase) lo = std::min(lo, s.key), hi = std::max(hi, s.key);
    doc.text(sx((lo + hi) / 2), a.bottom + 34, phase == std::string("all") ? "both phases" : phase, "middle",
             {{"fill", "#333333"}, {"font-weight", "600"}});
  }
  const double barWidth = (sx(1.8) - sx(1.0));
  doc.open("g", {{"class", "bars"}});
  for (const auto& [slot, row] : bars) {
    drawStack(doc, *row, sx(slot->key) - barWidth / 2, barWidth, sy, unit,
              std::string(slot->phase) + " " + slot->direction, "11");
  }
  doc.close();
  return doc.finish();
}

std::string renderBreakdownComparison(const std::vector<std::pair<std::string, const std::vector<TrafficBreakdownRow>*>>& runs,
                                      const std::string& title, double width, double height) {
  // (run, direction, row): the both-phases rows, uplink at 3 i + 1 and downlink at 3 i + 2.
  std::vector<std::tuple<std::size_t, int, const TrafficBreakdownRow*>> bars;
  double top = 1;
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (const TrafficBreakdownRow& r : *runs[i].second)
      if (r.phase == "all" && (r.direction == "uplink" || r.direction == "downlink")) {
        bars.push_back({i, r.direction == "uplink" ? 0 : 1, &r});
        top = std::max(top, static_cast<double>(total(r)));
      }
  if (bars.empty()) return {};
  constexpr double kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
  const double unit = top >= 2 * kGiB ? kGiB : top >= 2 * kMiB ? kMiB : kKiB;
  AxisSpec ySpec;
  ySpec.label = std::string("bytes (") + (unit == kGiB ? "GiB" : unit == kMiB ? "MiB" : "KiB") + ")";
  ySpec.min = 0;
  const AxisLayout yAxis = layoutAxis(ySpec, 0, top * 1.1 / unit, 5, true);
  AxisLayout xAxis;
  xAxis.lo = 0.2, xAxis.hi = 3.0 * static_cast<double>(runs.size()) - 0.2;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    xAxis.ticks.push_back({3.0 * static_cast<double>(i) + 1, "up"});
    xAxis.ticks.push_back({3.0 * static_cast<double>(i) + 2, "down"});
  }
  std::vector<LegendEntry> legend;
  for (int c = 0; c < 4; ++c) legend.push_back({kClassNames[c], kClassColours[c], LegendEntry::Style::Box});
  SvgDocument doc(width, height, "chart breakdown-compare", title);
  const PlotArea a = drawFrame(doc, title, legend, leftMarginFor(yAxis));
  const Scale sx{xAxis.lo, xAxis.hi, a.left, a.right, false};
  const Scale sy{yAxis.lo, yAxis.hi, a.bottom, a.top, false};
  drawYAxis(doc, a, sy, yAxis, ySpec.label);
  drawXAxis(doc, a, sx, xAxis, "");
  for (std::size_t i = 0; i < runs.size(); ++i)
    doc.text(sx(3.0 * static_cast<double>(i) + 1.5), a.bottom + 34, runs[i].first, "middle",
             {{"fill", "#333333"}, {"font-weight", "600"}});
  const double barWidth = std::min(sx(1.8) - sx(1.0), 48.0);
  doc.open("g", {{"class", "bars"}});
  for (const auto& [run, direction, row] : bars) {
    drawStack(doc, *row, sx(3.0 * static_cast<double>(run) + 1 + direction) - barWidth / 2, barWidth, sy, unit,
              runs[run].first + (direction == 0 ? ", uplink" : ", downlink"), "10");
  }
  doc.close();
  return doc.finish();
}

GanttPicture renderPipelineGantt(const PipelineResults& p, const GanttChartOptions& o) {
  GanttPicture pic;
  if (p.tasks.empty()) return pic;
  int gpus = 0;
  Time end = 0;
  for (const PipelineTask& t : p.tasks) gpus = std::max(gpus, t.gpu + 1), end = std::max(end, t.end);
  end = std::max(end, o.timeEnd);
  const int groups = std::max<int>(1, static_cast<int>(p.groups.size()));
  // One row per SM group per GPU while that stays readable, else one row per GPU (the
  // Pipeline dock's collapsed rows): 72 GPUs x 4 groups would be 1-px rows.
  const bool perGroup = o.maxRowsPerGpu != 1 && (o.maxRowsPerGpu > 1 || gpus <= 8) && groups > 1;
  const int perGpu = perGroup ? groups : 1;
  pic.rows = gpus * perGpu;
  const double rowH = std::clamp(o.rowsHeight / pic.rows, 5.0, 20.0);
  const TimeUnit unit = timeUnitFor(std::max<Time>(end, 1));
  AxisSpec xSpec;
  xSpec.label = std::string("time (") + unit.name + ")";
  xSpec.min = 0;
  xSpec.max = static_cast<double>(end) / unit.picoseconds;
  const AxisLayout xAxis = layoutAxis(xSpec, 0, *xSpec.max, 8, false);

  std::vector<LegendEntry> legend;
  std::array<bool, kPipelineTaskKinds> used{};
  for (const PipelineTask& t : p.tasks) used[static_cast<std::size_t>(t.kind)] = true;
  for (int k = 0; k < kPipelineTaskKinds; ++k)
    if (used[static_cast<std::size_t>(k)])
      legend.push_back({pipelineTaskKindName(static_cast<PipelineTaskKind>(k)),
                        kindColour(static_cast<PipelineTaskKind>(k)), LegendEntry::Style::Box});
  // Row labels: "gpu3 · gemm1" or "gpu3"; the widest sets the left margin.
  auto rowLabel = [&](int row) {
    const int gpu = row / perGpu, g = row % perGpu;
    std::string s = "gpu" + std::to_string(gpu);
    if (perGroup && g < static_cast<int>(p.groups.size())) s += " · " + p.groups[static_cast<std::size_t>(g)];
    return s;
  };
  const double fontSize = std::min(11.0, rowH * 0.9);
  double labelW = 0;
  for (int r = 0; r < pic.rows; ++r) labelW = std::max(labelW, textWidth(rowLabel(r), fontSize));
  // Title, legend rows (estimated as drawFrame wraps them) and the axis below.
  const double height = 80 + 18 * std::ceil(legend.size() / 5.0) + rowH * pic.rows;
  SvgDocument doc(o.width, height, "chart gantt", "token pipeline Gantt chart");
  const std::string title = "Token pipeline (" + p.fusion + "): " + std::to_string(gpus) + " GPUs" +
                            (perGroup ? ", a row per SM group" : ", a row per GPU");
  PlotArea a = drawFrame(doc, title, legend, std::max(48.0, labelW + 12));
  a.bottom = a.top + rowH * pic.rows;
  const Scale sx{xAxis.lo, xAxis.hi, a.left, a.right, false};
  // Row labels: every row while they fit, else every k-th.
  const int every = std::max(1, static_cast<int>(std::ceil(12.0 / rowH)));
  doc.open("g", {{"class", "rows"}});
  for (int r = 0; r < pic.rows; ++r) {
    const double y = a.top + rowH * r;
    if (perGroup ? r % perGpu == 0 && r > 0 : false)
      doc.line(a.left, y, a.right, y, {{"stroke", "#c8c8c8"}, {"stroke-width", "1"}});
    if (r % every == 0)
      doc.text(a.left - 6, y + rowH / 2 + fontSize * 0.36, rowLabel(r), "end",
               {{"fill", "#333333"}, {"font-size", svgNumber(fontSize)}});
  }
  doc.close();
  // Bars: per row and kind, tasks closer than half a pixel merged into one rectangle, so
  // the file stays small (a 72-GPU run has tens of thousands of tasks).
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> spans;  // (row, kind) -> [x0, x1]
  for (const PipelineTask& t : p.tasks) {
    const int g = perGroup && t.group < groups ? t.group : 0;
    const int row = t.gpu * perGpu + g;
    spans[{row, static_cast<int>(t.kind)}].push_back(
        {sx(static_cast<double>(t.start) / unit.picoseconds), sx(static_cast<double>(t.end) / unit.picoseconds)});
  }
  doc.open("g", {{"class", "bars"}});
  for (auto& [key, list] : spans) {
    std::sort(list.begin(), list.end());
    const double y = a.top + rowH * key.first + (rowH > 8 ? 1 : 0.5);
    const double h = rowH - (rowH > 8 ? 2 : 1);
    const char* colour = kindColour(static_cast<PipelineTaskKind>(key.second));
    for (std::size_t i = 0; i < list.size();) {
      double x0 = list[i].first, x1 = list[i].second;
      std::size_t j = i + 1;
      for (; j < list.size() && list[j].first <= x1 + 0.5; ++j) x1 = std::max(x1, list[j].second);
      doc.rect(x0, y, std::max(0.6, x1 - x0), h, {{"fill", colour}});
      ++pic.bars;
      i = j;
    }
  }
  doc.close();
  drawXAxis(doc, a, sx, xAxis, xSpec.label);
  pic.svg = doc.finish();
  return pic;
}

}  // namespace fl::report
