// The frame every report chart shares: title, legend band above the plot (so it never
// hides data), plot area, grid, ticks with labels, axis titles. Used by svg_charts.cpp.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/svg_document.h"

namespace fl::report {

struct AxisSpec {
  std::string label;               // with its unit: "time (µs)", "bandwidth (GB/s)"
  bool log = false;                // logarithmic (positive values only)
  std::optional<double> min, max;  // forced range; default: the data's (y axes from 0)
  // Explicit ticks (value, label), e.g. sweep values "64 KiB"; empty: automatic ticks.
  std::vector<std::pair<double, std::string>> ticks;
};

struct Tick {
  double value = 0;
  std::string label;
};

// "Nice" ticks (1, 2, 5 x 10^k) covering [lo, hi]; `step` receives the spacing.
std::vector<double> niceTicks(double lo, double hi, int target, double* step = nullptr);
// A tick value with as many decimals as the step needs; thousands separated by commas.
std::string tickLabel(double value, double step);
// Estimated width in pixels of `text` (0.6 em per glyph: DejaVu Sans, the widest common
// system sans-serif, averages about that; narrower fonts only leave more room).
double textWidth(const std::string& text, double fontSize = 12);

// Maps data values onto pixels (linear or logarithmic).
struct Scale {
  double lo = 0, hi = 1;      // data range
  double from = 0, to = 1;    // pixel range
  bool log = false;
  double operator()(double v) const;
};

// The ticks and the data range of one axis: explicit ticks, or nice ticks over the data
// range [dataLo, dataHi] (widened to whole ticks unless the spec forces the range).
struct AxisLayout {
  double lo = 0, hi = 1;
  std::vector<Tick> ticks;
};
AxisLayout layoutAxis(const AxisSpec& spec, double dataLo, double dataHi, int targetTicks,
                      bool roundOut);

struct LegendEntry {
  enum class Style { Line, Dashed, Box, Marker };
  std::string name, color;
  Style style = Style::Line;
};

struct PlotArea {
  double left = 0, top = 0, right = 0, bottom = 0;
  double width() const { return right - left; }
  double height() const { return bottom - top; }
};

// Draws the title and the legend (wrapping over rows) and returns the plot area left
// over, leaving `leftMargin` for y tick labels and room below for x tick labels.
PlotArea drawFrame(SvgDocument& doc, const std::string& title, const std::vector<LegendEntry>& legend,
                   double leftMargin);

// Grid lines, ticks, tick labels and the axis title. Horizontal grid for y, none for x
// (bars and time series read better against horizontal lines only).
void drawYAxis(SvgDocument& doc, const PlotArea& a, const Scale& s, const AxisLayout& axis,
               const std::string& label);
void drawXAxis(SvgDocument& doc, const PlotArea& a, const Scale& s, const AxisLayout& axis,
               const std::string& label);

// Left margin that fits the y tick labels and the rotated axis title.
double leftMarginFor(const AxisLayout& y);

}  // namespace fl::report
