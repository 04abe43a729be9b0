#include "views/pipeline_rows.h"

#include <algorithm>

namespace fl::views {

int pipelineGpuCount(const PipelineResults& p) {
  int gpus = 0;
  for (const PipelineTask& t : p.tasks) gpus = std::max(gpus, t.gpu + 1);
  return gpus;
}

PipelineRows pipelineRows(int gpus, int groups, const std::vector<bool>& collapsed) {
  PipelineRows r;
  r.gpus = std::max(gpus, 0);
  r.groups = std::max(groups, 1);  // a pipeline without named groups still gets a row per GPU
  r.collapsed.assign(static_cast<size_t>(r.gpus), false);
  for (size_t g = 0; g < r.collapsed.size() && g < collapsed.size(); ++g) r.collapsed[g] = collapsed[g];
  r.firstRow.resize(static_cast<size_t>(r.gpus));
  for (int g = 0; g < r.gpus; ++g) {
    r.firstRow[static_cast<size_t>(g)] = r.count;
    r.count += r.rowsOf(g);
  }
  return r;
}

int PipelineRows::rowOf(int gpu, int group) const {
  const int first = firstRow[static_cast<size_t>(gpu)];
  if (collapsed[static_cast<size_t>(gpu)] || group < 0 || group >= groups) return first;
  return first + group;
}

int PipelineRows::spanOf(int gpu, int group) const {
  return group < 0 || group >= groups ? rowsOf(gpu) : 1;
}

int PipelineRows::gpuOfRow(int row) const {
  const auto it = std::upper_bound(firstRow.begin(), firstRow.end(), row);
  return static_cast<int>(it - firstRow.begin()) - 1;
}

int PipelineRows::groupOfRow(int row) const {
  const int gpu = gpuOfRow(row);
  if (gpu < 0 || collapsed[static_cast<size_t>(gpu)]) return -1;
  return row - firstRow[static_cast<size_t>(gpu)];
}

std::vector<int> dependencyChain(const PipelineResults& p, int task) {
  const int n = static_cast<int>(p.tasks.size());
  if (task < 0 || task >= n) return {};
  std::vector<char> in(static_cast<size_t>(n), 0);
  // Back to the root (guarded against a malformed cycle by the marks).
  for (int t = task; t >= 0 && t < n && !in[static_cast<size_t>(t)]; t = p.tasks[static_cast<size_t>(t)].after)
    in[static_cast<size_t>(t)] = 1;
  // Forward: the tasks each one made ready, breadth first over a child index.
  std::vector<int> firstChild(static_cast<size_t>(n) + 1, 0), children(static_cast<size_t>(n));
  for (const PipelineTask& t : p.tasks)
    if (t.after >= 0 && t.after < n) ++firstChild[static_cast<size_t>(t.after) + 1];
  for (int i = 0; i < n; ++i) firstChild[static_cast<size_t>(i) + 1] += firstChild[static_cast<size_t>(i)];
  std::vector<int> fill(firstChild.begin(), firstChild.end() - 1);
  for (int i = 0; i < n; ++i) {
    const int a = p.tasks[static_cast<size_t>(i)].after;
    if (a >= 0 && a < n) children[static_cast<size_t>(fill[static_cast<size_t>(a)]++)] = i;
  }
  std::vector<int> queue{task};
  for (size_t q = 0; q < queue.size(); ++q) {
    const auto t = static_cast<size_t>(queue[q]);
    for (int c = firstChild[t]; c < firstChild[t + 1]; ++c) {
      const int child = children[static_cast<size_t>(c)];
      if (in[static_cast<size_t>(child)]) continue;
      in[static_cast<size_t>(child)] = 1;
      queue.push_back(child);
    }
  }
  std::vector<int> chain;
  for (int i = 0; i < n; ++i)
    if (in[static_cast<size_t>(i)]) chain.push_back(i);
  return chain;
}

std::vector<double> smBusyFraction(const PipelineResults& p, int gpus, Time bin, int bins) {
  std::vector<double> busy(static_cast<size_t>(std::max(bins, 0)), 0.0);
  if (bins <= 0 || bin <= 0 || gpus <= 0 || p.sms <= 0) return busy;
  // SM x ps per GPU and bin, at most the GPU's SMs x bin: a TP layer's overlapping
  // GEMM-RS and AG-GEMM spans each carry their kernel's peak.
  std::vector<double> smTime(busy.size() * static_cast<size_t>(gpus), 0.0);
  for (const PipelineTask& t : p.tasks) {
    if (t.kind == PipelineTaskKind::LaunchGap || t.kind == PipelineTaskKind::Barrier || t.end <= t.start) continue;
    if (!occupiesSms(t.kind) || t.gpu < 0 || t.gpu >= gpus) continue;
    const Time first = std::max<Time>(t.start / bin, 0);
    const Time last = std::min<Time>((t.end - 1) / bin, bins - 1);
    for (Time b = first; b <= last; ++b) {
      const Time overlap = std::min(t.end, (b + 1) * bin) - std::max(t.start, b * bin);
      smTime[static_cast<size_t>(t.gpu) * busy.size() + static_cast<size_t>(b)] += double(t.sms) * double(overlap);
    }
  }
  const double gpuCapacity = double(p.sms) * double(bin);
  for (size_t g = 0; g < static_cast<size_t>(gpus); ++g)
    for (size_t b = 0; b < busy.size(); ++b) busy[b] += std::min(smTime[g * busy.size() + b], gpuCapacity);
  for (double& x : busy) x /= gpuCapacity * double(gpus);
  return busy;
}

}  // namespace fl::views
