#include "pipeline/fusion_layout.h"

#include <algorithm>
#include <cmath>

namespace fl {

int FusionLayout::launchesPerPass() const {
  int n = 0;
  for (const KernelStage& k : stages) n += k.launches;
  return n;
}

void automaticTokenCentricSplit(int sms, int commSms, const double gemmFlops[2], int out[4]) {
  const int comm = std::clamp(commSms / 2, 1, std::max(1, (sms - 1) / 3));
  const int rest = std::max(1, sms - 2 * comm);
  const double total = gemmFlops[0] + gemmFlops[1];
  int g1 = total > 0 ? static_cast<int>(std::lround(rest * gemmFlops[0] / total)) : rest / 2;
  g1 = std::clamp(g1, rest > 1 ? 1 : 0, rest > 1 ? rest - 1 : rest);
  out[0] = comm;
  out[1] = g1;
  out[2] = rest - g1;
  out[3] = comm;
}

void automaticTokenCentricSplit(const Scenario& s, int out[4]) {
  const MoeSpec& m = s.workload.moe;
  // Per token row, as planTiles counts them (GEMM-1: gate and up, N = 2 ffn, K = hidden).
  const double flops[2] = {2.0 * 2.0 * double(m.expert_ffn) * double(m.hidden),
                           2.0 * double(m.hidden) * double(m.expert_ffn)};
  automaticTokenCentricSplit(s.gpu.sms, s.scheme.comm_sms, flops, out);
}

int FusionLayout::smsFor(int kind) const {
  int sms = 0;
  for (const SmGroup& g : groups)
    if (std::find(g.kinds.begin(), g.kinds.end(), kind) != g.kinds.end()) sms += g.sms;
  return std::max(1, sms);
}

FusionLayout fusionLayout(const Scenario& s, const double gemmFlops[2]) {
  const SchemeSpec& k = s.scheme;
  const int sms = s.gpu.sms;
  const int comm = std::clamp(k.comm_sms, 1, std::max(1, sms - 1));
  FusionLayout f;
  const auto group = [](std::string name, int n, std::vector<int> kinds, bool fcfs = false) {
    SmGroup g;
    g.name = std::move(name);
    g.sms = n;
    g.kinds = std::move(kinds);
    g.firstComeFirstServed = fcfs;
    return g;
  };
  switch (k.fusion) {
    case MoeFusion::Sequential:
    case MoeFusion::CommOnly:
      // The GEMM kernels use every SM; communication kernels only comm_sms of them.
      f.groups = {group("comm", comm, {kTaskDispatch, kTaskCombine, kTaskGemm1, kTaskGemm2}),
                  group("compute", sms - comm, {kTaskGemm1, kTaskGemm2})};
      f.stages = {{{kTaskDispatch}, 1, false}, {{kTaskGemm1}, 1, true}, {{kTaskGemm2}, 1, false},
                  {{kTaskCombine}, 1, true}};
      f.barrierAtEnd = true;
      break;
    case MoeFusion::Overlap:
      f.groups = {group("comm", comm, {kTaskDispatch, kTaskCombine}),
                  group("compute", sms - comm, {kTaskGemm1, kTaskGemm2})};
      f.stages = {{{kTaskDispatch, kTaskGemm1}, 1, false}, {{kTaskGemm2, kTaskCombine}, 1, false}};
      f.barrierAtEnd = true;
      break;
    case MoeFusion::TokenCentric: {
      const TokenCentricSpec& t = k.token_centric;
      int split[4] = {t.dispatch_sms, t.gemm1_sms, t.gemm2_sms, t.combine_sms};
      if (split[0] + split[1] + split[2] + split[3] == 0) automaticTokenCentricSplit(sms, k.comm_sms, gemmFlops, split);
      f.groups = {group("dispatch", split[0], {kTaskDispatch}), group("gemm1", split[1], {kTaskGemm1, kTaskGemm2}),
                  group("gemm2", split[2], {kTaskGemm2, kTaskGemm1}), group("combine", split[3], {kTaskCombine})};
      f.stages = {{{kTaskDispatch, kTaskGemm1, kTaskGemm2, kTaskCombine}, 1, false}};
      break;
    }
    case MoeFusion::Persistent:
      f.osSms = 1;
      f.groups = {group("processors", sms - 1, {kTaskDispatch, kTaskGemm1, kTaskGemm2, kTaskCombine}, true)};
      f.stages = {{{kTaskDispatch, kTaskGemm1, kTaskGemm2, kTaskCombine}, 1, false}};
      break;
  }
  // scheme.launch.kernels spread over the kernels, the first ones taking the remainder.
  // Only multi-kernel schemes take it: a fused or persistent kernel is one launch by
  // construction, so a sweep over scheme.fusion keeps a baseline's count on the
  // baselines (seed 001 Table 1.1: FlashDMoE 1).
  const int stages = static_cast<int>(f.stages.size());
  const bool multiKernel = k.fusion == MoeFusion::Sequential || k.fusion == MoeFusion::Overlap;
  const int total = multiKernel && k.launch.kernels > 0 ? std::max(k.launch.kernels, stages) : stages;
  for (int i = 0; i < stages; ++i)
    f.stages[static_cast<std::size_t>(i)].launches = total / stages + (i < total % stages ? 1 : 0);
  return f;
}

}  // namespace fl
