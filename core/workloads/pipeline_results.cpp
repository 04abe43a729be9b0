#include "workloads/pipeline_results.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include "scenario/schema.h"

namespace fl::work {

Time percentile(std::vector<Time> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(values.size())));
  return values[std::min(values.size() - 1, rank > 0 ? rank - 1 : 0)];
}

namespace {

// Length of the union of intervals.
Time unionLength(std::vector<std::pair<Time, Time>> spans) {
  std::sort(spans.begin(), spans.end());
  Time total = 0, from = 0, to = -1;
  for (const auto& [a, b] : spans) {
    if (a > to) {
      if (to > from) total += to - from;
      from = a;
      to = b;
    } else {
      to = std::max(to, b);
    }
  }
  if (to > from) total += to - from;
  return total;
}

}  // namespace

PipelineResults collectPipeline(const std::vector<const PipelineAgent*>& agents, const PipelineShared& shared,
                                const BarrierCoordinator& barriers, const Scenario& s, Time makespan) {
  PipelineResults r;
  r.fusion = getValue(s, "scheme.fusion");
  r.sms = s.gpu.sms;
  for (const SmGroup& g : shared.layout.groups) {
    r.groups.push_back(g.name);
    r.group_sms.push_back(g.sms);
  }
  // Merge, remembering where each agent's records went.
  struct Ref {
    std::size_t agent, index;
  };
  std::vector<Ref> order;
  for (std::size_t a = 0; a < agents.size(); ++a)
    for (std::size_t i = 0; i < agents[a]->tasks().size(); ++i) order.push_back({a, i});
  const auto task = [&](const Ref& x) -> const PipelineTask& { return agents[x.agent]->tasks()[x.index]; };
  std::stable_sort(order.begin(), order.end(), [&](const Ref& x, const Ref& y) {
    const PipelineTask &a = task(x), &b = task(y);
    if (a.start != b.start) return a.start < b.start;
    if (a.gpu != b.gpu) return a.gpu < b.gpu;
    return a.group < b.group;
  });
  // The record that completed each piece of work: the latest-ending one with its key.
  std::unordered_map<std::uint64_t, std::int32_t> completing;
  r.tasks.reserve(order.size());
  for (const Ref& x : order) {
    r.tasks.push_back(task(x));
    const std::uint64_t key = agents[x.agent]->keys()[x.index];
    if (key == ~0ull) continue;
    const auto at = static_cast<std::int32_t>(r.tasks.size() - 1);
    auto [it, fresh] = completing.try_emplace(key, at);
    if (!fresh && r.tasks[static_cast<std::size_t>(it->second)].end <= r.tasks.back().end) it->second = at;
  }
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::uint64_t cause = agents[order[i].agent]->causes()[order[i].index];
    if (cause == ~0ull) continue;
    const auto it = completing.find(cause);
    if (it != completing.end()) r.tasks[i].after = it->second;
  }

  // SM utilisation: SM-time with a task in flight (the OS block of a persistent kernel
  // counts: its warps are always in flight).
  double smTime = 0;
  const int gpus = static_cast<int>(agents.size());
  std::vector<std::vector<std::pair<Time, Time>>> busy(static_cast<std::size_t>(gpus) * 4);
  for (const PipelineTask& t : r.tasks) {
    const int k = static_cast<int>(t.kind);
    if (k >= 4) continue;
    smTime += static_cast<double>(t.sms) * static_cast<double>(t.end - t.start);
    busy[static_cast<std::size_t>(t.gpu) * 4 + static_cast<std::size_t>(k)].push_back({t.start, t.end});
  }
  Time launch = 0;
  for (const PipelineAgent* a : agents) {
    smTime += static_cast<double>(a->busyOsTime());
    launch += a->launchWait();
    r.ts_peak = std::max(r.ts_peak, a->tsTable().peak());
    r.or_peak = std::max(r.or_peak, a->orTable().peak());
    r.ts_overflows += a->tsTable().overflows();
    r.or_overflows += a->orTable().overflows();
  }
  const double capacity = static_cast<double>(gpus) * s.gpu.sms * static_cast<double>(makespan);
  r.sm_utilization = capacity > 0 ? std::min(1.0, smTime / capacity) : 0;
  const int steps = s.scheme.stragglers.steps;
  r.kernel_launches = shared.layout.launchesPerPass();
  r.launch_overhead = gpus > 0 ? launch / gpus : 0;
  for (int k = 0; k < 4; ++k) {
    Time sum = 0;
    for (int g = 0; g < gpus; ++g) sum += unionLength(busy[static_cast<std::size_t>(g) * 4 + static_cast<std::size_t>(k)]);
    r.phase_busy[k] = gpus > 0 ? sum / gpus : 0;
  }
  r.throughput_tokens_per_s = makespan > 0 ? static_cast<double>(s.workload.moe.tokens_per_gpu) * gpus * steps /
                                                 (static_cast<double>(makespan) / kSecond)
                                           : 0;
  for (int step = 0; step < steps; ++step) {
    Time delay = 0;
    for (int b = 0; b < 4; ++b) delay += barriers.spread(static_cast<std::uint32_t>(step * 4 + b));
    r.step_delays.push_back(delay);
  }
  r.straggler_delay_p95 = percentile(r.step_delays, 95);
  return r;
}

}  // namespace fl::work
