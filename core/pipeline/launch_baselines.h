// Kernel launches per MoE layer pass of published systems, counted with Nsight Systems in
// the FlashDMoE seed's Table 1.1 (seed 001 §1.3, §3.2). A scenario picks one with
// scheme.launch.baseline to charge a fusion scheme that system's launch overhead.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace fl {

// custom, flashdmoe, comet, megatron_cutlass, megatron_te, megatron_deepep, deepspeed_moe.
const std::vector<std::string>& launchBaselineNames();

// Launches per layer for a baseline; 0 for custom (the fusion scheme's own kernels).
// Throws InputError (key path scheme.launch.baseline) for an unknown name.
int launchBaselineKernels(std::string_view name);

}  // namespace fl
