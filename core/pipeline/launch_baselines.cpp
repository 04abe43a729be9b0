#include "pipeline/launch_baselines.h"

#include <utility>

#include "scenario/did_you_mean.h"
#include "scenario/input_error.h"

namespace fl {
namespace {

// Seed 001 Table 1.1: FlashDMoE 1, COMET 33, Megatron-CUTLASS 85, Megatron-TE 261,
// Megatron + DeepEP 432, DeepSpeedMoE 550.
const std::vector<std::pair<std::string, int>>& table() {
  static const std::vector<std::pair<std::string, int>> t = {
      {"custom", 0},         {"flashdmoe", 1},         {"comet", 33},          {"megatron_cutlass", 85},
      {"megatron_te", 261},  {"megatron_deepep", 432}, {"deepspeed_moe", 550},
  };
  return t;
}

}  // namespace

const std::vector<std::string>& launchBaselineNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& [name, kernels] : table()) n.push_back(name);
    return n;
  }();
  return names;
}

int launchBaselineKernels(std::string_view name) {
  for (const auto& [n, kernels] : table())
    if (n == name) return kernels;
  throw InputError({}, "scheme.launch.baseline", "one of " + joinList(launchBaselineNames()),
                   "'" + std::string(name) + "'", closeMatchHint(name, launchBaselineNames()));
}

}  // namespace fl
