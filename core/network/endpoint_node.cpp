#include "network/endpoint_node.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "network/network.h"

namespace fl::net {

EndpointNode::EndpointNode(Network& net, topo::NodeId node, int endpointIndex)
    : NetworkNode(net, node), endpoint_(endpointIndex) {}

void EndpointNode::wire() {
  NetworkNode::wire();
  portResponses_.assign(out_.size(), {});
  routed_ = out_.size() > 1 && !net_.topology().routing().endpointLinksInterchangeable();
  if (routed_) portJobs_.resize(out_.size());
}

bool EndpointNode::idle() const {
  if (!jobs_.empty() || !backgroundJobs_.empty() || !responses_.empty()) return false;
  if (!std::all_of(portJobs_.begin(), portJobs_.end(), [](const auto& q) { return q.empty(); })) return false;
  if (!std::all_of(switchJobs_.begin(), switchJobs_.end(), [](const auto& q) { return q.empty(); })) return false;
  return std::all_of(portResponses_.begin(), portResponses_.end(),
                     [](const auto& q) { return q.empty(); });
}

int EndpointNode::portTowards(topo::NodeId dst) {
  if (!routed_ || dst < 0) return -1;
  net_.topology().candidates(node_, dst, route_);
  if (route_.size() == out_.size()) return -1;
  if (route_.size() != 1)  // no such routing exists yet; a subset would need its own queue
    throw std::logic_error("endpoint: no single link towards node " + std::to_string(dst));
  return route_[0];
}

RotatingQueue<EndpointNode::Job>& EndpointNode::switchQueue(topo::NodeId sw, SwitchClass c) {
  if (switchJobs_.empty()) {  // group the ports by the switch at their far end
    switchOfPort_.assign(out_.size(), -1);
    std::vector<topo::NodeId> peers;
    for (std::size_t p = 0; p < out_.size(); ++p) {
      const auto it = std::find(peers.begin(), peers.end(), out_[p].peerNode);
      switchOfPort_[p] = static_cast<std::int32_t>(it - peers.begin());
      if (it == peers.end()) peers.push_back(out_[p].peerNode);
    }
    switches_ = peers.size();
    switchJobs_.resize(3 * switches_);  // by class, then switch
    requestTurn_.assign(out_.size(), 0);
  }
  for (std::size_t p = 0; p < out_.size(); ++p)
    if (out_[p].peerNode == sw)
      return switchJobs_[static_cast<std::size_t>(switchOfPort_[p]) + static_cast<std::size_t>(c) * switches_];
  throw std::logic_error("endpoint: no link to switch " + std::to_string(sw) + " for a CAIS request");
}

bool EndpointNode::needsResponse(Op op) const {
  return op == Op::ReadRequest || op == Op::LdReduce || op == Op::CaisLoad ||
         (op == Op::Write && config().acknowledgedWrites);
}

void EndpointNode::post(const Message& m) {
  if (m.op == Op::Ack) {  // answers something the agent received: goes with the responses
    Packet answered;
    answered.tag = m.tag;
    answered.source = m.destination;
    answered.phase = m.phase;
    Packet r = response(answered, Op::Ack, 0);
    r.endToEnd = true;
    sendResponse(r, -1);
    tryInjectAll();
    return;
  }
  if (m.bytes <= 0) return;
  if (m.phase >= kTrafficPhases) throw std::logic_error("endpoint: traffic phase out of range");
  Job j;
  j.m = m;
  if (j.m.created < 0) j.m.created = now();
  j.remaining = m.bytes;
  j.nextPiece = m.firstPiece;
  const bool request = requestsData(m.op);
  j.fullWire = static_cast<std::uint32_t>(
      config().wire.wireBytes(m.op, request ? 0 : config().packetPayload, m.extensionFlits));
  if (m.op == Op::CaisLoad || m.op == Op::CaisRed || m.op == Op::CaisSync) {
    const SwitchClass c = m.op == Op::CaisSync                                    ? SwitchClass::Control
                          : m.op == Op::CaisLoad && config().caisTrafficControl ? SwitchClass::Loads
                                                                                : SwitchClass::Data;
    switchQueue(m.destination, c).push_back(j);
    wakeSwitchPorts(m.destination);
    return;
  }
  const int port = portTowards(m.destination);
  if (m.background && (port >= 0 || config().backgroundVc < 0))  // routed endpoints: not needed yet
    throw std::logic_error("endpoint: a background message needs the class and an unrouted endpoint");
  if (port >= 0) {
    portJobs_[static_cast<std::size_t>(port)].push_back(j);
    out_[static_cast<std::size_t>(port)].stuckStamp = 0;
    tryInject(port);
    return;
  }
  (m.background ? backgroundJobs_ : jobs_).push_back(j);
  unstickAll();
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
      creditEvent(e);
      tryInject(static_cast<int>(e.arg32));
      break;
    case kWake:
      tryInjectAll();
      break;
    case kIssueOpen:
      gates_[e.arg32].wakeAt = -1;
      unstickAll();  // ports that found only gated work may send now
      tryInjectAll();
      break;
    case kRespond: {  // a delayed response: out of the pool into the queue, still live
      const auto h = static_cast<PacketHandle>(e.arg);
      queueResponse(pool()[h], static_cast<int>(e.arg32) - 1);
      pool().unpool(h);
      tryInjectAll();
      break;
    }
    default:
      throw std::logic_error("endpoint: unknown event kind");
  }
}

// A freed port or a credit makes tryInject() look at the queued responses first: start
// loading the packets it will read (queues can be long, so their fronts are cold).
void EndpointNode::prefetch(const Event& e, bool near) const {
  NetworkNode::prefetch(e, near);
  if (near || (e.kind != kOutputFree && e.kind != kCredit) || e.arg32 >= portResponses_.size()) return;
  portResponses_[e.arg32].prefetchFront();
  responses_.prefetchFront();
}

// Ports are offered work starting from a rotating one, so that small requests (NVLS
// ld_reduce, whose reduction load lands on the chip at the end of the link) spread evenly
// over the links and chips rather than piling onto the first port.
//
// Busy and stuck ports are passed over here with tryInject()'s own first tests, the
// stuck mark's references read once rather than per port (stores in the loop kept the
// compiler from hoisting them); they are read again after each real attempt.
void EndpointNode::tryInjectAll() {
  const std::size_t n = out_.size();
  const std::size_t first = injectFrom_++ % n;
  std::uint32_t epoch = stuckEpoch_;
  std::uint32_t front = responsesFront();
  for (std::size_t k = 0, p = first; k < n; ++k, p = p + 1 == n ? 0 : p + 1) {  // p = (first + k) % n
    const OutPort& o = out_[p];
    if (o.busy || (o.stuckStamp == epoch && o.stuckResponses == front)) continue;
    tryInject(static_cast<int>(p));
    epoch = stuckEpoch_;
    front = responsesFront();
  }
}

// Responses go first (they complete someone's request and free their buffers), then
// request-class work round-robin over the posted messages.
//
// An attempt that sends nothing and changes nothing (no job moved) would fail the same
// way again until something it reads changes: the port is marked stuck, and later
// attempts return at once (an acknowledgement offered to all ports re-examined every
// idle port's queues otherwise). Exact: every change that could alter the answer
// unmarks it (see stuckEpoch_). Not even credits need settling then: a stuck port with
// work has had its next credit woken, so none has arrived unsettled (it would have come
// as an event, settled and unmarked the port), and one without work sends nothing
// whatever its credits; the credit wake-up it did then still stands.
void EndpointNode::tryInject(int port) {
  OutPort& o = out_[static_cast<std::size_t>(port)];
  if (o.busy) return;
  const std::uint32_t epoch = stuckEpoch_;
  const std::uint32_t front = responsesFront();
  if (o.stuckStamp == epoch && o.stuckResponses == front) return;
  settleCredits(o);
  // One-flit control first: it has its own VC and cannot wait behind bulk responses.
  const auto s = switchJobs_.empty() ? 0 : static_cast<std::size_t>(switchOfPort_[static_cast<std::size_t>(port)]);
  if (!switchJobs_.empty() && takeRequest(switchJobs_[s + switches_ * int(SwitchClass::Control)], port)) return;
  if (takeResponse(portResponses_[static_cast<std::size_t>(port)], port)) return;
  if (takeResponse(responses_, port)) return;
  if (routed_ && takeRequest(portJobs_[static_cast<std::size_t>(port)], port)) return;
  // *.cais and other requests take turns (round-robin from a rotating first): a flag (a
  // row block's readiness, a barrier) must not wait for the end of a reduce-scatter's
  // red.cais stream, and under traffic control (specs/cais.md §2.11) ld.cais queue apart
  // from red.cais and alternate with them, so loads never wait behind reduction bursts.
  if (!switchJobs_.empty()) {
    // Each link's arbiter moves its turn past the queue it granted, and only then: an
    // attempt that sends nothing leaves it (it rotated on every attempt before, so which
    // queue went first depended on how often other links had been tried).
    RotatingQueue<Job>* queues[3] = {&jobs_, &switchJobs_[s], &switchJobs_[s + 2 * switches_]};
    std::uint8_t& turn = requestTurn_[static_cast<std::size_t>(port)];
    for (int k = 0; k < 3; ++k) {
      const int q = (turn + k) % 3;
      if (takeRequest(*queues[q], port)) {
        turn = static_cast<std::uint8_t>(q == 2 ? 0 : q + 1);
        return;
      }
    }
  } else if (takeRequest(jobs_, port)) {
    return;
  }
  if (!backgroundJobs_.empty() && takeRequest(backgroundJobs_, port)) return;
  if (stuckEpoch_ == epoch) {
    o.stuckStamp = epoch;
    o.stuckResponses = front;
  }
  if (o.lazyCredits && waitingForCredits(port)) wakeOnNextCredit(port);
}

// A CAIS request queued for switch `sw`: only the links to that switch read its queues,
// so only they are woken (their stuck marks cleared), from the rotating first port as
// tryInjectAll() would; the others' memo stays valid (nothing they read changed). Waking
// all 18 links for each posted ld.cais cost a quarter of a LLaMA-7B cais run.
void EndpointNode::wakeSwitchPorts(topo::NodeId sw) {
  const std::size_t n = out_.size();
  const std::size_t first = injectFrom_++ % n;
  for (std::size_t k = 0, p = first; k < n; ++k, p = p + 1 == n ? 0 : p + 1) {
    OutPort& o = out_[p];
    if (o.peerNode != sw) continue;
    o.stuckStamp = 0;
    tryInject(static_cast<int>(p));
  }
}

void EndpointNode::unstickAll() {
  if (++stuckEpoch_ != 0) return;
  for (OutPort& o : out_) o.stuckStamp = 0;  // wrapped round: no stamp may match by chance
  stuckEpoch_ = 1;
}

void EndpointNode::setOutstanding(int n) {
  const int limit = config().outstandingRequests;
  if ((outstanding_ >= limit) != (n >= limit)) unstickAll();  // requests that need a response wait on it
  outstanding_ = n;
}

// Idle with something to send: a credit event would try again (and may reorder the
// jobs, so it must come).
bool EndpointNode::waitingForCredits(int port) const {
  const auto p = static_cast<std::size_t>(port);
  return !out_[p].busy && (!jobs_.empty() || !backgroundJobs_.empty() || (routed_ && !portJobs_[p].empty()) || !responses_.empty() ||
                           !portResponses_[p].empty() ||
                           (!switchJobs_.empty() && (!switchJobs_[static_cast<std::size_t>(switchOfPort_[p])].empty() ||
                                                     !switchJobs_[switches_ + static_cast<std::size_t>(switchOfPort_[p])].empty() ||
                                                     !switchJobs_[2 * switches_ + static_cast<std::size_t>(switchOfPort_[p])].empty())));
}

bool EndpointNode::takeResponse(ResponseQueue& q, int port) {
  if (q.empty()) return false;
  Packet& p = q.front();
  if (out_[static_cast<std::size_t>(port)].credits[p.vc] < flitsOf(p)) return false;
  p.tailAt = now();
  const PacketHandle h = pool().allocateHeld(p);
  q.pop_front();
  if (&q == &responses_ && ++responsesSent_ == UINT32_MAX) {  // wraps: no stamp may match by chance
    responsesSent_ = 0;
    for (OutPort& port : out_) port.stuckStamp = 0;
  }
  ++stats_.packetsInjected;
  transmit(port, h);
  return true;
}

bool EndpointNode::takeRequest(RotatingQueue<Job>& jobs, int port) {
  if (jobs.empty()) return false;
  OutPort& o = out_[static_cast<std::size_t>(port)];
  const bool limitReached = outstanding_ >= config().outstandingRequests;
  const std::uint32_t flitBytes = static_cast<std::uint32_t>(config().wire.flitBytes);
  // Look a few messages deep, past ones this port cannot carry (a Red contribution bound
  // for another chip, a read while the outstanding limit is reached), without scanning a
  // long source queue at every injection.
  const std::size_t n = std::min<std::size_t>(jobs.size(), 16);
  // A job is blocked on credits when no request VC of its class has room for its packet:
  // the fullest VC decides, so blocked jobs cost one comparison. Background jobs (their
  // own queue) have the reserved VC only.
  const bool background = &jobs == &backgroundJobs_;
  const int requestVcs = config().foregroundRequestVcs();
  std::int32_t mostCredits = 0;
  // A switch's control queue holds SYNC packets only: the control VC's room, if there is one.
  const bool control = config().caisControlVc >= 0 && jobs[0].m.op == Op::CaisSync;
  if (background)
    mostCredits = o.credits[static_cast<std::size_t>(config().backgroundVc)];
  else if (control)
    mostCredits = o.credits[static_cast<std::size_t>(config().caisControlVc)];
  else
    for (int v = 0; v < requestVcs; ++v) mostCredits = std::max(mostCredits, o.credits[static_cast<std::size_t>(v)]);
  std::size_t i = 0;
  for (std::size_t tried = 0; tried < n && i < jobs.size(); ++tried) {
    Job& j = jobs[i];
    const Message& m = j.m;
    // Red and CAIS requests go to one switch (the address hash chose it).
    const bool toSwitch = m.op == Op::Red || m.op == Op::CaisLoad || m.op == Op::CaisRed || m.op == Op::CaisSync;
    if (limitReached && needsResponse(m.op) && config().caisTrafficControl && m.op == Op::CaisLoad) {
      // Traffic control (specs/cais.md §2.11): loads queue apart from reductions, so a
      // load held by the outstanding limit lets the red.cais behind it go.
      jobs.moveToBack(i);
      unstickAll();
      continue;
    }
    if ((toSwitch && o.peerNode != m.destination) || (limitReached && needsResponse(m.op)) ||
        (m.issueGate != 0 && issueGateClosed(m.issueGate))) {
      ++i;
      continue;
    }
    const std::int64_t chunk = std::min<std::int64_t>(j.remaining, config().packetPayload);
    const bool request = requestsData(m.op);
    const std::uint32_t payload = request ? 0 : static_cast<std::uint32_t>(chunk);
    const auto wire = chunk == config().packetPayload
                          ? j.fullWire
                          : static_cast<std::uint32_t>(config().wire.wireBytes(m.op, payload, m.extensionFlits));
    const auto flits = static_cast<std::int32_t>(wire / flitBytes);
    if (flits > mostCredits) {
      // Blocked on credits. An in-order message (a warp's token vector) keeps its place:
      // sending later tokens first would scramble the order in which experts receive
      // them, and with it which tile each token lands in. Others queue behind the rest
      // (round-robin fairness), so work further back that fits is reached (a smaller
      // packet, e.g. an ld_reduce request behind a multicast store).
      if (m.inOrder) {
        ++i;
      } else {
        jobs.moveToBack(i);
        unstickAll();
      }
      continue;
    }
    // A request VC with room for the whole packet, from the rotating one on.
    // v walks vcFor(false, vcSpread_ + k) for k = 0, 1, ... (request VCs are 0..n-1)
    // without a division per step (the same VCs unless one node sends 2^32 packets and
    // vcSpread_ wraps).
    int vc = -1;
    if (background) {
      vc = config().backgroundVc;  // room checked above (mostCredits)
    } else if (control) {
      vc = config().caisControlVc;  // likewise
    } else if (config().caisTrafficControl && isCaisClassed(m.op)) {
      vc = config().caisRequestVc(m.op, o.credits, flits);
    } else {
      for (int k = 0, v = config().vcFor(false, vcSpread_); k < requestVcs && vc < 0; ++k) {
        if (o.credits[static_cast<std::size_t>(v)] >= flits) vc = v;
        v = v + 1 == requestVcs ? 0 : v + 1;
      }
    }
    if (vc < 0) {  // the packet's class has no room (traffic control): try the next job
      jobs.moveToBack(i);
      unstickAll();
      continue;
    }

    Packet p;
    p.tag = m.tag;
    p.created = m.created;
    p.tailAt = now();
    p.source = node_;
    p.destination = m.destination >= 0 ? m.destination : o.peerNode;
    p.requester = toSwitch ? m.requester : node_;
    p.group = m.group;
    p.size = static_cast<std::uint32_t>(chunk);  // the payload, or the bytes a request asks for
    p.wireBytes = wire;
    p.piece = j.nextPiece;
    p.expected = m.expected;
    p.contributions = m.op == Op::Red || m.op == Op::CaisRed ? 1 : 0;
    p.vc = static_cast<std::uint8_t>(vc);
    p.op = m.op;
    p.measured = m.measured;
    p.phase = m.phase;
    if (needsResponse(m.op)) {
      setOutstanding(outstanding_ + 1);
      if (m.op == Op::LdReduce) ldReducePending_[p.piece] = m.expected;
    }
    if (m.issueGate != 0) chargeIssueGate(m.issueGate, chunk);
    j.remaining -= chunk;
    ++j.nextPiece;
    ++vcSpread_;
    // Round-robin over messages: this one goes to the back of the queue, or leaves; an
    // in-order message keeps its place until its last packet is out.
    const bool sent = j.remaining == 0;
    const std::uint64_t sentTag = m.tag;
    if (sent)
      jobs.erase(i);
    else if (!m.inOrder)
      jobs.moveToBack(i);
    unstickAll();  // the queue changed
    ++stats_.packetsInjected;
    transmit(port, pool().allocate(p));
    if (sent && agent_) agent_->onSent(sentTag);
    return true;
  }
  return false;
}

void EndpointNode::setIssueRate(int gate, double bytesPerSecond) {
  if (gate <= 0 || gate >= kIssueGates) throw std::logic_error("endpoint: issue gate out of range");
  gates_[gate].psPerByte = bytesPerSecond > 0 ? 1e12 / bytesPerSecond : 0;
}

bool EndpointNode::issueGateClosed(int g) {
  IssueGate& gate = gates_[g];
  if (gate.openAt <= static_cast<double>(now())) return false;
  const auto at = static_cast<Time>(std::ceil(gate.openAt));
  if (gate.wakeAt != at) {
    gate.wakeAt = at;
    schedule(at, id(), kIssueOpen, static_cast<std::uint32_t>(g));
  }
  return true;
}

void EndpointNode::chargeIssueGate(int g, std::int64_t bytes) {
  IssueGate& gate = gates_[g];
  if (gate.psPerByte == 0) return;
  gate.openAt = std::max(gate.openAt, static_cast<double>(now())) + static_cast<double>(bytes) * gate.psPerByte;
}

void EndpointNode::queueResponse(const Packet& r, int port) {
  if (port < 0) port = portTowards(r.destination);
  if (port >= 0) {
    ResponseQueue& q = portResponses_[static_cast<std::size_t>(port)];
    if (q.empty()) out_[static_cast<std::size_t>(port)].stuckStamp = 0;
    q.push_back(r);
  } else {
    responses_.push_back(r);  // a new front if it was empty: responsesFront() tells
  }
}

Packet EndpointNode::response(const Packet& request, Op op, std::uint32_t payload) {
  Packet r;
  r.tag = request.tag;
  r.created = now();
  r.source = node_;
  r.destination = request.source;
  r.requester = request.requester;
  r.group = request.group;
  r.size = payload;
  r.piece = request.piece;
  r.expected = request.expected;
  r.contributions = op == Op::LdReduceData ? 1 : 0;
  r.resultPort = request.resultPort;
  r.phase = request.phase;
  r.op = op;
  r.vc = static_cast<std::uint8_t>(config().vcFor(true, vcSpread_++));
  r.wireBytes = static_cast<std::uint32_t>(config().wire.wireBytes(op, payload));
  return r;
}

void EndpointNode::respond(const Packet& request, Op op, std::uint32_t payload, int port, Time delay) {
  sendResponse(response(request, op, payload), port, delay);
}

void EndpointNode::sendResponse(const Packet& r, int port, Time delay) {
  if (delay > 0) {  // waits in the pool (an event carries a handle)
    schedule(now() + delay, id(), kRespond, static_cast<std::uint32_t>(port + 1), pool().allocate(r));
    return;
  }
  pool().hold();
  queueResponse(r, port);
}

void EndpointNode::deliver(int inPort, PacketHandle h) {
  const Packet p = pool()[h];
  pool().release(h);
  returnCredit(inPort, p.vc, flitsOf(p));
  ++stats_.packetsConsumed;
  stats_.payloadConsumed += p.payload();

  bool freed = false;
  switch (p.op) {
    case Op::Write:
      if (config().acknowledgedWrites && p.group < 0) respond(p, Op::Ack, 0, -1);
      break;
    case Op::ReadRequest:
      respond(p, Op::ReadResponse, p.dataBytes(), -1);
      break;
    case Op::CaisRead:  // a CAIS fetch: back to the switch's merge unit by the same link
      respond(p, Op::CaisData, p.dataBytes(), inPort);
      break;
    case Op::CaisWrite:
    case Op::CaisRelease:
    case Op::CaisThrottle:
      break;
    case Op::CaisResponse:
      // A freed slot matters to the links only at the outstanding limit; below it no
      // port's answer changes (the agent's next ld.cais wakes their switch's ports), and
      // offering every link work again per response cost 15 % of a cais run.
      freed = outstanding_ >= config().outstandingRequests;
      setOutstanding(outstanding_ - 1);
      break;
    case Op::LdReduceRead:
      // Back to the switch that fanned the read out, on the link it came in by.
      respond(p, Op::LdReduceData, p.dataBytes(), inPort, agent_ ? agent_->responseDelay(p) : 0);
      break;
    case Op::Ack:
      if (p.endToEnd) break;  // for the agent: no request of ours was waiting
      [[fallthrough]];
    case Op::ReadResponse:
      setOutstanding(outstanding_ - 1);
      freed = true;
      break;
    case Op::LdReduceResult: {
      int* due = ldReducePending_.find(p.piece);
      if (due != nullptr && (*due -= p.contributions) <= 0) {
        ldReducePending_.erase(p.piece);
        setOutstanding(outstanding_ - 1);
        freed = true;
      }
      break;
    }
    default:
      throw std::logic_error(std::string("endpoint: unexpected ") + toString(p.op));
  }
  if (agent_) agent_->onDelivered(p);
  // New work for the links: a freed request slot, or a response to send (a response to a
  // fan-out read leaves by the port the read came in on).
  if (freed || p.op == Op::ReadRequest || (p.op == Op::Write && config().acknowledgedWrites))
    tryInjectAll();
  else if (p.op == Op::LdReduceRead || p.op == Op::CaisRead)
    tryInject(inPort);
}

}  // namespace fl::net
