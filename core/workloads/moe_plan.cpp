#include "workloads/moe_plan.h"

#include <algorithm>

#include "gpu/gpu_spec.h"

namespace fl::work {

MoePlan planMoeLayer(const Scenario& s, int gpus) {
  const MoeSpec& m = s.workload.moe;
  RoutingParams params = routingParams(s);
  params.gpus = gpus;
  const Routing routing = generateRouting(params);
  const ExpertPlacement placement = ExpertPlacement::fromSpec(m, gpus);

  MoePlan p;
  p.gpus = gpus;
  p.tokens = m.tokens_per_gpu;
  p.dispatchBytes = static_cast<std::int64_t>(m.hidden) * dtypeBytes(m.dispatch_dtype);
  p.combineBytes = static_cast<std::int64_t>(m.hidden) * dtypeBytes(m.combine_dtype);
  p.routes.resize(static_cast<std::size_t>(gpus) * static_cast<std::size_t>(p.tokens));
  p.tokensIn.assign(static_cast<std::size_t>(gpus), 0);
  std::vector<std::vector<std::int64_t>> expertRows(static_cast<std::size_t>(gpus));
  for (int g = 0; g < gpus; ++g) expertRows[static_cast<std::size_t>(g)].assign(placement.localExperts(g).size(), 0);

  p.topK = m.top_k;
  p.chosen = routing.choices;
  p.expertGpu.assign(static_cast<std::size_t>(m.experts), 0);
  p.expertLocal.assign(static_cast<std::size_t>(m.experts), 0);
  for (int g = 0; g < gpus; ++g) {
    const auto& local = placement.localExperts(g);
    p.localExperts.emplace_back(local.begin(), local.end());
    for (std::size_t i = 0; i < local.size(); ++i) {
      p.expertGpu[static_cast<std::size_t>(local[i])] = g;
      p.expertLocal[static_cast<std::size_t>(local[i])] = static_cast<std::int32_t>(i);
    }
  }
  std::int64_t remoteSum = 0, withRemote = 0;
  std::vector<std::uint16_t> perGpu(static_cast<std::size_t>(gpus));
  std::vector<std::size_t> routeEnd;  // per token: its lists' end in the flat arrays
  routeEnd.reserve(p.routes.size());
  for (int g = 0; g < gpus; ++g) {
    for (int t = 0; t < p.tokens; ++t) {
      std::fill(perGpu.begin(), perGpu.end(), 0);
      for (std::int32_t e : routing.chosen(g, t)) {
        const int host = placement.gpuOf(e);
        ++perGpu[static_cast<std::size_t>(host)];
        const auto& local = placement.localExperts(host);
        const auto idx = std::lower_bound(local.begin(), local.end(), e) - local.begin();
        ++expertRows[static_cast<std::size_t>(host)][static_cast<std::size_t>(idx)];
      }
      const std::size_t first = p.routeGpus.size();
      for (int d = 0; d < gpus; ++d) {
        if (d == g || perGpu[static_cast<std::size_t>(d)] == 0) continue;
        p.routeGpus.push_back(d);
        p.routeExperts.push_back(perGpu[static_cast<std::size_t>(d)]);
        ++p.tokensIn[static_cast<std::size_t>(d)];
      }
      routeEnd.push_back(p.routeGpus.size());
      const auto n = static_cast<std::int64_t>(p.routeGpus.size() - first);
      remoteSum += n;
      if (n > 0) ++withRemote;
    }
  }
  // The views, once the arrays have stopped growing.
  for (std::size_t i = 0, begin = 0; i < p.routes.size(); begin = routeEnd[i++]) {
    p.routes[i].gpus = std::span<const std::int32_t>(p.routeGpus).subspan(begin, routeEnd[i] - begin);
    p.routes[i].experts = std::span<const std::uint16_t>(p.routeExperts).subspan(begin, routeEnd[i] - begin);
  }
  const double all = static_cast<double>(gpus) * p.tokens;
  p.meanRemoteGpus = all > 0 ? static_cast<double>(remoteSum) / all : 0;
  p.useful[kDispatch][kUplink] = withRemote * p.dispatchBytes;
  p.useful[kDispatch][kDownlink] = remoteSum * p.dispatchBytes;
  p.useful[kCombine][kUplink] = remoteSum * p.combineBytes;
  p.useful[kCombine][kDownlink] = withRemote * p.combineBytes;

  // Expert GEMMs: each GPU's experts compute every token routed to them (local and remote).
  const GpuSpec gpu = gpuSpecFor(s.gpu);
  const TileShape tile{s.gpu.tile_m, s.gpu.tile_n};
  p.localRows.assign(static_cast<std::size_t>(gpus), 0);
  p.gemm1.assign(static_cast<std::size_t>(gpus), 0);
  p.gemm2.assign(static_cast<std::size_t>(gpus), 0);
  p.expertRows = expertRows;
  for (int g = 0; g < gpus; ++g) {
    const auto& rows = expertRows[static_cast<std::size_t>(g)];
    for (auto r : rows) p.localRows[static_cast<std::size_t>(g)] += r;
    if (rows.empty()) continue;
    const ExpertGemmTimes t = expertGemmTimes(gpu, rows, m.hidden, m.expert_ffn, tile, m.dispatch_dtype,
                                              m.combine_dtype, s.gpu.sms);
    p.gemm1[static_cast<std::size_t>(g)] = static_cast<Time>(t.gemm1.seconds * 1e12);
    p.gemm2[static_cast<std::size_t>(g)] = static_cast<Time>(t.gemm2.seconds * 1e12);
  }
  return p;
}

}  // namespace fl::work
