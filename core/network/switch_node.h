// An input-buffered switch with virtual channels: NVSwitch chips, hierarchy switches
// and the routers inside mesh dies. Deterministic routing from the topology, round-robin
// output arbitration, virtual cut-through, and in-switch computing as NVLink SHARP
// ships it: multicast (multimem.st), pull reduction (multimem.ld_reduce) and push
// reduction (multimem.red) with a per-port reduction buffer.
#pragma once
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "network/network_node.h"
#include "network/reduction_buffer.h"

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
};

class SwitchNode : public NetworkNode {
 public:
  SwitchNode(Network& net, topo::NodeId node);
  void wire() override;
  void handle(const Event& e) override;

  const SwitchStats& stats() const { return stats_; }
  const std::vector<ReductionBuffer>& reductionBuffers() const { return buffers_; }

 private:
  struct Buffered {
    PacketHandle handle;
    std::int32_t flits;
    std::uint16_t pendingReplicas;
  };
  struct VcQueue {
    std::deque<Buffered> packets;
    std::int64_t flits = 0;
  };
  struct Request {
    std::int16_t inPort;
    std::uint8_t vc;
    std::int32_t replicaTo;  // multicast replica destination node, -1 for the packet itself
    std::int32_t flits;      // flits of what will be sent
  };
  struct OutState {
    std::vector<Request> requests;
    std::uint32_t rr = 0;
    Request current{};
  };

  int internalPort() const { return static_cast<int>(out_.size()); }
  void arrive(int inPort, PacketHandle h);
  void serviceHead(int inPort, int vc);
  bool consumeHere(int inPort, int vc);  // returns true when the head was popped
  void requestReplicas(int inPort, int vc, Op replicaOp);
  void popHead(int inPort, int vc);
  void tryArbitrate(int port);
  void finishTransmission(int port);
  int chooseOutput(topo::NodeId dst);
  void reduce(const Packet& p, int bufferPort);
  void emitResult(const ReductionEntry& e, Op requestOp, Time ready);

  std::vector<std::vector<VcQueue>> inq_;  // [port (+ internal)][vc]
  std::vector<OutState> outState_;
  std::vector<ReductionBuffer> buffers_;   // per port
  std::unordered_map<std::uint64_t, std::uint16_t> forwarded_;  // contributions sent early
  std::vector<int> candidates_;
  std::vector<ReductionEntry> evicted_;
  std::uint32_t spread_ = 0;
  Time reductionEngineFree_ = 0;
  SwitchStats stats_;
};

}  // namespace fl::net
