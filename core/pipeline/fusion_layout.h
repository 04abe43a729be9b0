// How a fusion scheme lays a layer pass out on a GPU: its SM groups, the kernels it runs
// one after another (each enabling some task kinds), where all GPUs synchronise, and how
// many host launches each kernel costs (scheme.launch.kernels spread over the kernels).
//   sequential     dispatch | GEMM-1 | GEMM-2 | combine, barriers after dispatch and
//                  before combine (seed 000 Fig. 4(a), DeepEP);
//   overlap        dispatch + GEMM-1 | GEMM-2 + combine: two fused kernels, dispatch and
//                  combine never at the same time (COMET, seed 000 Fig. 4(b));
//   token_centric  one kernel, four SM groups (seed 000 §IV-C);
//   persistent     one kernel, all SMs but the OS block are processors (seed 001 §4.1).
// Synchronous schemes (sequential, overlap) also meet at a barrier at the end of a pass.
#pragma once
#include <vector>

#include "pipeline/sm_scheduler.h"
#include "scenario/scenario.h"

namespace fl {

struct KernelStage {
  std::vector<int> kinds;       // task kinds this kernel runs
  int launches = 1;             // host launches before it can start
  bool barrierBefore = false;   // all GPUs meet before it starts
};

struct FusionLayout {
  std::vector<SmGroup> groups;
  std::vector<KernelStage> stages;
  bool barrierAtEnd = false;    // synchronous pass end
  int osSms = 0;                // persistent: SMs of the OS block (busy all kernel long)
  int launchesPerPass() const;
  // SMs of the groups that may run task kind `kind` (at least 1).
  int smsFor(int kind) const;
};

// gemmFlops[0..1]: FLOPs of GEMM-1 and GEMM-2 (automatic token_centric split).
// Sequential and overlap use scheme.comm_sms for communication.
FusionLayout fusionLayout(const Scenario& s, const double gemmFlops[2]);

// The automatic token_centric split, in closed form:
//   comm = clamp(comm_sms / 2, 1, max(1, (sms - 1) / 3))   Dispatch and Combine each
//   rest = max(1, sms - 2 comm)
//   g1   = round(rest * F1 / (F1 + F2)) (rest / 2 without FLOPs), clamped to [1, rest - 1]
//          when rest > 1; GEMM-2 gets rest - g1.
void automaticTokenCentricSplit(int sms, int commSms, const double gemmFlops[2], int out[4]);

// The split the simulator takes for `s` when all four groups are 0 (an editor shows it).
// Both GEMMs run the same token rows, so F1 : F2 is their N * K per row, 2 ffn * hidden :
// hidden * ffn = 2 : 1 whatever the routing (a layer that routes no token at all splits
// the GEMM SMs evenly instead).
void automaticTokenCentricSplit(const Scenario& s, int out[4]);

}  // namespace fl
