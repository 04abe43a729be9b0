#include "report/report_data.h"

#include <algorithm>

namespace fl::report {

Time runEnd(const Results& r) { return std::max(r.makespan, r.sim_time); }

int binCount(const Results& r) {
  int n = std::max(r.bins, 0);
  for (const LinkDirectionResult& l : r.links)
    if (!l.bin_bytes.bins.empty()) n = std::max(n, l.bin_bytes.bins.back() + 1);
  return n;
}

Time binDuration(const Results& r, int b) {
  if (r.bin <= 0) return 0;
  const Time start = static_cast<Time>(b) * r.bin, end = runEnd(r);
  if (end <= start) return r.bin;  // unknown end (or a bin past it): assume a full bin
  return std::min(r.bin, end - start);
}

std::vector<std::int64_t> totalBytesPerBin(const Results& r) {
  std::vector<std::int64_t> total(static_cast<std::size_t>(binCount(r)), 0);
  for (const LinkDirectionResult& l : r.links)
    for (std::size_t i = 0; i < l.bin_bytes.bins.size(); ++i)
      total[static_cast<std::size_t>(l.bin_bytes.bins[i])] += l.bin_bytes.bytes[i];
  return total;
}

int busiestBin(const Results& r) {
  const std::vector<std::int64_t> total = totalBytesPerBin(r);
  int best = -1;
  for (std::size_t b = 0; b < total.size(); ++b)
    if (total[b] > 0 && (best < 0 || total[b] > total[static_cast<std::size_t>(best)])) best = static_cast<int>(b);
  return best;
}

double binUtilization(const Results& r, const LinkDirectionResult& l, int b) {
  const double seconds = toSeconds(binDuration(r, b));
  if (l.capacity_Bps <= 0 || seconds <= 0) return 0;
  return static_cast<double>(l.bin_bytes.at(b)) / (l.capacity_Bps * seconds);
}

std::vector<const LinkDirectionResult*> busiestLinks(const Results& r, std::size_t count) {
  std::vector<const LinkDirectionResult*> links;
  for (const LinkDirectionResult& l : r.links)
    if (l.bytes > 0) links.push_back(&l);
  std::stable_sort(links.begin(), links.end(), [](const auto* a, const auto* b) {
    if (a->utilization != b->utilization) return a->utilization > b->utilization;
    return a->bytes > b->bytes;
  });
  if (links.size() > count) links.resize(count);
  return links;
}

RateSeries uplinkDownlinkRates(const Results& r) {
  RateSeries s;
  const int n = binCount(r);
  std::vector<double> up(static_cast<std::size_t>(n), 0), down(static_cast<std::size_t>(n), 0);
  for (const LinkDirectionResult& l : r.links) {
    if (!l.uplink && !l.downlink) continue;
    for (std::size_t i = 0; i < l.bin_bytes.bins.size(); ++i) {
      const auto b = static_cast<std::size_t>(l.bin_bytes.bins[i]);
      if (l.uplink) up[b] += static_cast<double>(l.bin_bytes.bytes[i]);
      if (l.downlink) down[b] += static_cast<double>(l.bin_bytes.bytes[i]);
    }
  }
  for (int b = 0; b < n; ++b) {
    const double seconds = toSeconds(binDuration(r, b));
    s.start.push_back(static_cast<Time>(b) * r.bin);
    s.uplink_Bps.push_back(seconds > 0 ? up[static_cast<std::size_t>(b)] / seconds : 0);
    s.downlink_Bps.push_back(seconds > 0 ? down[static_cast<std::size_t>(b)] / seconds : 0);
  }
  return s;
}

}  // namespace fl::report
