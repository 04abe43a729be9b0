#include "tp/window_utilization.h"

#include <algorithm>

#include "network/network.h"

namespace fl::tp {

double windowUtilization(std::span<const ChannelBins> channels, Time binWidth, Time start, Time end) {
  if (channels.empty() || end <= start || binWidth <= 0) return 0;
  const auto firstBin = static_cast<std::int32_t>(start / binWidth);
  double busyPs = 0;  // over all channels
  for (const ChannelBins& c : channels) {
    const BinSeries& s = *c.bins;
    auto it = std::lower_bound(s.bins.begin(), s.bins.end(), firstBin);
    double bytes = 0;  // wire bytes inside the window, edge bins pro rata
    for (; it != s.bins.end(); ++it) {
      const Time lo = static_cast<Time>(*it) * binWidth, hi = lo + binWidth;
      if (lo >= end) break;
      const Time overlap = std::min(hi, end) - std::max(lo, start);
      const auto b = static_cast<double>(s.bytes[static_cast<std::size_t>(it - s.bins.begin())]);
      bytes += overlap == binWidth ? b : b * static_cast<double>(overlap) / static_cast<double>(binWidth);
    }
    busyPs += bytes / c.rate * 1e12;
  }
  return busyPs / (static_cast<double>(channels.size()) * static_cast<double>(end - start));
}

std::vector<ChannelBins> networkChannels(net::Network& net) {
  std::vector<ChannelBins> out;
  for (std::size_t n = 0; n < net.topology().nodes().size(); ++n)
    for (const auto& port : net.node(static_cast<topo::NodeId>(n)).outputs())
      out.push_back({&port.channel.stats().binBytes, port.channel.rate()});
  return out;
}

}  // namespace fl::tp
