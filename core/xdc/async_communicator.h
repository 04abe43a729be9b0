// HybridEP's asynchronous communicator (seed 004 §IV-B, Fig. 10; spec 1.10) played on the
// flow model: per MoE layer and GPU, the expert all-gather runs on the communication
// stream beside the pre-expert compute (level by level, outermost first; an inner level
// forwards what the outer ones gathered), then the dispatch all-to-all (level by level),
// expert compute (which waits for the gathered experts and the tokens), and the combine
// all-to-all (innermost level first). Every stage waits only for what this GPU receives,
// so GPUs drift apart only as far as their peers let them. A GPU's peers and bundle route
// per level and kind are built once and reused by every layer (the solver's shared routes).
//
// With `training` the backward pass follows, layer by layer from the last, as the forward
// pass mirrored: combine-backward all-to-all (outermost level first), expert backward
// compute, dispatch-backward all-to-all (innermost first), then the expert gradients go
// back to their owners inside the domain (reduce-scatter, the all-gather's mirror,
// innermost first) beside the pre-expert backward compute. The data-parallel gradient
// all-reduce of the dense parameters (and the shared expert when compressed, spec 1.9)
// over every GPU runs on a lane of its own beside these steps: hierarchical,
// reduce-scatter innermost level first, then all-gather outermost first, each a direct
// exchange among a level's workers. With gradOverlap (DDP's bucketing) each layer's
// gradients form a bucket reduced as soon as that layer's backward is done, while the
// layers below run theirs (sharing the links with their all-to-alls), and the expert
// gradients go back to their owners on the same lane as soon as the layer's expert
// backward is done (nothing in the backward pass waits for them); the lane runs one
// entry after another. Without it the expert gradients stay in the backward step and one
// bucket of everything follows the backward pass. Overlap is not always faster: the
// gradients share links with the backward all-to-alls (max-min fair), which then slow.
//
// Not modelled: deeper prefetch (AG of layer l+1 during layer l; spec 1.10 leaves it
// open); the optimizer step (neither the paper nor the spec gives its time).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/time.h"
#include "netmodel/flow_routes.h"
#include "netmodel/flow_solver.h"

namespace fl::xdc {

struct CommunicatorPlan {
  std::vector<int> workers;  // SF^l, outermost first
  std::vector<int> domains;  // S_ED^l
  double data = 0;           // D: bytes one GPU dispatches per all-to-all
  double expert = 0;         // P_E on the wire (after compression)
  int layers = 1;
  Time preExpert = 0;        // Lat_PE per layer
  Time expertCompute = 0;    // per layer, after the tokens and experts are in (SRDecode included)
  Time encode = 0;           // SREncode before the first layer (fused into the optimizer step)
  bool training = false;     // forward only, or forward + backward + gradient all-reduce
  Time expertBackward = 0;   // per layer
  Time preExpertBackward = 0;
  double allReduce = 0;      // gradient bytes per GPU the all-reduce sums over all GPUs
  bool gradOverlap = false;  // gradients leave during the backward pass (a bucket per layer)
};

// One span of GPU 0's two streams, for the two-stream timeline.
struct StreamSpan {
  int layer = 0;
  // Compute stream: pre_expert | expert | expert_backward | pre_expert_backward;
  // communication: all_gather | dispatch | combine | combine_backward | dispatch_backward |
  // expert_grad | all_reduce (its layer's bucket; layer -1: one bucket of every layer).
  std::string kind;
  Time start = 0, end = 0;
};

struct CommunicatorResult {
  Time makespan = 0;           // last GPU done with its last layer
  std::int64_t a2aBytes = 0;   // dispatch + combine bytes sent, all GPUs and layers
  std::int64_t agBytes = 0;
  std::int64_t gradBytes = 0;       // expert gradients back to their owners (training)
  std::int64_t allReduceBytes = 0;  // sent by the gradient all-reduce (training)
  std::int64_t flows = 0;      // point-to-point messages (one bundle per sender and step in the solver)
  std::vector<StreamSpan> gpu0;
};

// Per level, what one GPU sends to each peer: the all-gather payload (P_E times the outer
// levels' domain sizes: an inner level forwards what the outer ones gathered, spec 1.8)
// and the all-to-all chunk D S / SF; and the all-reduce's share per peer, allReduce /
// (SF^l x the levels inside). Throws std::invalid_argument unless every domain size
// divides its level.
struct StepBytes {
  std::vector<std::int64_t> allGather, chunk, allReduce;
};
StepBytes stepBytes(const CommunicatorPlan& plan);

// Runs the iteration on `solver` (empty, built over the topology's directed links).
CommunicatorResult runAsyncCommunicator(const CommunicatorPlan& plan, const netmodel::FlowTreeRoutes& routes,
                                        netmodel::FlowSolver& solver);

}  // namespace fl::xdc
