// Attention compute of one micro-batch on one die, per inference stage (workload.wsc.stage;
// seed 003 §III-B runs attention under DP + TP before the all-reduce; the paper never gives
// its cost and fixes T "without distinguishing stages" (§VI-B1), so this is [R]). A TP
// group of t dies splits the weights and heads evenly; with A attention weights (FP16),
// hidden size H, context L and KV bytes per token kv, per die:
//   prefill token: 2A + 4 H (L / 2) FLOPs (projections, then scores and values over the
//                  L / 2 earlier prompt tokens it sees on average, causal);
//   decode token:  2A + 4 H L FLOPs, and it reads L x kv bytes of KV cache;
//   once per micro-batch: the 2A bytes of weights;
//   time = max(FLOPs / t / (FP16 peak x tensor efficiency), bytes / t / HBM bandwidth).
// hybrid runs prefill_share of the tokens as prefill and the rest as decode in one batch.
// Decode at the same T is bound by the KV reads; §VI-C2's shorter decode iterations come
// from decode's smaller T, which a scenario sets.
#pragma once
#include "engine/time.h"
#include "gpu/gpu_spec.h"
#include "scenario/scenario.h"

namespace fl::wsc {

struct AttentionWork {
  double flops = 0, bytes = 0;  // per die
};

// `tokens`: the group's tokens in this micro-batch.
AttentionWork attentionWork(const WscSpec& w, double tokens);
Time attentionTime(const WscSpec& w, const GpuSpec& gpu, double tokens);

}  // namespace fl::wsc
