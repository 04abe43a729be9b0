// Hand-made token pipelines for the Gantt tests, independent of the simulation (which
// fills Results::pipeline too): a small regular one whose counts and chains follow from
// its construction, and realistic-looking ones (8 GPUs, token-centric and sequential)
// for the compare view and screenshots.
#pragma once
#include <algorithm>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

#include "results/results.h"

namespace fl::test {

using K = PipelineTaskKind;
inline constexpr Time us = kMicrosecond;

struct TaskSpec {
  PipelineTask task;
  int afterId = -1;  // id (creation order) of the predecessor, remapped after sorting
};

// A token-centric pipeline's header: four SM groups of an H100-like 132-SM GPU.
inline PipelineResults tokenCentricHeader() {
  PipelineResults p;
  p.fusion = "token_centric";
  p.groups = {"dispatch", "gemm1", "gemm2", "combine"};
  p.group_sms = {20, 48, 48, 16};
  p.sms = 132;
  return p;
}

// Sorts by start (ties: gpu, group) as the simulation does and remaps `after`;
// `positions` (optional) gets each creation id's index in the sorted tasks.
inline PipelineResults finish(PipelineResults p, const std::vector<TaskSpec>& specs,
                              std::vector<int>* positions = nullptr) {
  std::vector<int> order(specs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const auto &x = specs[size_t(a)].task, &y = specs[size_t(b)].task;
    return std::tie(x.start, x.gpu, x.group) < std::tie(y.start, y.gpu, y.group);
  });
  std::vector<int> position(specs.size());
  for (size_t i = 0; i < order.size(); ++i) position[size_t(order[i])] = int(i);
  for (int id : order) {
    PipelineTask t = specs[size_t(id)].task;
    t.after = specs[size_t(id)].afterId < 0 ? -1 : position[size_t(specs[size_t(id)].afterId)];
    p.tasks.push_back(t);
  }
  if (positions) *positions = position;
  return p;
}

// gpus x 4 groups (dispatch, gemm1, gemm2, combine), `tiles` tiles per GPU: a launch gap
// [0, 2 us) on the whole GPU; dispatch tile t in [2 + t, 3 + t) us (20 SMs); GEMM-1 of tile
// t on GPU g made ready by the dispatch of tile t on GPU (g+1) % gpus, 0.5 us after it
// (16 SMs, 1.5 us); GEMM-2 after it (32 SMs, 1.5 us); combine after that (8 SMs, 1 us).
// So each GEMM-1's chain is {dispatch, GEMM-1, GEMM-2, combine}, across two GPUs.
struct SmallIds {
  std::vector<int> dispatch, gemm1, gemm2, combine;  // [gpu * tiles + tile]: creation ids
};
inline PipelineResults smallPipeline(int gpus, int tiles, SmallIds* ids = nullptr) {
  const PipelineResults p = tokenCentricHeader();
  std::vector<TaskSpec> s;
  SmallIds local;
  SmallIds& id = ids ? *ids : local;
  auto add = [&](K kind, int gpu, int group, int tile, Time start, Time end, int sms, int after) {
    PipelineTask t;
    t.kind = kind, t.gpu = gpu, t.group = std::uint8_t(group), t.tile = tile, t.start = start, t.end = end;
    t.sms = std::uint16_t(sms), t.tokens = 128;
    s.push_back({t, after});
    return int(s.size()) - 1;
  };
  for (int g = 0; g < gpus; ++g) add(K::LaunchGap, g, 255, -1, 0, 2 * us, 132, -1);
  for (int g = 0; g < gpus; ++g)
    for (int t = 0; t < tiles; ++t) id.dispatch.push_back(add(K::Dispatch, g, 0, t, (2 + t) * us, (3 + t) * us, 20, -1));
  for (int g = 0; g < gpus; ++g)
    for (int t = 0; t < tiles; ++t) {
      const int src = id.dispatch[size_t(((g + 1) % gpus) * tiles + t)];
      const Time ready = s[size_t(src)].task.end + us / 2;
      id.gemm1.push_back(add(K::Gemm1, g, 1, t, ready, ready + 3 * us / 2, 16, src));
      const Time g2 = ready + 3 * us / 2;
      id.gemm2.push_back(add(K::Gemm2, g, 2, t, g2, g2 + 3 * us / 2, 32, id.gemm1.back()));
      const Time c = g2 + 3 * us / 2;
      id.combine.push_back(add(K::Combine, g, 3, t, c, c + us, 8, id.gemm2.back()));
    }
  std::vector<int> position;
  PipelineResults out = finish(p, s, &position);
  for (auto* v : {&id.dispatch, &id.gemm1, &id.gemm2, &id.combine})
    for (int& x : *v) x = position[size_t(x)];
  return out;
}

inline void fillSummary(Results& r, const std::string& comm) {
  const PipelineResults& p = *r.pipeline;
  Time end = 0;
  double smTime = 0;
  int gpus = 0;
  for (const auto& t : p.tasks) {
    end = std::max(end, t.end);
    gpus = std::max(gpus, t.gpu + 1);
    if (t.kind != K::LaunchGap && t.kind != K::Barrier) smTime += double(t.sms) * double(t.end - t.start);
  }
  r.makespan = end;
  r.bin = us;
  r.bins = int((end + us - 1) / us);
  r.pipeline->sm_utilization = smTime / (double(gpus) * p.sms * double(end));
  r.moe = MoeResults{};
  r.moe->communication = comm;
  r.moe->fusion = p.fusion;
}

// DySHARP-like token-centric pipeline: 8 GPUs x 4 SM groups, each group runs its tasks one
// after another as they become ready; GEMM-1 tiles wait for tokens dispatched by other GPUs.
inline std::shared_ptr<Results> tokenCentricRun(int gpus = 8, int tiles = 12) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> noise(0.75, 1.3);
  const PipelineResults p = tokenCentricHeader();
  std::vector<TaskSpec> s;
  std::vector<Time> free(size_t(gpus) * 4, 0);
  std::vector<int> dispatch(size_t(gpus * tiles));
  auto add = [&](K kind, int g, int group, int tile, Time ready, Time dur, int sms, int after) {
    PipelineTask t;
    t.kind = kind, t.gpu = g, t.group = std::uint8_t(group), t.tile = tile, t.sms = std::uint16_t(sms), t.tokens = 128;
    t.expert = kind == K::Gemm1 || kind == K::Gemm2 ? std::int16_t(g * 4 + tile % 4) : -1;
    Time& f = free[size_t(g * 4 + group)];
    t.start = std::max(ready, f);
    t.end = f = t.start + dur;
    s.push_back({t, after});
    return int(s.size()) - 1;
  };
  for (int g = 0; g < gpus; ++g) {
    const Time launched = Time(4 * us * noise(rng));
    PipelineTask gap;
    gap.kind = K::LaunchGap, gap.gpu = g, gap.group = 255, gap.start = 0, gap.end = launched, gap.sms = 132;
    s.push_back({gap, -1});
    for (int group = 0; group < 4; ++group) free[size_t(g * 4 + group)] = launched;
    for (int t = 0; t < tiles; ++t) dispatch[size_t(g * tiles + t)] = add(K::Dispatch, g, 0, t, 0, Time(1.1 * us * noise(rng)), 20, -1);
  }
  for (int t = 0; t < tiles; ++t)
    for (int g = 0; g < gpus; ++g) {
      const int src = dispatch[size_t(((g + 1 + t) % gpus) * tiles + t)];
      const int g1 = add(K::Gemm1, g, 1, t, s[size_t(src)].task.end + 600 * kNanosecond, Time(2.2 * us * noise(rng)),
                         8 * int(3 + rng() % 4), src);
      const int g2 = add(K::Gemm2, g, 2, t, s[size_t(g1)].task.end, Time(1.9 * us * noise(rng)), 8 * int(3 + rng() % 4), g1);
      add(K::Combine, g, 3, t, s[size_t(g2)].task.end, Time(0.9 * us * noise(rng)), 16, g2);
    }
  auto r = std::make_shared<Results>();
  r->scenario = "hand-made token-centric";
  r->pipeline = finish(p, s);
  fillSummary(*r, "dysharp");
  return r;
}

// The same work run as four kernels with barriers (seed 000's sequential baseline):
// rows comm and compute, a launch gap before each kernel, a barrier after each.
inline std::shared_ptr<Results> sequentialRun(int gpus = 8, int tiles = 12) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> noise(0.75, 1.3);
  PipelineResults p;
  p.fusion = "sequential";
  p.groups = {"comm", "compute"};
  p.group_sms = {20, 132};
  p.sms = 132;
  std::vector<TaskSpec> s;
  const K kinds[] = {K::Dispatch, K::Gemm1, K::Gemm2, K::Combine};
  const Time durations[] = {Time(1.1 * us), Time(1.1 * us), Time(0.95 * us), Time(0.9 * us)};
  Time phaseStart = 0;
  std::vector<int> previous(size_t(gpus * tiles), -1);
  for (int k = 0; k < 4; ++k) {
    Time phaseEnd = 0;
    std::vector<int> current(previous.size());
    for (int g = 0; g < gpus; ++g) {
      PipelineTask gap;
      gap.kind = K::LaunchGap, gap.gpu = g, gap.group = 255, gap.start = phaseStart, gap.sms = 132;
      gap.end = phaseStart + 5 * us;
      s.push_back({gap, -1});
      Time at = gap.end;
      for (int t = 0; t < tiles; ++t) {
        PipelineTask task;
        task.kind = kinds[k], task.gpu = g, task.group = k == 0 || k == 3 ? 0 : 1, task.tile = t, task.tokens = 128;
        task.sms = k == 0 || k == 3 ? 20 : 132;
        task.start = at;
        task.end = at = at + Time(double(durations[k]) * noise(rng));
        const int before = k == 1 ? previous[size_t(((g + 1 + t) % gpus) * tiles + t)] : previous[size_t(g * tiles + t)];
        s.push_back({task, before});
        current[size_t(g * tiles + t)] = int(s.size()) - 1;
      }
      phaseEnd = std::max(phaseEnd, at);
    }
    for (int g = 0; g < gpus; ++g) {  // every GPU waits for the slowest
      PipelineTask b;
      b.kind = K::Barrier, b.gpu = g, b.group = 255, b.sms = 132;
      b.start = s[size_t(current[size_t(g * tiles + tiles - 1)])].task.end;
      b.end = phaseEnd;
      if (b.end > b.start) s.push_back({b, -1});
    }
    previous = current;
    phaseStart = phaseEnd;
  }
  auto r = std::make_shared<Results>();
  r->scenario = "hand-made sequential";
  r->pipeline = finish(p, s);
  fillSummary(*r, "deepep");
  return r;
}

}  // namespace fl::test
