#include "balance/non_invasive.h"

#include <algorithm>

namespace fl::balance {

int niFinishIteration(const std::vector<StageWork>& stages, int startIteration, Time allReduceWindow,
                      Time allToAllWindow) {
  int iteration = startIteration;
  std::size_t k = 0;
  double left = stages.empty() ? 0 : static_cast<double>(stages[0].needed);
  // Within an iteration the all-reduce comes before the all-to-all: a copy may finish a
  // Local stage in the AR and start its Global stage in the same iteration's A2A.
  for (int guard = 0; k < stages.size() && guard < 1'000'000; ++guard, ++iteration) {
    for (bool global : {false, true}) {
      double budget = static_cast<double>(global ? allToAllWindow : allReduceWindow);
      while (k < stages.size() && stages[k].global == global && budget > 0) {
        const double rate = std::max(stages[k].idleShare, 1e-3);  // a saturated link still trickles
        const double used = std::min(budget, left / rate);
        left -= used * rate;
        budget -= used;
        if (left <= 1e-9) {
          if (++k < stages.size()) left = static_cast<double>(stages[k].needed);
        }
      }
    }
    if (k == stages.size()) return iteration;
  }
  return iteration;
}

}  // namespace fl::balance
