// A model-neutral description of what a workload moves (design.md: "one workload, several
// network models"): transfers between endpoints and local tasks (compute), each with the
// items it waits for. A network model (analytical_model.h, the packet model through
// plan_workload.h, later flow_*) plays the plan and reports when each item started and
// ended plus per-link transfers, summed as they come (LinkTally); fillLinkResults
// (link_results.h) turns those sums into the Results every view and report reads, so
// per-link bytes agree across models (same routes).
//
// The contract a model implements:
//   PlanTiming play(const MessagePlan&, const topo::Topology&, ...)  -> start/end per item,
//   and per-link LinkTransfer records {link, direction, start, end, bytes, phase} handed to
//   a sink as they are made (kept, they grow with transfers x hops x iterations).
// Rules a plan obeys (checkPlan enforces them):
//   - items are in dependency order: every dep has a lower index;
//   - an item may wait only for items that end at its source endpoint (transfers into it,
//     or its own earlier transfers and tasks), so a model never needs a die to learn
//     about something it could not have seen (the packet model runs agents per endpoint);
//   - items of one source in the same `lane` (> 0) start one after another in index order
//     (a die sending to its peers one at a time, spec moentwine.md §2.6); how a model
//     honours that is its own: Eq. 1 queues them, the packet model posts them in order.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/time.h"

namespace fl::netmodel {

inline constexpr int kPlanLanes = 4;

struct PlanItem {
  int src = -1;                 // endpoint index
  int dst = -1;                 // endpoint index; == src for a local task
  std::int64_t bytes = 0;       // payload of a transfer (0 for a task)
  Time duration = 0;            // a local task's time (compute)
  std::uint8_t phase = 0;       // index into MessagePlan::phases
  std::uint8_t lane = 0;        // 0: none; items of one source in one lane run one at a time
  bool background = false;      // low priority: uses only capacity nothing else wants (the
                                // packet model's background class; Eq. 1 has no contention)
  std::vector<std::int32_t> deps;
  bool isTask() const { return src == dst; }
};

struct MessagePlan {
  std::vector<std::string> phases;  // phase names, e.g. all_reduce, dispatch, combine, compute
  std::vector<PlanItem> items;

  int add(PlanItem item) {
    items.push_back(std::move(item));
    return static_cast<int>(items.size()) - 1;
  }
};

// Throws std::logic_error when a rule above is broken (a workload bug, not bad input).
void checkPlan(const MessagePlan& plan);

// When each item started and ended (ps).
struct PlanTiming {
  std::vector<Time> start, end;
  Time makespan() const;
};

}  // namespace fl::netmodel
