// Running a scenario: build the topology and network, attach the workload, run the
// engine, gather Results. A run is a pure function of (Scenario, seed): the thread
// count changes wall time only.
#pragma once
#include <atomic>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "results/results.h"
#include "scenario/scenario.h"

namespace fl {

struct RunControl {
  const std::atomic<bool>* cancel = nullptr;  // set to stop cooperatively
  // Called from the running thread with the fraction done (0..1), at most ~20 times a second.
  std::function<void(double fraction)> progress;
  // Called from the running thread with the results so far (links' bins up to now,
  // sim_time = now, makespan = now), at most `snapshotHz` times a wall-clock second and
  // less often when collecting them would take more than `snapshotBudget` of the wall
  // time (SnapshotPacer). For live views; the callee may keep what it is given.
  std::function<void(Results&& partial)> snapshot;
  // Called from the running thread between engine batches (every few thousand events):
  // for cheap polling, e.g. of messages from other processes.
  std::function<void()> poll;
  double snapshotHz = 20;
  double snapshotBudget = 0.1;
};

// Throws fl::InputError when the scenario cannot be built (impossible topology or
// workload), std::runtime_error for internal errors.
Results runScenario(const Scenario& scenario, const RunControl& control = {});

namespace topo {
class Topology;
}
// The same on a topology built by the caller (tests, custom fabrics); scenario.topology
// is ignored and the scenario is not validated.
Results runOnTopology(const Scenario& scenario, const topo::Topology& topology,
                      const RunControl& control = {});

struct SweepPoint {
  std::vector<std::pair<std::string, std::string>> settings;  // key path -> value
  Results results;
};

// Runs every point of scenario.sweep (cartesian product, first axis outermost); a
// scenario without a sweep yields one point with no settings.
std::vector<SweepPoint> runSweep(const Scenario& scenario, const RunControl& control = {});

}  // namespace fl
