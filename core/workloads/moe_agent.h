// The communication side of an MoE layer on one GPU (seed 000 §II–III): posting a token's
// dispatch and combine messages as the communication scheme wants them, counting every
// packet by what it achieves (moe_accounting.h), the destination hub's AL TLB, and
// noticing when a token's dispatched vector or its combined output has fully arrived.
// MoeAgent itself runs the comm_only mode (Dispatch and Combine at once, no compute);
// PipelineAgent (moe_pipeline_agent.h) schedules the same messages from SM tasks.
#pragma once
#include <string>
#include <vector>

#include "gpu/al_tlb.h"
#include "network/wire_format.h"
#include "workloads/agent.h"
#include "workloads/moe_accounting.h"
#include "workloads/moe_plan.h"

namespace fl::work {

// Message tags: phase (dispatch, combine, notify) | source GPU | token (or a notification
// list index on the notifying GPU).
enum MoeTagKind : int { kTagDispatch = 0, kTagCombine = 1, kTagNotify = 2 };
inline std::uint64_t moeTag(int kind, int source, int token) {
  return (static_cast<std::uint64_t>(kind) << 62) | (static_cast<std::uint64_t>(source) << 32) |
         static_cast<std::uint64_t>(static_cast<std::uint32_t>(token));
}
inline int tagPhase(std::uint64_t tag) { return static_cast<int>(tag >> 62); }
inline int tagSource(std::uint64_t tag) { return static_cast<int>((tag >> 32) & 0x3fffffffu); }
inline int tagToken(std::uint64_t tag) { return static_cast<int>(tag & 0xffffffffu); }

// Barrier messages to the coordinator; a release comes back as timer arg kReleaseBase + id.
constexpr std::uint32_t kBarrierArrive = 102;
constexpr std::uint64_t kReleaseBase = 100;

// What every agent reads: the plan, the scheme and the multicast groups made for it.
struct MoeShared {
  const MoePlan* plan = nullptr;
  const Scenario* scenario = nullptr;
  MoeCommunication comm = MoeCommunication::DeepEp;
  MoeFusion fusion = MoeFusion::Sequential;
  std::vector<int> tokenGroup;   // dysharp/explicit: [gpu * tokens + token], -1 without remote
  std::vector<int> staticGroup;  // nvls_static: per source, every other GPU
  std::vector<topo::NodeId> nodeOf;
  std::int64_t packetPayload = 256;
  net::WireFormat wire;
  Time barrierLatency = 0;
  int tlbEntries = 512;
  Time alTableLatency = 0;
  // dysharp token pipelines: tokens a dispatch SM may have unacknowledged (the LSU's
  // MultimemQ, scheme.dysharp.st_in_flight); destinations acknowledge each whole token.
  // 0: Dispatch is paced by link credits only.
  int dispatchWindow = 0;
  // Issue rates (bytes/s) of a GPU's Dispatch and Combine SMs (gpu.sm_comm_bandwidth x
  // their SMs): endpoint issue gates 1 and 2. 0: the links alone limit them.
  double issueRate[2] = {0, 0};
  ComponentId coordinator = 0;
  std::vector<ComponentId> agents;

  bool inSwitch() const { return comm != MoeCommunication::DeepEp; }
  bool dynamic() const { return comm == MoeCommunication::DySharp || comm == MoeCommunication::Explicit; }
  // Only dynamic multimem addressing translates algebraic indices in the hub (AL TLB);
  // explicit addressing carries the final addresses.
  bool translates() const { return comm == MoeCommunication::DySharp; }
  int requestExtension(const TokenRoute& r) const;
  bool needs(int gpu, int source, int token) const;
  int group(int gpu, int token) const {
    return tokenGroup[static_cast<std::size_t>(gpu) * static_cast<std::size_t>(plan->tokens) + static_cast<std::size_t>(token)];
  }
};

// Barriers between synchronous kernels: every GPU reports, all are released together one
// barrier latency later (a flag round trip over NVLink). Arrivals with `arg` 1 are only
// recorded (a pass end of an asynchronous scheme). Keeps each barrier's arrival spread:
// the time the fastest GPU waited for the slowest (seed 001 §3.1's straggler delay).
class BarrierCoordinator : public Component {
 public:
  explicit BarrierCoordinator(const MoeShared& s) : shared_(s) {}
  void handle(const Event& e) override;
  // Last minus first arrival of barrier `id` (0 if it never completed).
  Time spread(std::uint32_t id) const;

 private:
  struct Meeting {
    int arrived = 0;
    Time first = 0, last = 0;
  };
  const MoeShared& shared_;
  std::vector<Meeting> meetings_;
};

class MoeAgent : public Agent {
 public:
  MoeAgent(net::EndpointNode& ep, const MoeShared& s, int rank);

  const MoeAccounting& accounting() const { return acc_; }
  std::string name() const { return "gpu" + std::to_string(rank_); }
  int rank() const { return rank_; }
  const AlTlb& tlb() const { return tlb_; }

  void start() override;  // comm_only: all dispatch and combine messages at once
  Time responseDelay(const net::Packet& p) override;
  void onDelivered(const net::Packet& p) override;

 protected:
  struct Post {
    net::Message m;
    int phase, cls;
  };
  // NVLink packets a simulated packet of `bytes` stands for (the hub sees each one).
  int nvlinkPackets(std::uint32_t bytes) const;
  void post(net::Message m, int phase, int cls);
  void postAll(const std::vector<Post>& posts);
  net::Message message(net::Op op, std::int64_t bytes, int phase, int source, int token) const;
  // One token's dispatch from this GPU, as the scheme sends it.
  void dispatchToken(int token, std::vector<Post>& out) const;
  // The combine of one of this GPU's tokens as a request (in-switch schemes: ld_reduce).
  void combineRequest(int token, std::vector<Post>& out) const;
  // deepep: this GPU's expert output for (source, token) written back to its source.
  void combinePush(int source, int token, std::vector<Post>& out) const;
  void beginCombine(std::vector<Post>& out);  // every combine message of this GPU
  void checkDispatch();
  void checkCombine();

  // Hooks for schedulers: the whole dispatched vector of (source, token) is here; all
  // expert outputs of this GPU's `token` have arrived (reduced or not); a notification
  // (tag kTagNotify) came in; a destination acknowledged a dispatched token.
  virtual void tokenArrived(int source, int token) {}
  virtual void tokenCombined(int token) {}
  virtual void notified(const net::Packet& p) {}
  virtual void dispatchAcked(int token) {}  // a destination has all of this GPU's `token`
  virtual void dispatchComplete();  // every expected dispatch byte is here
  virtual void combineComplete();   // every expected combine operand is here
  void trackTokens();  // per-(source, token) dispatch arrival counters (pipelines only)
  bool trackTokens_ = false;

  const MoeShared& s_;
  int rank_;
  AlTlb tlb_;
  MoeAccounting acc_;
  std::vector<std::int64_t> combineGot_;       // per own token: output bytes received
  std::vector<std::int64_t> combineOperands_;  // per own token: operand bytes received
  std::vector<std::int32_t> dispatchGot_;      // per (source, token): bytes received
  std::int64_t dispatchExpected_ = 0, dispatchBytesIn_ = 0;
  std::int64_t combineExpected_ = 0, combineOperandsIn_ = 0;
  bool dispatchDone_ = false, combineStarted_ = false, combineDone_ = false;

 private:
  void combineArrived(int token, std::int64_t payload, std::int64_t operandBytes);
  void acknowledge(int source, int token);  // the whole token is here: tell its source
  std::int64_t combineOperandsExpected(int token) const;
};

}  // namespace fl::work
