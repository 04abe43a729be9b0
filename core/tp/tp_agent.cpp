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
    : Agent(ep), shared_(shared), rank_(rank), n_(shared.plan.gpus), rng_(shared.seed, 0x7000 + static_cast<std::uint64_t>(rank)) {
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
      after(noisy(fromSeconds(st.flops / (shared_.sms * shared_.gpu.smFlops(Dtype::Bf16)))), kStageDone);
      break;
    case StageKind::Memory:
      after(noisy(fromSeconds(st.bytes / shared_.gpu.hbm_bandwidth)), kStageDone);
      break;
    case StageKind::Junction:
      ++junction_;
      spans_[static_cast<std::size_t>(junction_)].start = now();
      step_ = kRsGemm;
      startKernel(shared_.scheme == TpScheme::CaisBase ? Kernel::ReduceScatter : Kernel::Local,
                  {p.tokens, p.hidden, st.rsK});
      break;
  }
}

void TpAgent::nextStage() {
  ++stage_;
  runStage();
}

// A kernel starts after the host's launch jitter (drift source (a), specs/cais.md §2.8).
void TpAgent::startKernel(Kernel::Kind kind, const GemmShape& shape) {
  pendingKind_ = kind;
  pendingShape_ = shape;
  const double jitter = sampleNoise(shared_.drift.start_jitter_distribution,
                                    static_cast<double>(shared_.drift.start_jitter), rng_);
  if (jitter >= 1) return after(static_cast<Time>(jitter), kKernelGo);
  launchKernel();
}

void TpAgent::launchKernel() {
  kernel_ = Kernel{};
  kernel_.kind = pendingKind_;
  const TileShape tile{shared_.tileM, shared_.tileN};
  kernel_.rowTiles = (pendingShape_.m + tile.m - 1) / tile.m;
  kernel_.colTiles = (pendingShape_.n + tile.n - 1) / tile.n;
  kernel_.active = true;
  const std::int64_t tiles = kernel_.rowTiles * kernel_.colTiles;
  if (tiles == 0) return kernelDone();
  // A thread block's time: the kernel's wave time (tile compute or the wave's share of HBM,
  // with L2 reuse: tile_gemm.h), on every SM of the GPU.
  const GemmTime g = gemmTime(shared_.gpu, pendingShape_, tile, Dtype::Bf16, Dtype::Bf16, shared_.sms);
  kernel_.tbTime = fromSeconds(g.seconds / static_cast<double>(std::max<std::int64_t>(1, g.waves)));
  if (kernel_.kind == Kernel::AllGather) {
    const auto rows = static_cast<std::size_t>(kernel_.rowTiles);
    rowState_.assign(rows, 0);
    rowArrived_.assign(rows, 0);
    rowWaiters_.assign(rows, {});
    rowsPendingFlag_.clear();
  }
  dispatch();
}

void TpAgent::dispatch() {
  const std::int64_t total = kernel_.rowTiles * kernel_.colTiles;
  while (kernel_.running < shared_.sms && kernel_.next < total) {
    const std::int64_t tile = kernel_.next++;
    ++kernel_.running;
    tbStarted(tile);
  }
}

void TpAgent::tbStarted(std::int64_t tile) {
  if (kernel_.kind == Kernel::AllGather) {
    const std::int64_t m = tile / kernel_.colTiles;
    const int home = homeOfRow(m);
    const auto row = static_cast<std::size_t>(m);
    if (home != rank_ && rowState_[row] != 2) {  // holds its SM until the row block is here
      rowWaiters_[row].push_back(tile);
      if (rowState_[row] == 0) {
        rowState_[row] = 1;
        if (rowsReadyFrom_[static_cast<std::size_t>(junction_)][static_cast<std::size_t>(home)]) loadRow(m);
        else rowsPendingFlag_.push_back(m);
      }
      return;
    }
  }
  after(noisy(kernel_.tbTime), kTbDone, static_cast<std::uint32_t>(tile));
}

// A GEMM-RS thread block keeps its SM until its red.cais have left the GPU (the SM's
// store path backs up when the links are busy): compute cannot run ahead of the links.
void TpAgent::tbDone(std::int64_t tile) {
  if (kernel_.kind == Kernel::ReduceScatter && homeOfRow(tile / kernel_.colTiles) != rank_) return pushTile(tile);
  tbFinished();
}

void TpAgent::tbFinished() {
  --kernel_.running;
  ++kernel_.done;
  if (kernel_.done == kernel_.rowTiles * kernel_.colTiles) return kernelDone();
  dispatch();
}

// Called from inside injection, so the thread block's end is an event of its own.
void TpAgent::onSent(std::uint64_t t) {
  if (static_cast<TagKind>(t >> 56) != kTagCais || junctionOf(t) != junction_) return;
  const auto tile = static_cast<std::uint32_t>(t & 0xffffffffu);
  if (tile < unsent_.size() && --unsent_[tile] == 0) after(0, kTbSent, tile);
}

void TpAgent::kernelDone() {
  kernel_.active = false;
  if (shared_.plan.stages[stage_].kind != StageKind::Junction) return nextStage();
  if (step_ == kAgGemm) {
    spans_[static_cast<std::size_t>(junction_)].end = now();
    return nextStage();
  }
  // The GEMM-RS kernel is done.
  if (shared_.scheme == TpScheme::CaisBase) {
    step_ = kReduce;
  } else {
    step_ = kSync1;
    flagAll(kTagBarrier1);
  }
  advanceJunction();
}

void TpAgent::flagAll(TagKind k) {
  for (int g = 0; g < n_; ++g) {
    if (g == rank_) continue;
    net::Message m;
    m.op = net::Op::Write;
    m.destination = shared_.homes[static_cast<std::size_t>(g)];
    m.bytes = 16;
    m.tag = tag(k, junction_);
    post(m);
  }
}

int& TpAgent::flagCount(TagKind k, int j) {
  return flags_[static_cast<std::size_t>(k - 1) * spans_.size() + static_cast<std::size_t>(j)];
}

// Moves the current junction on as far as what has arrived allows.
void TpAgent::advanceJunction() {
  const TpPlan& p = shared_.plan;
  const Stage& st = p.stages[stage_];
  const auto j = static_cast<std::size_t>(junction_);
  const std::int64_t tensor = p.tokens * p.hidden * 2;
  if (step_ == kSync1 && flagCount(kTagBarrier1, junction_) >= n_ - 1) {
    step_ = kReduce;
    chunk_ = tensor / n_;
    pieces_ = static_cast<std::uint32_t>((chunk_ + shared_.payload - 1) / shared_.payload);
    pieceBase_ = static_cast<std::uint32_t>(junction_) * pieces_;
    pieceContrib_.assign(pieces_, 0);
    nextPiece_ = reduced_ = 0;
    const std::int64_t window = std::max<std::int64_t>(1, shared_.nvlsWindow / shared_.payload);
    nvlsRequest(static_cast<std::uint32_t>(std::min<std::int64_t>(window, pieces_)));
  }
  if (step_ == kReduce) {
    const bool done = shared_.scheme == TpScheme::CaisBase ? complete_[j] == ownBlocks_
                      : shared_.scheme == TpScheme::TpNvls ? reduced_ == pieces_ && stReceived_[j] >= tensor
                                                           : reduced_ == pieces_;
    if (!done) return;
    step_ = kLn;
    const std::int64_t rows = shared_.scheme == TpScheme::TpNvls ? p.tokens : p.tokens / n_;
    after(noisy(fromSeconds(2.0 * static_cast<double>(rows * p.hidden * 2) / shared_.gpu.hbm_bandwidth)), kStageDone);
    return;
  }
  if (step_ == kSync2 && flagCount(kTagBarrier2, junction_) >= n_ - 1) {
    step_ = kGather;
    net::Message m;
    m.op = net::Op::McStore;
    m.bytes = tensor / n_;
    m.group = shared_.group;
    m.tag = tag(kTagNvls, junction_);
    post(m);
  }
  if (step_ == kGather && stReceived_[j] >= tensor) {
    step_ = kAgGemm;
    startKernel(Kernel::Local, {p.tokens, st.agN, p.hidden});
  }
}

// LN is done on this GPU: the AG side of the junction.
void TpAgent::onTimer(std::uint64_t arg) {
  const auto what = static_cast<Timer>(arg >> 32);
  const auto value = static_cast<std::uint32_t>(arg & 0xffffffffu);
  if (what == kTbDone) return tbDone(value);
  if (what == kTbSent) return tbFinished();
  if (what == kKernelGo) return launchKernel();
  const Stage& st = shared_.plan.stages[stage_];
  if (st.kind != StageKind::Junction) return nextStage();
  // step_ == kLn
  if (st.agN == 0) {
    spans_[static_cast<std::size_t>(junction_)].end = now();
    return nextStage();
  }
  const TpPlan& p = shared_.plan;
  switch (shared_.scheme) {
    case TpScheme::TpNvls:
      step_ = kAgGemm;
      startKernel(Kernel::Local, {p.tokens, st.agN, p.hidden});
      break;
    case TpScheme::SpNvls:
      step_ = kSync2;
      flagAll(kTagBarrier2);
      advanceJunction();
      break;
    case TpScheme::CaisBase:
      rowsReadyFrom_[static_cast<std::size_t>(junction_)][static_cast<std::size_t>(rank_)] = 1;
      flagAll(kTagRowsReady);
      step_ = kAgGemm;
      startKernel(Kernel::AllGather, {p.tokens, st.agN, p.hidden});
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

void TpAgent::pushTile(std::int64_t tile) {
  const std::int64_t m = tile / kernel_.colTiles;
  const int home = homeOfRow(m);
  if (home == rank_) return;  // the home adds its own partial locally
  const std::uint32_t first = base(junction_) + static_cast<std::uint32_t>(tile) * blocksPerTile_;
  const auto total = static_cast<std::size_t>(kernel_.rowTiles * kernel_.colTiles);
  if (unsent_.size() != total) unsent_.assign(total, 0);
  unsent_[static_cast<std::size_t>(tile)] = blocksPerTile_;
  for (std::uint32_t k = 0; k < blocksPerTile_; ++k)
    post(caisMessage(net::Op::CaisRed, *shared_.map, first + k, shared_.homes[static_cast<std::size_t>(home)],
                     shared_.payload, n_ - 1, tag(kTagCais, junction_, static_cast<std::uint32_t>(tile))));
}

void TpAgent::loadRow(std::int64_t m) {
  const int home = homeOfRow(m);
  const std::uint32_t first = base(junction_) + static_cast<std::uint32_t>(m) * blocksPerRow_;
  for (std::uint32_t k = 0; k < blocksPerRow_; ++k)
    post(caisMessage(net::Op::CaisLoad, *shared_.map, first + k, shared_.homes[static_cast<std::size_t>(home)],
                     shared_.payload, n_ - 1, tag(kTagCais, junction_)));
}

std::vector<std::uint16_t>& TpAgent::countsFor(int j) {
  auto& v = counts_[static_cast<std::size_t>(j)];
  if (v.empty()) v.assign(ownBlocks_, 0);
  return v;
}

void TpAgent::onCais(const net::Packet& p) {
  const auto j = junctionOf(p.tag);
  if (p.op == net::Op::CaisWrite) {
    auto& v = countsFor(j);
    const std::uint32_t i = p.piece - base(j) - static_cast<std::uint32_t>(rank_) * ownBlocks_;
    if (i >= v.size()) throw std::logic_error("tp: a red.cais write for a block this GPU does not own");
    const int need = n_ - 1;
    const int before = v[i];
    v[i] = static_cast<std::uint16_t>(before + p.contributions);
    if (v[i] > need) throw std::logic_error("tp: a block received more than N-1 contributions");
    if (v[i] == need) ++complete_[static_cast<std::size_t>(j)];
    if (j == junction_) advanceJunction();
    return;
  }
  if (p.op != net::Op::CaisResponse || j != junction_ || !kernel_.active || kernel_.kind != Kernel::AllGather) return;
  const auto row = static_cast<std::size_t>((p.piece - base(j)) / blocksPerRow_);
  if (++rowArrived_[row] < blocksPerRow_) return;
  rowState_[row] = 2;
  for (const std::int64_t tile : rowWaiters_[row]) after(noisy(kernel_.tbTime), kTbDone, static_cast<std::uint32_t>(tile));
  rowWaiters_[row].clear();
}

void TpAgent::onDelivered(const net::Packet& p) {
  const auto kind = static_cast<TagKind>(p.tag >> 56);
  const auto j = junctionOf(p.tag);
  switch (kind) {
    case kTagBarrier1:
    case kTagBarrier2:
      ++flagCount(kind, j);
      if (j == junction_) advanceJunction();
      break;
    case kTagRowsReady: {
      int src = -1;
      for (int g = 0; g < n_; ++g)
        if (shared_.homes[static_cast<std::size_t>(g)] == p.source) src = g;
      if (src < 0) return;
      rowsReadyFrom_[static_cast<std::size_t>(j)][static_cast<std::size_t>(src)] = 1;
      if (j != junction_ || step_ != kAgGemm || !kernel_.active) break;
      std::vector<std::int64_t> still;
      for (const std::int64_t m : rowsPendingFlag_) {
        if (homeOfRow(m) == src) loadRow(m);
        else still.push_back(m);
      }
      rowsPendingFlag_.swap(still);
      break;
    }
    case kTagNvls:
      onNvls(p);
      break;
    case kTagCais:
      onCais(p);
      break;
  }
}

}  // namespace fl::tp
