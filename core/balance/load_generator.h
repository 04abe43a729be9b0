// Expert loads over iterations (seed 003 §V-B, §VI-C; the paper uses production traces,
// spec moentwine.md §2.10 [R] reconstructs a generator with their stated properties):
// popularity pi is a Zipf(s) over a seeded permutation of the experts ("expert popularity
// bias"); each iteration samples tokens x k picks from it. `single`: pi is redrawn every
// iteration during the warm-up, then fixed (ratios stable after warm-up). `mixed`: pi(t) =
// sum of 4 scenario vectors (chat, coding, math, agent) weighted by a slow cycle of
// `period` iterations (the Azure arrival traces' drift).
#pragma once
#include <cstdint>
#include <vector>

namespace fl::balance {

enum class LoadScenario { Single, Mixed };

struct LoadGenerator {
  LoadScenario scenario = LoadScenario::Single;
  int experts = 0;
  double picksPerIteration = 0;  // tokens x k over the system
  double zipf_s = 1.0;
  int warmup = 5;
  int period = 50;
  std::uint64_t seed = 1;

  std::vector<double> popularity(int iteration) const;  // sums to 1
  std::vector<double> sample(int iteration) const;      // picks per expert
};

}  // namespace fl::balance
