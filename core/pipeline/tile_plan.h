// The GEMM work of a token pipeline, in thread blocks (seed 000 §IV-B: a 128-token tile
// of an expert is one row of GEMM thread blocks; seed 001 §4.3: FlashDMoE's 128 x 64
// tasks). A row has ceil(N / bN) blocks; one block takes as long as one wave of the
// tile-GEMM model (gpu/tile_gemm.h) for that GPU's experts, so a GPU that runs all its
// blocks on all SMs needs exactly the model's GEMM time.
#pragma once
#include <vector>

#include "engine/time.h"
#include "scenario/scenario.h"
#include "workloads/moe_plan.h"

namespace fl {

struct TilePlan {
  int tileTokens = 128;           // tokens per tile row
  int tbPerRow[2] = {0, 0};       // GEMM-1, GEMM-2 thread blocks per tile row
  std::vector<Time> tbTime[2];    // per GPU: one thread block of GEMM-1, GEMM-2
  double flops[2] = {0, 0};       // all GPUs' GEMM-1 and GEMM-2 FLOPs (SM split)
  // Tile rows of local expert e on GPU g: ceil(rows / tileTokens), plus padding rows
  // when sends are padded to capacity (persistent, payload_efficient false).
  std::vector<std::vector<std::int64_t>> rows;  // per GPU, per local expert (computed)
};

// `taskN`: columns of a block (gpu.tile's bN, or scheme.persistent.task_n for persistent);
// `paddedRows`: rows each local expert computes (capacity when padded, else routed rows).
TilePlan planTiles(const Scenario& s, const work::MoePlan& plan, int taskN,
                   const std::vector<std::vector<std::int64_t>>& paddedRows);

}  // namespace fl
