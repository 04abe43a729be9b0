#include "netmodel/message_plan.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fl::netmodel {

void checkPlan(const MessagePlan& plan) {
  for (std::size_t i = 0; i < plan.items.size(); ++i) {
    const PlanItem& it = plan.items[i];
    if (it.phase >= plan.phases.size()) throw std::logic_error("plan item " + std::to_string(i) + ": unnamed phase");
    if (it.lane >= kPlanLanes) throw std::logic_error("plan item " + std::to_string(i) + ": lane out of range");
    for (std::int32_t d : it.deps) {
      if (d < 0 || static_cast<std::size_t>(d) >= i)
        throw std::logic_error("plan item " + std::to_string(i) + " waits for a later item");
      const PlanItem& dep = plan.items[static_cast<std::size_t>(d)];
      if (dep.dst != it.src)
        throw std::logic_error("plan item " + std::to_string(i) + " waits for an item that never reaches its source");
    }
  }
}

Time PlanTiming::makespan() const { return end.empty() ? 0 : *std::max_element(end.begin(), end.end()); }

}  // namespace fl::netmodel
