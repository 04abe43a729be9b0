// Runs the points of a sweep concurrently (TBB, dynamic scheduling: a free worker takes
// the next point). Each point is a pure function of its scenario, so results are the
// same for any job count; they are returned in point order. How many run at once:
// `jobs` (0: run.jobs, then one per core), fewer so that points' own engine threads
// (run.threads) do not oversubscribe the cores, and fewer while the estimated memory of
// the points running would exceed run.memory_limit.
#pragma once
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/run.h"

namespace fl {

struct SweepProgress {
  std::size_t done = 0, running = 0, total = 0;
  double fraction = 0;  // of the whole sweep, 0..1
};

struct SweepOptions {
  int jobs = 0;                                // 0: scenario.run.jobs, then one per core
  const std::atomic<bool>* cancel = nullptr;  // set to stop every point cooperatively
  // Called under a lock (one call at a time), from worker threads, at most ~20 times a
  // second and when a point starts or ends.
  std::function<void(const SweepProgress&)> progress;
  // Called under the same lock as soon as point `index` is done, before the others.
  std::function<void(std::size_t index, const Results& results)> pointDone;
  // Lets the caller add to a point's RunControl (live snapshots in the GUI); `cancel` and
  // `progress` are the runner's.
  std::function<void(std::size_t index, RunControl& control)> configure;
};

// Points run at once for `s` given a requested job count (see above; at least 1).
int sweepJobs(const Scenario& s, int requested, std::size_t points);

// Every point of the sweep (one without settings for a scenario without a sweep), in
// point order; a cancelled sweep returns the points that ran. Checks before running that
// every point fits in run.memory_limit (InputError naming the point otherwise). A point
// that fails stops the others; its error is rethrown, naming the point.
std::vector<SweepPoint> runSweepPoints(const Scenario& s, const SweepOptions& options = {});

// The scenario of every point (validated), after checking that each fits in
// run.memory_limit alone and that the results kept for the outputs fit together;
// `estimates` (optional) receives each point's estimated peak. Throws InputError.
std::vector<Scenario> prepareSweepPoints(const Scenario& s, std::vector<std::int64_t>* estimates = nullptr);

// The sweep's points once run, results[i] and errors[i] for point i: rethrows the first
// point's error (unless cancelled), else the points that ran, in order, with
// finishSweep() applied when every point did.
std::vector<SweepPoint> gatherSweepPoints(const Scenario& s, std::vector<std::optional<Results>>& results,
                                          const std::vector<std::exception_ptr>& errors, bool cancelled);

// The figures of a sweep that compare its points (weak-scaling overlap efficiency); run
// once every point is in, by whoever gathers them.
void finishSweep(const Scenario& s, std::vector<SweepPoint>& points);

// An error of point `index` with the point named in its hint (errors found while running
// have no file); other exceptions unchanged.
std::exception_ptr namedError(std::exception_ptr error, std::size_t index,
                              const std::vector<std::pair<std::string, std::string>>& settings);

// "sweep point 3 (workload.collective.size=1 MiB, ...)", for messages.
std::string sweepPointName(std::size_t index, const std::vector<std::pair<std::string, std::string>>& settings);

}  // namespace fl
