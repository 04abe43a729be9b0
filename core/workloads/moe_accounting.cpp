#include "workloads/moe_accounting.h"

#include <algorithm>

namespace fl::work {

void MoeAccounting::merge(const MoeAccounting& o) {
  for (int p = 0; p < 2; ++p)
    for (int d = 0; d < 2; ++d) {
      wire[p][d] += o.wire[p][d];
      for (int c = 0; c < 3; ++c) payload[p][d][c] += o.payload[p][d][c];
    }
}

std::vector<TrafficBreakdownRow> MoeAccounting::rows() const {
  static const char* const kPhase[] = {"dispatch", "combine", "all"};
  static const char* const kDirection[] = {"uplink", "downlink"};
  std::vector<TrafficBreakdownRow> out;
  for (int p = 0; p < 3; ++p)
    for (int d = 0; d < 2; ++d) {
      TrafficBreakdownRow r;
      r.phase = kPhase[p];
      r.direction = kDirection[d];
      for (int q = 0; q < 2; ++q) {
        if (p != 2 && p != q) continue;
        r.useful += payload[q][d][kUseful];
        r.redundant += payload[q][d][kRedundant];
        r.useless += payload[q][d][kUseless];
        r.overhead += wire[q][d] - payload[q][d][kUseful] - payload[q][d][kRedundant] - payload[q][d][kUseless];
      }
      out.push_back(r);
    }
  return out;
}

Time idealCommTime(const MoePlan& plan, bool concurrent, const std::vector<double>& gpuRate,
                   double dispatchFraming, double combineFraming) {
  std::vector<std::int64_t> sent(static_cast<std::size_t>(plan.gpus), 0);
  for (int g = 0; g < plan.gpus; ++g)
    for (int t = 0; t < plan.tokens; ++t) sent[static_cast<std::size_t>(g)] += plan.route(g, t).gpus.empty() ? 0 : 1;
  double dispatch = 0, combine = 0, both = 0;
  for (int g = 0; g < plan.gpus; ++g) {
    const auto i = static_cast<std::size_t>(g);
    const double rate = gpuRate[i];
    if (rate <= 0) continue;
    // Wire bytes of the useful data.
    const double dUp = static_cast<double>(sent[i] * plan.dispatchBytes) / dispatchFraming;
    const double dDown = static_cast<double>(plan.tokensIn[i] * plan.dispatchBytes) / dispatchFraming;
    const double cUp = static_cast<double>(plan.tokensIn[i] * plan.combineBytes) / combineFraming;
    const double cDown = static_cast<double>(sent[i] * plan.combineBytes) / combineFraming;
    dispatch = std::max(dispatch, std::max(dUp, dDown) / rate);
    combine = std::max(combine, std::max(cUp, cDown) / rate);
    both = std::max(both, std::max(dUp + cUp, dDown + cDown) / rate);
  }
  return static_cast<Time>((concurrent ? both : dispatch + combine) * 1e12);
}

}  // namespace fl::work
