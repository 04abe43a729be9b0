// What switches and endpoints share: output ports (a channel plus credits for the
// downstream input buffer, per virtual channel) and input ports (where credits go back).
// Credit-based flow control: a packet is sent only when the downstream buffer has room
// for the whole packet (virtual cut-through).
#pragma once
#include <cstdint>
#include <vector>

#include "engine/component.h"
#include "network/channel.h"
#include "network/network_config.h"
#include "network/packet_pool.h"
#include "topology/topology.h"

namespace fl::net {

class Network;

class NetworkNode : public Component {
 public:
  NetworkNode(Network& net, topo::NodeId node);
  topo::NodeId node() const { return node_; }
  // Connects ports to their peers; called once every node is registered.
  virtual void wire();
  std::uint64_t importPayload(const std::byte* data, std::uint32_t size) override;

  struct OutPort {
    Channel channel;
    ComponentId peer = 0;
    int peerPort = -1;
    topo::NodeId peerNode = -1;
    bool peerIsEndpoint = false;
    Time peerDelay = 0;           // router latency added at the peer
    std::vector<std::int32_t> credits;  // free flits in the peer's buffer, per VC
    bool busy = false;
  };
  const std::vector<OutPort>& outputs() const { return out_; }
  std::int64_t bufferOverflows() const { return overflows_; }
  std::int64_t maxBufferFlits() const { return maxBufferFlits_; }
  std::int64_t hops() const { return hops_; }

 protected:
  struct InPort {
    ComponentId upstream = 0;
    int upstreamPort = -1;
    Time creditDelay = 0;
  };

  // Cached at construction / wiring: these are on every packet's path.
  PacketPool& pool() { return *pool_; }
  const NetworkConfig& config() const { return *config_; }
  std::uint64_t newPacketId() { return (static_cast<std::uint64_t>(node_) << 40) | packetSeq_++; }
  std::int32_t flitsOf(const Packet& p) const {
    // Several times per hop: a shift for the usual power-of-two flit size, not a division.
    if (flitShift_ >= 0) return static_cast<std::int32_t>(p.wireBytes >> flitShift_);
    return static_cast<std::int32_t>(p.wireBytes / static_cast<std::uint32_t>(config_->wire.flitBytes));
  }

  // Starts sending packet `h` on output `port` now. The caller checked credits and that
  // the port is idle. Ownership of the packet passes to the peer.
  void transmit(int port, PacketHandle h);
  void returnCredit(int inPort, int vc, std::int32_t flits);
  void noteOccupancy(std::int64_t flits);

  Network& net_;
  const NetworkConfig* config_;
  PacketPool* pool_ = nullptr;  // this node's partition's pool, set by wire()
  int flitShift_ = -1;          // log2 of the flit size when it is a power of two
  topo::NodeId node_;
  std::vector<OutPort> out_;
  std::vector<InPort> in_;
  std::uint64_t packetSeq_ = 0;
  std::uint32_t vcSpread_ = 0;  // rotates the VC of packets this node creates
  std::int64_t overflows_ = 0;
  std::int64_t maxBufferFlits_ = 0;
  std::int64_t hops_ = 0;
};

}  // namespace fl::net
