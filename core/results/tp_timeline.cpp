#include "results/tp_timeline.h"

#include <algorithm>

namespace fl {

void TpTimeline::open(Row row, PipelineTaskKind kind, Time now) {
  if (open_[row]) return;
  PipelineTask& t = current_[row];
  t = PipelineTask{};
  t.start = now;
  t.gpu = gpu_;
  t.kind = kind;
  t.group = row;
  t.sms = 0;
  open_[row] = true;
}

void TpTimeline::sms(Row row, int count) {
  if (open_[row]) current_[row].sms = static_cast<std::uint16_t>(std::clamp<int>(std::max<int>(current_[row].sms, count), 0, 65535));
}

void TpTimeline::close(Row row, Time now) {
  if (!open_[row]) return;
  open_[row] = false;
  PipelineTask t = current_[row];
  span(row == kBarrier ? kWholeGpu : static_cast<std::uint8_t>(row), t.kind, t.start, now, t.tile, t.sms);
}

void TpTimeline::span(std::uint8_t row, PipelineTaskKind kind, Time start, Time end, std::int32_t tile, int sms) {
  if (end <= start) return;  // instant steps draw nothing
  PipelineTask t;
  t.start = start;
  t.end = end;
  t.gpu = gpu_;
  t.tile = tile;
  t.kind = kind;
  t.group = row;
  t.sms = static_cast<std::uint16_t>(std::clamp(sms, 0, 65535));
  tasks_.push_back(t);
}

void TpTimeline::loadStart(std::int64_t m, Time now) {
  if (m < 0) return;
  if (static_cast<std::size_t>(m) >= loadSince_.size()) loadSince_.resize(static_cast<std::size_t>(m) + 1, -1);
  loadSince_[static_cast<std::size_t>(m)] = now;
}

void TpTimeline::loadEnd(std::int64_t m, Time now, int waiters) {
  if (m < 0 || static_cast<std::size_t>(m) >= loadSince_.size()) return;
  Time& since = loadSince_[static_cast<std::size_t>(m)];
  if (since < 0) return;
  span(kAllGather, PipelineTaskKind::CaisLoad, since, now, static_cast<std::int32_t>(m), waiters);
  since = -1;
}

// Counted whether or not red.cais is out (an m-major GPU completes its own rows before it
// pushes), so each junction's last row closes the span; later pushes reopen it.
void TpTimeline::ownRowComplete(Time now, std::int64_t rows) {
  if (++rowsComplete_ < rows) return;
  rowsComplete_ = 0;
  close(kReduceScatter, now);
}

void TpTimeline::syncBegin(Time now) {
  if (syncWaiting_++ == 0) {
    syncSince_ = now;
    syncPeak_ = 0;
  }
  syncPeak_ = std::max(syncPeak_, syncWaiting_);
}

void TpTimeline::syncEnd(Time now) {
  if (syncWaiting_ <= 0) return;
  if (--syncWaiting_ == 0) span(kSync, PipelineTaskKind::SyncWait, syncSince_, now, -1, syncPeak_);
}

PipelineResults tpPipeline(const std::vector<const TpTimeline*>& gpus, const std::string& scheme, int sms) {
  PipelineResults p;
  p.fusion = scheme;
  p.sms = sms;
  bool sync = false;
  for (const TpTimeline* g : gpus)
    for (const PipelineTask& t : g->tasks()) {
      p.tasks.push_back(t);
      sync = sync || t.group == TpTimeline::kSync;
    }
  p.groups = {"GEMM", "reduce-scatter", "LN", "all-gather", "AG-GEMM"};
  if (sync) p.groups.push_back("TB sync");
  p.group_sms.assign(p.groups.size(), sms);
  std::stable_sort(p.tasks.begin(), p.tasks.end(), [](const PipelineTask& a, const PipelineTask& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.gpu != b.gpu) return a.gpu < b.gpu;
    return a.group < b.group;
  });
  // Per GPU, the SMs its spans hold over time (at most all of them: overlapping GEMM-RS and
  // AG-GEMM spans each carry their kernel's peak), integrated.
  Time end = 0;
  double busy = 0;
  std::int64_t launches = 0;
  std::vector<std::vector<std::pair<Time, int>>> steps(gpus.size());  // (time, SM change) per GPU
  for (const PipelineTask& t : p.tasks) {
    end = std::max(end, t.end);
    if (t.kind == PipelineTaskKind::LaunchGap) p.launch_overhead += t.end - t.start;
    launches += t.kind == PipelineTaskKind::LocalGemm || t.kind == PipelineTaskKind::GemmRs ||
                t.kind == PipelineTaskKind::AgGemm;
    const bool holdsSms = t.kind == PipelineTaskKind::LocalGemm || t.kind == PipelineTaskKind::GemmRs ||
                          t.kind == PipelineTaskKind::AgGemm || t.kind == PipelineTaskKind::Compute ||
                          t.kind == PipelineTaskKind::LayerNorm;
    if (holdsSms && t.gpu >= 0 && static_cast<std::size_t>(t.gpu) < steps.size()) {
      steps[static_cast<std::size_t>(t.gpu)].push_back({t.start, t.sms});
      steps[static_cast<std::size_t>(t.gpu)].push_back({t.end, -t.sms});
    }
  }
  for (auto& s : steps) {
    std::sort(s.begin(), s.end());
    int level = 0;
    for (std::size_t i = 0; i + 1 < s.size(); ++i) {
      level += s[i].second;
      busy += static_cast<double>(s[i + 1].first - s[i].first) * std::min(level, sms);
    }
  }
  if (!gpus.empty()) {
    const auto n = static_cast<std::int64_t>(gpus.size());
    p.launch_overhead /= n;
    p.kernel_launches = launches / n;
    if (end > 0 && sms > 0) p.sm_utilization = busy / (static_cast<double>(end) * static_cast<double>(n) * sms);
  }
  return p;
}

std::vector<std::pair<PipelineTaskKind, Time>> tpPhaseBusy(const PipelineResults& p) {
  std::vector<std::pair<PipelineTaskKind, Time>> busy;
  int gpus = 0;
  for (const PipelineTask& t : p.tasks) gpus = std::max(gpus, t.gpu + 1);
  std::vector<std::pair<Time, Time>> spans;
  for (int k = static_cast<int>(PipelineTaskKind::LocalGemm); k < kPipelineTaskKinds; ++k) {
    Time total = 0;
    for (int g = 0; g < gpus; ++g) {
      spans.clear();
      for (const PipelineTask& t : p.tasks)
        if (t.gpu == g && static_cast<int>(t.kind) == k) spans.push_back({t.start, t.end});
      std::sort(spans.begin(), spans.end());
      Time reach = 0;
      for (const auto& [a, b] : spans) {
        total += std::max<Time>(0, b - std::max(a, reach));
        reach = std::max(reach, b);
      }
    }
    busy.push_back({static_cast<PipelineTaskKind>(k), gpus > 0 ? total / gpus : 0});
  }
  return busy;
}

}  // namespace fl
