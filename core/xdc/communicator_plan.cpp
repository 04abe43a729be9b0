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
  m.plan.phases = {"all_gather", "dispatch", "combine", "compute", "combine_backward", "dispatch_backward",
                   "expert_grad", "all_reduce"};
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
  const auto tasks = [&](Time d, const Deps& deps) {
    std::vector<std::int32_t> t(static_cast<std::size_t>(gpus));
    for (std::int64_t g = 0; g < gpus; ++g) t[std::size_t(g)] = task(g, d, deps[std::size_t(g)]);
    return t;
  };
  const auto add = [](Deps& deps, const std::vector<std::int32_t>& items) {
    for (std::size_t g = 0; g < deps.size(); ++g) deps[g].push_back(items[g]);
  };
  // One step of every GPU at `level`: sends to its peers after `deps`; returns the receives.
  // `domains` is the plan's, or one domain per level (the all-reduce: every other worker).
  const auto step = [&](int level, PairKind kind, const std::vector<int>& domains, std::int64_t bytes,
                        PlanPhase phase, const Deps& deps, std::int64_t& tally) {
    Deps recv(static_cast<std::size_t>(gpus));
    for (std::int64_t g = 0; g < gpus; ++g)
      for (std::int64_t to : peers(g, level, kind, p.workers, domains)) {
        netmodel::PlanItem it;
        it.src = static_cast<int>(g);
        it.dst = static_cast<int>(to);
        it.bytes = bytes;
        it.phase = phase;
        it.deps = deps[std::size_t(g)];
        recv[std::size_t(to)].push_back(m.plan.add(std::move(it)));
        tally += bytes;
        ++m.messages;
      }
    return recv;
  };
  const auto agPeers = [&](int l) { return p.domains[std::size_t(l)] - 1; };
  const auto a2aPeers = [&](int l) { return p.workers[std::size_t(l)] / p.domains[std::size_t(l)] - 1; };
  // A communication stage level by level (outermost first, or innermost with `inward`),
  // each level's sends after the previous level's receives; GPU 0's receives kept.
  const auto stage = [&](PairKind kind, bool inward, PlanPhase phase, Deps deps, std::vector<std::int32_t>& gpu0,
                         std::int64_t& tally) {
    for (int i = 0; i < levels; ++i) {
      const int l = inward ? levels - 1 - i : i;
      if ((kind == PairKind::AllGather ? agPeers(l) : a2aPeers(l)) == 0) continue;
      deps = step(l, kind, p.domains, kind == PairKind::AllGather ? agBytes[std::size_t(l)] : chunk[std::size_t(l)],
                  phase, deps, tally);
      gpu0.insert(gpu0.end(), deps[0].begin(), deps[0].end());
    }
    return deps;
  };

  Deps last(static_cast<std::size_t>(gpus));
  if (p.encode > 0)
    for (std::int64_t g = 0; g < gpus; ++g) last[std::size_t(g)] = {task(g, p.encode, {})};
  for (int layer = 0; layer < p.layers; ++layer) {
    auto& mine = m.gpu0[std::size_t(layer)];
    const std::vector<std::int32_t> pe = tasks(p.preExpert, last);
    mine.preExpert = pe[0];
    Deps deps = stage(PairKind::AllGather, false, kPhaseAllGather, last, mine.agRecv, m.agBytes);
    add(deps, pe);
    deps = stage(PairKind::AllToAll, false, kPhaseDispatch, deps, mine.dispatchRecv, m.a2aBytes);
    const std::vector<std::int32_t> ex = tasks(p.expertCompute, deps);
    mine.expert = ex[0];
    for (std::size_t g = 0; g < deps.size(); ++g) deps[g] = {ex[g]};
    last = stage(PairKind::AllToAll, true, kPhaseCombine, deps, mine.combineRecv, m.a2aBytes);
  }
  if (!p.training) return m;

  // Backward, layer by layer from the last: the forward pass mirrored (async_communicator.h).
  // The gradient lane beside it, one entry after another: with gradOverlap per layer its
  // expert gradients (once its expert backward is done) and its all-reduce bucket (once its
  // backward is done); without, the expert gradients stay in the backward step and one
  // bucket of every layer follows the last.
  const std::vector<int> whole = p.workers;  // one domain per level: every other worker
  Deps laneDone(static_cast<std::size_t>(gpus));
  const auto laneEntry = [&](bool expertGrad, int layer, const Deps& ready) {
    CommunicatorMessages::LaneEntry& mine = m.lane.emplace_back();
    mine.expertGrad = expertGrad;
    mine.layer = layer;
    mine.ready = ready[0];
    Deps deps = ready;
    for (std::size_t g = 0; g < deps.size(); ++g)
      deps[g].insert(deps[g].end(), laneDone[g].begin(), laneDone[g].end());
    if (expertGrad) {
      deps = stage(PairKind::AllGather, true, kPhaseExpertGrad, deps, mine.recv[0], m.gradBytes);
    } else {
      for (int i = 0; i < levels; ++i) {  // reduce-scatter, innermost level first
        const int l = levels - 1 - i;
        if (p.workers[std::size_t(l)] == 1) continue;
        deps = step(l, PairKind::AllGather, whole, sizes.allReduce[std::size_t(l)], kPhaseAllReduce, deps,
                    m.allReduceBytes);
        mine.recv[0].insert(mine.recv[0].end(), deps[0].begin(), deps[0].end());
      }
      for (int l = 0; l < levels; ++l) {  // all-gather, outermost first
        if (p.workers[std::size_t(l)] == 1) continue;
        deps = step(l, PairKind::AllGather, whole, sizes.allReduce[std::size_t(l)], kPhaseAllReduce, deps,
                    m.allReduceBytes);
        mine.recv[1].insert(mine.recv[1].end(), deps[0].begin(), deps[0].end());
      }
    }
    laneDone = std::move(deps);
  };
  const bool buckets = p.allReduce > 0;
  m.gpu0Backward.resize(static_cast<std::size_t>(p.layers));
  for (int layer = p.layers; layer-- > 0;) {
    auto& mine = m.gpu0Backward[std::size_t(layer)];
    Deps deps = stage(PairKind::AllToAll, false, kPhaseCombineBackward, last, mine.combineRecv, m.a2aBytes);
    const std::vector<std::int32_t> ex = tasks(p.expertBackward, deps);
    mine.expert = ex[0];
    for (std::size_t g = 0; g < deps.size(); ++g) deps[g] = {ex[g]};
    if (p.gradOverlap) laneEntry(true, layer, deps);
    deps = stage(PairKind::AllToAll, true, kPhaseDispatchBackward, deps, mine.dispatchRecv, m.a2aBytes);
    const std::vector<std::int32_t> pe = tasks(p.preExpertBackward, deps);
    mine.preExpert = pe[0];
    if (!p.gradOverlap) deps = stage(PairKind::AllGather, true, kPhaseExpertGrad, deps, mine.gradRecv, m.gradBytes);
    add(deps, pe);
    last = std::move(deps);
    if (buckets && (p.gradOverlap || layer == 0)) laneEntry(false, p.gradOverlap ? layer : -1, last);
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
  const auto start = [&](std::int32_t i) { return timing.start[std::size_t(i)]; };
  const auto end = [&](std::int32_t i) { return timing.end[std::size_t(i)]; };
  for (std::size_t layer = 0; layer < m.gpu0.size(); ++layer) {
    const auto& l = m.gpu0[layer];
    const int ly = static_cast<int>(layer);
    const Time peStart = start(l.preExpert), peEnd = end(l.preExpert);
    const Time agEnd = endOf(l.agRecv, peStart);
    if (!l.agRecv.empty()) out.push_back({ly, "all_gather", peStart, agEnd});
    out.push_back({ly, "pre_expert", peStart, peEnd});
    const Time dStart = std::max(peEnd, agEnd);
    out.push_back({ly, "dispatch", dStart, endOf(l.dispatchRecv, dStart)});
    out.push_back({ly, "expert", start(l.expert), end(l.expert)});
    out.push_back({ly, "combine", end(l.expert), endOf(l.combineRecv, end(l.expert))});
  }
  // Backward and the all-reduce buckets, as the flow version records them (in order of
  // their ends there: sorted by end below, ties in recording order).
  const std::size_t forward = out.size();
  Time prevEnd = m.gpu0.empty() ? 0 : out.back().end;
  for (std::size_t i = m.gpu0Backward.size(); i-- > 0;) {
    const auto& l = m.gpu0Backward[i];
    const int ly = static_cast<int>(i);
    const Time cbEnd = endOf(l.combineRecv, prevEnd);
    out.push_back({ly, "combine_backward", prevEnd, cbEnd});
    out.push_back({ly, "expert_backward", start(l.expert), end(l.expert)});
    const Time dbEnd = endOf(l.dispatchRecv, end(l.expert));
    out.push_back({ly, "dispatch_backward", end(l.expert), dbEnd});
    const Time gradEnd = endOf(l.gradRecv, dbEnd);
    if (!l.gradRecv.empty()) out.push_back({ly, "expert_grad", dbEnd, gradEnd});
    out.push_back({ly, "pre_expert_backward", start(l.preExpert), end(l.preExpert)});
    prevEnd = std::max(gradEnd, end(l.preExpert));
  }
  Time lanePrev = 0;
  for (const auto& e : m.lane) {
    // An entry starts once its gradients are ready and the previous entry is done.
    const Time s0 = std::max(endOf(e.ready, 0), lanePrev);
    const Time sEnd = endOf(e.recv[0], s0);
    lanePrev = endOf(e.recv[1], sEnd);
    if (e.expertGrad) {
      if (!e.recv[0].empty()) out.push_back({e.layer, "expert_grad", s0, sEnd});
      continue;
    }
    if (!e.recv[0].empty()) out.push_back({e.layer, "all_reduce", s0, sEnd});
    if (!e.recv[1].empty()) out.push_back({e.layer, "all_reduce", sEnd, lanePrev});
  }
  std::stable_sort(out.begin() + std::ptrdiff_t(forward), out.end(),
                   [](const StreamSpan& a, const StreamSpan& b) { return a.end < b.end; });
  return out;
}

}  // namespace fl::xdc
