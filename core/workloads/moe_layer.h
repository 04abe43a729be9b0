// An MoE layer with expert parallelism (seed 000 §II–III): each GPU dispatches its tokens
// to the GPUs hosting their top-k experts, the experts compute (GEMM-1, GEMM-2), and the
// outputs are combined back at the token's GPU. The communication scheme decides what
// crosses the fabric:
//   deepep      unicast, one copy per destination GPU; one partial output back per GPU;
//   nvls_static the static-NVLS workaround: Dispatch as an NVLS all-gather (multimem.st to
//               every other GPU), Combine as an NVLS reduce-scatter (multimem.ld_reduce
//               from every other GPU), moving data whether needed or not;
//   dysharp     dynamic multimem addressing: one packet with a target expert list, the
//               switch replicates to the targets' GPUs only (trimming the list) and reduces
//               their outputs (dymultimem.ld_reduce with a per-request target counter);
//   explicit    the same in-switch operations with every destination address in the
//               headers (one address flit per destination GPU).
// The fusion mode schedules it: sequential (Dispatch, GEMM-1, GEMM-2, Combine with a
// barrier between phases) or comm_only (Dispatch and Combine concurrently, no compute).
#pragma once
#include <memory>

#include "workloads/workload.h"

namespace fl::work {

std::unique_ptr<Workload> makeMoeLayer(const Scenario& s, net::Network& net, Simulator& sim);

}  // namespace fl::work
