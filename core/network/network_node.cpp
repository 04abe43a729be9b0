#include "network/network_node.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "network/network.h"

namespace fl::net {

NetworkNode::NetworkNode(Network& net, topo::NodeId node) : net_(net), config_(&net.config()), node_(node) {
  const auto flit = static_cast<std::uint32_t>(config_->wire.flitBytes);
  if (std::has_single_bit(flit)) flitShift_ = std::countr_zero(flit);
}

void NetworkNode::wire() {
  pool_ = &net_.pool(partition().index());
  const auto& topo = net_.topology();
  const auto& ports = topo.ports(node_);
  const NetworkConfig& cfg = config();
  out_.resize(ports.size());
  in_.resize(ports.size());
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const topo::Port& port = ports[i];
    const topo::Link& link = topo.link(port.link);
    OutPort& o = out_[i];
    o.channel.configure(link.bandwidth * link.efficiency, link.latency, cfg.wire.flitBytes, cfg.bin);
    o.peer = net_.componentOf(port.peer);
    o.peerPort = port.peerPort;
    o.peerNode = port.peer;
    o.peerIsEndpoint = topo::isEndpoint(topo.node(port.peer).kind);
    o.peerDelay = o.peerIsEndpoint ? 0 : cfg.switchLatency;
    o.credits.assign(static_cast<std::size_t>(cfg.virtualChannels), cfg.vcDepthFlits);
    InPort& in = in_[i];
    in.upstream = o.peer;  // the same neighbour sends to us on this port
    in.upstreamPort = port.peerPort;
    in.creditDelay = link.latency;
  }
}

std::uint64_t NetworkNode::importPayload(const std::byte* data, std::uint32_t size) {
  Packet p;
  std::memcpy(&p, data, std::min<std::uint32_t>(size, sizeof(Packet)));
  return pool().allocate(p);
}

void NetworkNode::transmit(int port, PacketHandle h) {
  OutPort& o = out_[static_cast<std::size_t>(port)];
  Packet& p = pool()[h];
  const Time start = now();
  const Channel& ch = o.channel;
  // Virtual cut-through: the tail cannot leave before it has arrived here.
  const Time end = std::max(start + ch.serialisation(p.wireBytes), p.tailAt + ch.flitTime());
  o.busy = true;
  o.credits[p.vc] -= flitsOf(p);
  o.channel.record(start, end, p.wireBytes, p.payload, p.phase);
  ++hops_;

  const Time headArrives = start + ch.flitTime() + ch.latency() + o.peerDelay;
  const Time tailArrives = end + ch.latency();
  p.tailAt = tailArrives;
  const Time when = o.peerIsEndpoint ? tailArrives : headArrives;
  if (scheduleWithPayload(when, o.peer, kArrive, static_cast<std::uint32_t>(o.peerPort), h, &p,
                          sizeof(Packet)))
    pool().release(h);
  schedule(end, id(), kOutputFree, static_cast<std::uint32_t>(port));
}

void NetworkNode::returnCredit(int inPort, int vc, std::int32_t flits) {
  const InPort& in = in_[static_cast<std::size_t>(inPort)];
  schedule(now() + in.creditDelay, in.upstream, kCredit, static_cast<std::uint32_t>(in.upstreamPort),
           (static_cast<std::uint64_t>(vc) << 32) | static_cast<std::uint32_t>(flits));
}

void NetworkNode::noteOccupancy(std::int64_t flits) {
  if (flits > maxBufferFlits_) maxBufferFlits_ = flits;
  if (flits > config().vcDepthFlits) ++overflows_;
}

}  // namespace fl::net
