// MoE layer shapes of published models and of the DySHARP evaluation configurations.
// A scenario picks one with workload.moe.model; it fills hidden, expert_ffn, experts,
// top_k and the two dtypes, and explicit keys override it (core/moe/moe_model.cpp cites
// every number).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "gpu/dtype.h"

namespace fl {

struct MoeSpec;

struct MoeModel {
  std::string name;
  int hidden = 0;      // model (embedding) dimension
  int expert_ffn = 0;  // intermediate size of one routed expert
  int experts = 0;     // routed experts per MoE layer (shared experts are not routed)
  int top_k = 0;       // experts activated per token
  int layers = 0;      // transformer layers; 0 = not given by the source
  Dtype dispatch_dtype = Dtype::Bf16;
  Dtype combine_dtype = Dtype::Bf16;
  std::string source;  // where the numbers come from
};

// dysharp-small, dysharp-medium, dysharp-large, deepseek-v3, qwen3-235b, gpt-oss-120b,
// mixtral-8x7b (in this order).
const std::vector<MoeModel>& moeModelPresets();
std::vector<std::string> moeModelNames();

// The preset, or an InputError (key "workload.moe.model", did-you-mean hint).
const MoeModel& moeModel(std::string_view name);

// Sets spec.model and the fields the preset fills; "custom" only sets spec.model.
void applyMoeModel(std::string_view name, MoeSpec& spec);

// One line for docs and tooltips: "DeepSeek-V3: hidden 7168, expert FFN 2048, 256 experts, top-8".
std::string moeModelSummary(const MoeModel& m);

}  // namespace fl
