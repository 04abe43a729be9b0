// The paper's Table II models (seed 004 §V-A), all with E = 32 experts: hidden size H,
// expert bytes P_E = 2 x H x 4H parameters in fp32 (spec 2.6: 2.1M, 4.7M, 8.4M params
// match the table) and the number of MoE layers.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace fl {
struct XdcSpec;

// llama-tiny, mistral-small, gpt-medium, gpt-large.
const std::vector<std::string>& xdcModelNames();
// Fills hidden, experts, expert_bytes, top_k (1) and layers; "custom" or an unknown name
// leaves the spec alone.
void applyXdcModel(std::string_view name, XdcSpec& spec);

}  // namespace fl
