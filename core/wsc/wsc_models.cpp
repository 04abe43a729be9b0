#include "wsc/wsc_models.h"

#include "scenario/scenario.h"

namespace fl {

const std::vector<WscModel>& wscModels() {
  // Config files: DeepSeek-V3 (hidden_size 7168, moe_intermediate_size 2048), Qwen3-235B-A22B
  // (4096, 1536), DeepSeek-V2 (5120, 1536), DBRX (6144, ffn_hidden_size 10752), Mixtral-8x22B
  // (6144, intermediate_size 16384). Expert sizes 42 / 18 / 22.5 / 189 / 288 MiB = Table I.
  // Attention weights and KV bytes per token per layer from the same configs [R] (the paper
  // gives neither): DeepSeek-V3/V2 MLA (q_lora_rank 1536, kv_lora_rank 512, rope 64, 128
  // heads of 128 + 64 / 128): q_a + q_b + kv_a + kv_b + o = 187.1M / 149.2M, KV cache the
  // 512 + 64 latent = 1152 B; Qwen3 (64 q heads, 4 KV heads of 128): 71.3M, 2 x 4 x 128 x
  // 2 B = 2048 B; DBRX and Mixtral-8x22B (48 q heads, 8 KV heads of 128): 88.1M, 4096 B.
  static const std::vector<WscModel> models = {
      {"deepseek-v3", 7168, 2048, 256, 8, 58, "DeepSeek-V3: H 7168, F 2048, top-8 of 256 experts, 42 MiB per expert", 187105280, 1152},
      {"qwen3-235b", 4096, 1536, 128, 8, 94, "Qwen3-235B: H 4096, F 1536, top-8 of 128 experts, 18 MiB per expert", 71303168, 2048},
      {"deepseek-v2", 5120, 1536, 160, 6, 59, "DeepSeek-V2: H 5120, F 1536, top-6 of 160 experts, 22.5 MiB per expert", 149225472, 1152},
      {"dbrx", 6144, 10752, 16, 4, 40, "DBRX: H 6144, F 10752, top-4 of 16 experts, 189 MiB per expert", 88080384, 4096},
      {"mixtral-8x22b", 6144, 16384, 8, 2, 56, "Mixtral-8x22B: H 6144, F 16384, top-2 of 8 experts, 288 MiB per expert", 88080384, 4096},
  };
  return models;
}

std::vector<std::string> wscModelNames() {
  std::vector<std::string> v;
  for (const WscModel& m : wscModels()) v.emplace_back(m.name);
  v.emplace_back("custom");
  return v;
}

void applyWscModel(std::string_view name, WscSpec& spec) {
  spec.model = std::string(name);
  for (const WscModel& m : wscModels())
    if (name == m.name) {
      spec.hidden = m.hidden;
      spec.expert_ffn = m.expert_ffn;
      spec.experts = m.experts;
      spec.top_k = m.top_k;
      spec.moe_layers = m.moe_layers;
      spec.attention_params = m.attention_params;
      spec.kv_bytes_per_token = m.kv_bytes_per_token;
    }
}

}  // namespace fl
