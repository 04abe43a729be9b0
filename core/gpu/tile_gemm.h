// Closed-form time of a GEMM run as tile tasks (as FlashDMoE's processors and DySHARP's
// thread blocks do, seed 001 §4, seed 000 §VII-C): an M x N x K GEMM is split into
// ceil(M/bM) x ceil(N/bN) output tiles, each a task that reads a bM x K slice of A and a
// K x bN slice of B and writes bM x bN of C. One SM runs one tile at a time, so S SMs
// finish ceil(tiles / S) waves. A tile takes
//   max(compute 2·bM·bN·K / (SM peak x efficiency), memory bytes / (HBM bandwidth / SMs)),
// i.e. it is bound by either its tensor-core work or its share of HBM. Edge tiles cost a
// full tile (the kernel pads them), which is why token counts below bM waste compute.
#pragma once
#include <cstdint>
#include <vector>

#include "gpu/gpu_spec.h"

namespace fl {

struct TileShape {
  int m = 128;  // bM: rows of the output tile (tokens)
  int n = 128;  // bN: columns of the output tile
};

struct GemmShape {
  std::int64_t m = 0, n = 0, k = 0;  // A is m x k, B is k x n, C is m x n
};

struct TileCost {
  double flops = 0;            // 2·bM·bN·K
  double bytes = 0;            // (bM·K + K·bN)·in + bM·bN·out
  double compute_seconds = 0;  // flops / GpuSpec::smFlops(in)
  double memory_seconds = 0;   // bytes / GpuSpec::smBandwidth()
  double seconds() const { return compute_seconds > memory_seconds ? compute_seconds : memory_seconds; }
};

struct GemmTime {
  std::int64_t tiles = 0;
  std::int64_t waves = 0;
  TileCost tile;
  double seconds = 0;  // waves x tile.seconds()
};

// ceil(m / bM) x ceil(n / bN); 0 when m or n is 0.
std::int64_t tileCount(const GemmShape& shape, const TileShape& tile);
// ceil(tiles / sms).
std::int64_t waveCount(std::int64_t tiles, int sms);

// One tile task over the full K. Throws std::invalid_argument when the GPU has no tensor
// throughput for `in` (e.g. FP8 on A100): validation rejects such scenarios first.
TileCost tileCost(const GpuSpec& gpu, const TileShape& tile, std::int64_t k, Dtype in, Dtype out);

// A GEMM on `sms` SMs (at most gpu.sms; fewer when SMs are partitioned between GEMMs and
// communication, as in DySHARP's fusion, seed 000 §IV).
GemmTime gemmTime(const GpuSpec& gpu, const GemmShape& shape, const TileShape& tile, Dtype in, Dtype out,
                  int sms);

// A grouped GEMM: one GEMM per entry of `ms` (rows), all with the same n and k, whose
// tiles share the SMs' waves (one kernel for all local experts).
GemmTime groupedGemmTime(const GpuSpec& gpu, const std::vector<std::int64_t>& ms, std::int64_t n,
                         std::int64_t k, const TileShape& tile, Dtype in, Dtype out, int sms);

// The two GEMMs of the experts on one GPU, `tokens[e]` rows for local expert e:
//   GEMM-1: tokens x hidden -> 2·expert_ffn (gate and up projections of SwiGLU computed
//           by one GEMM, hence N = 2·expert_ffn; the activation is in the epilogue and its
//           output is written as bM x bN per tile for simplicity), output in `compute`;
//   GEMM-2: tokens x expert_ffn -> hidden, output in `out` (the combine dtype; DySHARP
//           applies the gating weight in this epilogue, seed 000 §III-B).
struct ExpertGemmTimes {
  GemmTime gemm1, gemm2;
  double seconds() const { return gemm1.seconds + gemm2.seconds; }
};
ExpertGemmTimes expertGemmTimes(const GpuSpec& gpu, const std::vector<std::int64_t>& tokens, int hidden,
                                int expertFfn, const TileShape& tile, Dtype compute, Dtype out, int sms);

}  // namespace fl
