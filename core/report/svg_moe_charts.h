// An MoE layer's two pictures as the report draws them, the same as the app's Traffic
// Breakdown and Pipeline docks: the traffic breakdown (one stacked bar per phase and
// direction, split into useful / redundant / useless / overhead bytes, totals over the
// bars) and the token pipeline's Gantt chart (tasks coloured by kind on a row per SM
// group per GPU, or one row per GPU on larger fabrics). Both take a fixed scale, so a
// comparison of sweep points draws them on one value scale / one time axis.
#pragma once
#include <string>
#include <vector>

#include "results/results.h"

namespace fl::report {

// Where each breakdown row's bar stands on the x axis: pairs (uplink, downlink) per
// phase with a gap between phases; shared with the app's Traffic Breakdown dock.
struct BreakdownSlot {
  const char* phase;
  const char* direction;
  double key;
};
inline constexpr BreakdownSlot kBreakdownSlots[] = {
    {"dispatch", "uplink", 1}, {"dispatch", "downlink", 2}, {"combine", "uplink", 3.5},
    {"combine", "downlink", 4.5}, {"all", "uplink", 6}, {"all", "downlink", 7}};

// The tallest stack of a breakdown (bytes): the value scale a comparison shares.
double breakdownTop(const std::vector<TrafficBreakdownRow>& rows);

// `valueTop` bytes (0: fit the data; never below the data). Colours and class names as
// views/traffic_breakdown_bars (Okabe-Ito: useful green, redundant amber, useless
// vermilion, overhead grey). "" when no row is a known phase and direction.
std::string renderBreakdownChart(const std::vector<TrafficBreakdownRow>& rows, const std::string& title,
                                 double valueTop = 0, double width = 720, double height = 300);

// Several runs' breakdowns in one chart for a comparison: per run, its uplink and downlink
// bars over both phases (the "all" rows), stacked by class, on one byte scale; each pair
// named under it. "" when no run has those rows.
std::string renderBreakdownComparison(const std::vector<std::pair<std::string, const std::vector<TrafficBreakdownRow>*>>& runs,
                                      const std::string& title, double width = 720, double height = 300);

struct GanttChartOptions {
  Time timeEnd = 0;       // right end of the time axis (0: the last task's end)
  double width = 720;
  int maxRowsPerGpu = 0;  // 0: one row per SM group up to 8 GPUs, else one row per GPU
  double rowsHeight = 420;  // pixels the rows share (each 5-20 px): less for a comparison
};

struct GanttPicture {
  std::string svg;        // "" without tasks
  int rows = 0;
  int bars = 0;           // rectangles drawn (tasks of one kind closer than 0.5 px merged)
};

// Task colours as views/phase_palette (dispatch blue, GEMM-1 amber, GEMM-2 vermilion,
// combine green, launch gap grey, barrier pink).
GanttPicture renderPipelineGantt(const PipelineResults& p, const GanttChartOptions& options = {});

}  // namespace fl::report
