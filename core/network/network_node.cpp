#include "network/network_node.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>

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
  const std::int32_t maxBins =
      recordedBinsPerLink(cfg.recordedBinBudget, 2 * static_cast<std::int64_t>(topo.links().size()));
  out_.resize(ports.size());
  in_.resize(ports.size());
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const topo::Port& port = ports[i];
    const topo::Link& link = topo.link(port.link);
    OutPort& o = out_[i];
    o.channel.configure(link.bandwidth * link.efficiency, link.latency, cfg.wire.flitBytes, cfg.bin, maxBins);
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
    // Lazy credits need the peer's state at hand (same partition), and arrival strictly
    // later than sending, so that a credit never lands inside the event that sent it.
    // Both ends of the link decide alike.
    // Across partitions the credit goes as a direct post (receiveDirect), which reaches
    // the peer's queue of credits in flight at the window's barrier: before it arrives
    // (lookahead <= latency), so no read of the count can tell the difference.
    const bool local = net_.partitionOf(node_) == net_.partitionOf(port.peer);
    o.lazyCredits = link.latency > 0;
    in.lazyUpstream = local && link.latency > 0 ? &net_.node(port.peer) : nullptr;
    in.remoteLazy = !local && link.latency > 0;
  }
}

// A credit from a peer in another partition (returnCredit's direct post), before it arrives.
void NetworkNode::receiveDirect(const Event& e) {
  CreditInFlight c;
  c.at = e.time;
  c.order = e.order;
  c.vc = static_cast<std::uint32_t>(e.arg >> 32);
  c.flits = static_cast<std::int32_t>(e.arg & 0xffffffffu);
  creditSent(static_cast<int>(e.arg32), c);
}

std::uint64_t NetworkNode::importPayload(const std::byte* data, std::uint32_t size) {
  if (size != sizeof(Packet)) throw std::logic_error("network: a cross-partition packet of the wrong size");
  return pool().adopt(data);  // lives on: not a new packet
}

// What handling `e` reads: the packet arriving or emitted and the port's state; then
// where a credit for an arriving packet goes back to (the upstream port's queue of
// credits in flight) and the port's credits in flight.
void NetworkNode::prefetch(const Event& e, bool near) const {
  if (e.arg32 >= out_.size()) return;
  const OutPort& o = out_[e.arg32];
  if (!near) {
    if (e.kind == kArrive || e.kind == kEmit || e.kind == kRespond)
      pool_->prefetch(static_cast<PacketHandle>(e.arg));
    const auto* port = reinterpret_cast<const char*>(&o);
    for (std::size_t at = 0; at < sizeof(OutPort); at += 64) __builtin_prefetch(port + at);
    __builtin_prefetch(port + sizeof(OutPort) - 1);
    __builtin_prefetch(&in_[e.arg32]);
    return;
  }
  if (e.kind == kArrive) {
    prefetchCreditReturn(static_cast<int>(e.arg32));
  } else if (e.kind == kOutputFree || e.kind == kCredit) {
    o.inFlight.prefetchFront();
  }
}

void NetworkNode::prefetchCreditReturn(int inPort) const {
  const InPort& in = in_[static_cast<std::size_t>(inPort)];
  if (in.lazyUpstream == nullptr) return;
  const OutPort& up = in.lazyUpstream->out_[static_cast<std::size_t>(in.upstreamPort)];
  __builtin_prefetch(&up.inFlight);
  up.inFlight.prefetchBack();
}

Time NetworkNode::transmitDeferringFree(int port, PacketHandle h) {
  OutPort& o = out_[static_cast<std::size_t>(port)];
  Packet& p = pool()[h];
  const Time start = now();
  const Channel& ch = o.channel;
  // Virtual cut-through: the tail cannot leave before it has arrived here.
  const Time end = std::max(start + ch.serialisation(p.wireBytes), p.tailAt + ch.flitTime());
  o.busy = true;
  o.stuckStamp = 0;
  o.credits[p.vc] -= flitsOf(p);
  o.channel.record(start, end, p.wireBytes, p.payload(), p.phase);
  ++hops_;

  const Time headArrives = start + ch.flitTime() + ch.latency() + o.peerDelay;
  const Time tailArrives = end + ch.latency();
  p.tailAt = tailArrives;
  if (follow_ != nullptr) [[unlikely]]
    noteFollowed(port, p, start, end, tailArrives);
  const Time when = o.peerIsEndpoint ? tailArrives : headArrives;
  if (scheduleWithPayload(when, o.peer, kArrive, static_cast<std::uint32_t>(o.peerPort), h, &p,
                          sizeof(Packet)))
    pool().unpool(h);  // lives on in the peer's partition
  return end;
}

void NetworkNode::noteFollowed(int port, const Packet& p, Time start, Time end, Time arrive) {
  if (!follow_->matches(p.tag, p.source, p.requester, p.piece)) return;
  if (static_cast<std::int64_t>(followed_.size()) >= follow_->maxHops) {
    followTruncated_ = true;
    return;
  }
  FollowRecord r;
  r.port = port;
  r.hop.start = start;
  r.hop.end = end;
  r.hop.arrive = arrive;
  r.hop.from = node_;
  r.hop.op = static_cast<std::uint8_t>(p.op);
  r.hop.contributions = p.contributions;
  r.hop.source = p.source;
  r.hop.requester = p.requester;
  r.hop.piece = p.piece;
  r.hop.tag = p.tag;
  followed_.push_back(r);
}

void NetworkNode::returnCredit(int inPort, int vc, std::int32_t flits) {
  const InPort& in = in_[static_cast<std::size_t>(inPort)];
  if (in.lazyUpstream != nullptr) {
    CreditInFlight c;
    c.at = now() + in.creditDelay;
    c.order = reserveOrder();
    c.vc = static_cast<std::uint32_t>(vc);
    c.flits = flits;
    in.lazyUpstream->creditSent(in.upstreamPort, c);
    return;
  }
  if (in.remoteLazy) {
    postDirect(now() + in.creditDelay, in.upstream, kCredit, static_cast<std::uint32_t>(in.upstreamPort),
               (static_cast<std::uint64_t>(vc) << 32) | static_cast<std::uint32_t>(flits));
    return;
  }
  schedule(now() + in.creditDelay, in.upstream, kCredit, static_cast<std::uint32_t>(in.upstreamPort),
           (static_cast<std::uint64_t>(vc) << 32) | static_cast<std::uint32_t>(flits));
}

void NetworkNode::creditSent(int port, const CreditInFlight& c) {
  OutPort& o = out_[static_cast<std::size_t>(port)];
  o.inFlight.push_back(c);
  if (!o.busy && waitingForCredits(port)) wakeOnNextCredit(port);  // busy: not waiting
}

void NetworkNode::settleCreditsSlow(OutPort& o) {
  const Time t = now();
  const std::uint64_t order = currentOrder();
  while (!o.inFlight.empty()) {
    const CreditInFlight& c = o.inFlight.front();
    if (c.at > t || (c.at == t && c.order > order)) break;  // not arrived yet
    o.credits[c.vc] += c.flits;
    o.stuckStamp = 0;
    if (!c.woken) ++elidedCredits_;
    o.inFlight.pop_front();
  }
}

void NetworkNode::wakeOnNextCredit(int port) {
  OutPort& o = out_[static_cast<std::size_t>(port)];
  settleCredits(o);  // the first one left has not arrived yet
  if (o.inFlight.empty()) return;
  CreditInFlight& c = o.inFlight.front();
  if (c.woken) return;
  c.woken = true;
  scheduleReserved(c.at, c.order, id(), kCredit, static_cast<std::uint32_t>(port), 0);
}

void NetworkNode::creditEvent(const Event& e) {
  OutPort& o = out_[e.arg32];
  if (o.lazyCredits)
    settleCredits(o);  // this one included
  else {
    o.credits[e.arg >> 32] += static_cast<std::int32_t>(e.arg & 0xffffffffu);
    o.stuckStamp = 0;
  }
}

std::int64_t NetworkNode::elidedEvents(Time limit, Time& last) const {
  std::int64_t n = elidedCredits_ + elidedOwnEvents(limit, last);
  for (const OutPort& o : out_) {
    for (std::size_t i = 0; i < o.inFlight.size(); ++i) {
      const CreditInFlight& c = o.inFlight.at(i);
      if (c.woken || c.at >= limit) continue;  // an event of its own, or past the run's end
      ++n;
      last = std::max(last, c.at);
    }
  }
  return n;
}

void NetworkNode::noteOccupancy(std::int64_t flits) {
  if (flits > maxBufferFlits_) maxBufferFlits_ = flits;
  if (flits > config().vcDepthFlits) ++overflows_;
}

}  // namespace fl::net
