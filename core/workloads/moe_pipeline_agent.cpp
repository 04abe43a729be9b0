#include "workloads/moe_pipeline_agent.h"

#include <algorithm>
#include <cmath>

#include "pipeline/straggler_noise.h"
#include "workloads/moe_pipeline_codes.h"

namespace fl::work {

using namespace pipeline_codes;

PipelineAgent::PipelineAgent(net::EndpointNode& ep, const MoeShared& s, const PipelineShared& p, int rank)
    : MoeAgent(ep, s, rank),
      p_(p),
      sched_(p.layout.groups),
      rng_(p.seed, 0x5000 + static_cast<std::uint64_t>(rank)),
      ts_(p.tracker.ts_table_entries, p.tracker.overflow_latency),
      or_(p.tracker.or_table_entries, p.tracker.overflow_latency) {
  trackTokens();
}

void PipelineAgent::start() {
  beginPass();
  startStage(0);
}

Time PipelineAgent::noisy(Time t) {
  const StragglerSpec& st = p_.stragglers;
  return t + static_cast<Time>(static_cast<double>(t) * sampleNoise(st.task_noise_distribution, st.task_noise, rng_));
}

bool PipelineAgent::stageHas(int kind) const {
  const auto& kinds = p_.layout.stages[static_cast<std::size_t>(stage_)].kinds;
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

int PipelineAgent::record(PipelineTaskKind kind, int group, int tile, int tokens, int sms, std::uint64_t cause,
                          std::uint64_t key) {
  PipelineTask t;
  t.start = t.end = now();
  t.gpu = rank_;
  t.tile = tile;
  t.tokens = tokens;
  t.sms = static_cast<std::uint16_t>(sms);
  t.step = static_cast<std::uint16_t>(step_);
  t.kind = kind;
  t.group = static_cast<std::uint8_t>(group);
  if ((kind == PipelineTaskKind::Gemm1 || kind == PipelineTaskKind::Gemm2) && tile >= 0)
    t.expert = static_cast<std::int16_t>(
        s_.plan->localExperts[static_cast<std::size_t>(rank_)][static_cast<std::size_t>(tiles_[static_cast<std::size_t>(tile)].expert)]);
  tasks_.push_back(t);
  causes_.push_back(cause);
  keys_.push_back(key);
  return static_cast<int>(tasks_.size()) - 1;
}

void PipelineAgent::beginPass() {
  const MoePlan& plan = *s_.plan;
  const int T = p_.tiles.tileTokens;
  std::fill(dispatchGot_.begin(), dispatchGot_.end(), 0);
  std::fill(combineGot_.begin(), combineGot_.end(), 0);
  std::fill(combineOperands_.begin(), combineOperands_.end(), 0);
  dispatchBytesIn_ = combineOperandsIn_ = 0;
  dispatchDone_ = combineDone_ = false;
  combineStarted_ = true;
  passEnded_ = false;
  stage_ = -1;
  // Expert side: tiles of every local expert (padded rows included).
  const auto& rows = p_.tiles.rows[static_cast<std::size_t>(rank_)];
  arrivals_.assign(rows.size(), {});
  tileBase_.clear();
  tiles_.clear();
  for (std::size_t e = 0; e < rows.size(); ++e) {
    tileBase_.push_back(static_cast<int>(tiles_.size()));
    const std::int64_t n = (rows[e] + T - 1) / T;
    for (std::int64_t i = 0; i < n; ++i) {
      Tile t;
      t.expert = static_cast<int>(e);
      t.index = static_cast<int>(i);
      t.rows = static_cast<int>(std::min<std::int64_t>(T, rows[e] - i * T));
      tiles_.push_back(t);
    }
  }
  localLeft_.assign(dispatchGot_.size(), 0);
  arrivedFrom_.assign(rows.size() * static_cast<std::size_t>(plan.gpus), 0);
  gemm2RowsLeft_.assign(rows.size(), 0);
  for (const Tile& t : tiles_) ++gemm2RowsLeft_[static_cast<std::size_t>(t.expert)];
  padPending_.clear();
  gemm2Done_ = 0;
  notifyLists_.assign(tiles_.size() * static_cast<std::size_t>(plan.gpus), {});
  pushPending_.clear();
  // Source side.
  chunks_ = (plan.tokens + T - 1) / T;
  chunksSent_ = 0;
  comm_.assign(static_cast<std::size_t>(chunks_), {});
  tokenComm_.assign(static_cast<std::size_t>(plan.tokens), -1);
  pushComm_.clear();
  readyCount_.assign(static_cast<std::size_t>(plan.tokens), 0);
  ownState_.assign(static_cast<std::size_t>(plan.tokens), 0);
  orSpilled_.assign(static_cast<std::size_t>(plan.tokens), 0);
  hasLocal_.assign(static_cast<std::size_t>(plan.tokens), 0);
  combinePending_.clear();
  pendingCause_.clear();
  ownDone_ = 0;
  ldReduceInFlight_ = 0;
  chunkNext_.assign(static_cast<std::size_t>(chunks_), 0);
  openChunks_.clear();
  dispatchInFlight_ = 0;
  acksLeft_.assign(static_cast<std::size_t>(plan.tokens), 0);
  if (s_.dispatchWindow > 0)
    for (int t = 0; t < plan.tokens; ++t)
      acksLeft_[static_cast<std::size_t>(t)] = static_cast<int>(plan.route(rank_, t).gpus.size());
  for (int t = 0; t < plan.tokens; ++t) {
    std::uint8_t st = 0;
    // Static NVLS reduces every token over every GPU; otherwise only tokens with remote experts.
    if (plan.route(rank_, t).gpus.empty() && s_.comm != MoeCommunication::NvlsStatic) st |= kNet;
    bool local = false;
    for (int j = 0; j < plan.topK; ++j)
      local |= plan.expertGpu[static_cast<std::size_t>(plan.chosen[(static_cast<std::size_t>(rank_) * plan.tokens + t) * plan.topK + j])] == rank_;
    if (!local) st |= kLocal;
    hasLocal_[static_cast<std::size_t>(t)] = local ? 1 : 0;
    ownState_[static_cast<std::size_t>(t)] = st;
  }
  for (int t = 0; t < plan.tokens; ++t) ownTokenDone(t);  // tokens that need nothing (none in practice)
}

void PipelineAgent::startStage(int stage) {
  stage_ = stage;
  const KernelStage& k = p_.layout.stages[static_cast<std::size_t>(stage)];
  for (int kind = 0; kind < kTaskKinds; ++kind) sched_.setEnabled(kind, false);
  const Time launches = static_cast<Time>(k.launches) * p_.launchOverhead;
  const Time jitter = static_cast<Time>(
      sampleNoise(p_.stragglers.start_jitter_distribution, static_cast<double>(p_.stragglers.start_jitter), rng_));
  launchWait_ += launches;
  if (launches + jitter > 0) {
    const int r = record(PipelineTaskKind::LaunchGap, kWholeGpu, stage, 0, 0, ~0ull, ~0ull);
    tasks_[static_cast<std::size_t>(r)].end = now() + launches + jitter;
  }
  wakeAt(now() + launches + jitter, kStageGo | static_cast<std::uint64_t>(stage));
}

static std::string stagePhaseName(const KernelStage& k, int step, int steps) {
  static const char* names[] = {"dispatch", "gemm1", "gemm2", "combine"};
  std::string n;
  for (int kind : k.kinds) {  // appended piece by piece: GCC 12 misreads "+" + string as an overlap (-Wrestrict)
    if (!n.empty()) n += '+';
    n += names[kind];
  }
  return steps > 1 ? n + " #" + std::to_string(step + 1) : n;
}

void PipelineAgent::onTimer(std::uint64_t what) {
  const std::uint64_t type = what & kTypeMask, arg = what & ~kTypeMask;
  if (type == kStageGo) {
    const KernelStage& k = p_.layout.stages[static_cast<std::size_t>(arg)];
    for (int kind : k.kinds) sched_.setEnabled(kind, true);
    beginPhase(stagePhaseName(k, step_, p_.stragglers.steps));
    kernelStart_ = now();
    stageStarted_ = true;
    if (stageHas(kTaskDispatch))
      for (int c = 0; c < chunks_; ++c) sched_.push({kTaskDispatch, c, 1, 0, order_++, -1});
    if (stageHas(kTaskCombine) && !p_.notifications) {
      // After a barrier every output is ready: combine all at once.
      for (int t = 0; t < s_.plan->tokens; ++t)
        if (s_.inSwitch() && !(ownState_[static_cast<std::size_t>(t)] & kNet)) {
          combinePending_.push_back(t);
          pendingCause_.push_back(~0ull);
        }
    }
    if (stageHas(kTaskCombine) && (!combinePending_.empty() || !pushPending_.empty()))
      sched_.push({kTaskCombine, -1, 1, 0, 0, -1});
    run();
  } else if (type == kBatchDone) {
    batchDone(static_cast<int>(arg));
  } else if (type == kKick) {
    kickPending_ = false;
    run();
  } else if (type == kOrReady) {
    combinePending_.push_back(static_cast<int>(arg));
    pendingCause_.push_back(~0ull);
    if (!sched_.queued(kTaskCombine)) sched_.push({kTaskCombine, -1, 1, 0, order_++, -1});
    run();
  } else if (what >= kReleaseBase) {
    const int id = static_cast<int>(what - kReleaseBase) % kBarriersPerPass;
    if (barrierRecord_ >= 0) tasks_[static_cast<std::size_t>(barrierRecord_)].end = now();
    barrierRecord_ = -1;
    if (id == kAfterDispatch) startStage(1);
    else if (id == kBeforeCombine) startStage(3);
    else if (++step_ < p_.stragglers.steps) {
      beginPass();
      startStage(0);
    } else {
      finish();
    }
  }
}

// FlashDMoE without in-place padding sends every expert's cell padded to its capacity
// (seed 001 §5.4): the rows beyond this GPU's real tokens for each remote expert, in one
// message per host GPU whose payload is useless (token index past the last token).
void PipelineAgent::padding(std::vector<Post>& out) const {
  const std::int64_t capacity = p_.paddedCapacity;
  if (capacity == 0) return;
  const MoePlan& plan = *s_.plan;
  const MoeSpec& m = s_.scenario->workload.moe;
  std::vector<std::int64_t> rows(static_cast<std::size_t>(m.experts), 0);
  for (std::size_t i = 0; i < static_cast<std::size_t>(plan.tokens) * plan.topK; ++i)
    ++rows[static_cast<std::size_t>(plan.chosen[static_cast<std::size_t>(rank_) * plan.tokens * plan.topK + i])];
  std::vector<std::int64_t> pad(static_cast<std::size_t>(plan.gpus), 0);
  for (int e = 0; e < m.experts; ++e)
    pad[static_cast<std::size_t>(plan.expertGpu[static_cast<std::size_t>(e)])] +=
        std::max<std::int64_t>(0, capacity - rows[static_cast<std::size_t>(e)]) * plan.dispatchBytes;
  for (int g = 0; g < plan.gpus; ++g) {
    if (g == rank_ || pad[static_cast<std::size_t>(g)] == 0) continue;
    net::Message msg = message(net::Op::Write, pad[static_cast<std::size_t>(g)], kDispatch, rank_, plan.tokens);
    msg.firstPiece = 0;
    msg.destination = s_.nodeOf[static_cast<std::size_t>(g)];
    out.push_back({msg, kDispatch, kUseless});
  }
}

// Non-payload-efficient FlashDMoE returns each expert's output cells as padded as they
// came: capacity rows per source GPU, of which only the routed ones carry tokens. The
// padding follows once the expert's last GEMM-2 row is done, tagged past the last token.
void PipelineAgent::combinePadding(int le) {
  const std::int64_t capacity = p_.paddedCapacity;
  if (capacity == 0 || s_.inSwitch()) return;  // an in-switch combine pulls only real tokens
  const MoePlan& plan = *s_.plan;
  for (int src = 0; src < plan.gpus; ++src) {
    if (src == rank_) continue;
    const std::int64_t rows = arrivedFrom_[static_cast<std::size_t>(le) * static_cast<std::size_t>(plan.gpus) + static_cast<std::size_t>(src)];
    if (rows < capacity) padPending_.push_back({pairKey(src, plan.tokens + le), (capacity - rows) * plan.combineBytes});
  }
}

int PipelineAgent::ldReduceLimit() const {
  return s_.scenario->scheme.ld_reduce_in_flight * p_.layout.smsFor(kTaskCombine);
}

int PipelineAgent::dispatchLimit() const { return s_.dispatchWindow * p_.layout.smsFor(kTaskDispatch); }

void PipelineAgent::onSent(std::uint64_t tag) {
  sentTags_.push_back(tag);
  kick();
}

void PipelineAgent::kick() {
  if (kickPending_) return;
  kickPending_ = true;
  wakeAt(now(), kKick);
}

}  // namespace fl::work
