// Multicast replicas and their lazy port release (see SwitchNode::ReplicaFree): a replica's
// kOutputFree is scheduled only when it has something to do.
#include <algorithm>

#include "network/switch_node.h"

namespace fl::net {

inline void SwitchNode::scheduleFree(int port) {
  OutPort& o = out_[static_cast<std::size_t>(port)];
  if (!o.freeDeferred) return;  // scheduled already
  o.freeDeferred = false;
  const ReplicaFree& f = frees_[static_cast<std::size_t>(port)];
  scheduleReserved(f.at, f.order, id(), kOutputFree, static_cast<std::uint32_t>(port), 0);
}

// A replica is a copy of the original addressed to one group member. The original's
// replicasLeft counts replicas not started yet, and its resultPort names the port of
// the started replica that finishes last (the latest kOutputFree): when every replica
// has started, that event is the one to free the original.
void SwitchNode::startReplica(int port, const Request& r) {
  Packet copy = pool()[r.handle];
  copy.destination = r.replicaTo;
  copy.replicasLeft = 0;
  if (copy.op == Op::LdReduce) {
    copy.op = Op::LdReduceRead;
    copy.requester = copy.source;
    copy.source = node_;
    copy.resultPort = r.inPort;
  } else {
    copy.op = Op::Write;
    copy.resultPort = -1;  // the original's holds the notes above
  }
  copy.wireBytes = static_cast<std::uint32_t>(r.flits * config().wire.flitBytes);
  const PacketHandle h = pool().allocate(copy);
  ++stats_.packetsCreated;

  ReplicaFree& f = frees_[static_cast<std::size_t>(port)];
  f.at = transmitDeferringFree(port, h);
  f.order = reserveOrder();  // the order schedule() would have taken
  f.freesOriginal = false;
  out_[static_cast<std::size_t>(port)].freeDeferred = true;
  Packet& original = pool()[r.handle];  // after allocate(), which may move the pool
  const int latest = original.resultPort;
  if (latest < 0) {
    original.resultPort = static_cast<std::int16_t>(port);
  } else {
    // A port no longer sending this packet's replica has finished it: earlier than this.
    const Request& lr = outState_[static_cast<std::size_t>(latest)].current;
    const ReplicaFree& l = frees_[static_cast<std::size_t>(latest)];
    if (lr.handle != r.handle || lr.replicaTo < 0 || l.at < f.at || (l.at == f.at && l.order < f.order))
      original.resultPort = static_cast<std::int16_t>(port);
  }
  if (--original.replicasLeft == 0) {
    const int last = original.resultPort;
    frees_[static_cast<std::size_t>(last)].freesOriginal = true;
    scheduleFree(last);
  }
  if (!outState_[static_cast<std::size_t>(port)].queue.empty()) scheduleFree(port);
}

bool SwitchNode::settleFree(int port) {
  if (!freePassed(port)) {  // still sending, with work queued now
    scheduleFree(port);
    return false;
  }
  // Freed meanwhile, with nothing queued for it then: its event would have done nothing.
  freedUnseen(out_[static_cast<std::size_t>(port)]);
  return true;
}

std::int64_t SwitchNode::elidedOwnEvents(Time limit, Time& last) const {
  std::int64_t n = elidedFrees_;
  for (std::size_t p = 0; p < out_.size(); ++p) {
    if (!out_[p].freeDeferred || frees_[p].at >= limit) continue;  // scheduled or passed, or past the run's end
    ++n;
    last = std::max(last, frees_[p].at);
  }
  return n;
}

}  // namespace fl::net
