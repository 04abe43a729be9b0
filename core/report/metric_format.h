// Sweep figures (results/sweep_metrics.h) as text with their unit and as plot axes.
#pragma once
#include <string>

#include "results/sweep_metrics.h"

namespace fl::report {

// A value as text with its unit: "45.2%", "1.50 MiB", "12.3 µs", "371.25".
std::string formatMetric(const SweepMetric& m, double value);

// A plot axis for the figure: the factor taking values to axis units, and the axis
// title with that unit ("makespan (µs)", "AL TLB hit rate (%)", "busbw (GB/s)").
// `largest`: the biggest value to be shown, which picks the time and byte units.
struct MetricAxis {
  double scale = 1;
  std::string title;
};
MetricAxis metricAxis(const SweepMetric& m, double largest);

}  // namespace fl::report
