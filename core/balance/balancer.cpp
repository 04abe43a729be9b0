#include "balance/balancer.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "balance/greedy.h"
#include "balance/load_generator.h"
#include "balance/migration_path.h"
#include "balance/non_invasive.h"
#include "balance/topology_aware.h"
#include "balance/trigger.h"
#include "wsc/expert_load_trace.h"
#include "wsc/expert_placement.h"
#include "wsc/gating.h"

namespace fl::balance {

namespace {

// The directed link from die a's router to neighbouring die b's router.
std::pair<int, int> linkBetween(const topo::Topology& t, int a, int b) {
  const topo::NodeId ra = t.endpointNode(a) + 1, rb = t.endpointNode(b) + 1;  // mesh.h: router = die + 1
  for (const topo::Port& p : t.ports(ra))
    if (p.peer == rb) return {p.link, p.direction};
  return {-1, 0};
}

std::vector<double> dieLoads(const std::vector<double>& picks, const std::vector<std::vector<int>>& hosts, int dies) {
  std::vector<double> l(static_cast<std::size_t>(dies), 0);
  for (std::size_t e = 0; e < hosts.size(); ++e)
    for (int d : hosts[e]) l[static_cast<std::size_t>(d)] += picks[e] / static_cast<double>(hosts[e].size());
  return l;
}

}  // namespace

BalancerPlan planBalancing(const Scenario& s, const mapping::Mapping& m, const topo::Topology& t,
                           const BalancerInputs& in) {
  const WscSpec& w = s.workload.wsc;
  const BalancerSpec& b = s.balancer;
  const int N = m.dies(), iterations = std::max(1, w.iterations);
  const auto bytes = static_cast<std::int64_t>(3) * w.hidden * w.expert_ffn;  // INT8 expert
  BalancerPlan out;
  out.migrationBytes.assign(t.links().size() * 2, 0);
  LoadGenerator gen;
  gen.scenario = b.load == BalancerLoad::Mixed ? LoadScenario::Mixed : LoadScenario::Single;
  gen.experts = w.experts;
  // Tokens through the layer per iteration: every TP group's T tokens, k picks each.
  gen.picksPerIteration = static_cast<double>(m.groups.size()) * w.tokens_per_group * w.top_k;
  gen.zipf_s = b.zipf_s;
  gen.warmup = b.warmup;
  gen.period = b.period;
  gen.seed = s.run.seed;
  std::optional<wsc::ExpertLoadTrace> loads;
  if (b.load == BalancerLoad::Gating && w.gating == WscGating::Trace) loads = wsc::loadExpertLoadTrace(w.trace, w.experts);
  const auto gatingPicks = [&](int i) {
    const auto trace = loads ? loads->shares(i) : std::vector<double>{};
    return wsc::expertPicks(w, static_cast<double>(m.groups.size()) * w.tokens_per_group, s.run.seed,
                            0xba1a0000ULL + static_cast<std::uint64_t>(i), trace);
  };
  const std::vector<std::vector<int>> native = wsc::expertPlacement(w, N);
  auto current = native;
  std::vector<std::vector<int>> pendingHosts;
  int pendingUntil = -1;  // NI: the new placement serves from this iteration on
  int since = 1'000'000;  // iterations since the last migration
  std::vector<std::vector<double>> history;
  const bool ni = b.kind == BalancerKind::NonInvasive;
  const HopsFn hops = [&m](int a, int c) { return m.hops(a, c); };

  for (int i = 0; i < iterations; ++i) {
    const auto picks = b.load == BalancerLoad::Gating ? gatingPicks(i) : gen.sample(i);
    history.push_back(picks);
    const double total = std::accumulate(picks.begin(), picks.end(), 0.0);
    std::vector<double> share(picks.size());
    for (std::size_t e = 0; e < picks.size(); ++e) share[e] = total > 0 ? picks[e] / total : 0;
    if (pendingUntil >= 0 && i >= pendingUntil) current = pendingHosts, pendingUntil = -1;
    ++since;
    Time stall = 0;
    if (b.kind != BalancerKind::None && pendingUntil < 0 &&
        shouldBalance(imbalance(dieLoads(picks, current, N)), b.alpha, since, ni ? 0 : b.interval)) {
      // Predict each expert's load as the mean of the last `window` iterations.
      std::vector<double> predicted(picks.size(), 0);
      const std::size_t from = history.size() > static_cast<std::size_t>(b.window) ? history.size() - static_cast<std::size_t>(b.window) : 0;
      for (std::size_t h = from; h < history.size(); ++h)
        for (std::size_t e = 0; e < picks.size(); ++e) predicted[e] += history[h][e] / static_cast<double>(history.size() - from);
      ExpertState state = initialState(predicted, native, N, b.shadow_slots);
      const auto moves = b.kind == BalancerKind::Greedy ? greedyBalance(state, hops) : topologyAwareBalance(state, hops);
      int finish = i;
      bool copied = false;
      for (const Move& mv : moves) {
        const auto& now = current[static_cast<std::size_t>(mv.expert)];
        if (std::find(now.begin(), now.end(), mv.to) != now.end()) continue;  // already there
        int src = mv.from;
        if (std::find(now.begin(), now.end(), src) == now.end())
          src = *std::min_element(now.begin(), now.end(), [&](int x, int y) {
            return m.hops(x, mv.to) != m.hops(y, mv.to) ? m.hops(x, mv.to) < m.hops(y, mv.to) : x < y;
          });
        WscMigration mig;
        mig.expert = mv.expert, mig.from = src, mig.to = mv.to, mig.start_iteration = i;
        std::vector<StageWork> work;
        Time copyTime = 0;
        for (const MigrationStage& st : migrationStages(m, src, mv.to)) {
          mig.stages.push_back({st.global ? "global" : "local", st.hops()});
          StageWork sw;
          sw.global = st.global;
          double busiest = 0;
          for (std::size_t k = 0; k + 1 < st.dies.size(); ++k) {
            const auto [link, dir] = linkBetween(t, st.dies[k], st.dies[k + 1]);
            if (link < 0) continue;
            const topo::Link& l = t.link(link);
            sw.needed += transferTime(static_cast<double>(bytes), l.bandwidth * l.efficiency) + l.latency;
            const auto idx = static_cast<std::size_t>(2 * link + dir);
            if (!ni) out.migrationBytes[idx] += bytes;  // NI's copies are traffic in the plan
            const auto& util = st.global ? in.utilAllToAll : in.utilAllReduce;
            if (idx < util.size()) busiest = std::max(busiest, util[idx]);
          }
          sw.idleShare = std::clamp(1 - busiest, 0.0, 1.0);
          copyTime += sw.needed;
          work.push_back(sw);
        }
        if (ni) {
          mig.end_iteration = niFinishIteration(work, i, in.allReduceWindow, in.allToAllWindow);
          out.copies.push_back({i, src, mv.to, bytes});
        } else {
          mig.end_iteration = i;
          stall = std::max(stall, copyTime);  // all copies at once on an idle network
        }
        finish = std::max(finish, mig.end_iteration);
        out.migrations.push_back(std::move(mig));
        copied = true;
      }
      if (copied) {
        since = 0;
        if (ni) {
          pendingHosts = state.hosts;
          pendingUntil = finish + 1;
        } else {
          current = state.hosts;
        }
      }
    }
    out.hosts.push_back(current);
    out.shares.push_back(std::move(share));
    out.stall.push_back(stall);
  }
  return out;
}

}  // namespace fl::balance
