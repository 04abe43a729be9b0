#include "report/metric_format.h"

#include <algorithm>
#include <cmath>

#include "report/report_format.h"

namespace fl::report {

std::string formatMetric(const SweepMetric& m, double v) {
  if (!std::isfinite(v)) return "–";
  switch (m.kind) {
    case MetricKind::Time: return formatDuration(static_cast<Time>(std::llround(v)));
    case MetricKind::Fraction: return formatPercent(v);
    case MetricKind::Bytes: return formatBytes(v);
    case MetricKind::Number:
      return m.decimals == 0 && std::fabs(v) < 9.2e18 ? formatCount(std::llround(v)) : formatFixed(v, m.decimals);
  }
  return formatFixed(v, m.decimals);
}

MetricAxis metricAxis(const SweepMetric& m, double largest) {
  const std::string title = m.column;
  switch (m.kind) {
    case MetricKind::Time: {
      const TimeUnit u = timeUnitFor(std::max<Time>(1, static_cast<Time>(std::llround(largest))));
      return {1 / u.picoseconds, title + " (" + u.name + ")"};
    }
    case MetricKind::Fraction: return {100, title + " (%)"};
    case MetricKind::Bytes: {
      static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
      int u = 0;
      double scale = 1;
      while (u < 4 && largest * scale >= 1024) scale /= 1024, ++u;
      return {scale, title + " (" + units[u] + ")"};
    }
    case MetricKind::Number: break;
  }
  return {1, title};
}

}  // namespace fl::report
