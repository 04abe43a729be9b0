// An input-buffered switch with virtual channels: NVSwitch chips, hierarchy switches
// and the routers inside mesh dies. Each input VC buffer is organised as virtual output
// queues: a packet requests its output(s) as soon as its head arrives, so a packet
// waiting for a busy output (or a multicast waiting for its last replica) never blocks
// packets behind it bound elsewhere; order is kept per (input, VC, output).
// Deterministic routing from the topology, round-robin output arbitration within strict
// VC priority levels (NetworkConfig::vcPriority: a CAIS control VC high, a background
// class low), virtual cut-through, and in-switch computing as NVLink SHARP ships it: multicast
// (multimem.st), pull reduction (multimem.ld_reduce) and push reduction (multimem.red)
// with a per-port reduction buffer.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/flat_map.h"
#include <memory>

#include "network/group_sync_table.h"
#include "network/merge_unit.h"
#include "network/network_node.h"
#include "network/reduction_buffer.h"
#include "network/virtual_output_queue.h"
#include "results/results.h"

namespace fl::net {

struct SwitchStats {
  std::int64_t packetsForwarded = 0;
  std::int64_t multicastReplicas = 0;  // extra copies beyond the first
  std::int64_t reductions = 0;
  std::int64_t contributions = 0;
  std::int64_t reductionHits = 0;      // contributions that evicted nothing
  std::int64_t partialResults = 0;     // results sent early because of eviction
  std::int64_t packetsCreated = 0;     // replicas and reduction results made here
  std::int64_t packetsConsumed = 0;    // operands and multicast originals ending here
  BinSeries reductionBins;             // completed reductions per time bin (canvas glyphs)
  BinSeries replicaBins;               // multicast replicas per time bin
};

class SwitchNode : public NetworkNode {
 public:
  SwitchNode(Network& net, topo::NodeId node);
  void wire() override;
  void handle(const Event& e) override;
  void prefetch(const Event& e, bool near) const override;
  void prefetchMid(const Event& e) const override;

  const SwitchStats& stats() const { return stats_; }
  const std::vector<ReductionBuffer>& reductionBuffers() const { return buffers_; }
  // Reduction buffers over time, for Results (ports with activity only). Not const: it
  // first files the arrival times noted since the last call (drainArrivals()).
  void collectReductionHistory(SwitchResult& out, const topo::Topology& t);
  // CAIS merge units (one per home GPU seen), for Results.
  const std::vector<MergeUnit>& mergeUnits() const { return merge_; }
  const GroupSyncTable* groupSync() const { return groupSync_.get(); }
  void collectMergeUnits(SwitchResult& out, const topo::Topology& t);

 private:
  using Request = OutputRequest;
  // Lazy port release for multicast replicas. A replica's kOutputFree only marks its
  // port idle, unless it is the last of its packet's replicas to finish, which frees the
  // original (and its input buffer space); half of them find nothing queued for the
  // port. So a replica's event takes its order when the replica starts but is scheduled
  // only if work is queued for the port before then (every queue push ends in
  // tryArbitrate(), which does) or, once every replica has started, if it is the one
  // that finishes last (latest (time, order)). A port found past that time is idle.
  // The run is the same event for event, less those no-ops, which count as handled
  // (elidedOwnEvents).
  // OutPort::freeDeferred marks an event neither scheduled nor passed. (Kept apart from
  // OutState, which the event hints already fetch two cache lines of.)
  struct OutState {
    VirtualOutputQueue queue;
    Request current{};
  };
  struct ReplicaFree {
    Time at = 0;                 // the current replica's kOutputFree
    std::uint64_t order = 0;
    bool freesOriginal = false;  // it is the original's last replica to finish
  };

  int internalPort() const { return static_cast<int>(out_.size()); }
  std::uint32_t slotOf(int inPort, int vc) const;
  void arrive(int inPort, PacketHandle h);
  void requestOutput(int port, const Request& r);
  void multicast(int inPort, PacketHandle h, std::int32_t flits, Op replicaOp);
  void release(int inPort, int vc, std::int32_t flits);
  void tryArbitrate(int port);
  // Sends the replica that request `r` granted on `port` (see ReplicaFree).
  void startReplica(int port, const Request& r);
  // A busy port whose kOutputFree is pending: true if that has passed (the port is idle
  // now); else schedules the event (work is queued for the port).
  bool settleFree(int port);
  void scheduleFree(int port);  // a deferred kOutputFree, unless scheduled already
  bool freePassed(int port) const {
    const ReplicaFree& f = frees_[static_cast<std::size_t>(port)];
    return f.at < now() || (f.at == now() && f.order < currentOrder());
  }
  // A deferred kOutputFree found passed: the port has been idle since; the event counts.
  void freedUnseen(OutPort& o) {
    o.freeDeferred = false;
    o.busy = false;
    ++elidedFrees_;
  }
  std::int64_t elidedOwnEvents(Time limit, Time& last) const override;
  bool waitingForCredits(int port) const override;
  void finishTransmission(int port);
  int chooseOutput(topo::NodeId dst);
  void reduce(const Packet& p, int bufferPort);
  void emitResult(const ReductionEntry& e, Op requestOp, Time ready);

  std::vector<std::int64_t> occupancy_;  // flits by slotOf(port (+ internal), vc): one load, not two
  std::vector<OutState> outState_;
  std::vector<ReplicaFree> frees_;  // per port
  std::int64_t elidedFrees_ = 0;
  std::vector<ReductionBuffer> buffers_;   // per port
  FlatMap<std::uint16_t> forwarded_;  // contributions sent early
  std::vector<int> candidates_;
  // Routes are static: each destination's candidate ports are asked of the topology once
  // (a virtual call filling a vector on every packet otherwise) and kept flat here.
  struct Route {
    std::uint32_t start = UINT32_MAX;  // into routePorts_; UINT32_MAX: not asked yet
    std::uint32_t count = 0;
  };
  std::vector<Route> routes_;  // by destination node
  std::vector<int> routePorts_;
  const int* hintedRoute(topo::NodeId dst, std::uint32_t& count) const;
  void prefetchReplicaPorts(const Packet& p) const;
  std::vector<int> ports_;
  std::vector<ReductionEntry> evicted_;
  void noteReductionOccupancy(int port, std::int64_t before, std::int64_t evictions);
  void logEntry(const ReductionEntry& e, bool evicted);

  struct Occupancy {
    BinSeries entries, evictions;
    std::int32_t bin = -1;
    std::int64_t peak = 0;     // in the current bin
    std::int64_t evicted = 0;  // in the current bin
    std::int64_t total = 0;
  };
  std::vector<Occupancy> reductionHistory_;  // per port; empty until the first reduction
  std::vector<ReductionEntryRecord> entryLog_;
  bool entryLogTruncated_ = false;
  // When each contribution to a loggable entry arrived: appended to one stream of
  // (entry's log id, offset from its start), one warm cache line per contribution (a
  // vector per entry cost two scattered misses, ~440 cycles, 11 % of a 512-token DySHARP
  // run). Every kDrainNotes notes, and when results are collected, the notes of entries
  // logged by then go to their record's slice of entryArrivals_; those of live entries
  // wait for the next drain (switch_reduction_history.cpp).
  static constexpr std::uint32_t kNotLogged = UINT32_MAX;
  static constexpr std::uint32_t kDropped = UINT32_MAX - 1;  // recordOf_: never to be logged
  static constexpr std::size_t kDrainNotes = 1 << 16;
  struct ArrivalNote {
    std::uint32_t entry = 0;   // ReductionEntry::logId
    std::uint32_t offset = 0;  // ps since the entry's start; kLongOffset: in longOffsets_
  };
  static constexpr std::uint32_t kLongOffset = UINT32_MAX;
  std::vector<ArrivalNote> arrivalNotes_;
  std::vector<Time> longOffsets_;         // offsets >= kLongOffset ps, in note order
  std::vector<std::uint32_t> recordOf_;   // by log id: its entryLog_ record, kNotLogged, kDropped
  std::vector<std::uint16_t> filed_;      // by record: offsets filed so far
  std::vector<std::uint32_t> entryArrivals_;
  std::uint32_t nextLogId_ = 0;
  void noteArrivals(ReductionEntry& e, int contributions);
  void drainArrivals();
  std::uint32_t spread_ = 0;
  Time reductionEngineFree_ = 0;

  // CAIS (switch_merge.cpp): ld.cais / red.cais / the home's data end here and go
  // through the merge unit of the port towards their home GPU (made on first use).
  void cais(int inPort, PacketHandle h);
  int mergeUnitFor(topo::NodeId home);
  int firstPortTowards(topo::NodeId home);
  void emitCais(Op op, topo::NodeId to, std::int32_t requester, const Packet& like, std::uint32_t bytes,
                std::uint16_t contributions);
  void flushMerged(topo::NodeId home, const Packet& like);
  void armMergeTimer(int unit);
  void mergeTimeout(int unit);
  std::vector<MergeUnit> merge_;
  std::vector<topo::NodeId> mergeHome_;  // by unit
  MergeLogRoom mergeLogRoom_;  // the units' logs together: what collectMergeUnits keeps
  std::vector<Time> mergeTimer_;         // by unit: the pending kMergeTimeout (-1: none)
  std::vector<std::int32_t> mergeOf_;    // by node id: its unit (-1: none yet)
  std::vector<MergeFlush> flushes_;
  std::vector<std::int32_t> answer_;
  // TB-group coordination (switch_group_sync.cpp): SYNC packets end here.
  void caisSync(int inPort, PacketHandle h);
  std::unique_ptr<GroupSyncTable> groupSync_;  // made on the first SYNC
  std::vector<std::pair<std::int32_t, bool>> throttle_;
  SwitchStats stats_;
};

}  // namespace fl::net
