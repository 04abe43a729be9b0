// Synthetic traffic on any topology: every endpoint generates packets with exponential
// inter-arrival times at an offered load (fraction of its injection bandwidth, counted
// in wire bytes) for a duration; destinations follow a pattern (uniform random,
// transpose, hotspot). Packets created after the warm-up are measured: latency from
// creation (source queueing included) to tail delivery, and accepted vs offered
// throughput over the measurement window.
#pragma once
#include <memory>

#include "workloads/workload.h"

namespace fl::work {

std::unique_ptr<Workload> makeSyntheticTraffic(const Scenario& s, net::Network& net, Simulator& sim);

// Destination of endpoint `src` under the transpose pattern: (r, c) -> (c, r) on a
// mesh's global grid, bit-halves swapped for a power-of-two count, src + n/2 otherwise.
// Returns src itself when the pattern maps it to itself (it then sends nothing).
int transposeDestination(int src, int n, int meshRows, int meshCols);

// Latency summary over samples in picoseconds (sorted in place).
LatencyStats summariseLatency(std::vector<Time>& samples);

}  // namespace fl::work
