// One scale for every sweep point of a figure: the longest run and the highest per-bin
// bandwidths over the points. The Plots dock draws each point on it, so flipping points
// never rescales an axis (a 5.9 GB/s peak and a 3.8 GB/s one look different).
#pragma once
#include "engine/time.h"
#include "results/results.h"

namespace fl::views {

struct PlotScale {
  Time duration = 0;          // bins x bin width of the longest run, ps
  double upDownPeakGBps = 0;  // the highest bin of the uplink or the downlink sum
  double linkPeakGBps = 0;    // the highest bin of any one link direction

  void include(const Results& r);
  static PlotScale of(const Results& r);
  bool empty() const { return duration <= 0; }
};

}  // namespace fl::views
