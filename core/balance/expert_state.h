// Expert placement and heat for the balancers (seed 003 §V-C, spec moentwine.md §2.11):
// each expert has a native die and replicas; a die's heat is the sum over its experts of
// w_e / n_e (n_e replicas including the native one); each die has S shadow slots.
#pragma once
#include <vector>

namespace fl::balance {

struct ExpertState {
  std::vector<double> load;               // w_e: predicted tokens per expert
  std::vector<std::vector<int>> hosts;    // per expert: dies holding it (native first)
  std::vector<int> freeSlots;             // per die
  int dies() const { return static_cast<int>(freeSlots.size()); }
  std::vector<double> heat() const;       // per die
  bool hosts_(int e, int d) const;
};

// Each expert on its native dies (`native[e]`, from workload.wsc.expert_placement: see
// wsc/expert_placement.h), `slots` shadow slots per die.
ExpertState initialState(const std::vector<double>& load, std::vector<std::vector<int>> native, int dies, int slots);

// One replica copy chosen by a balancer.
struct Move {
  int expert = -1, from = -1, to = -1;
};

}  // namespace fl::balance
