// The asynchronous communicator (async_communicator.h) as a MessagePlan, for the packet
// model (`network.model: packet`): the same per-GPU order of one layer (pre-expert task
// beside the expert all-gather, level by level outermost first; the dispatch all-to-all
// after both, level by level; expert compute; the combine innermost level first), with
// every step waiting for the receives it needs at its GPU, as the flow version does.
// With `training`, the backward pass mirrored and the gradient all-reduce buckets, in the
// flow version's order too (same bytes per link, tests/core/test_xdc_training.cpp).
// The flow version keeps its event-driven loop: at 1000 DCs x 8 GPUs a static plan
// would hold hundreds of millions of dependencies.
#pragma once
#include <cstdint>
#include <vector>

#include "netmodel/message_plan.h"
#include "xdc/async_communicator.h"

namespace fl::xdc {

enum PlanPhase : std::uint8_t {
  kPhaseAllGather,
  kPhaseDispatch,
  kPhaseCombine,
  kPhaseCompute,
  kPhaseCombineBackward,
  kPhaseDispatchBackward,
  kPhaseExpertGrad,
  kPhaseAllReduce
};

struct CommunicatorMessages {
  netmodel::MessagePlan plan;
  std::int64_t a2aBytes = 0, agBytes = 0;
  std::int64_t gradBytes = 0, allReduceBytes = 0;  // training: expert gradients, all-reduce
  std::int64_t messages = 0;  // transfers (the plan's other items are compute tasks)
  // GPU 0's items per layer, for its two-stream timeline.
  struct Layer {
    std::int32_t preExpert = -1, expert = -1;
    std::vector<std::int32_t> agRecv, dispatchRecv, combineRecv;
  };
  std::vector<Layer> gpu0;
  struct BackwardLayer {
    std::int32_t expert = -1, preExpert = -1;
    std::vector<std::int32_t> combineRecv, dispatchRecv, gradRecv;
  };
  std::vector<BackwardLayer> gpu0Backward;  // by layer
  // The gradient lane (async_communicator.h): expert gradients and all-reduce buckets.
  struct LaneEntry {
    bool expertGrad = false;  // else an all-reduce bucket
    int layer = -1;           // -1: every layer's gradients
    std::vector<std::int32_t> ready;    // GPU 0's items its gradients wait for
    std::vector<std::int32_t> recv[2];  // GPU 0's receives: expert gradients or reduce-scatter; all-gather
  };
  std::vector<LaneEntry> lane;  // in the order they run (the last layer's first)
};

CommunicatorMessages buildCommunicatorPlan(const CommunicatorPlan& p);

// GPU 0's spans from the plan's timing, as the flow version records them.
std::vector<StreamSpan> gpu0Spans(const CommunicatorMessages& m, const netmodel::PlanTiming& timing);

}  // namespace fl::xdc
