#include "views/plot_scale.h"

#include <algorithm>

#include "views/scheme_compare_view.h"

namespace fl::views {

void PlotScale::include(const Results& r) {
  if (r.bins <= 0 || r.bin <= 0) return;
  duration = std::max(duration, Time(r.bins) * r.bin);
  const UpDownBandwidth bw = upDownBandwidth(r);
  for (const auto* series : {&bw.up, &bw.down})
    for (double v : *series) upDownPeakGBps = std::max(upDownPeakGBps, v);
  const double perGBps = 1.0 / (toSeconds(r.bin) * 1e9);
  for (const auto& l : r.links)
    for (std::int64_t bytes : l.bin_bytes.bytes) linkPeakGBps = std::max(linkPeakGBps, double(bytes) * perGBps);
}

PlotScale PlotScale::of(const Results& r) {
  PlotScale s;
  s.include(r);
  return s;
}

}  // namespace fl::views
