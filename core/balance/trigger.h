// When to rebalance (seed 003 §V-B, Eq. 2, symbols lost; spec moentwine.md §2.10 [R]):
// I_l = max_d L_{l,d} / mean_d L_{l,d} - 1 per MoE layer; balance when the sum over layers
// exceeds alpha and more than beta iterations have passed since the last migration.
// NI-Balancer uses beta = 0 ("continuous fine-tuning").
#pragma once
#include <vector>

namespace fl::balance {

double imbalance(const std::vector<double>& dieLoads);  // max / mean - 1; 0 for no load
bool shouldBalance(double imbalanceSum, double alpha, int iterationsSinceLast, int beta);

}  // namespace fl::balance
