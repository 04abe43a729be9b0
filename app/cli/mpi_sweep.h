// Sweeps over MPI ranks (built with FABRICLAB_MPI): the same `fabriclab-cli run` under
// mpirun. Every rank reads the scenario and its flags; rank 0 hands out point indices as
// ranks become free (dynamic load balancing), gathers each point's Results
// (results/results_codec.h) and writes exactly the files a local run writes. Rank 0 runs
// points too, on a second thread: its main thread answers the other ranks within 2 ms and
// sleeps otherwise. FABRICLAB_MPI_TRACE=1 makes rank 0 log each point's
// hand-out, return, run time and MPI overhead on stderr. A point that fails on a rank comes back as its error, which stops
// the sweep with that message (naming the point) and writes no output. A rank that dies
// takes the job down (mpirun ends every rank), before rank 0 writes anything.
#pragma once
#include <vector>

#include "scenario/scenario.h"
#include "sim/sweep_runner.h"

namespace fl::cli {

class MpiSession {
 public:
  // Initialises MPI only when started by an MPI launcher (mpirun, srun) with 2 ranks or
  // more; otherwise inactive and the CLI runs as always.
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  bool active() const { return size_ > 1; }
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  int rank_ = 0, size_ = 1;
  bool initialised_ = false;
};

// Rank 0: runs every point of `s` over all ranks; points in order, like runSweepPoints.
std::vector<SweepPoint> runSweepOverMpi(const Scenario& s, const SweepOptions& options);
// Rank 0: every rank runs `run`, so the workers will wait for points (every rank parses
// the same command line, so they all get there or none does).
void workersServe();
// Rank 0, when it ends without (or after) running a sweep: tells every worker still
// waiting to stop. Idempotent.
void releaseWorkers();
// Other ranks: serve the points rank 0 hands out until told to stop. `s` is null when
// this rank could not prepare the scenario (rank 0 reports why).
void servePoints(const Scenario* s);

}  // namespace fl::cli
