#include "balance/expert_state.h"

#include <algorithm>

namespace fl::balance {

std::vector<double> ExpertState::heat() const {
  std::vector<double> h(freeSlots.size(), 0);
  for (std::size_t e = 0; e < hosts.size(); ++e)
    for (int d : hosts[e]) h[static_cast<std::size_t>(d)] += load[e] / static_cast<double>(hosts[e].size());
  return h;
}

bool ExpertState::hosts_(int e, int d) const {
  const auto& h = hosts[static_cast<std::size_t>(e)];
  return std::find(h.begin(), h.end(), d) != h.end();
}

ExpertState initialState(const std::vector<double>& load, std::vector<std::vector<int>> native, int dies, int slots) {
  ExpertState s;
  s.load = load;
  s.hosts = std::move(native);
  s.hosts.resize(load.size());
  s.freeSlots.assign(static_cast<std::size_t>(dies), slots);
  return s;
}

}  // namespace fl::balance
