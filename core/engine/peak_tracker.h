// The peak of a count kept by every partition (e.g. packets alive), the same for any
// partitioning: the count of the whole run is sampled at fixed instants k * interval
// (the sum over partitions of what each holds once it has handled every event before
// the instant), and the peak is the highest sample, or the count at the end. Each
// partition records its own samples, lazily on its next change or at the end of its
// window step; a window's samples are summed during the next window (a task beside
// the partitions' own: Simulator::addWindowTask). An exact peak (merging every change
// in the run's order) cost 7 % of a 16-partition MoE run in one serial task, which
// becomes the critical path on many threads.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "engine/partition.h"

namespace fl {

class Simulator;

class PeakTracker {
 public:
  // Registers its tasks with `sim` (whose partitions call change()).
  PeakTracker(Simulator& sim, Time interval);
  PeakTracker(const PeakTracker&) = delete;
  PeakTracker& operator=(const PeakTracker&) = delete;

  // Adds `delta` to the count of partition `p`, made by the event it is handling.
  void change(const Partition& p, std::int64_t delta) {
    Lane& l = lanes_[static_cast<std::size_t>(p.index())];
    if (p.now() >= l.nextAt) sampleBefore(l, p.windowParity(), p.now() + 1);
    l.count += delta;
  }
  // The peak and the count now (only while no partition runs: after the run).
  std::int64_t peak();
  std::int64_t count() const;
  Time interval() const { return interval_; }

 private:
  struct Lane {
    std::int64_t count = 0;
    Time nextAt = 0;          // the next instant to sample
    std::int64_t nextK = 0;   // its index
    std::array<std::vector<std::int64_t>, 2> samples;  // by window parity
  };
  // Records the lane's count at every instant before `end` not yet sampled.
  void sampleBefore(Lane& l, int parity, Time end);
  void sumWindow(int parity);  // sums and clears the samples of one window parity
  Time interval_;
  std::vector<Lane> lanes_;
  std::int64_t nextWindow_ = 0;  // the first window whose samples are not summed
  std::int64_t peak_ = 0;
};

}  // namespace fl
