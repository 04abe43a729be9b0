// The report's charts as standalone inline SVG: line charts (time series, sweeps), a
// histogram (packet latency) and grouped bars (sweeps over a non-numeric setting).
// Every chart has a title, axes with ticks and unit-bearing labels, and a legend.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "report/chart_axes.h"

namespace fl::report {

struct ChartSeries {
  std::string name;
  std::vector<double> x, y;  // y NaN: a gap in the line
  bool markers = false;      // a dot at every point (sweeps), otherwise a plain line
  bool dashed = false;
  int colorIndex = -1;       // seriesColor(colorIndex); -1: the series' position
};

struct LineChart {
  std::string title;
  AxisSpec x, y;
  std::vector<ChartSeries> series;
  double width = 720, height = 300;
};
std::string renderLineChart(const LineChart& chart);

struct HistogramChart {
  std::string title;
  AxisSpec x, y;
  std::vector<double> edges;            // bucket i is [edges[i], edges[i+1])
  std::vector<std::int64_t> counts;
  std::vector<std::pair<std::string, double>> markers;  // labelled vertical lines, e.g. p99
  double width = 720, height = 280;
};
std::string renderHistogram(const HistogramChart& chart);

struct BarChart {
  std::string title;
  std::string xLabel;
  std::vector<std::string> categories;
  AxisSpec y;
  std::vector<ChartSeries> series;  // series[s].y[i] belongs to categories[i]; x unused
  double width = 720, height = 300;
};
std::string renderBarChart(const BarChart& chart);

}  // namespace fl::report
