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

void CommBound::raise(const CommBound& o) {
  dispatch = std::max(dispatch, o.dispatch);
  combine = std::max(combine, o.combine);
  both = std::max(both, o.both);
}

Time CommBound::time(bool concurrent) const {
  return static_cast<Time>((concurrent ? both : dispatch + combine) * 1e12);
}

CommBound gpuLinkBound(const MoePlan& plan, const std::vector<double>& gpuRate, double dispatchFraming,
                       double combineFraming) {
  std::vector<std::int64_t> sent(static_cast<std::size_t>(plan.gpus), 0);
  for (int g = 0; g < plan.gpus; ++g)
    for (int t = 0; t < plan.tokens; ++t) sent[static_cast<std::size_t>(g)] += plan.route(g, t).gpus.empty() ? 0 : 1;
  CommBound b;
  for (int g = 0; g < plan.gpus; ++g) {
    const auto i = static_cast<std::size_t>(g);
    const double rate = gpuRate[i];
    if (rate <= 0) continue;
    // Wire bytes of the useful data.
    const double dUp = static_cast<double>(sent[i] * plan.dispatchBytes) / dispatchFraming;
    const double dDown = static_cast<double>(plan.tokensIn[i] * plan.dispatchBytes) / dispatchFraming;
    const double cUp = static_cast<double>(plan.tokensIn[i] * plan.combineBytes) / combineFraming;
    const double cDown = static_cast<double>(sent[i] * plan.combineBytes) / combineFraming;
    b.dispatch = std::max(b.dispatch, std::max(dUp, dDown) / rate);
    b.combine = std::max(b.combine, std::max(cUp, cDown) / rate);
    b.both = std::max(b.both, std::max(dUp + cUp, dDown + cDown) / rate);
  }
  return b;
}

Time idealCommTime(const MoePlan& plan, bool concurrent, const std::vector<double>& gpuRate,
                   double dispatchFraming, double combineFraming) {
  return gpuLinkBound(plan, gpuRate, dispatchFraming, combineFraming).time(concurrent);
}

CommBound pathBound(const MoePlan& plan, const topo::Topology& t, const std::vector<topo::NodeId>& gpuNode,
                    double dispatchFraming, double combineFraming) {
  // Wire bytes per link direction (link * 2 + direction): Dispatch runs source -> GPU,
  // Combine the reverse path GPU -> source.
  std::vector<double> dispatch(t.links().size() * 2, 0.0), combine(dispatch.size(), 0.0);
  const double dBytes = static_cast<double>(plan.dispatchBytes) / dispatchFraming;
  const double cBytes = static_cast<double>(plan.combineBytes) / combineFraming;
  std::vector<int> cand;
  auto path = [&](topo::NodeId from, topo::NodeId to, std::vector<std::size_t>& out) {
    out.clear();
    for (topo::NodeId at = from; at != to;) {
      t.candidates(at, to, cand);
      if (cand.empty()) return;  // unreachable: no bound from this pair
      const topo::Port& p = t.ports(at)[static_cast<std::size_t>(cand[0])];
      out.push_back(static_cast<std::size_t>(p.link) * 2 + static_cast<std::size_t>(p.direction));
      at = p.peer;
    }
  };
  const auto G = static_cast<std::size_t>(plan.gpus);
  std::vector<std::vector<std::size_t>> out(G), back(G);  // per destination, for one source
  std::vector<std::size_t> dirs, rdirs;
  for (std::size_t s = 0; s < G; ++s) {
    for (std::size_t d = 0; d < G; ++d) {
      path(gpuNode[s], gpuNode[d], out[d]);
      path(gpuNode[d], gpuNode[s], back[d]);
    }
    for (int tok = 0; tok < plan.tokens; ++tok) {
      dirs.clear();
      rdirs.clear();
      for (std::int32_t d : plan.route(static_cast<int>(s), tok).gpus) {
        dirs.insert(dirs.end(), out[static_cast<std::size_t>(d)].begin(), out[static_cast<std::size_t>(d)].end());
        rdirs.insert(rdirs.end(), back[static_cast<std::size_t>(d)].begin(), back[static_cast<std::size_t>(d)].end());
      }
      for (auto* v : {&dirs, &rdirs}) {
        std::sort(v->begin(), v->end());
        v->erase(std::unique(v->begin(), v->end()), v->end());
      }
      for (std::size_t l : dirs) dispatch[l] += dBytes;
      for (std::size_t l : rdirs) combine[l] += cBytes;
    }
  }
  CommBound b;
  for (std::size_t l = 0; l < dispatch.size(); ++l) {
    const topo::Link& link = t.link(static_cast<topo::LinkId>(l / 2));
    const double rate = link.bandwidth * link.efficiency;
    if (rate <= 0) continue;
    b.dispatch = std::max(b.dispatch, dispatch[l] / rate);
    b.combine = std::max(b.combine, combine[l] / rate);
    b.both = std::max(b.both, (dispatch[l] + combine[l]) / rate);
  }
  return b;
}

}  // namespace fl::work
