// The five models of seed 003's Table I (spec moentwine.md §1.3). H and F come from the
// models' config files (the paper's expert sizes are exactly 3*H*F bytes at INT8, which
// confirms them); k and E from Table I. workload.wsc.model fills hidden, expert_ffn,
// experts and top_k; explicit keys win.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fl {

struct WscSpec;

struct WscModel {
  const char* name;
  int hidden, expert_ffn, experts, top_k, moe_layers;
  const char* summary;
  int attention_params;           // attention weights per layer (q, k, v, o projections; MLA's low-rank ones)
  std::int64_t kv_bytes_per_token;  // FP16 KV cache per token per layer
};

const std::vector<WscModel>& wscModels();
std::vector<std::string> wscModelNames();  // the five, then "custom"
void applyWscModel(std::string_view name, WscSpec& spec);  // "custom": names only


}  // namespace fl
