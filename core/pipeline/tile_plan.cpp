#include "pipeline/tile_plan.h"

#include <algorithm>

#include "gpu/gpu_spec.h"
#include "gpu/tile_gemm.h"

namespace fl {

TilePlan planTiles(const Scenario& s, const work::MoePlan& plan, int taskN,
                   const std::vector<std::vector<std::int64_t>>& paddedRows) {
  const MoeSpec& m = s.workload.moe;
  TilePlan t;
  t.tileTokens = s.scheme.token_centric.tile_tokens;
  const TileShape tile{t.tileTokens, taskN};
  const std::int64_t n[2] = {2LL * m.expert_ffn, m.hidden};  // GEMM-1: gate and up; GEMM-2: down
  const std::int64_t k[2] = {m.hidden, m.expert_ffn};
  for (int i = 0; i < 2; ++i) t.tbPerRow[i] = static_cast<int>((n[i] + taskN - 1) / taskN);
  const GpuSpec gpu = gpuSpecFor(s.gpu);
  t.rows = paddedRows;
  for (int g = 0; g < plan.gpus; ++g) {
    const auto& rows = paddedRows[static_cast<std::size_t>(g)];
    Time tb[2] = {0, 0};
    if (!rows.empty()) {
      const ExpertGemmTimes e = expertGemmTimes(gpu, rows, m.hidden, m.expert_ffn, tile, m.dispatch_dtype,
                                                m.combine_dtype, s.gpu.sms);
      const GemmTime* gt[2] = {&e.gemm1, &e.gemm2};
      for (int i = 0; i < 2; ++i)
        if (gt[i]->waves > 0) tb[i] = static_cast<Time>(gt[i]->seconds / static_cast<double>(gt[i]->waves) * 1e12);
    }
    for (int i = 0; i < 2; ++i) t.tbTime[i].push_back(std::max<Time>(tb[i], 1));
    for (std::int64_t r : rows)
      for (int i = 0; i < 2; ++i) t.flops[i] += 2.0 * static_cast<double>(r) * static_cast<double>(n[i]) * static_cast<double>(k[i]);
  }
  return t;
}

}  // namespace fl
