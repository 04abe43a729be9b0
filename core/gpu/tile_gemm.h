// Closed-form time of a GEMM run as tile tasks (as FlashDMoE's processors and DySHARP's
// thread blocks do, seed 001 §4, seed 000 §VII-C): an M x N x K GEMM is split into
// ceil(M/bM) x ceil(N/bN) output tiles, each a task that reads a bM x K slice of A and a
// K x bN slice of B and writes bM x bN of C. One SM runs one tile at a time, so S SMs
// finish ceil(tiles / S) waves. Edge tiles cost a full tile (the kernel pads them), which
// is why token counts below bM waste compute.
//
// Operand reuse through L2 (wave model). The w tiles of one wave run concurrently and
// share operand slices through L2: laid out over an r x c block of the output tile grid
// (waveBlock), the wave reads r A-slices and c B-slices from HBM once and writes w C
// tiles. A wave takes
//   max(compute of one tile = 2·bM·bN·K / (SM peak x efficiency),
//       wave HBM bytes / (w x HBM bandwidth / SMs)),
// i.e. every busy SM computes its tile in parallel, and the wave's HBM traffic streams at
// the busy SMs' share of HBM bandwidth (the same per-SM share as the per-tile term below:
// a wave of few tiles, or a GEMM on SMs partitioned off for communication, does not get
// the whole HBM). The GEMM takes the sum of its waves.
//
// Block shape: the most square block, c = min(tile columns, ceil(sqrt(w))),
// r = ceil(w / c); when that needs more tile rows than the GEMM has (skinny GEMMs, e.g.
// 128 tokens = one tile row), r = rows and c = ceil(w / rows). Square minimises r + c
// for r·c >= w, i.e. the HBM traffic; it stands for the swizzled rasterisation that
// CUTLASS / cuBLAS kernels use precisely for this L2 locality. Row-major raster order
// (a wave spanning ~w / columns full rows, reading every B-slice) would be the upper end;
// for the GEMMs of interest both are compute-bound, square is the better-founded default.
//
// L2 capacity: the block's distinct slices (r·bM + c·bN)·K·in must fit in L2 for the
// reuse to hold. When they do not, reuse is capped at what fits: the wave is split into
// groups of the largest tile count m whose own block fits in L2, each group reading its
// own slices (ceil(w / m) groups; the last holds the remainder). With not even one tile's
// slices fitting, every tile reads its own (no reuse, exactly the per-tile term below).
// This is conservative: tiles of one wave move through K roughly in step, so the live
// working set is usually far smaller than full-K slices.
//
// Grouped GEMMs (one GEMM per local expert, one kernel): tiles are scheduled expert by
// expert, each wave takes the next S tiles. A wave's tiles of one expert form a segment
// with its own block in that expert's grid (experts share no operands); segments of one
// wave split L2 in proportion to their tile counts.
//
// The per-tile term (TileCost::memory_seconds: one tile's full A and B slices and C tile
// at one SM's share of HBM) is kept as the no-reuse bound: with l2_bytes = 0 the wave
// model reduces to it.
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
  double bytes = 0;            // (bM·K + K·bN)·in + bM·bN·out: no reuse
  double compute_seconds = 0;  // flops / GpuSpec::smFlops(in)
  double memory_seconds = 0;   // bytes / GpuSpec::smBandwidth(): the no-reuse per-tile term
  double seconds() const { return compute_seconds > memory_seconds ? compute_seconds : memory_seconds; }
};

struct GemmTime {
  std::int64_t tiles = 0;
  std::int64_t waves = 0;
  TileCost tile;
  double seconds = 0;               // sum over waves of max(tile compute, wave memory)
  double compute_seconds = 0;       // waves x tile.compute_seconds: the compute-bound time
  double hbm_bytes = 0;             // modelled HBM traffic of all waves (operands + C)
  std::int64_t memory_bound_waves = 0;  // waves whose memory term exceeds the compute term
};

// ceil(m / bM) x ceil(n / bN); 0 when m or n is 0.
std::int64_t tileCount(const GemmShape& shape, const TileShape& tile);
// ceil(tiles / sms).
std::int64_t waveCount(std::int64_t tiles, int sms);

// The r x c block of a grid of `gridRows` x `gridCols` tiles that a wave of `tiles` tiles
// covers (see the header comment); {0, 0} for no tiles. Throws std::invalid_argument when
// the tiles do not fit in the grid.
struct WaveBlock {
  std::int64_t rows = 0, cols = 0;  // A-slices and B-slices read
};
WaveBlock waveBlock(std::int64_t tiles, std::int64_t gridRows, std::int64_t gridCols);

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
