// What a token-pipeline Gantt chart is made of, apart from drawing: its rows (one per
// SM group per GPU, or one per collapsed GPU), the dependency chain through a task
// (PipelineTask::after, seed 000 §IV's tile readiness), and the fraction of SMs busy
// per time bin. Plain functions of PipelineResults, so tests check them directly.
#pragma once
#include <cstdint>
#include <vector>

#include "results/results.h"

namespace fl::views {

inline constexpr std::uint8_t kWholeGpuGroup = 255;  // PipelineTask::group of launch gaps, barriers

// GPUs the tasks ran on: the highest gpu index + 1 (0 without tasks).
int pipelineGpuCount(const PipelineResults& p);

// Rows top to bottom: each GPU in turn, its groups in PipelineResults::groups order, or a
// single row when the GPU is collapsed.
struct PipelineRows {
  int gpus = 0, groups = 0;
  std::vector<bool> collapsed;  // per GPU
  std::vector<int> firstRow;    // per GPU
  int count = 0;

  int rowsOf(int gpu) const { return collapsed[static_cast<size_t>(gpu)] ? 1 : groups; }
  // The row a task of (gpu, group) is drawn on; whole-GPU tasks (and unknown groups) start
  // on the GPU's first row and span rowsOf(gpu) rows.
  int rowOf(int gpu, int group) const;
  int spanOf(int gpu, int group) const;
  int gpuOfRow(int row) const;
  int groupOfRow(int row) const;  // -1 on a collapsed GPU's row
};
PipelineRows pipelineRows(int gpus, int groups, const std::vector<bool>& collapsed);

// Every task linked to `task` through `after`: its critical predecessors back to the
// root, `task` itself, and every task made ready by it directly or transitively. Sorted
// by index; empty for an index out of range.
std::vector<int> dependencyChain(const PipelineResults& p, int task);

// Fraction of SMs busy in each of `bins` bins of width `bin`: the sum over tasks of
// sms x overlap with the bin (at most sms-per-GPU x bin per GPU), over gpus x
// sms-per-GPU x bin. Launch gaps and barriers
// occupy no SM (the SMs wait), so they do not count.
std::vector<double> smBusyFraction(const PipelineResults& p, int gpus, Time bin, int bins);

// A tensor-parallel layer's collectives and waits are drawn, but its kernels' spans
// already count the SMs they hold: those occupy none of their own.
inline bool occupiesSms(PipelineTaskKind k) {
  return k != PipelineTaskKind::Collective && k != PipelineTaskKind::CaisReduce && k != PipelineTaskKind::CaisLoad &&
         k != PipelineTaskKind::SyncWait;
}

}  // namespace fl::views
