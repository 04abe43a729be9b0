#include "network/switch_node.h"

#include <algorithm>
#include <stdexcept>

#include "network/network.h"

namespace fl::net {

namespace {
std::uint64_t reductionKey(std::int32_t requester, std::uint32_t key) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(requester)) << 32) | key;
}
}  // namespace

SwitchNode::SwitchNode(Network& net, topo::NodeId node) : NetworkNode(net, node) {}

void SwitchNode::wire() {
  NetworkNode::wire();
  const auto vcs = static_cast<std::size_t>(config().virtualChannels);
  occupancy_.assign((out_.size() + 1) * vcs, 0);  // + the internal port
  const auto slots = static_cast<std::uint32_t>((out_.size() + 1) * vcs);  // inputs x VCs
  // The VC levels as the workload sets them (before the run, after wiring).
  const VirtualOutputQueue queue(slots, static_cast<std::uint32_t>(vcs), config().vcPriority.data());
  outState_.assign(out_.size(), OutState{queue, Request{}});
  frees_.assign(out_.size(), {});
  buffers_.assign(out_.size(), ReductionBuffer(config().reductionBuffer));
}

void SwitchNode::handle(const Event& e) {
  switch (e.kind) {
    case kArrive:
      arrive(static_cast<int>(e.arg32), static_cast<PacketHandle>(e.arg));
      break;
    case kOutputFree:
      finishTransmission(static_cast<int>(e.arg32));
      break;
    case kCredit:
      creditEvent(e);
      tryArbitrate(static_cast<int>(e.arg32));
      break;
    case kMergeTimeout:
      mergeTimeout(static_cast<int>(e.arg32));
      break;
    case kEmit: {
      auto h = static_cast<PacketHandle>(e.arg);
      pool()[h].tailAt = now();
      arrive(internalPort(), h);
      break;
    }
    default:
      throw std::logic_error("switch: unknown event kind");
  }
}

// Beyond NetworkNode's hints: the output state a freed port arbitrates over, and, once
// an arriving packet is cached, where it goes next (its output's queue or its
// reduction buffer entry). Reads only; routes not asked yet are left alone.
void SwitchNode::prefetch(const Event& e, bool near) const {
  NetworkNode::prefetch(e, near);
  if (e.kind == kOutputFree) {
    const OutState& s = outState_[e.arg32];
    if (!near) {
      __builtin_prefetch(&s);
      return;
    }
    // A replica's original is released without being read; only the last frees space.
    if (s.current.inPort != internalPort() && (s.current.replicaTo < 0 || frees_[e.arg32].freesOriginal))
      prefetchCreditReturn(s.current.inPort);
    s.queue.prefetchHead();
    return;
  }
  if (e.kind != kArrive || !near) return;
  const Packet& p = (*pool_)[static_cast<PacketHandle>(e.arg)];
  if (p.destination != node_) {
    std::uint32_t n = 0;
    const int* ports = hintedRoute(p.destination, n);
    for (std::uint32_t k = 0; k < n; ++k) {
      const auto port = static_cast<std::size_t>(ports[k]);
      __builtin_prefetch(&out_[port]);
      outState_[port].queue.prefetchTail(slotOf(static_cast<int>(e.arg32), p.vc));
    }
  } else if (p.op == Op::LdReduceData && p.resultPort >= 0) {
    buffers_[static_cast<std::size_t>(p.resultPort)].prefetchEntry(reductionKey(p.requester, p.piece));
  } else if (p.op == Op::McStore || p.op == Op::LdReduce) {
    prefetchReplicaPorts(p);
  }
}

// A multicast's replicas queue at one port per group member (of a few parallel links
// each) and are granted there at once when the port is free: those ports' state. The
// group itself was hinted a step earlier (prefetchMid): at 4096 tokens a DySHARP layer
// has 131 k of them, mostly cold.
void SwitchNode::prefetchReplicaPorts(const Packet& p) const {
  if (p.group < 0) return;
  for (const topo::NodeId member : net_.group(p.group)) {
    std::uint32_t n = 0;
    const int* ports = hintedRoute(member, n);
    for (std::uint32_t k = 0; k < n; ++k) {
      const auto port = static_cast<std::size_t>(ports[k]);
      __builtin_prefetch(&out_[port]);
      __builtin_prefetch(&outState_[port]);
      __builtin_prefetch(reinterpret_cast<const char*>(&outState_[port]) + 64);
    }
  }
}

// The slot-table entries the near hint reads (it would stall on them otherwise): a
// passing packet's output FIFO slots, an operand's reduction-buffer index slot.
void SwitchNode::prefetchMid(const Event& e) const {
  if (e.arg32 >= out_.size()) return;
  if (e.kind == kOutputFree) {
    outState_[e.arg32].queue.prefetchHeadSlot();
    return;
  }
  if (e.kind != kArrive) return;
  const Packet& p = (*pool_)[static_cast<PacketHandle>(e.arg)];
  if (p.destination == node_) {  // an operand: the index slot its buffer entry is found by
    if (p.op == Op::LdReduceData && p.resultPort >= 0)
      buffers_[static_cast<std::size_t>(p.resultPort)].prefetch(reductionKey(p.requester, p.piece));
    else if (p.op == Op::McStore || p.op == Op::LdReduce)
      net_.prefetchGroup(p.group);  // none for -1
    return;
  }
  std::uint32_t n = 0;
  const int* ports = hintedRoute(p.destination, n);
  for (std::uint32_t k = 0; k < n; ++k)
    outState_[static_cast<std::size_t>(ports[k])].queue.prefetchSlot(slotOf(static_cast<int>(e.arg32), p.vc));
}

// The output ports a hint for a packet towards `dst` should warm: that destination's
// route when already asked and short (parallel links: chooseOutput() takes one of a
// few, each worth the hint); `count` 0 otherwise.
const int* SwitchNode::hintedRoute(topo::NodeId dst, std::uint32_t& count) const {
  count = 0;
  if (static_cast<std::size_t>(dst) >= routes_.size()) return nullptr;
  const Route& route = routes_[static_cast<std::size_t>(dst)];
  if (route.start == UINT32_MAX || route.count > 4) return nullptr;
  count = route.count;
  return routePorts_.data() + route.start;
}

std::uint32_t SwitchNode::slotOf(int inPort, int vc) const {
  return static_cast<std::uint32_t>(inPort) * static_cast<std::uint32_t>(config().virtualChannels) +
         static_cast<std::uint32_t>(vc);
}

// A packet's head has arrived: it is buffered, then either consumed here (reduction
// operands), turned into replicas (multicast) or queued for one output port.
void SwitchNode::arrive(int inPort, PacketHandle h) {
  // A copy: reducing may allocate packets and move the pool's storage.
  const Packet p = pool()[h];
  const std::int32_t flits = flitsOf(p);
  std::int64_t& occupied = occupancy_[slotOf(inPort, p.vc)];
  occupied += flits;
  if (inPort != internalPort()) noteOccupancy(occupied);

  if (p.destination != node_) {
    requestOutput(chooseOutput(p.destination),
                  {h, static_cast<std::int16_t>(inPort), p.vc, -1, flits, flits});
    return;
  }
  switch (p.op) {
    case Op::McStore:
      multicast(inPort, h, flits, Op::Write);
      return;
    case Op::LdReduce:
      multicast(inPort, h, flits, Op::LdReduceRead);
      return;
    case Op::LdReduceData:
    case Op::Red: {
      // Operands end here: their data lives on only in the reduction buffer.
      const int port = p.op == Op::LdReduceData ? p.resultPort
                       : p.group >= 0          ? static_cast<int>(p.piece % out_.size())
                                               : chooseOutput(p.requester);
      pool().release(h);
      ++stats_.packetsConsumed;
      release(inPort, p.vc, flits);
      reduce(p, port);
      return;
    }
    case Op::CaisLoad:
    case Op::CaisRed:
    case Op::CaisData:
      cais(inPort, h);
      return;
    case Op::CaisSync:
      caisSync(inPort, h);
      return;
    default:
      throw std::logic_error(std::string("switch: cannot consume ") + toString(p.op));
  }
}

void SwitchNode::multicast(int inPort, PacketHandle h, std::int32_t flits, Op replicaOp) {
  Packet& p = pool()[h];
  const auto& members = net_.group(p.group);
  const std::uint32_t payload = replicaOp == Op::LdReduceRead ? 0 : p.payload();
  p.replicasLeft = static_cast<std::uint16_t>(members.size());
  p.resultPort = -1;  // see startReplica()
  stats_.multicastReplicas += static_cast<std::int64_t>(members.size()) - 1;
  stats_.replicaBins.add(static_cast<std::int32_t>(now() / config().bin), static_cast<std::int64_t>(members.size()) - 1);
  const std::uint8_t vc = p.vc;
  const int group = p.group;
  ports_.clear();
  for (std::size_t i = 0; i < members.size(); ++i) {
    // Target-aware replication: each replica keeps only its member's targets.
    const auto replicaFlits = static_cast<std::int32_t>(
        config().wire.flits(replicaOp, payload, net_.replicaExtensionFlits(group, i)));
    const int o = chooseOutput(members[i]);
    ports_.push_back(o);
    outState_[static_cast<std::size_t>(o)].queue.push(slotOf(inPort, vc),
        {h, static_cast<std::int16_t>(inPort), vc, members[i], replicaFlits, flits});
  }
  // Arbitration only transmits and schedules events, never re-enters multicast(), so
  // ports_ stays intact while we walk it.
  for (int o : ports_) tryArbitrate(o);
}

void SwitchNode::requestOutput(int port, const Request& r) {
  outState_[static_cast<std::size_t>(port)].queue.push(slotOf(r.inPort, r.vc), r);
  tryArbitrate(port);
}

// The packet has left its input buffer: free its flits and tell the upstream node.
void SwitchNode::release(int inPort, int vc, std::int32_t flits) {
  occupancy_[slotOf(inPort, vc)] -= flits;
  if (inPort != internalPort()) returnCredit(inPort, vc, flits);
}

int SwitchNode::chooseOutput(topo::NodeId dst) {
  if (routes_.empty()) routes_.resize(net_.topology().nodes().size());
  Route& route = routes_[static_cast<std::size_t>(dst)];
  if (route.start == UINT32_MAX) {
    net_.topology().candidates(node_, dst, candidates_);
    route.start = static_cast<std::uint32_t>(routePorts_.size());
    route.count = static_cast<std::uint32_t>(candidates_.size());
    routePorts_.insert(routePorts_.end(), candidates_.begin(), candidates_.end());
  }
  if (route.count == 0) throw std::logic_error("switch: no route");
  const int* candidates = routePorts_.data() + route.start;
  if (route.count == 1) return candidates[0];
  // Parallel links to the same neighbour: take the least loaded, rotating ties so
  // equal loads alternate. Deterministic: depends only on this switch's state.
  const std::size_t n = route.count;
  const std::size_t start = spread_++ % route.count;  // 32-bit: a quicker division
  int best = candidates[start];
  std::size_t bestLoad = SIZE_MAX;
  for (std::size_t i = 0, k = start; i < n; ++i, k = k + 1 == n ? 0 : k + 1) {  // k = (start + i) % n
    const int c = candidates[k];
    OutPort& o = out_[static_cast<std::size_t>(c)];
    if (o.freeDeferred && freePassed(c)) freedUnseen(o);  // once, not on every look
    const std::size_t load = outState_[static_cast<std::size_t>(c)].queue.size() + (o.busy ? 1 : 0);
    if (load < bestLoad) {
      bestLoad = load;
      best = c;
    }
  }
  return best;
}

void SwitchNode::tryArbitrate(int port) {
  OutPort& o = out_[static_cast<std::size_t>(port)];
  OutState& s = outState_[static_cast<std::size_t>(port)];
  if (o.busy) {  // its kOutputFree may have passed unseen (see ReplicaFree)
    if (!o.freeDeferred || s.queue.empty() || !settleFree(port)) return;
  } else if (s.queue.empty()) {
    return;
  }
  settleCredits(o);
  Request r;
  // Strict priority by VC level (the CAIS control VC first, a background class last).
  const bool granted =
      s.queue.grant([&](std::uint32_t vc, std::int32_t flits) { return o.credits[vc] >= flits; }, r);
  if (!granted) {
    if (o.lazyCredits) wakeOnNextCredit(port);
    return;  // wait for credits
  }
  s.current = r;
  ++stats_.packetsForwarded;
  if (r.replicaTo >= 0) {
    startReplica(port, r);
    return;
  }
  transmit(port, r.handle);
}

bool SwitchNode::waitingForCredits(int port) const {
  return !out_[static_cast<std::size_t>(port)].busy && !outState_[static_cast<std::size_t>(port)].queue.empty();
}

void SwitchNode::finishTransmission(int port) {
  OutPort& o = out_[static_cast<std::size_t>(port)];
  o.busy = false;
  const Request r = outState_[static_cast<std::size_t>(port)].current;
  bool left = true;
  if (r.replicaTo >= 0) {
    ReplicaFree& f = frees_[static_cast<std::size_t>(port)];
    left = f.freesOriginal;
    if (left) {  // every replica has left: the original is done
      f.freesOriginal = false;
      pool().release(r.handle);
      ++stats_.packetsConsumed;
    }
  }
  if (left) release(r.inPort, r.vc, r.bufferedFlits);
  tryArbitrate(port);
}

void SwitchNode::reduce(const Packet& p, int bufferPort) {
  ReductionBuffer& buf = buffers_[static_cast<std::size_t>(bufferPort)];
  const std::uint64_t key = reductionKey(p.requester, p.piece);
  ReductionEntry* e = buf.find(key);
  ++stats_.contributions;
  if (e == nullptr) {
    ReductionEntry fresh;
    fresh.key = key;
    fresh.requester = p.requester;
    fresh.group = p.op == Op::Red ? p.group : -1;
    fresh.bytes = p.payload();
    fresh.expected = p.expected;
    if (const std::uint16_t* f = forwarded_.find(key)) fresh.expected -= *f;
    fresh.piece = p.piece;
    fresh.tag = p.tag;
    fresh.phase = p.phase;
    fresh.allocated = now();
    fresh.push = p.op == Op::Red;
    fresh.port = static_cast<std::int16_t>(bufferPort);
    if (entryLog_.size() < kEntryLogLimit) fresh.logId = nextLogId_++;
    evicted_.clear();
    const std::int64_t before = buf.entries();
    e = &buf.insert(fresh, evicted_);
    if (evicted_.empty()) ++stats_.reductionHits;
    for (const ReductionEntry& victim : evicted_) logEntry(victim, true);
    noteReductionOccupancy(bufferPort, before, static_cast<std::int64_t>(evicted_.size()));
    for (const ReductionEntry& victim : evicted_) {
      if (victim.arrived == 0) continue;
      forwarded_[victim.key] += victim.arrived;
      ++stats_.partialResults;
      emitResult(victim, victim.push ? Op::Red : Op::LdReduce, now());
    }
  } else {
    ++stats_.reductionHits;
    buf.touch(key);
  }
  e->arrived = static_cast<std::uint16_t>(e->arrived + p.contributions);
  if (e->logId != kNotLogged) noteArrivals(*e, p.contributions);

  // The reduction engine adds operands at a finite rate (0: unlimited).
  Time ready = now();
  if (config().reductionThroughput > 0) {
    reductionEngineFree_ = std::max(reductionEngineFree_, now()) +
                           transferTime(p.payload(), config().reductionThroughput);
    ready = reductionEngineFree_;
  }
  if (e->arrived >= e->expected) {
    ++stats_.reductions;
    stats_.reductionBins.add(static_cast<std::int32_t>(now() / config().bin), 1);
    const ReductionEntry done = *e;
    forwarded_.erase(key);
    const std::int64_t before = buf.entries();
    buf.erase(key);
    logEntry(done, false);
    noteReductionOccupancy(bufferPort, before, 0);
    emitResult(done, done.push ? Op::Red : Op::LdReduce, ready);
  }
}


// A reduced (or, on eviction, partial) result leaves the switch through the internal
// port: ld_reduce results go back to the requester; red results go to their destination
// or, for a group, are multicast from here.
void SwitchNode::emitResult(const ReductionEntry& e, Op requestOp, Time ready) {
  Packet r;
  r.tag = e.tag;
  r.phase = e.phase;
  r.created = now();
  r.source = node_;
  r.piece = e.piece;  // the low half of e.key
  r.size = e.bytes;
  r.contributions = e.arrived;
  r.requester = e.requester;
  if (requestOp == Op::LdReduce) {
    r.op = Op::LdReduceResult;
    r.destination = e.requester;
    r.vc = static_cast<std::uint8_t>(config().vcFor(true, vcSpread_++));
  } else if (e.group >= 0) {
    r.op = Op::McStore;
    r.group = e.group;
    r.destination = node_;  // consumed here again: replicated to the group
    r.vc = static_cast<std::uint8_t>(config().vcFor(false, vcSpread_++));
  } else {
    r.op = Op::Write;
    r.destination = e.requester;
    r.vc = static_cast<std::uint8_t>(config().vcFor(false, vcSpread_++));
  }
  r.wireBytes = static_cast<std::uint32_t>(config().wire.wireBytes(r.op, r.size));
  ++stats_.packetsCreated;
  schedule(ready, id(), kEmit, 0, pool().allocate(r));
}

}  // namespace fl::net
