#include "wsc/expert_placement.h"

#include <algorithm>
#include <string>

#include "scenario/validate.h"

namespace fl::wsc {

namespace {
std::string str(std::int64_t v) { return std::to_string(v); }
}  // namespace

int expertSlots(const WscSpec& w, int dies) {
  if (w.expert_slots > 0) return w.expert_slots;
  return dies > 0 ? (w.experts + dies - 1) / dies + 1 : w.experts;
}

ExpertHosts expertPlacement(const WscSpec& w, int dies) {
  if (w.expert_placement == WscExpertPlacement::Modulo) return defaultHosts(w.experts, dies);
  ExpertHosts h(w.expert_dies.size());
  for (std::size_t e = 0; e < w.expert_dies.size(); ++e) h[e] = {w.expert_dies[e]};
  return h;
}

void checkExpertPlacement(const WscSpec& w, int dies) {
  const char* key = "workload.wsc.expert_dies";
  if (w.expert_placement == WscExpertPlacement::Modulo) {
    if (!w.expert_dies.empty())
      throw ValidationError(key, key, "workload.wsc.expert_dies only with workload.wsc.expert_placement: explicit",
                            str(static_cast<std::int64_t>(w.expert_dies.size())) + " entries",
                            "set expert_placement: explicit, or remove expert_dies");
  } else {
    if (static_cast<int>(w.expert_dies.size()) != w.experts)
      throw ValidationError(key, key, str(w.experts) + " die ids, one per expert (workload.wsc.experts)",
                            str(static_cast<std::int64_t>(w.expert_dies.size())) + " entries",
                            "every expert is placed exactly once: entry e is the die of expert e");
    for (std::size_t e = 0; e < w.expert_dies.size(); ++e)
      if (w.expert_dies[e] < 0 || w.expert_dies[e] >= dies) {
        const std::string at = std::string(key) + "[" + str(static_cast<std::int64_t>(e)) + "]";
        throw ValidationError(at, at, "a die id from 0 to " + str(dies - 1), str(w.expert_dies[e]), "");
      }
  }
  const int slots = expertSlots(w, dies);
  std::vector<std::vector<int>> on(static_cast<std::size_t>(std::max(0, dies)));
  const ExpertHosts hosts = expertPlacement(w, dies);
  for (std::size_t e = 0; e < hosts.size(); ++e)
    for (int d : hosts[e])
      if (d >= 0 && d < dies) on[static_cast<std::size_t>(d)].push_back(static_cast<int>(e));
  for (int d = 0; d < dies; ++d) {
    const auto& list = on[static_cast<std::size_t>(d)];
    if (static_cast<int>(list.size()) <= slots) continue;
    std::string experts;
    for (std::size_t k = 0; k < list.size() && k < 8; ++k) experts += (k ? ", " : "") + str(list[k]);
    if (list.size() > 8) experts += ", ...";
    const char* at = w.expert_placement == WscExpertPlacement::Explicit ? key : "workload.wsc.expert_slots";
    throw ValidationError(at, at,
                          "at most " + str(slots) + " experts per die (workload.wsc.expert_slots" +
                              (w.expert_slots > 0 ? ")" : ": 0 = ceil(experts / dies) + 1)"),
                          "die " + str(d) + " holding " + str(static_cast<std::int64_t>(list.size())) +
                              " experts (" + experts + ")",
                          "move some to other dies, or raise workload.wsc.expert_slots");
  }
}

}  // namespace fl::wsc
