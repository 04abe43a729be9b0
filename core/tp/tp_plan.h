// A tensor-parallel transformer layer as the stages every scheme runs (seed 002 §II-A,
// §III-C1; specs/cais.md §2.9). Per GPU, with N GPUs, T = seq x batch tokens:
//   forward  QKV GEMM (first layer only; later ones are the AG side of L2) -> attention
//            -> L1 [out-proj GEMM-RS -> LN -> FFN1 AG-GEMM] -> GELU
//            -> L2 [FFN2 GEMM-RS -> LN -> next layer's QKV AG-GEMM] (the last layer: LN only)
//   backward (training) mirrors it: FFN2 dgrad (AG side of L4 above) + wgrad -> GELU bwd
//            -> L3 [FFN1 dgrad GEMM-RS -> LN bwd -> out-proj dgrad AG-GEMM] + wgrads
//            -> attention bwd (2x) -> L4 [QKV dgrad GEMM-RS -> LN bwd -> FFN2 dgrad AG-GEMM of
//            the layer below] + wgrads. Weight gradients are local GEMMs in every scheme.
// A junction is where the schemes differ: all-reduce (tp_nvls), reduce-scatter / LN on T/N
// rows / all-gather (sp_nvls), or red.cais / ld.cais (CAIS).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/tile_gemm.h"
#include "scenario/scenario.h"

namespace fl::tp {

enum class StageKind : std::uint8_t { Gemm, Flops, Memory, Junction };

struct Stage {
  StageKind kind = StageKind::Gemm;
  std::string name;
  GemmShape gemm;      // Gemm: a local GEMM
  double flops = 0;    // Flops: attention (SM-bound)
  double bytes = 0;    // Memory: element-wise (HBM-bound)
  // Junction: GEMM-RS [T x hidden over K = rsK] -> LN (T or T/N rows) -> AG-GEMM
  // [T x agN over K = hidden]; agN 0: none (the last LN of the pass).
  std::int64_t rsK = 0, agN = 0;
  int sublayer = 0;    // 1..4 (L1..L4), 0: none
};

struct TpPlan {
  int gpus = 0;
  std::int64_t tokens = 0, hidden = 0, ffn = 0;
  std::vector<Stage> stages;
  int junctions = 0;
};

TpPlan planTpLayers(const TpSpec& spec, int gpus);

// A CAIS GEMM's dispatch order over its rowTiles x colTiles output tiles (tile = m x
// colTiles + n), position -> tile, the same on every GPU. Row m belongs to home
// m / (rowTiles / gpus). m_major: identity. home_interleaved: position p goes to home
// p mod gpus, the (p / gpus)-th tile of that home's rows in m-major order (rowTiles must be
// a multiple of gpus, which validation ensures; otherwise m-major).
std::vector<std::int64_t> tileOrder(TpRowOrder order, std::int64_t rowTiles, std::int64_t colTiles, int gpus);

}  // namespace fl::tp
