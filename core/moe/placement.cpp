#include "moe/placement.h"

#include <string>

#include "scenario/input_error.h"

namespace fl {
namespace {
const char* kKey = "workload.moe.placement";
}

ExpertPlacement::ExpertPlacement(std::vector<int> gpuOf, int gpus)
    : gpuOf_(std::move(gpuOf)), local_(static_cast<size_t>(gpus)) {
  for (size_t e = 0; e < gpuOf_.size(); ++e) local_[static_cast<size_t>(gpuOf_[e])].push_back(static_cast<int>(e));
}

ExpertPlacement ExpertPlacement::contiguous(int experts, int gpus) {
  if (gpus < 1 || experts % gpus != 0)
    throw InputError({}, kKey, "a number of experts divisible by the " + std::to_string(gpus) + " GPUs for contiguous",
                     std::to_string(experts) + " experts",
                     "use round_robin or an explicit list of GPU indices, one per expert");
  std::vector<int> v(static_cast<size_t>(experts));
  const int per = experts / gpus;
  for (int e = 0; e < experts; ++e) v[static_cast<size_t>(e)] = e / per;
  return ExpertPlacement(std::move(v), gpus);
}

ExpertPlacement ExpertPlacement::roundRobin(int experts, int gpus) {
  std::vector<int> v(static_cast<size_t>(experts));
  for (int e = 0; e < experts; ++e) v[static_cast<size_t>(e)] = e % gpus;
  return ExpertPlacement(std::move(v), gpus);
}

ExpertPlacement ExpertPlacement::fromList(const std::vector<int>& gpuOfExpert, int gpus) {
  for (size_t e = 0; e < gpuOfExpert.size(); ++e)
    if (gpuOfExpert[e] < 0 || gpuOfExpert[e] >= gpus)
      throw InputError({}, std::string(kKey) + "[" + std::to_string(e) + "]",
                       "a GPU index below " + std::to_string(gpus), std::to_string(gpuOfExpert[e]));
  return ExpertPlacement(gpuOfExpert, gpus);
}

ExpertPlacement ExpertPlacement::fromSpec(const MoeSpec& spec, int gpus) {
  switch (spec.placement) {
    case ExpertPlacementKind::Contiguous: return contiguous(spec.experts, gpus);
    case ExpertPlacementKind::RoundRobin: return roundRobin(spec.experts, gpus);
    case ExpertPlacementKind::Explicit:
      if (static_cast<int>(spec.placement_list.size()) != spec.experts)
        throw InputError({}, kKey, std::to_string(spec.experts) + " GPU indices, one per expert",
                         std::to_string(spec.placement_list.size()) + " entries",
                         "every expert is placed exactly once");
      return fromList(spec.placement_list, gpus);
  }
  return contiguous(spec.experts, gpus);
}

}  // namespace fl
