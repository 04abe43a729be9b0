#include "balance/trigger.h"

#include <algorithm>
#include <numeric>

namespace fl::balance {

double imbalance(const std::vector<double>& dieLoads) {
  if (dieLoads.empty()) return 0;
  const double sum = std::accumulate(dieLoads.begin(), dieLoads.end(), 0.0);
  if (sum <= 0) return 0;
  return *std::max_element(dieLoads.begin(), dieLoads.end()) / (sum / static_cast<double>(dieLoads.size())) - 1;
}

bool shouldBalance(double imbalanceSum, double alpha, int iterationsSinceLast, int beta) {
  return imbalanceSum > alpha && iterationsSinceLast > beta;
}

}  // namespace fl::balance
