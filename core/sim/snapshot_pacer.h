// When the next live snapshot (RunControl::snapshot) may be taken. A snapshot stops the
// run while it collects partial results: every link's bins and, on MoE runs, the
// switches' reduction-entry logs (tens of MB). That takes ~20 ms on a 512-token 256 B
// DySHARP layer, where 30 snapshots a second cost over a third of the run. So snapshots
// keep their nominal rate while they are cheap and otherwise space out to take at most
// `budget` of the wall time.
#pragma once
#include <algorithm>
#include <chrono>

namespace fl {

class SnapshotPacer {
 public:
  using Clock = std::chrono::steady_clock;

  // Seconds from one snapshot's start to the next: the nominal period, or longer when a
  // snapshot takes `cost` seconds so that snapshots stay within `budget` (0..1] of the time.
  static double interval(double cost, double period, double budget) {
    return std::max(period, cost / budget);
  }

  SnapshotPacer(double hz, double budget, Clock::time_point start)
      : period_(1.0 / std::max(0.1, hz)), budget_(std::clamp(budget, 0.01, 1.0)),
        next_(start + seconds(period_)) {}

  bool due(Clock::time_point now) const { return now >= next_; }
  // A snapshot ran from `start` to `end`.
  void taken(Clock::time_point start, Clock::time_point end) {
    const double cost = std::chrono::duration<double>(end - start).count();
    next_ = start + seconds(interval(cost, period_, budget_));
  }

 private:
  static Clock::duration seconds(double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  }

  double period_;
  double budget_;
  Clock::time_point next_;
};

}  // namespace fl
