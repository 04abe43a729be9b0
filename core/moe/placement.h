// Which GPU hosts each routed expert (expert parallelism). Three layouts:
//   contiguous   GPU g hosts experts [g·E/G, (g+1)·E/G)   (E divisible by G)
//   round_robin  expert e on GPU e mod G                  (any E; uneven when G ∤ E)
//   explicit     a list with the GPU of every expert
#pragma once
#include <vector>

#include "scenario/scenario.h"

namespace fl {

class ExpertPlacement {
 public:
  // Throws InputError (key path "workload.moe.placement" or an element of it) when the
  // layout is impossible: contiguous with E not divisible by G, an explicit list whose
  // length is not E or with a GPU index outside [0, G).
  static ExpertPlacement contiguous(int experts, int gpus);
  static ExpertPlacement roundRobin(int experts, int gpus);
  static ExpertPlacement fromList(const std::vector<int>& gpuOfExpert, int gpus);
  // From the scenario's kind and list, for `gpus` endpoints.
  static ExpertPlacement fromSpec(const MoeSpec& spec, int gpus);

  int gpus() const { return static_cast<int>(local_.size()); }
  int experts() const { return static_cast<int>(gpuOf_.size()); }
  int gpuOf(int expert) const { return gpuOf_[static_cast<size_t>(expert)]; }
  // Experts hosted by `gpu`, ascending; a GPU may host none.
  const std::vector<int>& localExperts(int gpu) const { return local_[static_cast<size_t>(gpu)]; }

 private:
  ExpertPlacement(std::vector<int> gpuOf, int gpus);
  std::vector<int> gpuOf_;
  std::vector<std::vector<int>> local_;
};

}  // namespace fl
