// HybridEP's asynchronous communicator (seed 004 §IV-B, Fig. 10; spec 1.10) played on the
// flow model: per MoE layer and GPU, the expert all-gather runs on the communication
// stream beside the pre-expert compute (level by level, outermost first; an inner level
// forwards what the outer ones gathered), then the dispatch all-to-all (level by level),
// expert compute (which waits for the gathered experts and the tokens), and the combine
// all-to-all (innermost level first). Every stage waits only for what this GPU receives,
// so GPUs drift apart only as far as their peers let them. A GPU's peers and bundle route
// per level and kind are built once and reused by every layer (the solver's shared routes).
//
// Not modelled: deeper prefetch (AG of layer l+1 during layer l; spec 1.10 leaves it
// open), the backward pass and DDP all-reduce (§VI: an additive constant per iteration).
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
};

// One span of GPU 0's two streams, for the two-stream timeline.
struct StreamSpan {
  int layer = 0;
  std::string kind;  // pre_expert | expert (compute stream); all_gather | dispatch | combine (comm)
  Time start = 0, end = 0;
};

struct CommunicatorResult {
  Time makespan = 0;           // last GPU done with its last layer
  std::int64_t a2aBytes = 0;   // dispatch + combine bytes sent, all GPUs and layers
  std::int64_t agBytes = 0;
  std::int64_t flows = 0;      // point-to-point messages (one bundle per sender and step in the solver)
  std::vector<StreamSpan> gpu0;
};

// Per level, what one GPU sends to each peer: the all-gather payload (P_E times the outer
// levels' domain sizes: an inner level forwards what the outer ones gathered, spec 1.8)
// and the all-to-all chunk D S / SF. Throws std::invalid_argument unless every domain
// size divides its level.
struct StepBytes {
  std::vector<std::int64_t> allGather, chunk;
};
StepBytes stepBytes(const CommunicatorPlan& plan);

// Runs the iteration on `solver` (empty, built over the topology's directed links).
CommunicatorResult runAsyncCommunicator(const CommunicatorPlan& plan, const netmodel::FlowTreeRoutes& routes,
                                        netmodel::FlowSolver& solver);

}  // namespace fl::xdc
