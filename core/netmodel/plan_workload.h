// The packet model's way of playing a MessagePlan: one agent per endpoint posts the plan's
// transfers from that endpoint (a message per item, tagged with the item) once the items
// it waits for have ended there, runs local tasks as timers, and counts an item ended when
// its last byte is delivered. Items in a lane are posted in order (inOrder), so the endpoint
// sends them one after another (lanes are not told apart: one send queue per die).
// Background items go at strict low priority (Network::enableBackgroundClass, enabled
// here when the plan holds any). Per-item start and end times come back as a PlanTiming.
#pragma once
#include <memory>

#include "netmodel/message_plan.h"
#include "workloads/workload.h"

namespace fl::netmodel {

class PlanWorkload : public work::Workload {
 public:
  PlanWorkload(std::shared_ptr<const MessagePlan> plan, net::Network& net, Simulator& sim);
  double progress() const override;
  Time makespan() const override;
  const PlanTiming& timing() const { return timing_; }
  const MessagePlan& plan() const { return *plan_; }

 private:
  friend class PlanAgent;
  std::shared_ptr<const MessagePlan> plan_;
  // Items ending at each endpoint that others wait for: dependents[i] (all with src = the
  // endpoint where i ends, by the plan's rules). Each slot below is written by one agent only.
  std::vector<std::vector<std::int32_t>> dependents_;
  std::vector<std::int32_t> pending_;      // deps left, per item (its source agent)
  std::vector<std::int64_t> received_;     // bytes delivered, per item (its destination agent)
  std::vector<topo::NodeId> nodes_;        // endpoint index -> node
  PlanTiming timing_;
};

}  // namespace fl::netmodel
