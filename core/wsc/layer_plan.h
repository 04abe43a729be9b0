// One decoder layer of wafer-scale MoE inference as a message plan (seed 003 §III-B,
// Fig. 5; spec moentwine.md §2.1), per iteration and micro-batch:
//   1. all-reduce of the attention partial sums (M = T x H x 2 B per die) on each TP
//      group's ring: bidirectional, M split in halves, t-1 reduce-scatter then t-1
//      all-gather steps of M/(2t) per direction; all_gather: false keeps the RS (§3.6);
//      HER: intra-wafer RS, then an all-gather among counterpart dies across wafers (§2.8);
//   2. dispatch all-to-all inside each Full Token Domain: the holder of a token set in the
//      FTD of an expert's host sends that set's tokens for the expert (FP16, H x 2 B per
//      token), to its peers one after another (Eq. 1's serialised sends, §2.6);
//   3. expert compute on each die for its tokens (roofline of INT8 GEMM and weight reads);
//   4. combine: the reverse of dispatch, same sizes;
// before 1, attention on every die for its group's tokens, by stage (attention.h): the
// all-reduce of a micro-batch waits for it, so attention of b+1 overlaps the AR of b.
// Micro-batches pipeline: the all-reduce stream, each die's compute and its two all-to-all
// lanes run one micro-batch after another, so micro-batch b+1's dispatch overlaps b's
// compute (PipeMoE-style).
#pragma once
#include <cstdint>
#include <vector>

#include "gpu/gpu_spec.h"
#include "mapping/mapping.h"
#include "netmodel/message_plan.h"
#include "scenario/scenario.h"

namespace fl::wsc {

enum PlanPhase : std::uint8_t {
  kAllReduce = 0, kDispatch = 1, kCombine = 2, kMigration = 3, kCompute = 4, kAttention = 5
};
inline const std::vector<std::string>& planPhaseNames() {
  static const std::vector<std::string> names = {"all_reduce", "dispatch", "combine", "migration", "compute",
                                                 "attention"};
  return names;
}

// Where each expert's replicas live (die ids); by default expert e on die e mod N (§1.2).
using ExpertHosts = std::vector<std::vector<int>>;
ExpertHosts defaultHosts(int experts, int dies);

// Items [first, last) of one phase of one micro-batch of one iteration.
struct PhaseSpan {
  std::uint8_t phase = 0;
  int iteration = 0;
  std::int32_t first = 0, last = 0;
};

struct LayerPlan {
  netmodel::MessagePlan plan;
  std::vector<PhaseSpan> spans;
  // Per iteration: tokens each die computes (summed over micro-batches), and its compute time.
  std::vector<std::vector<double>> dieTokens;
  std::vector<Time> moeCompute;  // per iteration: sum over micro-batches of the slowest die's time
  std::vector<Time> attention;   // per iteration: sum over micro-batches (every die alike)
  double tokensPerIteration = 0;  // tokens through the MoE layer per iteration (system)
};

// Per iteration (the last entry serves later iterations): expert placement, optional
// expert shares of the picks replacing workload.wsc.gating (a balancer's load generator),
// and an optional stall before the iteration (an invasive balancer's copies).
struct IterationInputs {
  std::vector<ExpertHosts> hosts;
  std::vector<std::vector<double>> shares;
  std::vector<Time> stall;
  // NI-Balancer's copies (spec §2.9): expert weights from `from` to `to`, hop by hop along
  // the copy's Local and Global stages (balance/migration_path.h), phase `migration`. A
  // Local stage starts once its first die's all-reduce of `iteration` has started, a
  // Global stage once its dispatch has; nothing waits for a copy. They are background
  // items (balancer.migration_priority low): Eq. 1 leaves the layer untouched, the packet
  // model sends them at strict low priority on a reserved VC (equal: round-robin with the
  // phases' traffic).
  struct Copy {
    int iteration = 0, from = -1, to = -1;
    std::int64_t bytes = 0;
  };
  std::vector<Copy> copies;
};

LayerPlan buildLayerPlan(const Scenario& s, const mapping::Mapping& m, const GpuSpec& gpu, const IterationInputs& in);

// How long a span's phase took: from the moment its last participant was ready (the
// latest end among the items it waited for outside the span) to its last end, so a die
// still computing the previous micro-batch does not stretch the window of the others.
Time spanWindow(const netmodel::MessagePlan& plan, const PhaseSpan& span, const std::vector<Time>& start,
                const std::vector<Time>& end);

// The layer's end: the last item other than a background copy (an NI migration hop).
Time layerMakespan(const netmodel::MessagePlan& plan, const netmodel::PlanTiming& timing);

// Compute time of `tokens` tokens through `experts` INT8 experts of 3*H*F parameters.
Time expertComputeTime(const WscSpec& w, const GpuSpec& gpu, double tokens, int experts);

}  // namespace fl::wsc
