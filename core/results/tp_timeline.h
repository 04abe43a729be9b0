// What each GPU of a tensor-parallel layer did and when, for the Pipeline view and Chrome
// traces (PipelineResults). One row per phase so overlap shows (seed 002 Fig. 9): GEMMs
// (local ones, attention and element-wise work, GEMM-RS), the reduce-scatter as this GPU
// sees it (an NVLS ld_reduce / all-reduce, or from its first red.cais to its own rows
// complete), LN, the all-gather (NVLS multimem.st, or one ld.cais row load each), AG-GEMM,
// and, coordinated, the spans during which some thread block waited for RELEASE. Launch
// gaps and barriers cover the whole GPU. The agent (core/tp/tp_agent*) calls the hooks.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "results/results.h"

namespace fl {

class TpTimeline {
 public:
  // kBarrier: a barrier's span, drawn over the whole GPU (PipelineTask::group kWholeGpu).
  enum Row : std::uint8_t { kGemm = 0, kReduceScatter = 1, kLn = 2, kAllGather = 3, kAgGemm = 4, kSync = 5, kBarrier = 6 };
  static constexpr int kRows = 7;
  static constexpr std::uint8_t kWholeGpu = 255;

  TpTimeline(int gpu, int sms) : gpu_(gpu), sms_(sms) {}
  // An open span per row: open() ignores a row already open (the span goes on), and
  // sms() raises its peak thread-block count.
  void open(Row row, PipelineTaskKind kind, Time now);
  void close(Row row, Time now);
  void sms(Row row, int count);
  bool isOpen(Row row) const { return open_[row]; }
  // A span known in full when it starts (a timer's duration).
  void span(std::uint8_t row, PipelineTaskKind kind, Time start, Time end, std::int32_t tile = -1, int sms = 0);
  // ld.cais of row block m: from the request to its last response; waiters: thread blocks
  // holding an SM for it.
  void loadStart(std::int64_t m, Time now);
  void loadEnd(std::int64_t m, Time now, int waiters);
  // Dataflow: the reduce-scatter ends with this GPU's last own row block.
  void ownRowComplete(Time now, std::int64_t rows);
  // Coordinated thread blocks waiting for RELEASE: one span while any waits.
  void syncBegin(Time now);
  void syncEnd(Time now);
  const std::vector<PipelineTask>& tasks() const { return tasks_; }

 private:
  int gpu_, sms_;
  bool open_[kRows] = {};
  PipelineTask current_[kRows];
  std::vector<Time> loadSince_;
  std::int64_t rowsComplete_ = 0;
  int syncWaiting_ = 0, syncPeak_ = 0;
  Time syncSince_ = 0;
  std::vector<PipelineTask> tasks_;
};

// The GPUs' timelines as the run's pipeline: tasks by start, then GPU, then row; the sync
// row only when some GPU waited. sm_utilization counts the kernels' peak thread blocks
// over their spans, at most all SMs per GPU (an upper bound: a tail wave counts whole).
PipelineResults tpPipeline(const std::vector<const TpTimeline*>& gpus, const std::string& scheme, int sms);

// pipeline.phase_ns of a TP layer (PipelineResults::phase_busy holds an MoE pipeline's four
// phases): per task kind of its kernels, gemm .. sync_wait, the time some span of that kind
// runs on a GPU, mean over GPUs.
std::vector<std::pair<PipelineTaskKind, Time>> tpPhaseBusy(const PipelineResults& p);

}  // namespace fl
