#include "network/endpoint_node.h"

#include <algorithm>
#include <stdexcept>

#include "network/network.h"

namespace fl::net {

EndpointNode::EndpointNode(Network& net, topo::NodeId node, int endpointIndex)
    : NetworkNode(net, node), endpoint_(endpointIndex) {}

void EndpointNode::wire() {
  NetworkNode::wire();
  portResponses_.assign(out_.size(), {});
}

bool EndpointNode::idle() const {
  if (!jobs_.empty() || !responses_.empty()) return false;
  return std::all_of(portResponses_.begin(), portResponses_.end(),
                     [](const auto& q) { return q.empty(); });
}

bool EndpointNode::needsResponse(Op op) const {
  return op == Op::ReadRequest || op == Op::LdReduce ||
         (op == Op::Write && config().acknowledgedWrites);
}

void EndpointNode::post(const Message& m) {
  if (m.bytes <= 0) return;
  Job j;
  j.m = m;
  if (j.m.created < 0) j.m.created = now();
  j.remaining = m.bytes;
  j.nextPiece = m.firstPiece;
  jobs_.push_back(j);
  tryInjectAll();
}

void EndpointNode::handle(const Event& e) {
  switch (e.kind) {
    case kArrive:
      deliver(static_cast<int>(e.arg32), static_cast<PacketHandle>(e.arg));
      break;
    case kOutputFree:
      out_[e.arg32].busy = false;
      tryInject(static_cast<int>(e.arg32));
      break;
    case kCredit:
      out_[e.arg32].credits[e.arg >> 32] += static_cast<std::int32_t>(e.arg & 0xffffffffu);
      tryInject(static_cast<int>(e.arg32));
      break;
    case kWake:
      tryInjectAll();
      break;
    default:
      throw std::logic_error("endpoint: unknown event kind");
  }
}

void EndpointNode::tryInjectAll() {
  for (std::size_t p = 0; p < out_.size(); ++p) tryInject(static_cast<int>(p));
}

// Responses go first (they complete someone's request and free their buffers), then
// request-class work round-robin over the posted messages.
void EndpointNode::tryInject(int port) {
  if (out_[static_cast<std::size_t>(port)].busy) return;
  if (takeResponse(portResponses_[static_cast<std::size_t>(port)], port)) return;
  if (takeResponse(responses_, port)) return;
  takeRequest(port);
}

bool EndpointNode::takeResponse(std::deque<PacketHandle>& q, int port) {
  if (q.empty()) return false;
  Packet& p = pool()[q.front()];
  if (out_[static_cast<std::size_t>(port)].credits[p.vc] < flitsOf(p)) return false;
  const PacketHandle h = q.front();
  q.pop_front();
  p.tailAt = now();
  ++stats_.packetsInjected;
  transmit(port, h);
  return true;
}

bool EndpointNode::takeRequest(int port) {
  OutPort& o = out_[static_cast<std::size_t>(port)];
  // Look a few messages deep: enough to pass over ones waiting for another link or VC,
  // without scanning a long source queue at every injection.
  const std::size_t n = std::min<std::size_t>(jobs_.size(), 16);
  for (std::size_t tried = 0; tried < n; ++tried) {
    Job& j = jobs_.front();
    const Message& m = j.m;
    // A Red contribution must reach its chosen switch; other work may take any link
    // that leads towards its destination.
    // NVLS requests interleave over the links by address (piece), as NVLink spreads a
    // multicast object's addresses over the switch chips: each link, and so each chip in
    // proportion to its links, carries an equal share of the in-switch work.
    bool usable = true;
    if (m.op == Op::Red) usable = o.peerNode == m.destination;
    if (m.op == Op::LdReduce || m.op == Op::McStore)
      usable = j.nextPiece % static_cast<std::uint32_t>(out_.size()) == static_cast<std::uint32_t>(port);
    if (needsResponse(m.op) && outstanding_ >= config().outstandingRequests) usable = false;
    const std::int64_t chunk = std::min<std::int64_t>(j.remaining, config().packetPayload);
    const bool request = m.op == Op::ReadRequest || m.op == Op::LdReduce;
    const std::uint32_t payload = request ? 0 : static_cast<std::uint32_t>(chunk);
    const int vc = config().vcFor(false, vcSpread_);
    const auto wire = static_cast<std::uint32_t>(config().wire.wireBytes(m.op, payload, m.extensionFlits));
    if (usable && o.credits[static_cast<std::size_t>(vc)] <
                      static_cast<std::int32_t>(wire / static_cast<std::uint32_t>(config().wire.flitBytes)))
      usable = false;
    if (!usable) {
      jobs_.push_back(jobs_.front());
      jobs_.pop_front();
      continue;
    }
    Packet p;
    p.id = newPacketId();
    p.tag = m.tag;
    p.created = m.created;
    p.tailAt = now();
    p.source = node_;
    p.destination = m.destination >= 0 ? m.destination : o.peerNode;
    p.requester = m.op == Op::Red ? m.requester : node_;
    p.group = m.group;
    p.payload = payload;
    p.dataBytes = static_cast<std::uint32_t>(chunk);
    p.wireBytes = wire;
    p.piece = j.nextPiece;
    p.key = j.nextPiece;
    p.expected = m.expected;
    p.contributions = m.op == Op::Red ? 1 : 0;
    p.vc = static_cast<std::uint8_t>(vc);
    p.op = m.op;
    p.measured = m.measured;
    p.extensionFlits = static_cast<std::uint8_t>(m.extensionFlits);
    if (needsResponse(m.op)) {
      ++outstanding_;
      if (m.op == Op::LdReduce) ldReducePending_[p.key] = m.expected;
    }
    j.remaining -= chunk;
    ++j.nextPiece;
    ++vcSpread_;
    if (j.remaining > 0) jobs_.push_back(j);  // round-robin: to the back of the queue
    jobs_.pop_front();
    ++stats_.packetsInjected;
    transmit(port, pool().allocate(p));
    return true;
  }
  return false;
}

void EndpointNode::respond(const Packet& request, Op op, std::uint32_t payload, int port) {
  Packet r;
  r.id = newPacketId();
  r.tag = request.tag;
  r.created = now();
  r.source = node_;
  r.destination = request.source;
  r.requester = request.requester;
  r.group = request.group;
  r.payload = payload;
  r.dataBytes = payload;
  r.piece = request.piece;
  r.key = request.key;
  r.expected = request.expected;
  r.contributions = op == Op::LdReduceData ? 1 : 0;
  r.resultPort = request.resultPort;
  r.op = op;
  r.vc = static_cast<std::uint8_t>(config().vcFor(true, vcSpread_++));
  r.wireBytes = static_cast<std::uint32_t>(config().wire.wireBytes(op, payload));
  const PacketHandle h = pool().allocate(r);
  if (port >= 0)
    portResponses_[static_cast<std::size_t>(port)].push_back(h);
  else
    responses_.push_back(h);
}

void EndpointNode::deliver(int inPort, PacketHandle h) {
  const Packet p = pool()[h];
  pool().release(h);
  returnCredit(inPort, p.vc, flitsOf(p));
  ++stats_.packetsConsumed;
  stats_.payloadConsumed += p.payload;

  bool freed = false;
  switch (p.op) {
    case Op::Write:
      if (config().acknowledgedWrites && p.group < 0) respond(p, Op::Ack, 0, -1);
      break;
    case Op::ReadRequest:
      respond(p, Op::ReadResponse, p.dataBytes, -1);
      break;
    case Op::LdReduceRead:
      // Back to the switch that fanned the read out, on the link it came in by.
      respond(p, Op::LdReduceData, p.dataBytes, inPort);
      break;
    case Op::ReadResponse:
    case Op::Ack:
      --outstanding_;
      freed = true;
      break;
    case Op::LdReduceResult: {
      auto it = ldReducePending_.find(p.key);
      if (it != ldReducePending_.end() && (it->second -= p.contributions) <= 0) {
        ldReducePending_.erase(it);
        --outstanding_;
        freed = true;
      }
      break;
    }
    default:
      throw std::logic_error(std::string("endpoint: unexpected ") + toString(p.op));
  }
  if (agent_) agent_->onDelivered(p);
  if (freed || p.op == Op::ReadRequest || p.op == Op::LdReduceRead || p.op == Op::Write)
    tryInjectAll();
}

}  // namespace fl::net
