#include "wsc/layer_plan.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "balance/migration_path.h"
#include "mapping/her_mapping.h"
#include "wsc/attention.h"
#include "wsc/expert_load_trace.h"
#include "wsc/gating.h"

namespace fl::wsc {

using netmodel::PlanItem;

ExpertHosts defaultHosts(int experts, int dies) {
  ExpertHosts h(static_cast<std::size_t>(experts));
  for (int e = 0; e < experts; ++e) h[static_cast<std::size_t>(e)] = {e % dies};
  return h;
}

Time expertComputeTime(const WscSpec& w, const GpuSpec& gpu, double tokens, int experts) {
  if (experts == 0 || tokens <= 0) return 0;
  const double params = 3.0 * w.hidden * w.expert_ffn;
  // INT8 expert GEMMs (§VI-A1); the INT8 peak is [U]: B200's dense FP8/INT8 rate.
  const double flops = 2.0 * params * tokens / (gpu.flops(Dtype::Fp8) * gpu.tensor_efficiency);
  const double weights = params * experts / gpu.hbm_bandwidth;  // 1 B per parameter, read once
  return static_cast<Time>(std::llround(std::max(flops, weights) * 1e12));
}

Time layerMakespan(const netmodel::MessagePlan& plan, const netmodel::PlanTiming& timing) {
  Time end = 0;
  for (std::size_t i = 0; i < plan.items.size(); ++i)
    if (plan.items[i].phase != kMigration || plan.items[i].isTask()) end = std::max(end, timing.end[i]);
  return end;
}

Time spanWindow(const netmodel::MessagePlan& plan, const PhaseSpan& span, const std::vector<Time>& start,
                const std::vector<Time>& end) {
  Time ready = -1, last = 0;
  for (std::int32_t i = span.first; i < span.last; ++i) {
    const auto& it = plan.items[static_cast<std::size_t>(i)];
    last = std::max(last, end[static_cast<std::size_t>(i)]);
    bool outside = it.deps.empty();
    Time r = it.deps.empty() ? start[static_cast<std::size_t>(i)] : 0;
    for (std::int32_t d : it.deps)
      if (d < span.first) outside = true, r = std::max(r, end[static_cast<std::size_t>(d)]);
    if (outside) ready = std::max(ready, r);
  }
  return ready < 0 ? 0 : std::max<Time>(0, last - ready);
}

namespace {

constexpr std::uint8_t kDispatchLane = 1, kCombineLane = 2;

struct Builder {
  const Scenario& s;
  const WscSpec& w;
  const mapping::Mapping& m;
  const GpuSpec& gpu;
  netmodel::MessagePlan& plan;
  int N;
  std::vector<std::vector<std::int32_t>> arrived;  // per die: items into it the next stage waits for

  int add(int src, int dst, std::int64_t bytes, std::uint8_t phase, std::vector<std::int32_t> deps,
          std::uint8_t lane = 0, Time duration = 0) {
    PlanItem it;
    it.src = src, it.dst = dst, it.bytes = bytes, it.phase = phase, it.deps = std::move(deps);
    it.lane = lane, it.duration = duration;
    return plan.add(std::move(it));
  }

  // Bidirectional ring of `steps` steps of `chunk` bytes per direction on `ring`, each
  // member starting once `arrived[member]` has ended; arrived then holds the last steps in.
  void ring(const std::vector<int>& ring, int steps, std::int64_t chunk) {
    const int t = static_cast<int>(ring.size());
    if (t < 2 || steps == 0 || chunk <= 0) return;
    std::vector<std::vector<std::int32_t>> start(static_cast<std::size_t>(t));
    for (int i = 0; i < t; ++i) start[static_cast<std::size_t>(i)] = arrived[static_cast<std::size_t>(ring[static_cast<std::size_t>(i)])];
    for (int dir : {1, -1}) {
      std::vector<std::int32_t> prevInto(static_cast<std::size_t>(t), -1);  // last step into member i
      for (int step = 0; step < steps; ++step) {
        std::vector<std::int32_t> into(static_cast<std::size_t>(t), -1);
        for (int i = 0; i < t; ++i) {
          const int next = ((i + dir) % t + t) % t;
          std::vector<std::int32_t> deps =
              step == 0 ? start[static_cast<std::size_t>(i)] : std::vector<std::int32_t>{prevInto[static_cast<std::size_t>(i)]};
          into[static_cast<std::size_t>(next)] =
              add(ring[static_cast<std::size_t>(i)], ring[static_cast<std::size_t>(next)], chunk, kAllReduce, deps);
        }
        prevInto = into;
      }
      for (int i = 0; i < t; ++i) {
        auto& a = arrived[static_cast<std::size_t>(ring[static_cast<std::size_t>(i)])];
        if (dir == 1) a.clear();
        a.push_back(prevInto[static_cast<std::size_t>(i)]);
      }
    }
  }
};

// Token sets (§2.2, §2.8): who holds which tokens after the all-reduce, and which die of a
// domain holds a given set.
struct TokenSets {
  int count = 0;
  double tokensEach = 0;
  std::vector<std::vector<int>> holderInDomain;  // [set][domain] -> die
};

TokenSets tokenSets(const mapping::Mapping& m, const WscSpec& w, double T, bool rsOnly) {
  TokenSets ts;
  const int domains = static_cast<int>(m.ftds.size());
  if (m.interWaferAllGather) {  // HER: counterpart classes, W x T/t tokens, one holder per wafer
    const int perWafer = m.waferRows * m.waferCols;
    ts.count = perWafer;
    const int W = m.dies() / perWafer;
    ts.tokensEach = W * T / w.tp;
    ts.holderInDomain.assign(static_cast<std::size_t>(perWafer), std::vector<int>(static_cast<std::size_t>(domains), -1));
    for (int d = 0; d < m.dies(); ++d) {
      const int cls = (m.row(d) % m.waferRows) * m.waferCols + m.col(d) % m.waferCols;
      ts.holderInDomain[static_cast<std::size_t>(cls)][static_cast<std::size_t>(m.ftdOf[static_cast<std::size_t>(d)])] = d;
    }
  } else if (rsOnly) {
    // Reduce-scatter only: every die's T/t tokens are its own (§2.2).
    ts.count = m.dies();
    ts.tokensEach = T / w.tp;
    ts.holderInDomain.resize(static_cast<std::size_t>(m.dies()));
    for (int d = 0; d < m.dies(); ++d) ts.holderInDomain[static_cast<std::size_t>(d)] = {d};
  } else {  // all-gather: group j's T tokens, held by its member in each FTD
    ts.count = static_cast<int>(m.groups.size());
    ts.tokensEach = T;
    ts.holderInDomain.assign(m.groups.size(), std::vector<int>(static_cast<std::size_t>(domains), -1));
    for (int d = 0; d < m.dies(); ++d)
      ts.holderInDomain[static_cast<std::size_t>(m.groupOf[static_cast<std::size_t>(d)])]
                       [static_cast<std::size_t>(m.ftdOf[static_cast<std::size_t>(d)])] = d;
  }
  return ts;
}

}  // namespace

LayerPlan buildLayerPlan(const Scenario& s, const mapping::Mapping& m, const GpuSpec& gpu, const IterationInputs& in) {
  const WscSpec& w = s.workload.wsc;
  LayerPlan out;
  out.plan.phases = planPhaseNames();
  const int N = m.dies();
  Builder b{s, w, m, gpu, out.plan, N, std::vector<std::vector<std::int32_t>>(static_cast<std::size_t>(N))};
  const int t = w.tp;
  const int mb = std::max(1, w.micro_batches);
  const double Tb = static_cast<double>(w.tokens_per_group) / mb;
  const auto M = static_cast<std::int64_t>(std::llround(Tb * w.hidden * 2));  // FP16 partial sums
  const std::int64_t tokenBytes = std::int64_t{w.hidden} * 2;
  const bool allGather = w.all_gather && !m.interWaferAllGather;
  const TokenSets sets = tokenSets(m, w, Tb, !allGather && !m.interWaferAllGather);
  std::vector<std::int32_t> prevCompute(static_cast<std::size_t>(N), -1);
  std::optional<ExpertLoadTrace> loads;  // read once (gating: trace, no balancer shares)
  if (w.gating == WscGating::Trace && in.shares.empty()) loads = loadExpertLoadTrace(w.trace, w.experts);
  std::vector<std::vector<int>> herRings;
  if (m.interWaferAllGather)
    for (int d = 0; d < N; ++d) herRings.push_back(mapping::counterparts(m, d));

  for (int iter = 0; iter < std::max(1, w.iterations); ++iter) {
    const auto pick = [iter](const auto& v) -> decltype(v.front()) {
      return v[std::min<std::size_t>(static_cast<std::size_t>(iter), v.size() - 1)];
    };
    const ExpertHosts& hosts = pick(in.hosts);
    const std::vector<double>* shares = in.shares.empty() ? nullptr : &pick(in.shares);
    // An invasive balancer's copies: every die waits before the iteration starts.
    if (!in.stall.empty() && static_cast<std::size_t>(iter) < in.stall.size() && in.stall[static_cast<std::size_t>(iter)] > 0) {
      const std::size_t from = out.plan.items.size();
      for (int d = 0; d < N; ++d) {
        auto& a = b.arrived[static_cast<std::size_t>(d)];
        a = {b.add(d, d, 0, kMigration, a, 0, in.stall[static_cast<std::size_t>(iter)])};
      }
      out.spans.push_back({kMigration, iter, static_cast<std::int32_t>(from), static_cast<std::int32_t>(out.plan.items.size())});
    }
    std::vector<double> tokensIter(static_cast<std::size_t>(N), 0);
    Time computeIter = 0;
    std::vector<int> expertsOn(static_cast<std::size_t>(N), 0);
    for (const auto& h : hosts)
      for (int d : h) ++expertsOn[static_cast<std::size_t>(d)];
    // Where this iteration's NI copies may start: each die's all-reduce and dispatch.
    std::vector<std::vector<std::int32_t>> arGate, a2aGate;
    std::vector<std::int32_t> attention(static_cast<std::size_t>(N), -1);
    Time attentionIter = 0;
    for (int mbi = 0; mbi < mb; ++mbi) {
      const auto mark = [&](std::uint8_t phase, std::size_t from) {
        const auto to = out.plan.items.size();
        if (to > from) out.spans.push_back({phase, iter, static_cast<std::int32_t>(from), static_cast<std::int32_t>(to)});
      };
      // 0. attention: each die's micro-batches one after another; the AR waits for it
      const Time attn = attentionTime(w, gpu, Tb);
      attentionIter += attn;
      if (attn > 0) {
        const std::size_t attnFrom = out.plan.items.size();
        for (int d = 0; d < N; ++d) {
          auto& a = b.arrived[static_cast<std::size_t>(d)];
          auto& prev = attention[static_cast<std::size_t>(d)];
          prev = b.add(d, d, 0, kAttention, mbi == 0 ? a : std::vector<std::int32_t>{prev}, 0, attn);
          a.push_back(prev);
        }
        mark(kAttention, attnFrom);
      }
      if (mbi == 0) arGate = b.arrived;
      // 1. all-reduce (HER: RS on the wafer, then AG among counterparts)
      const std::size_t arFrom = out.plan.items.size();
      for (const auto& g : m.groups) b.ring(g, allGather ? 2 * (t - 1) : t - 1, M / (2 * t));
      if (m.interWaferAllGather)
        for (int d = 0; d < N; ++d)
          if (herRings[static_cast<std::size_t>(d)].front() == d) {  // one ring per counterpart class
            const auto& r = herRings[static_cast<std::size_t>(d)];
            b.ring(r, static_cast<int>(r.size()) - 1, M / (2 * t));
          }
      mark(kAllReduce, arFrom);
      if (mbi == 0) a2aGate = b.arrived;
      // 2. token counts per (sender, receiver): set S's picks for expert e, split over e's replicas
      std::vector<std::vector<double>> tok(static_cast<std::size_t>(N));
      for (auto& v : tok) v.assign(static_cast<std::size_t>(N), 0);
      const std::vector<double> trace = loads ? loads->shares(iter) : std::vector<double>{};
      for (int set = 0; set < sets.count; ++set) {
        const auto stream = (static_cast<std::uint64_t>(iter) * mb + mbi) * 1000003ULL + static_cast<std::uint64_t>(set);
        std::vector<double> picks;
        if (shares) {
          for (double x : *shares) picks.push_back(x * sets.tokensEach * w.top_k);
        } else {
          picks = expertPicks(w, sets.tokensEach, s.run.seed, stream, trace);
        }
        for (int e = 0; e < w.experts; ++e) {
          const auto& reps = hosts[static_cast<std::size_t>(e)];
          for (int v : reps) {
            const int holder = sets.holderInDomain[static_cast<std::size_t>(set)]
                                                  [static_cast<std::size_t>(m.ftdOf[static_cast<std::size_t>(v)])];
            tok[static_cast<std::size_t>(holder)][static_cast<std::size_t>(v)] +=
                picks[static_cast<std::size_t>(e)] / static_cast<double>(reps.size());
          }
        }
      }
      // 3. dispatch: each die to its FTD peers in rotated order, one after another
      std::vector<std::vector<std::int32_t>> into(static_cast<std::size_t>(N));
      const auto bytesOf = [&](int u, int v) {
        return static_cast<std::int64_t>(std::llround(tok[static_cast<std::size_t>(u)][static_cast<std::size_t>(v)] *
                                                      static_cast<double>(tokenBytes)));
      };
      const auto peers = [&](int u) {
        const auto& f = m.ftds[static_cast<std::size_t>(m.ftdOf[static_cast<std::size_t>(u)])];
        const auto at = std::find(f.begin(), f.end(), u) - f.begin();
        std::vector<int> order;
        for (std::size_t k = 1; k < f.size(); ++k) order.push_back(f[(static_cast<std::size_t>(at) + k) % f.size()]);
        return order;
      };
      const std::size_t dispatchFrom = out.plan.items.size();
      for (int u = 0; u < N; ++u)
        for (int v : peers(u))
          if (const auto bytes = bytesOf(u, v); bytes > 0)
            into[static_cast<std::size_t>(v)].push_back(
                b.add(u, v, bytes, kDispatch, b.arrived[static_cast<std::size_t>(u)], kDispatchLane));
      mark(kDispatch, dispatchFrom);
      // 4. expert compute: tokens from every holder (its own included)
      std::vector<std::int32_t> compute(static_cast<std::size_t>(N));
      Time slowest = 0;
      for (int v = 0; v < N; ++v) {
        double tokens = 0;
        for (int u = 0; u < N; ++u) tokens += tok[static_cast<std::size_t>(u)][static_cast<std::size_t>(v)];
        tokensIter[static_cast<std::size_t>(v)] += tokens;
        const Time dt = expertComputeTime(w, gpu, tokens, expertsOn[static_cast<std::size_t>(v)]);
        slowest = std::max(slowest, dt);
        auto deps = into[static_cast<std::size_t>(v)];
        deps.insert(deps.end(), b.arrived[static_cast<std::size_t>(v)].begin(), b.arrived[static_cast<std::size_t>(v)].end());
        if (prevCompute[static_cast<std::size_t>(v)] >= 0) deps.push_back(prevCompute[static_cast<std::size_t>(v)]);
        compute[static_cast<std::size_t>(v)] = b.add(v, v, 0, kCompute, deps, 0, dt);
        prevCompute[static_cast<std::size_t>(v)] = compute[static_cast<std::size_t>(v)];
      }
      computeIter += slowest;
      // 5. combine: the reverse, after the expert die's compute
      std::vector<std::vector<std::int32_t>> back(static_cast<std::size_t>(N));
      const std::size_t combineFrom = out.plan.items.size();
      for (int v = 0; v < N; ++v)
        for (int u : peers(v))
          if (const auto bytes = bytesOf(u, v); bytes > 0)
            back[static_cast<std::size_t>(u)].push_back(
                b.add(v, u, bytes, kCombine, {compute[static_cast<std::size_t>(v)]}, kCombineLane));
      mark(kCombine, combineFrom);
      // The next micro-batch's all-reduce waits for this one's (the AR stream); the next
      // iteration's for the combine into the die too.
      if (mbi + 1 == mb)
        for (int u = 0; u < N; ++u) {
          auto& a = b.arrived[static_cast<std::size_t>(u)];
          a.insert(a.end(), back[static_cast<std::size_t>(u)].begin(), back[static_cast<std::size_t>(u)].end());
          a.push_back(compute[static_cast<std::size_t>(u)]);
        }
    }
    // NI copies use only capacity the phases leave idle (spec §2.9), unless
    // balancer.migration_priority says equal.
    const bool background = s.balancer.migration_priority == MigrationPriority::Low;
    for (const IterationInputs::Copy& c : in.copies) {
      if (c.iteration != iter) continue;
      std::int32_t last = -1;
      for (const balance::MigrationStage& st : balance::migrationStages(m, c.from, c.to))
        for (std::size_t k = 0; k + 1 < st.dies.size(); ++k) {
          std::vector<std::int32_t> deps = (st.global ? a2aGate : arGate)[static_cast<std::size_t>(st.dies[k])];
          if (last >= 0) deps.push_back(last);
          last = b.add(st.dies[k], st.dies[k + 1], c.bytes, kMigration, std::move(deps));
          b.plan.items[static_cast<std::size_t>(last)].background = background;
        }
    }
    out.dieTokens.push_back(tokensIter);
    out.moeCompute.push_back(computeIter);
    out.attention.push_back(attentionIter);
    double total = 0;
    for (double x : tokensIter) total += x;
    out.tokensPerIteration = total / w.top_k;
  }
  return out;
}

}  // namespace fl::wsc
