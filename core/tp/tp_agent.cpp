#include "tp/tp_agent.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "pipeline/straggler_noise.h"

namespace fl::tp {
namespace {
Time fromSeconds(double s) { return static_cast<Time>(std::llround(s * static_cast<double>(kSecond))); }
}  // namespace

TpAgent::TpAgent(net::EndpointNode& ep, const TpShared& shared, int rank)
    : Agent(ep), shared_(shared), rank_(rank), n_(shared.plan.gpus), rng_(shared.seed, 0x7000 + static_cast<std::uint64_t>(rank)),
      timeline_(rank, shared.sms) {
  const TpPlan& p = shared.plan;
  rowBlocksPerGpu_ = p.tokens / n_ / shared.tileM;
  const std::int64_t tileBytes = std::int64_t(shared.tileM) * shared.tileN * 2;
  blocksPerTile_ = static_cast<std::uint32_t>(tileBytes / shared.payload);
  blocksPerRow_ = static_cast<std::uint32_t>(std::int64_t(shared.tileM) * p.hidden * 2 / shared.payload);
  ownBlocks_ = static_cast<std::uint32_t>(rowBlocksPerGpu_ * (p.hidden / shared.tileN) * blocksPerTile_);
  const auto J = static_cast<std::size_t>(p.junctions);
  spans_.assign(J, {});
  flags_.assign(3 * J, 0);
  rowsReadyFrom_.assign(J, std::vector<std::uint8_t>(static_cast<std::size_t>(n_), 0));
  rowReadyFlag_.resize(J);
  rowComplete_.resize(J);
  counts_.resize(J);
  complete_.assign(J, 0);
  stReceived_.assign(J, 0);
  expected_ = static_cast<std::int64_t>(p.stages.size());
}

void TpAgent::after(Time d, Timer what, std::uint32_t value) {
  wakeAt(now() + std::max<Time>(0, d), (static_cast<std::uint64_t>(what) << 32) | value);
}

Time TpAgent::noisy(Time t) {
  const double extra = sampleNoise(shared_.drift.task_noise_distribution, shared_.drift.task_noise, rng_);
  return static_cast<Time>(std::llround(static_cast<double>(t) * (1 + extra)));
}

// A thread block's time: scheme.stragglers' noise and drift source (b) of specs/cais.md
// §2.8, a lognormal factor of mean 1 and coefficient of variation tb_noise_cv.
Time TpAgent::tbNoisy(Time t) {
  Time d = noisy(t);
  if (shared_.tbNoiseCv > 0) {
    const double s2 = std::log1p(shared_.tbNoiseCv * shared_.tbNoiseCv);
    const double z = std::sqrt(-2 * std::log(1 - rng_.uniform01())) * std::cos(2 * M_PI * rng_.uniform01());
    d = static_cast<Time>(std::llround(static_cast<double>(d) * std::exp(std::sqrt(s2) * z - s2 / 2)));
  }
  return d;
}

Time TpAgent::lnTime(std::int64_t rows) const {
  return fromSeconds(2.0 * static_cast<double>(rows * shared_.plan.hidden * 2) / shared_.gpu.hbm_bandwidth);
}

void TpAgent::start() {
  stage_ = 0;
  runStage();
}

void TpAgent::runStage() {
  const TpPlan& p = shared_.plan;
  received_ = static_cast<std::int64_t>(stage_);
  if (stage_ >= p.stages.size()) return finish();
  const Stage& st = p.stages[stage_];
  switch (st.kind) {
    case StageKind::Gemm:
      startKernel(Kernel::Local, st.gemm);
      break;
    case StageKind::Flops:
      after(timed(TpTimeline::kGemm, PipelineTaskKind::Compute,
                  noisy(fromSeconds(st.flops / (shared_.sms * shared_.gpu.smFlops(Dtype::Bf16))))),
            kStageDone);
      break;
    case StageKind::Memory:
      after(timed(TpTimeline::kGemm, PipelineTaskKind::Compute, noisy(fromSeconds(st.bytes / shared_.gpu.hbm_bandwidth))),
            kStageDone);
      break;
    case StageKind::Junction:
          ++junction_;
      spans_[static_cast<std::size_t>(junction_)].start = now();
      step_ = kRsGemm;
      rsDone_ = false;
      rowsNormalised_ = 0;
      // Before the launch offset: contributions may complete a row meanwhile, and the
      // row is not ready until this GPU's own partial of it is done too.
      ownTilesDone_.assign(static_cast<std::size_t>(rowBlocksPerGpu_), 0);
      startKernel(shared_.scheme >= TpScheme::CaisBase ? Kernel::ReduceScatter : Kernel::Local,
                  {p.tokens, p.hidden, st.rsK});
      break;
  }
}

void TpAgent::nextStage() {
  ++stage_;
  runStage();
}

// A kernel starts after the host's launch offset (drift source (a), specs/cais.md §2.8).
void TpAgent::startKernel(Kernel::Kind kind, const GemmShape& shape) {
  pendingKind_ = kind;
  pendingShape_ = shape;
  double jitter = sampleNoise(shared_.drift.start_jitter_distribution,
                              static_cast<double>(shared_.drift.start_jitter), rng_);
  if (shared_.kernelOffset > 0) jitter += rng_.exponential(static_cast<double>(shared_.kernelOffset));
  if (jitter >= 1) {
    timeline_.span(TpTimeline::kWholeGpu, PipelineTaskKind::LaunchGap, now(), now() + static_cast<Time>(jitter));
    return after(static_cast<Time>(jitter), kKernelGo);
  }
  launchKernel();
}

void TpAgent::setUpKernel(Kernel& k, Kernel::Kind kind, const GemmShape& shape) {
  k = Kernel{};
  k.kind = kind;
  const TileShape tile{shared_.tileM, shared_.tileN};
  k.rowTiles = (shape.m + tile.m - 1) / tile.m;
  k.colTiles = (shape.n + tile.n - 1) / tile.n;
  k.active = true;
  // A thread block's time: the kernel's wave time (tile compute or the wave's share of HBM,
  // with L2 reuse: tile_gemm.h), on every SM of the GPU.
  const GemmTime g = gemmTime(shared_.gpu, shape, tile, Dtype::Bf16, Dtype::Bf16, shared_.sms);
  k.tbTime = fromSeconds(g.seconds / static_cast<double>(std::max<std::int64_t>(1, g.waves)));
  if (kind != Kernel::Local) {
    k.order = tileOrder(shared_.rowOrder, k.rowTiles, k.colTiles, n_);
    k.pos.assign(k.order.size(), 0);
    for (std::size_t p = 0; p < k.order.size(); ++p) k.pos[static_cast<std::size_t>(k.order[p])] = static_cast<std::int64_t>(p);
  }
  if (kind == Kernel::AllGather) {
    const auto rows = static_cast<std::size_t>(k.rowTiles);
    rowState_.assign(rows, 0);
    rowArrived_.assign(rows, 0);
    rowWaiters_.assign(rows, {});
    rowsPendingFlag_.clear();
  }
  if (kind == Kernel::ReduceScatter) unsent_.assign(static_cast<std::size_t>(k.total()), 0);
}

void TpAgent::launchKernel() {
  const int slot = pendingKind_ == Kernel::AllGather ? 1 : 0;
  setUpKernel(kernels_[static_cast<std::size_t>(slot)], pendingKind_, pendingShape_);
  if (pendingKind_ == Kernel::ReduceScatter && dataflow()) {
    // Graph-level dataflow: GEMM-RS and AG-GEMM are one launch; AG-GEMM's blocks become
    // ready row by row, and while both have ready blocks GEMM-RS holds rsQuota_ SMs.
    const Stage& st = shared_.plan.stages[stage_];
    const auto rows = static_cast<std::size_t>(rowBlocksPerGpu_);
    const auto j = static_cast<std::size_t>(junction_);
    if (rowComplete_[j].empty()) rowComplete_[j].assign(rows, 0);
    if (st.agN > 0) {
      Kernel& ag = kernels_[1];
      setUpKernel(ag, Kernel::AllGather, {shared_.plan.tokens, st.agN, shared_.plan.hidden});
      ag.dataflow = true;
      if (coordinated())
        for (std::int64_t q = 0; q < ag.total(); ++q)
          if (isGroupTb(1, ag.tileAt(q))) ag.groupOrder.push_back(q);
      if (rowReadyFlag_[j].empty()) rowReadyFlag_[j].assign(static_cast<std::size_t>(ag.rowTiles), 0);
      for (std::size_t m = 0; m < rowReadyFlag_[j].size(); ++m)
        if (rowReadyFlag_[j][m]) rowReady(static_cast<std::int64_t>(m));
    }
    const double f = shared_.rsSmFraction > 0
                         ? shared_.rsSmFraction
                         : static_cast<double>(st.rsK) / static_cast<double>(st.rsK + std::max<std::int64_t>(st.agN, 0));
    rsQuota_ = std::clamp(static_cast<int>(std::lround(f * shared_.sms)), 1, std::max(1, shared_.sms - 1));
  }
  if (kernels_[static_cast<std::size_t>(slot)].total() == 0) return kernelDone(slot);
  dispatch();
}

// Fills free SMs. With both kernels ready (dataflow), GEMM-RS gets rsQuota_ of them and
// AG-GEMM the rest; a partition with nothing ready lends its SMs (work-conserving). A
// throttled GPU starts no thread block that would join a new group.
// Coordinated dataflow: a TB-group block holds its SM until its whole group has synced,
// so group blocks start in the kernel's order on every GPU, not in the order their rows
// became ready here (a row's ready flag reaches each GPU at a different time): otherwise
// each GPU can fill its SMs with groups the others have not started, and wait forever
// (seen on Mega-GPT-4B, cais_partial: every GPU stalled in L2 with no packet in flight).
// In order, the earliest unreleased group has been started by every member or is next
// on it, and the SMs held for earlier groups all come free.
void TpAgent::dispatch() {
  while (running_ < shared_.sms) {
    bool can[2];
    for (int s = 0; s < 2; ++s) {
      const Kernel& k = kernels_[static_cast<std::size_t>(s)];
      can[s] = k.active && k.hasReady();
      const int throttled = throttledBy_[static_cast<std::size_t>(s)];
      if (can[s] && (throttled > 0 || !k.groupOrder.empty()) && isGroupTb(s, k.peek()))
        can[s] = throttled == 0 && (k.groupOrder.empty() || (k.groupNext < k.groupOrder.size() &&
                                                      *k.ready.begin() == k.groupOrder[k.groupNext]));
    }
    if (!can[0] && !can[1]) return;
    const int s = can[0] && can[1] ? (kernels_[0].running < rsQuota_ ? 0 : 1) : (can[0] ? 0 : 1);
    Kernel& k = kernels_[static_cast<std::size_t>(s)];
    const std::int64_t tile = k.peek();
    if (k.dataflow) {
      if (!k.groupOrder.empty() && isGroupTb(s, tile)) ++k.groupNext;
      k.ready.erase(k.ready.begin());
    } else {
      ++k.next;
    }
    ++k.running;
    ++running_;
    tbStarted(s, tile);
  }
}

void TpAgent::tbStarted(int slot, std::int64_t tile) {
  const auto [row, kind] = kernelRow(slot);
  timeline_.open(row, kind, now());
  timeline_.sms(row, static_cast<int>(kernels_[static_cast<std::size_t>(slot)].running));
  if (coordinated() && isGroupTb(slot, tile)) return sendSync(slot, 0, tile);  // pre-launch
  beginTb(slot, tile);
}

void TpAgent::beginTb(int slot, std::int64_t tile) {
  Kernel& k = kernels_[static_cast<std::size_t>(slot)];
  if (k.kind == Kernel::AllGather) {
    const std::int64_t m = tile / k.colTiles;
    const int home = homeOfRow(m);
    const auto row = static_cast<std::size_t>(m);
    if (home != rank_ && rowState_[row] != 2) {  // holds its SM until the row block is here
      rowWaiters_[row].push_back(tile);
      // Coordinated, only the row's first block (the TB group) loads it, once released.
      const bool loader = !coordinated() || tile % k.colTiles == 0;
      if (rowState_[row] == 0 && loader) {
        rowState_[row] = 1;
        if (k.dataflow || rowsReadyFrom_[static_cast<std::size_t>(junction_)][static_cast<std::size_t>(home)]) loadRow(m);
        else rowsPendingFlag_.push_back(m);
      }
      return;
    }
  }
  after(tbNoisy(k.tbTime), kTbDone, tbRef(slot, tile));
}

// A GEMM-RS thread block keeps its SM until its red.cais have left the GPU (the SM's
// store path backs up when the links are busy): compute cannot run ahead of the links.
void TpAgent::tbDone(int slot, std::int64_t tile) {
  const Kernel& k = kernels_[static_cast<std::size_t>(slot)];
  if (k.kind == Kernel::ReduceScatter) {
    const std::int64_t m = tile / k.colTiles;
    if (homeOfRow(m) != rank_) {
      if (coordinated()) return sendSync(slot, 1, tile);  // pre-access, before the first red.cais
      return pushTile(tile);
    }
    if (dataflow()) {  // the home adds its own partial locally
      const auto r = static_cast<std::size_t>(m - rank_ * rowBlocksPerGpu_);
      if (++ownTilesDone_[r] == k.colTiles) ownRowComplete(static_cast<std::int64_t>(r));
    }
  }
  tbFinished(slot);
}

void TpAgent::tbFinished(int slot) {
  Kernel& k = kernels_[static_cast<std::size_t>(slot)];
  --k.running;
  --running_;
  ++k.done;
  if (k.done == k.total()) kernelDone(slot);
  dispatch();
}

// Called from inside injection, so the thread block's end is an event of its own.
void TpAgent::onSent(std::uint64_t t) {
  if (static_cast<TagKind>(t >> 56) == kTagLoad) {
    --postedLoads_;
    if (!loadStreams_.empty() && !issueScheduled_) {
      issueScheduled_ = true;
      after(0, kIssueLoads);
    }
    return;
  }
  if (static_cast<TagKind>(t >> 56) != kTagCais || junctionOf(t) != junction_) return;
  const auto tile = static_cast<std::uint32_t>(t & 0xffffffffu);
  if (tile < unsent_.size() && --unsent_[tile] == 0) after(0, kTbSent, tbRef(0, tile));
}

void TpAgent::kernelDone(int slot) {
  kernels_[static_cast<std::size_t>(slot)].active = false;
  timeline_.close(kernelRow(slot).first, now());
  if (shared_.plan.stages[stage_].kind != StageKind::Junction) return nextStage();
  if (dataflow()) {
    if (slot == 0) rsDone_ = true;
    return maybeEndDataflow();
  }
  if (step_ == kAgGemm) {
    spans_[static_cast<std::size_t>(junction_)].end = now();
    return nextStage();
  }
  // The GEMM-RS kernel is done.
  if (shared_.scheme >= TpScheme::CaisBase) {
    step_ = kReduce;
  } else {
    step_ = kSync1;
    timeline_.open(TpTimeline::kBarrier, PipelineTaskKind::Barrier, now());
    flagAll(kTagBarrier1);
  }
  advanceJunction();
}

void TpAgent::flagAll(TagKind k, std::uint32_t value) {
  for (int g = 0; g < n_; ++g) {
    if (g == rank_) continue;
    net::Message m;
    m.op = net::Op::Write;
    m.destination = shared_.homes[static_cast<std::size_t>(g)];
    m.bytes = 16;
    m.tag = tag(k, junction_, value);
    post(m);
  }
}

int& TpAgent::flagCount(TagKind k, int j) {
  return flags_[static_cast<std::size_t>(k - 1) * spans_.size() + static_cast<std::size_t>(j)];
}

void TpAgent::startGather() {
  const TpPlan& p = shared_.plan;
  step_ = kAgGemm;
  startKernel(shared_.scheme >= TpScheme::CaisBase ? Kernel::AllGather : Kernel::Local,
              {p.tokens, p.stages[stage_].agN, p.hidden});
}

// Moves the current junction on as far as what has arrived allows.
void TpAgent::advanceJunction() {
  const TpPlan& p = shared_.plan;
  const auto j = static_cast<std::size_t>(junction_);
  const std::int64_t tensor = p.tokens * p.hidden * 2;
  const bool cais = shared_.scheme >= TpScheme::CaisBase;
  if (step_ == kSync1 && flagCount(kTagBarrier1, junction_) >= n_ - 1) {
    step_ = kReduce;
    timeline_.close(TpTimeline::kBarrier, now());
    timeline_.open(TpTimeline::kReduceScatter, PipelineTaskKind::Collective, now());
    chunk_ = tensor / n_;
    pieces_ = static_cast<std::uint32_t>((chunk_ + shared_.payload - 1) / shared_.payload);
    pieceBase_ = static_cast<std::uint32_t>(junction_) * pieces_;
    pieceContrib_.assign(pieces_, 0);
    nextPiece_ = reduced_ = 0;
    const std::int64_t window = std::max<std::int64_t>(1, shared_.nvlsWindow / shared_.payload);
    nvlsRequest(static_cast<std::uint32_t>(std::min<std::int64_t>(window, pieces_)));
  }
  if (step_ == kReduce) {
    const bool done = cais                                 ? complete_[j] == ownBlocks_
                      : shared_.scheme == TpScheme::TpNvls ? reduced_ == pieces_ && stReceived_[j] >= tensor
                                                           : reduced_ == pieces_;
    if (!done) return;
    step_ = kLn;
    timeline_.close(TpTimeline::kReduceScatter, now());
    after(timed(TpTimeline::kLn, PipelineTaskKind::LayerNorm,
                noisy(lnTime(shared_.scheme == TpScheme::TpNvls ? p.tokens : p.tokens / n_))),
          kStageDone);
    return;
  }
  if (step_ == kSync2 && flagCount(kTagBarrier2, junction_) >= n_ - 1) {
    timeline_.close(TpTimeline::kBarrier, now());
    if (cais) {  // kernel-level: every home's rows are ready once all passed the barrier
      std::fill(rowsReadyFrom_[j].begin(), rowsReadyFrom_[j].end(), 1);
      return startGather();
    }
    step_ = kGather;
    timeline_.open(TpTimeline::kAllGather, PipelineTaskKind::Collective, now());
    net::Message m;
    m.op = net::Op::McStore;
    m.bytes = tensor / n_;
    m.group = shared_.group;
    m.tag = tag(kTagNvls, junction_);
    post(m);
  }
  if (step_ == kGather && stReceived_[j] >= tensor) {
    timeline_.close(TpTimeline::kAllGather, now());
    startGather();
  }
}

void TpAgent::onTimer(std::uint64_t arg) {
  const auto what = static_cast<Timer>(arg >> 32);
  const auto value = static_cast<std::uint32_t>(arg & 0xffffffffu);
  if (what == kTbDone) return tbDone(slotOf(value), tileOf(value));
  if (what == kTbSent) return tbFinished(slotOf(value));
  if (what == kKernelGo) return launchKernel();
  if (what == kLnRow) return rowNormalised(value);
  if (what == kIssueLoads) return issueLoads();
  const Stage& st = shared_.plan.stages[stage_];
  if (st.kind != StageKind::Junction) return nextStage();
  // step_ == kLn: LN is done on this GPU; the AG side of the junction.
  if (st.agN == 0) {
    spans_[static_cast<std::size_t>(junction_)].end = now();
    return nextStage();
  }
  switch (shared_.scheme) {
    case TpScheme::TpNvls:
      startGather();
      break;
    default:  // sp_nvls, and CAIS's kernel-level barrier between LN and AG-GEMM
      step_ = kSync2;
      timeline_.open(TpTimeline::kBarrier, PipelineTaskKind::Barrier, now());
      flagAll(kTagBarrier2);
      advanceJunction();
      break;
  }
}

void TpAgent::nvlsRequest(std::uint32_t count) {
  net::Message m;
  m.op = net::Op::LdReduce;
  m.firstPiece = pieceBase_ + nextPiece_;
  m.bytes = std::min<std::int64_t>(std::int64_t(count) * shared_.payload,
                                   chunk_ - std::int64_t(nextPiece_) * shared_.payload);
  m.group = shared_.group;
  m.expected = static_cast<std::uint16_t>(n_);
  m.tag = tag(kTagNvls, junction_);
  nextPiece_ += count;
  post(m);
}

void TpAgent::onNvls(const net::Packet& p) {
  const auto j = junctionOf(p.tag);
  if (p.op == net::Op::Write) {  // a multimem.st replica (all-reduce's or all-gather's)
    stReceived_[static_cast<std::size_t>(j)] += p.payload();
    if (j == junction_) advanceJunction();
    return;
  }
  if (p.op != net::Op::LdReduceResult) return;
  std::uint16_t& c = pieceContrib_[p.piece - pieceBase_];
  c = static_cast<std::uint16_t>(c + p.contributions);
  if (c < n_) return;
  ++reduced_;
  if (nextPiece_ < pieces_) nvlsRequest(1);
  if (shared_.scheme == TpScheme::TpNvls) {  // all-reduce: store each reduced piece at once
    net::Message m;
    m.op = net::Op::McStore;
    m.bytes = std::min<std::int64_t>(shared_.payload, chunk_ - std::int64_t(p.piece - pieceBase_) * shared_.payload);
    m.group = shared_.group;
    m.tag = tag(kTagNvls, junction_);
    post(m);
  }
  advanceJunction();
}

void TpAgent::onDelivered(const net::Packet& p) {
  const auto kind = static_cast<TagKind>(p.tag >> 56);
  const auto j = junctionOf(p.tag);
  if (p.op == net::Op::CaisThrottle) {
    // The group id names the kernel slot the throttle is for (sendSync's layout).
    int& t = throttledBy_[(p.piece >> 21) & 1];
    t += p.contributions ? 1 : -1;
    if (t == 0) dispatch();
    return;
  }
  switch (kind) {
    case kTagBarrier1:
    case kTagBarrier2:
      ++flagCount(kind, j);
      if (j == junction_) advanceJunction();
      break;
    case kTagRowsReady:
      onRowsReady(p);
      break;
    case kTagNvls:
      onNvls(p);
      break;
    case kTagCais:
    case kTagLoad:
      onCais(p);
      break;
    case kTagSync:
      onRelease(p);
      break;
  }
}

// Local GEMMs (NVLS's too) and GEMM-RS on the GEMM row, AG-GEMM on its own: under
// dataflow the two run at once.
std::pair<TpTimeline::Row, PipelineTaskKind> TpAgent::kernelRow(int slot) const {
  if (shared_.plan.stages[stage_].kind != StageKind::Junction) return {TpTimeline::kGemm, PipelineTaskKind::LocalGemm};
  const bool cais = shared_.scheme >= TpScheme::CaisBase;
  if (slot == 1 || step_ == kAgGemm)
    return {TpTimeline::kAgGemm, cais ? PipelineTaskKind::AgGemm : PipelineTaskKind::LocalGemm};
  return {TpTimeline::kGemm, cais ? PipelineTaskKind::GemmRs : PipelineTaskKind::LocalGemm};
}

// A span of known length d from now; sms -1: the whole GPU (a kernel alone on it).
Time TpAgent::timed(TpTimeline::Row row, PipelineTaskKind kind, Time d, std::int64_t tile, int sms) {
  timeline_.span(row, kind, now(), now() + d, static_cast<std::int32_t>(tile), sms < 0 ? shared_.sms : sms);
  return d;
}

}  // namespace fl::tp
