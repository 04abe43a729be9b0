// Bandwidth utilisation over a time window (seed 002 §V-B2, Fig. 15; specs/cais.md §2.13):
// the busy fraction of every link direction within [start, end), averaged over all of them.
// The paper reports it per sub-layer, over the sub-layer's span, not over the whole run.
#pragma once
#include <span>
#include <vector>

#include "engine/time.h"
#include "results/results.h"

namespace fl::net {
class Network;
}

namespace fl::tp {

// One link direction's record: wire bytes per time bin and its usable rate (bytes/s).
struct ChannelBins {
  const BinSeries* bins = nullptr;
  double rate = 1;
};

// Busy time of a bin is its wire bytes / rate. Bins wholly inside the window count in
// full; the two edge bins count in proportion to their overlap with it (traffic taken as
// even within a bin), so the result is exact for bin-aligned windows and otherwise off by
// at most one bin's busy time per edge.
double windowUtilization(std::span<const ChannelBins> channels, Time binWidth, Time start, Time end);

// Every output channel of every node of the network (both directions of every link).
std::vector<ChannelBins> networkChannels(net::Network& net);

}  // namespace fl::tp
