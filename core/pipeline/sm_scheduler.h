// The SMs of one GPU as a fusion scheme partitions them (seed 000 §IV-C, seed 001 §4):
// groups of SMs, each serving some task kinds, fed from per-kind ready queues.
//   token_centric  Dispatch, GEMM-1, GEMM-2 and Combine groups; the GEMM groups take the
//                  other GEMM's thread blocks when their own kind has none ready;
//   persistent     one group of processors (all SMs but the OS block) taking ready tasks
//                  first come, first served (FlashDMoE's work-conserving scheduler);
//   sequential, overlap  communication SMs and compute SMs; kernel boundaries decide
//                  which kinds are enabled at all.
// GEMM work is counted in thread blocks (one output tile, one SM); communication tasks
// hold one SM each until the caller says they are done (their data has left or arrived).
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "engine/time.h"

namespace fl {

enum TaskKindIndex : int { kTaskDispatch = 0, kTaskGemm1 = 1, kTaskGemm2 = 2, kTaskCombine = 3, kTaskKinds = 4 };

struct SmGroup {
  std::string name;
  int sms = 0;
  std::vector<int> kinds;  // kinds served, in priority order
  bool firstComeFirstServed = false;  // across kinds by ready order instead of priority
  int free = 0;
};

// Work that is ready to run: a GEMM tile row (`units` thread blocks of `unitTime`), or a
// communication task (one unit; unitTime 0: ends when the caller says so).
struct ReadyWork {
  int kind = kTaskDispatch;
  std::int32_t id = -1;        // tile row or token chunk
  std::int32_t units = 1;
  Time unitTime = 0;
  std::int64_t order = 0;      // readiness order (first come, first served)
  std::int64_t cause = -1;     // opaque: what made it ready (for dependency chains)
};

// Units started together on one group.
struct StartedBatch {
  int group = 0;
  ReadyWork work;   // units = how many started in this batch
  bool last = false;  // the work item has no units left to start
};

class SmScheduler {
 public:
  explicit SmScheduler(std::vector<SmGroup> groups);

  void push(ReadyWork w);
  // Kinds outside the mask stay queued (a kernel that has not started yet).
  void setEnabled(int kind, bool on) { enabled_[static_cast<std::size_t>(kind)] = on; }
  bool enabled(int kind) const { return enabled_[static_cast<std::size_t>(kind)]; }
  // Starts as much ready work as free SMs allow.
  std::vector<StartedBatch> fill();
  void release(int group, int sms);

  const std::vector<SmGroup>& groups() const { return groups_; }
  bool queued(int kind) const { return !queues_[static_cast<std::size_t>(kind)].empty(); }
  int busy() const;  // SMs in use, all groups

 private:
  int pick(const SmGroup& g) const;  // kind to take from, -1 none

  std::vector<SmGroup> groups_;
  std::deque<ReadyWork> queues_[kTaskKinds];
  bool enabled_[kTaskKinds] = {true, true, true, true};
};

}  // namespace fl
