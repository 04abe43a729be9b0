// Figures the report derives from Results: per-bin totals, the busiest bin, per-bin
// utilisation, the busiest link directions. Pure functions, so tests can check them
// against independent counts and the GUI can reuse them.
#pragma once
#include <cstdint>
#include <vector>

#include "results/results.h"

namespace fl::report {

// Bins covered by the recording: Results::bins, or more if a series reaches further.
int binCount(const Results& r);

// The part of bin `b` inside the run (the last bin is cut short by the end of the run);
// the full bin width when the run's end is unknown.
Time binDuration(const Results& r, int b);

// Wire bytes per bin summed over every link direction (dense, binCount() entries).
std::vector<std::int64_t> totalBytesPerBin(const Results& r);

// The bin with the most wire bytes over all link directions; the earliest on ties;
// -1 when nothing was recorded.
int busiestBin(const Results& r);

// Bytes / (usable capacity x bin duration); 0 when the capacity is unknown.
double binUtilization(const Results& r, const LinkDirectionResult& l, int b);

// Link directions by utilisation over the run, then wire bytes, then id (descending;
// ties keep Results order). At most `count`, idle ones excluded.
std::vector<const LinkDirectionResult*> busiestLinks(const Results& r, std::size_t count);

// Per-bin aggregate rates (bytes/s) of uplink and downlink directions, and each bin's
// start time: what "bandwidth over time" plots.
struct RateSeries {
  std::vector<Time> start;
  std::vector<double> uplink_Bps, downlink_Bps;
};
RateSeries uplinkDownlinkRates(const Results& r);

// End of the recorded run: the latest of makespan and sim_time.
Time runEnd(const Results& r);

}  // namespace fl::report
