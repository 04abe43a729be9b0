#include "engine/peak_tracker.h"

#include <algorithm>

#include "engine/simulator.h"

namespace fl {

PeakTracker::PeakTracker(Simulator& sim, Time interval)
    : interval_(std::max<Time>(1, interval)), lanes_(static_cast<std::size_t>(sim.partitionCount())) {
  // Every partition samples up to its window's end, so that all hold the same instants
  // when the window is summed (in the next one).
  sim.addWindowEnd([this](const Partition& p, Time end) {
    sampleBefore(lanes_[static_cast<std::size_t>(p.index())], p.windowParity(), end);
  });
  sim.addWindowTask([this](std::int64_t window) {
    if (window > 0) {
      sumWindow(static_cast<int>((window - 1) & 1));
      nextWindow_ = window;
    }
  });
}

void PeakTracker::sampleBefore(Lane& l, int parity, Time end) {
  std::vector<std::int64_t>& s = l.samples[static_cast<std::size_t>(parity)];
  while (l.nextAt < end) {
    if (lanes_.size() == 1) peak_ = std::max(peak_, l.count);  // nothing to sum
    else s.push_back(l.count);
    ++l.nextK;
    l.nextAt = static_cast<Time>(l.nextK) * interval_;
  }
}

void PeakTracker::sumWindow(int parity) {
  const auto p = static_cast<std::size_t>(parity);
  std::size_t n = 0;
  for (const Lane& l : lanes_) n = std::max(n, l.samples[p].size());
  for (std::size_t j = 0; j < n; ++j) {
    std::int64_t total = 0;
    for (const Lane& l : lanes_) total += j < l.samples[p].size() ? l.samples[p][j] : l.count;
    peak_ = std::max(peak_, total);
  }
  for (Lane& l : lanes_) l.samples[p].clear();
}

std::int64_t PeakTracker::peak() {
  // After the run, the windows not summed yet (the last one, or two): older first.
  sumWindow(static_cast<int>(nextWindow_ & 1));
  sumWindow(static_cast<int>((nextWindow_ + 1) & 1));
  nextWindow_ += 2;
  return std::max(peak_, count());
}

std::int64_t PeakTracker::count() const {
  std::int64_t total = 0;
  for (const Lane& l : lanes_) total += l.count;
  return total;
}

}  // namespace fl
