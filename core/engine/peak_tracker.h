// The peak of a count kept by every partition (e.g. packets alive), taken in the run's
// total order of events, so that it is the same for any partitioning: each partition
// logs its changes with the key of the event making them, one log per window parity,
// and a window's logs are merged during the next window (a task beside the partitions'
// own: see Simulator::addWindowTask), when every partition has passed that window's end.
// One partition needs no log: its running count is already in that order.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "engine/partition.h"

namespace fl {

class Simulator;

class PeakTracker {
 public:
  // Registers its merging with `sim` (whose partitions call change()).
  explicit PeakTracker(Simulator& sim);
  PeakTracker(const PeakTracker&) = delete;
  PeakTracker& operator=(const PeakTracker&) = delete;

  // Adds `delta` to the count of partition `p`, made by the event it is handling.
  void change(const Partition& p, std::int64_t delta) {
    std::vector<Change>& log = logs_[static_cast<std::size_t>(p.windowParity())][static_cast<std::size_t>(p.index())];
    const Time t = p.now();
    const std::uint64_t order = p.currentOrder();
    if (log.empty() || log.back().time != t || log.back().order != order)
      log.push_back(Change{t, order, 0, 0});
    Change& c = log.back();  // one entry per event: its net change and highest point
    c.net += delta;
    if (c.net > c.high) c.high = c.net;
  }
  // The peak and the count now (only while no partition runs: after the run).
  std::int64_t peak() {
    mergeRest();
    return peak_;
  }
  std::int64_t count() {
    mergeRest();
    return running_;
  }

 private:
  struct Change {
    Time time;
    std::uint64_t order;
    std::int32_t net;   // change over the event
    std::int32_t high;  // highest running change within it (>= 0)
  };
  void mergeWindow(std::int64_t window);  // merges the logs of `window`'s parity
  void mergeRest();
  std::array<std::vector<std::vector<Change>>, 2> logs_;  // [window parity][partition]
  std::int64_t nextWindow_ = 0;  // the first window whose logs are not merged
  std::int64_t running_ = 0, peak_ = 0;
};

}  // namespace fl
