#include "workloads/workload.h"

#include <algorithm>

namespace fl::work {

double Workload::progress() const {
  std::int64_t got = 0, want = 0;
  for (const auto& a : agents_) {
    got += a->receivedBytes();
    want += a->expectedBytes();
  }
  return want > 0 ? static_cast<double>(got) / static_cast<double>(want) : 0.0;
}

Time Workload::makespan() const {
  Time t = 0;
  for (const auto& a : agents_) t = std::max(t, a->finishedAt());
  return t;
}

void Workload::finish(Results& r) const { r.phases = mergePhases(agents_); }

std::vector<PhaseMark> mergePhases(const std::vector<std::unique_ptr<Agent>>& agents) {
  std::vector<PhaseMark> merged;
  for (const auto& a : agents) {
    for (const PhaseMark& m : a->phases()) {
      auto it = std::find_if(merged.begin(), merged.end(),
                             [&](const PhaseMark& x) { return x.name == m.name; });
      if (it == merged.end()) {
        merged.push_back(m);
      } else {
        it->start = std::min(it->start, m.start);
        it->end = std::max(it->end, m.end);
      }
    }
  }
  return merged;
}

}  // namespace fl::work
