#include "xdc/communicator_plan.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "xdc/domain_partition.h"

namespace fl::xdc {

namespace {

using Deps = std::vector<std::vector<std::int32_t>>;  // per GPU: what its next step waits for

}  // namespace

CommunicatorMessages buildCommunicatorPlan(const CommunicatorPlan& p) {
  const int levels = static_cast<int>(p.workers.size());
  if (p.domains.size() != p.workers.size()) throw std::invalid_argument("communicator plan: one domain size per level");
  const std::int64_t gpus = gpuCount(p.workers);
  CommunicatorMessages m;
  m.plan.phases = {"all_gather", "dispatch", "combine", "compute"};
  m.gpu0.resize(static_cast<std::size_t>(p.layers));
  const StepBytes sizes = stepBytes(p);
  const std::vector<std::int64_t>&agBytes = sizes.allGather, &chunk = sizes.chunk;
  const auto task = [&](std::int64_t g, Time d, std::vector<std::int32_t> deps) {
    netmodel::PlanItem it;
    it.src = it.dst = static_cast<int>(g);
    it.duration = d;
    it.phase = kPhaseCompute;
    it.deps = std::move(deps);
    return m.plan.add(std::move(it));
  };
  // One step of every GPU at `level`: sends to its peers after `deps`; returns the receives.
  const auto step = [&](int level, PairKind kind, std::int64_t bytes, PlanPhase phase, const Deps& deps) {
    Deps recv(static_cast<std::size_t>(gpus));
    for (std::int64_t g = 0; g < gpus; ++g)
      for (std::int64_t to : peers(g, level, kind, p.workers, p.domains)) {
        netmodel::PlanItem it;
        it.src = static_cast<int>(g);
        it.dst = static_cast<int>(to);
        it.bytes = bytes;
        it.phase = phase;
        it.deps = deps[std::size_t(g)];
        recv[std::size_t(to)].push_back(m.plan.add(std::move(it)));
        (kind == PairKind::AllGather ? m.agBytes : m.a2aBytes) += bytes;
        ++m.messages;
      }
    return recv;
  };
  const auto agPeers = [&](int l) { return p.domains[std::size_t(l)] - 1; };
  const auto a2aPeers = [&](int l) { return p.workers[std::size_t(l)] / p.domains[std::size_t(l)] - 1; };

  Deps last(static_cast<std::size_t>(gpus));
  if (p.encode > 0)
    for (std::int64_t g = 0; g < gpus; ++g) last[std::size_t(g)] = {task(g, p.encode, {})};
  for (int layer = 0; layer < p.layers; ++layer) {
    auto& mine = m.gpu0[std::size_t(layer)];
    std::vector<std::int32_t> pe(static_cast<std::size_t>(gpus));
    for (std::int64_t g = 0; g < gpus; ++g) pe[std::size_t(g)] = task(g, p.preExpert, last[std::size_t(g)]);
    mine.preExpert = pe[0];
    Deps deps = last;
    for (int l = 0; l < levels; ++l)
      if (agPeers(l) > 0) {
        deps = step(l, PairKind::AllGather, agBytes[std::size_t(l)], kPhaseAllGather, deps);
        mine.agRecv.insert(mine.agRecv.end(), deps[0].begin(), deps[0].end());
      }
    for (std::int64_t g = 0; g < gpus; ++g) deps[std::size_t(g)].push_back(pe[std::size_t(g)]);
    for (int l = 0; l < levels; ++l)
      if (a2aPeers(l) > 0) {
        deps = step(l, PairKind::AllToAll, chunk[std::size_t(l)], kPhaseDispatch, deps);
        mine.dispatchRecv.insert(mine.dispatchRecv.end(), deps[0].begin(), deps[0].end());
      }
    for (std::int64_t g = 0; g < gpus; ++g) deps[std::size_t(g)] = {task(g, p.expertCompute, deps[std::size_t(g)])};
    mine.expert = deps[0][0];
    for (int l = levels; l-- > 0;)
      if (a2aPeers(l) > 0) {
        deps = step(l, PairKind::AllToAll, chunk[std::size_t(l)], kPhaseCombine, deps);
        mine.combineRecv.insert(mine.combineRecv.end(), deps[0].begin(), deps[0].end());
      }
    last = std::move(deps);
  }
  return m;
}

std::vector<StreamSpan> gpu0Spans(const CommunicatorMessages& m, const netmodel::PlanTiming& timing) {
  std::vector<StreamSpan> out;
  const auto endOf = [&](const std::vector<std::int32_t>& items, Time from) {
    Time e = from;
    for (std::int32_t i : items) e = std::max(e, timing.end[std::size_t(i)]);
    return e;
  };
  for (std::size_t layer = 0; layer < m.gpu0.size(); ++layer) {
    const auto& l = m.gpu0[layer];
    const int ly = static_cast<int>(layer);
    const Time peStart = timing.start[std::size_t(l.preExpert)], peEnd = timing.end[std::size_t(l.preExpert)];
    const Time agEnd = endOf(l.agRecv, peStart);
    if (!l.agRecv.empty()) out.push_back({ly, "all_gather", peStart, agEnd});
    out.push_back({ly, "pre_expert", peStart, peEnd});
    const Time dStart = std::max(peEnd, agEnd);
    out.push_back({ly, "dispatch", dStart, endOf(l.dispatchRecv, dStart)});
    const Time exStart = timing.start[std::size_t(l.expert)], exEnd = timing.end[std::size_t(l.expert)];
    out.push_back({ly, "expert", exStart, exEnd});
    out.push_back({ly, "combine", exEnd, endOf(l.combineRecv, exEnd)});
  }
  return out;
}

}  // namespace fl::xdc
