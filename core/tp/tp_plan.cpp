#include "tp/tp_plan.h"

namespace fl::tp {
namespace {

Stage gemm(std::string name, std::int64_t m, std::int64_t n, std::int64_t k) {
  Stage s;
  s.kind = StageKind::Gemm;
  s.name = std::move(name);
  s.gemm = {m, n, k};
  return s;
}
Stage flops(std::string name, double f) {
  Stage s;
  s.kind = StageKind::Flops;
  s.name = std::move(name);
  s.flops = f;
  return s;
}
Stage memory(std::string name, double bytes) {
  Stage s;
  s.kind = StageKind::Memory;
  s.name = std::move(name);
  s.bytes = bytes;
  return s;
}
Stage junction(std::string name, std::int64_t rsK, std::int64_t agN, int sublayer) {
  Stage s;
  s.kind = StageKind::Junction;
  s.name = std::move(name);
  s.rsK = rsK;
  s.agN = agN;
  s.sublayer = sublayer;
  return s;
}

}  // namespace

TpPlan planTpLayers(const TpSpec& spec, int gpus) {
  TpPlan p;
  p.gpus = gpus;
  const std::int64_t n = gpus, h = spec.hidden, f = spec.ffn_hidden;
  const std::int64_t T = static_cast<std::int64_t>(spec.seq_len) * spec.batch;
  p.tokens = T;
  p.hidden = h;
  p.ffn = f;
  const double s = spec.seq_len, b = spec.batch;
  // Attention scores and context: 2 GEMMs of 2 b s^2 h FLOPs over the local heads (no causal mask).
  const double attention = 4 * b * s * s * static_cast<double>(h) / static_cast<double>(n);
  const double bf16 = 2;
  const double gelu = 2 * static_cast<double>(T) * static_cast<double>(f / n) * bf16;  // read + write
  const int L = spec.layers;
  for (int l = 0; l < L; ++l) {
    if (l == 0) p.stages.push_back(gemm("qkv", T, 3 * h / n, h));
    p.stages.push_back(flops("attention", attention));
    p.stages.push_back(junction("out_proj_rs>ln>ffn1_ag", h / n, f / n, 1));
    p.stages.push_back(memory("gelu", gelu));
    p.stages.push_back(junction(l + 1 < L ? "ffn2_rs>ln>qkv_ag" : "ffn2_rs>ln", f / n, l + 1 < L ? 3 * h / n : 0,
                                l + 1 < L ? 2 : 0));
  }
  if (spec.phase == TpPhase::Training) {
    for (int l = L - 1; l >= 0; --l) {
      if (l == L - 1) p.stages.push_back(gemm("ffn2_dgrad", T, f / n, h));
      p.stages.push_back(gemm("ffn2_wgrad", f / n, h, T));
      p.stages.push_back(memory("gelu_bwd", gelu * 1.5));  // reads the input and the gradient
      p.stages.push_back(junction("ffn1_dgrad_rs>ln_bwd>out_proj_dgrad_ag", f / n, h / n, 3));
      p.stages.push_back(gemm("ffn1_wgrad", h, f / n, T));
      p.stages.push_back(gemm("out_proj_wgrad", h / n, h, T));
      p.stages.push_back(flops("attention_bwd", 2 * attention));
      p.stages.push_back(junction(l > 0 ? "qkv_dgrad_rs>ln_bwd>ffn2_dgrad_ag" : "qkv_dgrad_rs>ln_bwd", 3 * h / n,
                                  l > 0 ? f / n : 0, l > 0 ? 4 : 0));
      p.stages.push_back(gemm("qkv_wgrad", h, 3 * h / n, T));
    }
  }
  for (const Stage& st : p.stages) p.junctions += st.kind == StageKind::Junction ? 1 : 0;
  return p;
}

std::vector<std::int64_t> tileOrder(TpRowOrder order, std::int64_t rowTiles, std::int64_t colTiles, int gpus) {
  std::vector<std::int64_t> tiles(static_cast<std::size_t>(rowTiles * colTiles));
  const std::int64_t n = gpus;
  const bool interleave = order == TpRowOrder::HomeInterleaved && n > 1 && rowTiles % n == 0;
  const std::int64_t perHome = interleave ? rowTiles / n * colTiles : 0;  // tiles of one home's rows
  for (std::int64_t p = 0; p < static_cast<std::int64_t>(tiles.size()); ++p)
    tiles[static_cast<std::size_t>(p)] = interleave ? p % n * perHome + p / n : p;
  return tiles;
}

}  // namespace fl::tp
