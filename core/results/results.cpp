#include "results/results.h"

#include <algorithm>

namespace fl {

std::int64_t BinSeries::at(std::int32_t bin) const {
  const auto it = std::lower_bound(bins.begin(), bins.end(), bin);
  return it != bins.end() && *it == bin ? bytes[static_cast<std::size_t>(it - bins.begin())] : 0;
}

std::vector<std::int64_t> BinSeries::dense(std::int32_t count) const {
  std::vector<std::int64_t> d(static_cast<std::size_t>(std::max(count, 0)), 0);
  for (std::size_t i = 0; i < bins.size(); ++i)
    if (bins[i] < count) d[static_cast<std::size_t>(bins[i])] += bytes[i];
  return d;
}

double computeDirectionBalance(const Results& r) {
  std::vector<std::int64_t> up(static_cast<std::size_t>(std::max(r.bins, 0)), 0), down(up.size(), 0);
  for (const LinkDirectionResult& l : r.links) {
    if (!l.uplink && !l.downlink) continue;
    auto& series = l.uplink ? up : down;
    for (std::size_t i = 0; i < l.bin_bytes.bins.size(); ++i) {
      const auto b = static_cast<std::size_t>(l.bin_bytes.bins[i]);
      if (b < series.size()) series[b] += l.bin_bytes.bytes[i];
    }
  }
  double lo = 0, hi = 0;
  for (std::size_t b = 0; b < up.size(); ++b) {
    lo += static_cast<double>(std::min(up[b], down[b]));
    hi += static_cast<double>(std::max(up[b], down[b]));
  }
  return hi > 0 ? lo / hi : 0;
}

std::optional<NicIncastResult> computeNicIncast(const Results& r) {
  NicIncastResult n;
  bool any = false;
  const std::size_t phases = std::min(r.traffic_phases.size() + 1, std::size_t{4});
  for (const LinkDirectionResult& l : r.links) {  // link order: the first of equal ones wins
    if (!l.nic_receive) continue;
    ++n.nics;
    for (std::size_t p = 1; p < phases; ++p)
      if (!any || l.phase_payload_bytes[p] > n.max_bytes) {
        any = true;
        n.max_bytes = l.phase_payload_bytes[p];
        n.phase = r.traffic_phases[p - 1];
        n.nic = l.to;
        n.link = l.id;
      }
  }
  if (!any) return std::nullopt;
  return n;
}

const char* pipelineTaskKindName(PipelineTaskKind k) {
  switch (k) {
    case PipelineTaskKind::Dispatch: return "dispatch";
    case PipelineTaskKind::Gemm1: return "gemm1";
    case PipelineTaskKind::Gemm2: return "gemm2";
    case PipelineTaskKind::Combine: return "combine";
    case PipelineTaskKind::LaunchGap: return "launch_gap";
    case PipelineTaskKind::Barrier: return "barrier";
    case PipelineTaskKind::LocalGemm: return "gemm";
    case PipelineTaskKind::Compute: return "compute";
    case PipelineTaskKind::GemmRs: return "gemm_rs";
    case PipelineTaskKind::LayerNorm: return "layer_norm";
    case PipelineTaskKind::AgGemm: return "ag_gemm";
    case PipelineTaskKind::Collective: return "nvls_collective";
    case PipelineTaskKind::CaisReduce: return "red_cais";
    case PipelineTaskKind::CaisLoad: return "ld_cais";
    case PipelineTaskKind::SyncWait: return "sync_wait";
  }
  return "?";
}

const char* mergeEndReasonName(MergeEndReason r) {
  switch (r) {
    case MergeEndReason::Completed: return "completed";
    case MergeEndReason::Evicted: return "evicted";
    case MergeEndReason::TimedOut: return "timed_out";
    case MergeEndReason::EvictedOnFill: return "evicted_on_fill";
  }
  return "?";
}

}  // namespace fl
