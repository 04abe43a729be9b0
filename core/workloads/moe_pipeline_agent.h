// An MoE layer scheduled as a token pipeline on one GPU (seed 000 §IV, seed 001 §4): the
// GPU's SMs, partitioned by the fusion scheme (pipeline/fusion_layout.h), take ready work
// (pipeline/sm_scheduler.h):
//   dispatch   a chunk of this GPU's tokens (tile_tokens of them) posted to the network;
//              the SM is busy until the chunk's last packet has left;
//   GEMM-1     a tile row of an expert (the next tile_tokens tokens that arrived for it,
//              in arrival order, as DySHARP's AL allocates layout blocks on first touch),
//              ready when its last token has arrived; thread blocks of pipeline/tile_plan.h;
//   GEMM-2     the same row, ready when its GEMM-1 row is done;
//   combine    in-switch schemes: ld_reduce requests for this GPU's tokens whose experts
//              have all notified it (the Output Readiness counter); the SM waits for the
//              reduced results. deepep: this GPU's expert outputs written back to their
//              sources (one partial per GPU once all its local experts are done).
// Kernels start after their host launches (scheme.launch) and a kernel-start jitter;
// synchronous schemes meet at barriers; every pass ends at a barrier so passes
// (scheme.stragglers.steps) do not mix. Every task is recorded for the pipeline view.
#pragma once
#include <unordered_map>
#include <deque>
#include <vector>

#include "engine/random.h"
#include "gpu/token_tracker.h"
#include "pipeline/fusion_layout.h"
#include "pipeline/tile_plan.h"
#include "workloads/moe_agent.h"

namespace fl::work {

class PipelineAgent;

inline std::int64_t pairKey(int source, int token) {
  return (static_cast<std::int64_t>(source) << 32) | static_cast<std::uint32_t>(token);
}

struct PipelineShared {
  TilePlan tiles;
  FusionLayout layout;
  Time launchOverhead = 0;
  StragglerSpec stragglers;
  TokenCentricSpec tracker;
  bool useTracker = false;       // token_centric: TS/OR tables with spill costs
  // Persistent without payload efficiency: rows of every (source GPU, expert) cell, sent
  // padded both ways (seed 001 §5.4, EC = cf x tokens / experts); 0 = no padding.
  std::int64_t paddedCapacity = 0;
  bool notifications = true;     // readiness messages (not needed after a barrier)
  std::vector<PipelineAgent*> agents;  // by rank, to read a peer's notification lists
  std::uint64_t seed = 1;
};

// Key of a piece of work, to link a task to the one that made it ready: GPU (16 bits),
// kind (4), pass (12: scheme.stragglers.steps is at most 4096), tile or chunk (32).
inline std::uint64_t workKey(int gpu, int kind, int step, std::int64_t id) {
  return (static_cast<std::uint64_t>(gpu) << 48) | (static_cast<std::uint64_t>(kind) << 44) |
         (static_cast<std::uint64_t>(step) << 32) | static_cast<std::uint32_t>(id);
}

class PipelineAgent : public MoeAgent {
 public:
  PipelineAgent(net::EndpointNode& ep, const MoeShared& s, const PipelineShared& p, int rank);

  void start() override;
  void onTimer(std::uint64_t what) override;
  void onSent(std::uint64_t tag) override;

  // What it did, with `cause` keys (workKey) still to be resolved into task indices.
  const std::vector<PipelineTask>& tasks() const { return tasks_; }
  const std::vector<std::uint64_t>& causes() const { return causes_; }
  const std::vector<std::uint64_t>& keys() const { return keys_; }
  Time launchWait() const { return launchWait_; }
  const TrackerTable& tsTable() const { return ts_; }
  const TrackerTable& orTable() const { return or_; }
  Time busyOsTime() const { return osBusy_; }
  // Written once before the notification carrying `index` is posted, then only read.
  const std::vector<std::int32_t>& notifyList(std::size_t index) const { return notifyLists_[index]; }

 protected:
  void tokenArrived(int source, int token) override;
  void tokenCombined(int token) override;
  void notified(const net::Packet& p) override;
  void dispatchAcked(int token) override;
  // The last dispatch byte may be one no local expert needs (static NVLS sends every
  // token everywhere): the stage-end check must still run.
  void dispatchComplete() override { kick(); }
  void combineComplete() override {}

 private:
  struct Tile {
    int expert = 0, index = 0;       // local expert, row index
    int rows = 0;
    int done[2] = {0, 0};            // thread blocks finished, GEMM-1 and GEMM-2
    bool spilled = false;            // its Tile Status entry is in DRAM
  };
  struct CommTask {
    int record = -1;
    int outstanding = 0;  // messages not yet sent, or results not yet arrived
  };

  void beginPass();
  void startStage(int stage);
  void kick();
  void run();  // starts what the SMs can take, posts what that starts
  void startBatch(const StartedBatch& b);
  void batchDone(int record);
  void endCommTask(int commTask);
  void tileReady(int tile, int kind, std::uint64_t cause);
  void outputReady(int source, int token, std::uint64_t cause);  // this GPU's experts are done with it
  void ownTokenReady(int token, std::uint64_t cause);             // all its outputs can be combined
  void ownTokenDone(int token);
  void checkStageEnd();
  void arriveAtBarrier(int id);
  void gemm2RowDone(const Tile& tile, int tileIndex, std::uint64_t key);
  void countReady(int token, std::uint64_t cause);
  // With a dispatch window: posts the open dispatch tasks' next tokens, oldest task first,
  // while fewer than dispatchLimit() are unacknowledged (tokens without a remote
  // destination are done at once); ends a task when all its tokens are acknowledged.
  void postDispatchTokens();
  int dispatchLimit() const;
  void padding(std::vector<Post>& out) const;  // persistent without payload efficiency
  void combinePadding(int localExpert);        // the same, on the way back
  int record(PipelineTaskKind kind, int group, int tile, int tokens, int sms, std::uint64_t cause, std::uint64_t key);
  Time noisy(Time t);
  bool stageHas(int kind) const;

  const PipelineShared& p_;
  SmScheduler sched_;
  RandomStream rng_;
  TrackerTable ts_, or_;
  int step_ = 0, stage_ = -1;
  bool kickPending_ = false, passEnded_ = false, stageStarted_ = false;
  std::int64_t order_ = 0;  // readiness order of queued work
  int commOpen_ = 0;        // communication tasks not yet ended
  int barrierRecord_ = -1;  // the barrier this GPU waits at (its task record), -1 none
  // ld_reduce requests whose results have not all arrived, at most
  // scheme.dysharp.ld_reduce_in_flight per SM that may issue combines.
  int ldReduceInFlight_ = 0;
  // With a dispatch window (MoeShared::dispatchWindow): per chunk, its next token to post;
  // per own token, destinations yet to acknowledge it; started chunks with tokens still
  // to post, oldest first; tokens posted and not yet acknowledged by every destination.
  std::vector<int> chunkNext_, acksLeft_;
  std::deque<int> openChunks_;
  int dispatchInFlight_ = 0;
  int ldReduceLimit() const;
  std::vector<std::uint64_t> sentTags_;

  // Expert side (this GPU's experts).
  std::vector<std::vector<std::int64_t>> arrivals_;  // per local expert: (source << 32 | token)
  std::vector<int> tileBase_;                        // first tile of each local expert
  std::vector<Tile> tiles_;
  std::vector<std::int8_t> localLeft_;               // per (source, token): local experts not done
  int gemm2Done_ = 0;
  std::vector<std::vector<std::int32_t>> notifyLists_;  // [tile * gpus + source]
  std::vector<std::int64_t> pushPending_;            // deepep: outputs ready to write back
  // Persistent without payload efficiency: an expert's output cells padded to capacity,
  // (source << 32 | local expert) -> bytes, sent back once the expert is done.
  std::vector<std::pair<std::int64_t, std::int64_t>> padPending_;
  std::vector<std::int32_t> arrivedFrom_;            // [local expert * gpus + source]: tokens
  std::vector<std::int32_t> gemm2RowsLeft_;          // per local expert: GEMM-2 rows not done
  std::uint64_t pushCause_ = ~0ull;

  // Source side (this GPU's tokens).
  int chunks_ = 0, chunksSent_ = 0;
  std::vector<CommTask> comm_;                       // dispatch chunks first, then combines
  std::vector<std::int32_t> tokenComm_;              // own token -> combine comm task
  std::unordered_map<std::uint64_t, std::int32_t> pushComm_;  // (source, token) -> comm task
  std::vector<std::int16_t> readyCount_;             // own token: notifications so far
  std::vector<std::uint8_t> ownState_;               // bit 0 net combined, 1 local ready, 2 done
  std::vector<std::uint8_t> orSpilled_;
  std::vector<std::uint8_t> hasLocal_;               // own token: one of its experts is here
  std::vector<std::int32_t> combinePending_;         // own tokens ready for ld_reduce
  std::vector<std::uint64_t> pendingCause_;
  int ownDone_ = 0;

  std::vector<PipelineTask> tasks_;
  std::vector<std::uint64_t> causes_, keys_;
  Time launchWait_ = 0, osBusy_ = 0, kernelStart_ = 0;
};

}  // namespace fl::work
