#include "wsc/attention.h"

#include <algorithm>
#include <cmath>

namespace fl::wsc {

AttentionWork attentionWork(const WscSpec& w, double tokens) {
  const double share = w.stage == WscStage::Prefill ? 1.0 : w.stage == WscStage::Decode ? 0.0 : w.prefill_share;
  const double prefill = tokens * share, decode = tokens - prefill;
  const double A = w.attention_params, H = w.hidden, L = w.context;
  AttentionWork a;
  a.flops = (prefill * (2 * A + 4 * H * L / 2) + decode * (2 * A + 4 * H * L)) / w.tp;
  a.bytes = (tokens > 0 ? 2 * A : 0) + decode * L * static_cast<double>(w.kv_bytes_per_token);
  a.bytes /= w.tp;
  return a;
}

Time attentionTime(const WscSpec& w, const GpuSpec& gpu, double tokens) {
  const AttentionWork a = attentionWork(w, tokens);
  const double compute = a.flops / (gpu.flops(Dtype::Fp16) * gpu.tensor_efficiency);
  const double memory = a.bytes / gpu.hbm_bandwidth;
  return static_cast<Time>(std::llround(std::max(compute, memory) * 1e12));
}

}  // namespace fl::wsc
