// The asynchronous communicator (async_communicator.h) as a MessagePlan, for the packet
// model (`network.model: packet`): the same per-GPU order of one layer (pre-expert task
// beside the expert all-gather, level by level outermost first; the dispatch all-to-all
// after both, level by level; expert compute; the combine innermost level first), with
// every step waiting for the receives it needs at its GPU, as the flow version does.
// The flow version keeps its event-driven loop: at 1000 DCs x 8 GPUs a static plan
// would hold hundreds of millions of dependencies.
#pragma once
#include <cstdint>
#include <vector>

#include "netmodel/message_plan.h"
#include "xdc/async_communicator.h"

namespace fl::xdc {

enum PlanPhase : std::uint8_t { kPhaseAllGather, kPhaseDispatch, kPhaseCombine, kPhaseCompute };

struct CommunicatorMessages {
  netmodel::MessagePlan plan;
  std::int64_t a2aBytes = 0, agBytes = 0;
  std::int64_t messages = 0;  // transfers (the plan's other items are compute tasks)
  // GPU 0's items per layer, for its two-stream timeline.
  struct Layer {
    std::int32_t preExpert = -1, expert = -1;
    std::vector<std::int32_t> agRecv, dispatchRecv, combineRecv;
  };
  std::vector<Layer> gpu0;
};

CommunicatorMessages buildCommunicatorPlan(const CommunicatorPlan& p);

// GPU 0's spans from the plan's timing, as the flow version records them.
std::vector<StreamSpan> gpu0Spans(const CommunicatorMessages& m, const netmodel::PlanTiming& timing);

}  // namespace fl::xdc
