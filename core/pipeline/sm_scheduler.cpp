#include "pipeline/sm_scheduler.h"

#include <algorithm>

namespace fl {

SmScheduler::SmScheduler(std::vector<SmGroup> groups) : groups_(std::move(groups)) {
  for (SmGroup& g : groups_) g.free = g.sms;
}

void SmScheduler::push(ReadyWork w) { queues_[static_cast<std::size_t>(w.kind)].push_back(w); }

int SmScheduler::pick(const SmGroup& g) const {
  int best = -1;
  for (int k : g.kinds) {
    const auto& q = queues_[static_cast<std::size_t>(k)];
    if (q.empty() || !enabled(k)) continue;
    if (!g.firstComeFirstServed) return k;
    if (best < 0 || q.front().order < queues_[static_cast<std::size_t>(best)].front().order) best = k;
  }
  return best;
}

std::vector<StartedBatch> SmScheduler::fill() {
  std::vector<StartedBatch> started;
  for (std::size_t gi = 0; gi < groups_.size(); ++gi) {
    SmGroup& g = groups_[gi];
    while (g.free > 0) {
      const int k = pick(g);
      if (k < 0) break;
      auto& q = queues_[static_cast<std::size_t>(k)];
      ReadyWork& head = q.front();
      const int n = std::min(g.free, head.units);
      StartedBatch b{static_cast<int>(gi), head, false};
      b.work.units = n;
      head.units -= n;
      g.free -= n;
      if (head.units == 0) {
        b.last = true;
        q.pop_front();
      }
      started.push_back(b);
    }
  }
  return started;
}

void SmScheduler::release(int group, int sms) { groups_[static_cast<std::size_t>(group)].free += sms; }

int SmScheduler::busy() const {
  int n = 0;
  for (const SmGroup& g : groups_) n += g.sms - g.free;
  return n;
}

}  // namespace fl
