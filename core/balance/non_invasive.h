// NI-Balancer's execution (seed 003 §V-A, Fig. 11(e); spec moentwine.md §2.9): each copy
// runs as its Local and Global stages in order; a Local stage advances only while the
// all-reduce runs (on intra-FTD links), a Global stage only while the all-to-all runs (on
// inter-FTD links), at low priority on what those links leave idle, never on the critical
// path. A stage needs its Eq. 1 time (hops x (bytes / B + alpha)); per iteration it gets
// the phase's window x the idle fraction of its busiest link. The replica serves from the
// iteration after its last stage ends.
#pragma once
#include <vector>

#include "engine/time.h"

namespace fl::balance {

struct StageWork {
  bool global = false;
  Time needed = 0;       // Eq. 1 time on an idle path
  double idleShare = 1;  // 1 - utilisation of its busiest link in its phase
};

// The iteration (counted from `startIteration`) in which the last stage ends, given each
// iteration's all-reduce and all-to-all windows.
int niFinishIteration(const std::vector<StageWork>& stages, int startIteration, Time allReduceWindow,
                      Time allToAllWindow);

}  // namespace fl::balance
