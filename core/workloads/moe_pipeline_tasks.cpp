// PipelineAgent, part two: starting and finishing tasks, readiness, stage ends.
#include <algorithm>

#include "workloads/moe_pipeline_agent.h"
#include "workloads/moe_pipeline_codes.h"

namespace fl::work {
using namespace pipeline_codes;

namespace {

PipelineTaskKind taskKind(int kind) { return static_cast<PipelineTaskKind>(kind); }

}  // namespace

void PipelineAgent::run() {
  // Sent messages first: they free communication SMs.
  std::vector<std::uint64_t> sent;
  sent.swap(sentTags_);
  const int T = p_.tiles.tileTokens;
  for (std::uint64_t tag : sent) {
    const int kind = tagPhase(tag);
    if (kind == kTagDispatch) {
      const int token = tagToken(tag);
      if (s_.dispatchWindow > 0 && token < s_.plan->tokens) continue;  // done when acknowledged
      const int c = token >= s_.plan->tokens ? 0 : token / T;  // padding goes with chunk 0
      if (--comm_[static_cast<std::size_t>(c)].outstanding == 0) endCommTask(c);
    } else if (kind == kTagCombine && s_.inSwitch()) {
      // An ld_reduce request is out: the warp's load is in flight, the SM takes more work
      // (many warps per SM keep many tokens' reductions outstanding).
      const int c = tokenComm_[static_cast<std::size_t>(tagToken(tag))];
      if (c >= 0 && --comm_[static_cast<std::size_t>(c)].outstanding == 0) endCommTask(c);
    } else if (kind == kTagCombine) {
      const auto it = pushComm_.find(static_cast<std::uint64_t>(pairKey(tagSource(tag), tagToken(tag))));
      if (it != pushComm_.end()) {
        const int c = it->second;
        pushComm_.erase(it);
        if (--comm_[static_cast<std::size_t>(c)].outstanding == 0) endCommTask(c);
      }
    }
  }
  for (;;) {
    const auto started = sched_.fill();
    if (started.empty()) break;
    for (const StartedBatch& b : started) startBatch(b);
  }
  checkStageEnd();
}

void PipelineAgent::startBatch(const StartedBatch& b) {
  const MoePlan& plan = *s_.plan;
  const int T = p_.tiles.tileTokens;
  const ReadyWork& w = b.work;
  const auto cause = static_cast<std::uint64_t>(w.cause);
  if (w.kind == kTaskGemm1 || w.kind == kTaskGemm2) {
    Tile& tile = tiles_[static_cast<std::size_t>(w.id)];
    Time d = noisy(p_.tiles.tbTime[w.kind - 1][static_cast<std::size_t>(rank_)]);
    if (p_.useTracker) d += ts_.access(tile.spilled);  // polling a spilled Tile Status entry
    const int r = record(taskKind(w.kind), b.group, w.id, tile.rows, w.units, cause, workKey(rank_, w.kind, step_, w.id));
    tasks_[static_cast<std::size_t>(r)].end = now() + d;
    wakeAt(now() + d, kBatchDone | static_cast<std::uint64_t>(r));
    return;
  }
  std::vector<Post> posts;
  ++commOpen_;
  if (w.kind == kTaskDispatch) {
    const int c = w.id, first = c * T, last = std::min(plan.tokens, first + T);
    comm_[static_cast<std::size_t>(c)].record =
        record(PipelineTaskKind::Dispatch, b.group, c, last - first, 1, ~0ull, workKey(rank_, kTaskDispatch, step_, c));
    for (int t = first; t < last; ++t)
      if (p_.useTracker) orSpilled_[static_cast<std::size_t>(t)] = or_.allocate();
    if (c == 0) padding(posts);
    if (s_.dispatchWindow > 0) {
      comm_[static_cast<std::size_t>(c)].outstanding = static_cast<int>(posts.size()) + (last - first);
      postAll(posts);
      chunkNext_[static_cast<std::size_t>(c)] = first;
      openChunks_.push_back(c);
      for (int t = first; t < last; ++t) tokenArrived(rank_, t);  // local experts read it in place
      postDispatchTokens();
      return;
    }
    for (int t = first; t < last; ++t) dispatchToken(t, posts);
    comm_[static_cast<std::size_t>(c)].outstanding = static_cast<int>(posts.size());
    postAll(posts);
    for (int t = first; t < last; ++t) tokenArrived(rank_, t);  // local experts read it in place
    if (posts.empty()) endCommTask(c);
    return;
  }
  // Combine: take what is ready now, up to a tile of tokens.
  const int c = static_cast<int>(comm_.size());
  comm_.push_back({});
  std::uint64_t last = ~0ull;
  int n = 0;
  if (s_.inSwitch()) {
    const int room = ldReduceLimit() - ldReduceInFlight_;
    while (!combinePending_.empty() && n < std::min(T, room)) {
      const int t = combinePending_.back();
      last = pendingCause_.back();
      combinePending_.pop_back();
      pendingCause_.pop_back();
      combineRequest(t, posts);
      tokenComm_[static_cast<std::size_t>(t)] = c;
      ++ldReduceInFlight_;
      ++n;
    }
  } else {
    while (!pushPending_.empty() && n < T) {
      const std::int64_t k = pushPending_.back();
      pushPending_.pop_back();
      combinePush(static_cast<int>(k >> 32), static_cast<int>(k & 0xffffffff), posts);
      pushComm_[static_cast<std::uint64_t>(k)] = c;
      ++n;
    }
    last = pushCause_;
    for (; !padPending_.empty(); padPending_.pop_back()) {
      const auto [k, bytes] = padPending_.back();
      net::Message m = message(net::Op::Write, bytes, kCombine, static_cast<int>(k >> 32), static_cast<int>(k & 0xffffffff));
      m.firstPiece = 0;
      m.destination = s_.nodeOf[static_cast<std::size_t>(k >> 32)];
      posts.push_back({m, kCombine, kUseless});
      pushComm_[static_cast<std::uint64_t>(k)] = c;
    }
  }
  comm_[static_cast<std::size_t>(c)].record =
      record(PipelineTaskKind::Combine, b.group, -1, n, 1, last, workKey(rank_, kTaskCombine, step_, c));
  comm_[static_cast<std::size_t>(c)].outstanding = static_cast<int>(posts.size());
  postAll(posts);
  if (!combinePending_.empty() || !pushPending_.empty() || !padPending_.empty()) sched_.push({kTaskCombine, -1, 1, 0, order_++, -1});
  // Every MultimemQ entry busy: no more ld_reduce until results come back.
  if (s_.inSwitch() && ldReduceInFlight_ >= ldReduceLimit()) sched_.setEnabled(kTaskCombine, false);
  if (posts.empty()) endCommTask(c);
}

void PipelineAgent::postDispatchTokens() {
  const int T = p_.tiles.tileTokens, limit = dispatchLimit();
  std::vector<Post> posts;
  std::vector<int> finished;
  while (!openChunks_.empty() && dispatchInFlight_ < limit) {
    const int c = openChunks_.front();
    int& next = chunkNext_[static_cast<std::size_t>(c)];
    const int t = next++;
    if (next == std::min(s_.plan->tokens, (c + 1) * T)) openChunks_.pop_front();
    if (acksLeft_[static_cast<std::size_t>(t)] == 0) {  // no remote destination
      if (--comm_[static_cast<std::size_t>(c)].outstanding == 0) finished.push_back(c);
      continue;
    }
    dispatchToken(t, posts);
    ++dispatchInFlight_;
  }
  postAll(posts);
  for (int c : finished) endCommTask(c);
}

// Every destination has the token: its MultimemQ entries are free for the next one.
void PipelineAgent::dispatchAcked(int token) {
  if (--acksLeft_[static_cast<std::size_t>(token)] > 0) return;
  --dispatchInFlight_;
  const int c = token / p_.tiles.tileTokens;
  if (--comm_[static_cast<std::size_t>(c)].outstanding == 0) endCommTask(c);
  postDispatchTokens();
}

void PipelineAgent::batchDone(int r) {
  const PipelineTask& task = tasks_[static_cast<std::size_t>(r)];
  sched_.release(task.group, task.sms);
  const int kind = static_cast<int>(task.kind);
  Tile& tile = tiles_[static_cast<std::size_t>(task.tile)];
  tile.done[kind - 1] += task.sms;
  if (tile.done[kind - 1] == p_.tiles.tbPerRow[kind - 1]) {
    const std::uint64_t key = workKey(rank_, kind, step_, task.tile);
    if (kind == kTaskGemm1) {
      tileReady(task.tile, kTaskGemm2, key);
    } else {
      ++gemm2Done_;
      if (p_.useTracker) ts_.release();
      if (--gemm2RowsLeft_[static_cast<std::size_t>(tile.expert)] == 0) combinePadding(tile.expert);
      gemm2RowDone(tile, task.tile, key);
    }
  }
  run();
}

// A GEMM-2 row is done: its tokens' outputs on this GPU may now be complete.
void PipelineAgent::gemm2RowDone(const Tile& tile, int tileIndex, std::uint64_t key) {
  const MoePlan& plan = *s_.plan;
  const int T = p_.tiles.tileTokens;
  const auto& arrived = arrivals_[static_cast<std::size_t>(tile.expert)];
  const auto first = static_cast<std::size_t>(tile.index) * static_cast<std::size_t>(T);
  std::vector<int> sources;
  for (std::size_t i = first; i < std::min(arrived.size(), first + static_cast<std::size_t>(T)); ++i) {
    const int src = static_cast<int>(arrived[i] >> 32), t = static_cast<int>(arrived[i] & 0xffffffff);
    auto& left = localLeft_[static_cast<std::size_t>(src) * static_cast<std::size_t>(plan.tokens) + static_cast<std::size_t>(t)];
    if (--left > 0) continue;
    if (src == rank_) {
      ownState_[static_cast<std::size_t>(t)] |= kLocal;
      if (s_.inSwitch() && p_.notifications) countReady(t, key);
      ownTokenDone(t);
    } else if (!s_.inSwitch()) {
      pushPending_.push_back(arrived[i]);
      pushCause_ = key;
    } else if (p_.notifications) {
      auto& list = notifyLists_[static_cast<std::size_t>(tileIndex) * static_cast<std::size_t>(plan.gpus) + static_cast<std::size_t>(src)];
      if (list.empty()) sources.push_back(src);
      list.push_back(t);
    }
  }
  if ((!pushPending_.empty() || !padPending_.empty()) && sched_.enabled(kTaskCombine) && !sched_.queued(kTaskCombine))
    sched_.push({kTaskCombine, -1, 1, 0, 0, -1});
  // One readiness notification per source GPU with its tokens of this row (seed 000 §IV-B2).
  for (int src : sources) {
    const std::size_t index = static_cast<std::size_t>(tileIndex) * static_cast<std::size_t>(plan.gpus) + static_cast<std::size_t>(src);
    net::Message m = message(net::Op::Write, 0, kTagNotify, rank_, static_cast<int>(index));
    m.bytes = std::min<std::int64_t>(s_.packetPayload, std::max<std::int64_t>(16, 4 * static_cast<std::int64_t>(notifyLists_[index].size())));
    m.firstPiece = 0;
    m.destination = s_.nodeOf[static_cast<std::size_t>(src)];
    post(m, kCombine, -1);  // control traffic: counted as overhead
  }
}

void PipelineAgent::endCommTask(int c) {
  CommTask& task = comm_[static_cast<std::size_t>(c)];
  PipelineTask& r = tasks_[static_cast<std::size_t>(task.record)];
  r.end = now();
  --commOpen_;
  sched_.release(r.group, 1);
  if (c < chunks_) ++chunksSent_;
  kick();
}

void PipelineAgent::tileReady(int tile, int kind, std::uint64_t cause) {
  sched_.push({kind, tile, p_.tiles.tbPerRow[kind - 1], 0, order_++, static_cast<std::int64_t>(cause)});
}

void PipelineAgent::tokenArrived(int source, int token) {
  const MoePlan& plan = *s_.plan;
  const int T = p_.tiles.tileTokens;
  const std::uint64_t cause = workKey(source, kTaskDispatch, step_, token / T);
  const std::size_t at = (static_cast<std::size_t>(source) * plan.tokens + token) * plan.topK;
  for (int j = 0; j < plan.topK; ++j) {
    const auto e = static_cast<std::size_t>(plan.chosen[at + static_cast<std::size_t>(j)]);
    if (plan.expertGpu[e] != rank_) continue;
    const auto le = static_cast<std::size_t>(plan.expertLocal[e]);
    ++localLeft_[static_cast<std::size_t>(source) * plan.tokens + token];
    ++arrivedFrom_[le * static_cast<std::size_t>(plan.gpus) + static_cast<std::size_t>(source)];
    auto& arrived = arrivals_[le];
    arrived.push_back(pairKey(source, token));
    const std::int64_t n = static_cast<std::int64_t>(arrived.size());
    const std::int64_t routed = plan.expertRows[static_cast<std::size_t>(rank_)][le];
    const int tile = tileBase_[le] + static_cast<int>((n - 1) / T);
    if ((n - 1) % T == 0 && p_.useTracker) tiles_[static_cast<std::size_t>(tile)].spilled = ts_.allocate();
    if (n % T == 0 || n == routed) tileReady(tile, kTaskGemm1, cause);
    if (n == routed) {  // rows padded to capacity: their tiles are ready with the last token
      const int end = le + 1 < tileBase_.size() ? tileBase_[le + 1] : static_cast<int>(tiles_.size());
      for (int extra = tile + 1; extra < end; ++extra) tileReady(extra, kTaskGemm1, cause);
    }
  }
  kick();
}

void PipelineAgent::tokenCombined(int token) {
  ownState_[static_cast<std::size_t>(token)] |= kNet;
  if (s_.inSwitch() && tokenComm_[static_cast<std::size_t>(token)] >= 0) {
    --ldReduceInFlight_;
    if (stageStarted_ && stageHas(kTaskCombine)) {
      sched_.setEnabled(kTaskCombine, true);
      // Tokens that became ready while every ld_reduce slot was busy found no combine
      // task to join: queue one for them now.
      if (!combinePending_.empty() && !sched_.queued(kTaskCombine)) sched_.push({kTaskCombine, -1, 1, 0, order_++, -1});
    }
  }
  ownTokenDone(token);
  kick();
}

void PipelineAgent::notified(const net::Packet& p) {
  const int from = tagSource(p.tag);
  const auto index = static_cast<std::size_t>(tagToken(p.tag));
  const std::uint64_t cause = workKey(from, kTaskGemm2, step_, static_cast<std::int64_t>(index / static_cast<std::size_t>(s_.plan->gpus)));
  for (std::int32_t t : p_.agents[static_cast<std::size_t>(from)]->notifyList(index)) countReady(t, cause);
  kick();
}

// Output Readiness: one count per remote GPU hosting the token's experts, one for its
// local experts; complete, the token's ld_reduce can go.
void PipelineAgent::countReady(int t, std::uint64_t cause) {
  const TokenRoute& r = s_.plan->route(rank_, t);
  const int needed = static_cast<int>(r.gpus.size()) + hasLocal_[static_cast<std::size_t>(t)];
  if (++readyCount_[static_cast<std::size_t>(t)] < needed || (ownState_[static_cast<std::size_t>(t)] & kNet)) return;
  if (p_.useTracker && orSpilled_[static_cast<std::size_t>(t)]) {
    wakeAt(now() + or_.access(true), kOrReady | static_cast<std::uint64_t>(t));
    return;
  }
  combinePending_.push_back(t);
  pendingCause_.push_back(cause);
  if (sched_.enabled(kTaskCombine) && !sched_.queued(kTaskCombine)) sched_.push({kTaskCombine, -1, 1, 0, 0, -1});
}

void PipelineAgent::ownTokenDone(int t) {
  auto& st = ownState_[static_cast<std::size_t>(t)];
  if ((st & (kNet | kLocal)) != (kNet | kLocal) || (st & kDone)) return;
  st |= kDone;
  ++ownDone_;
  if (p_.useTracker) or_.release();
}

void PipelineAgent::checkStageEnd() {
  if (passEnded_ || stage_ < 0 || !stageStarted_) return;
  const bool sequential = p_.layout.stages.size() == 4;
  const bool dispatched = chunksSent_ == chunks_ && dispatchBytesIn_ >= dispatchExpected_;
  // Asked only where it decides: a scan of every tile, and this runs after each task.
  const auto gemm1 = [&] {
    return std::all_of(tiles_.begin(), tiles_.end(), [&](const Tile& t) { return t.done[0] == p_.tiles.tbPerRow[0]; });
  };
  const bool last = stage_ + 1 == static_cast<int>(p_.layout.stages.size());
  if (!last) {
    bool done = false;
    if (sequential && stage_ == 0) done = dispatched;
    else if (sequential && stage_ == 1) done = gemm1();
    else if (sequential && stage_ == 2) done = gemm2Done_ == static_cast<int>(tiles_.size());
    else done = dispatched && gemm1();  // overlap's first kernel
    if (!done) return;
    stageStarted_ = false;
    endPhase();
    const KernelStage& next = p_.layout.stages[static_cast<std::size_t>(stage_ + 1)];
    if (next.barrierBefore) arriveAtBarrier(step_ * kBarriersPerPass + (stage_ == 0 ? kAfterDispatch : kBeforeCombine));
    else startStage(stage_ + 1);
    return;
  }
  const bool commIdle = commOpen_ == 0;
  if (ownDone_ < s_.plan->tokens || gemm2Done_ < static_cast<int>(tiles_.size()) || !pushPending_.empty() || !padPending_.empty() ||
      !dispatched || !commIdle)
    return;
  passEnded_ = true;
  stageStarted_ = false;
  endPhase();
  osBusy_ += static_cast<Time>(p_.layout.osSms) * (now() - kernelStart_);
  arriveAtBarrier(step_ * kBarriersPerPass + kPassEnd);
}

void PipelineAgent::arriveAtBarrier(int id) {
  barrierRecord_ = record(PipelineTaskKind::Barrier, kWholeGpu, id, 0, 0, ~0ull, ~0ull);
  schedule(now() + s_.barrierLatency, s_.coordinator, kBarrierArrive, static_cast<std::uint32_t>(id), 0);
}

}  // namespace fl::work
