// Turns the pipeline agents' task records into PipelineResults: one task list ordered by
// start time with every `after` link resolved to the task that completed the work that
// made it ready, SM utilisation, busy time per task kind, launch overhead, and the
// straggler delay of each pass (the arrival spread of its barriers, seed 001 §3.1).
#pragma once
#include <vector>

#include "results/results.h"
#include "workloads/moe_pipeline_agent.h"

namespace fl::work {

PipelineResults collectPipeline(const std::vector<const PipelineAgent*>& agents, const PipelineShared& shared,
                                const BarrierCoordinator& barriers, const Scenario& s, Time makespan);

// Nearest-rank percentile of `values` (p in [0, 100]); 0 for none.
Time percentile(std::vector<Time> values, double p);

}  // namespace fl::work
