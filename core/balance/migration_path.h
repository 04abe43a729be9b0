// The path and stages of one expert copy under NI-Balancer (seed 003 §V-A, Fig. 11(d);
// spec moentwine.md §2.9 [R]): a minimal (Manhattan) path that changes between intra-FTD
// and inter-FTD links as few times as possible (ties: a step along the row first, as XY),
// cut into maximal runs: Local stages (intra-FTD links, run during the all-reduce) and
// Global stages (inter-FTD links, run during the all-to-all). Plain XY routing is wrong
// here: on the 4x4 ER mapping (0,0) -> (3,3) it gives L-G-L-G-L, the paper's L-G-L.
#pragma once
#include <vector>

#include "mapping/mapping.h"

namespace fl::balance {

struct MigrationStage {
  bool global = false;
  std::vector<int> dies;  // the path through this stage, first die to last
  int hops() const { return static_cast<int>(dies.size()) - 1; }
};

// Dies from `from` to `to` along the chosen path (both included).
std::vector<int> migrationPath(const mapping::Mapping& m, int from, int to);
std::vector<MigrationStage> migrationStages(const mapping::Mapping& m, int from, int to);

}  // namespace fl::balance
