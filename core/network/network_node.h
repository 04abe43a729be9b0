// What switches and endpoints share: output ports (a channel plus credits for the
// downstream input buffer, per virtual channel) and input ports (where credits go back).
// Credit-based flow control: a packet is sent only when the downstream buffer has room
// for the whole packet (virtual cut-through).
#pragma once
#include <cstdint>
#include <vector>

#include "engine/component.h"
#include "engine/ring_queue.h"
#include "network/channel.h"
#include "network/network_config.h"
#include "network/packet_pool.h"
#include "network/vc_credits.h"
#include "results/packet_follow.h"
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
  void receiveDirect(const Event& e) override;
  void prefetch(const Event& e, bool near) const override;

  // A credit on its way back to this node's output port, delivered lazily (see
  // settleCredits()).
  struct CreditInFlight {
    Time at = 0;                // when it arrives
    std::uint64_t order = 0;    // its place among events at that time (reserved)
    std::uint32_t vc = 0;
    std::int32_t flits = 0;
    bool woken = false;         // an event was scheduled for it
  };
  // FIFO of credits in flight on one link: they arrive in the order they were sent.
  using CreditQueue = RingQueue<CreditInFlight>;

  struct OutPort {
    // What every injection and arbitration reads comes first, ahead of the channel and
    // its statistics, so that it shares as few cache lines as possible.
    bool busy = false;
    // Credits from a peer in this partition over a link with latency come back through
    // `inFlight` rather than as events (one event per packet per hop less).
    bool lazyCredits = false;
    bool peerIsEndpoint = false;
    // A switch deferred the port's kOutputFree: busy may be stale (SwitchNode::ReplicaFree).
    bool freeDeferred = false;
    // For the owner to remember that an injection attempt on the idle port found nothing
    // it could send, and what it read then (EndpointNode::tryInject): stamps, 0 for none.
    // A change here that could alter the answer (credits arriving or spent) clears it.
    std::uint32_t stuckStamp = 0;
    std::uint32_t stuckResponses = 0;
    ComponentId peer = 0;
    int peerPort = -1;
    topo::NodeId peerNode = -1;
    Time peerDelay = 0;           // router latency added at the peer
    VcCredits credits;            // free flits in the peer's buffer, per VC
    CreditQueue inFlight;
    Channel channel;
  };
  const std::vector<OutPort>& outputs() const { return out_; }
  std::int64_t bufferOverflows() const { return overflows_; }
  std::int64_t maxBufferFlits() const { return maxBufferFlits_; }
  std::int64_t hops() const { return hops_; }
  // Events a run would have handled that lazy delivery left out (each was a no-op):
  // credits already delivered, and those in flight arriving before `limit`, plus what a
  // subclass leaves out (elidedOwnEvents). `last` gets the latest time among those
  // still pending.
  std::int64_t elidedEvents(Time limit, Time& last) const;

  // Follow one (results/packet_follow.h): the hops of packets matching `spec` (null: none)
  // leaving this node, each with the output port it took (Network resolves the link).
  void setFollow(const FollowSpec* spec) { follow_ = spec; }
  struct FollowRecord {
    int port = -1;
    FollowedHop hop;  // from, start, end, arrive and the packet's fields; link and `to` unset
  };
  const std::vector<FollowRecord>& followed() const { return followed_; }
  bool followTruncated() const { return followTruncated_; }

 protected:
  struct InPort {
    ComponentId upstream = 0;
    int upstreamPort = -1;
    Time creditDelay = 0;
    NetworkNode* lazyUpstream = nullptr;  // set when credits go back lazily
    bool remoteLazy = false;  // credits go back lazily to another partition (postDirect)
  };

  // Cached at construction / wiring: these are on every packet's path.
  PacketPool& pool() { return *pool_; }
  const NetworkConfig& config() const { return *config_; }
  std::int32_t flitsOf(const Packet& p) const {
    // Several times per hop: a shift for the usual power-of-two flit size, not a division.
    if (flitShift_ >= 0) return static_cast<std::int32_t>(p.wireBytes >> flitShift_);
    return static_cast<std::int32_t>(p.wireBytes / static_cast<std::uint32_t>(config_->wire.flitBytes));
  }

  // Starts sending packet `h` on output `port` now. The caller checked credits and that
  // the port is idle. Ownership of the packet passes to the peer.
  void transmit(int port, PacketHandle h) {
    schedule(transmitDeferringFree(port, h), id(), kOutputFree, static_cast<std::uint32_t>(port));
  }
  // The same without scheduling the port's kOutputFree: returns its time; the caller
  // takes that event's order at once (reserveOrder()) and schedules it later, if it
  // turns out to be needed.
  Time transmitDeferringFree(int port, PacketHandle h);
  void returnCredit(int inPort, int vc, std::int32_t flits);

  // Lazy credits. A credit event only matters when the output port it arrives at is
  // then waiting for credits (idle, with work it cannot send): otherwise it just adds
  // to the count, which can be done whenever the count is next read. So credits in
  // flight wait in the port's queue with the order key their event would have had;
  // reading the count first settles those that have arrived, and a port that starts
  // waiting schedules the event of its next credit, with that very key. The run is
  // the same event for event, less the no-op credit events. Contract: whatever can
  // leave a port waiting (work queued, the port freed) must end in tryArbitrate() /
  // tryInject() on it, which arm that event; a port left waiting otherwise would miss
  // its credits (the thread-count test, whose partitioned run has fewer lazy links,
  // is likely to show it).
  //
  // Adds the credits that have arrived by now (this event included) to the count.
  void settleCredits(OutPort& o) {
    // Usually the first credit in flight is still on its way: one comparison.
    if (!o.inFlight.empty() && o.inFlight.front().at <= now()) settleCreditsSlow(o);
  }
  // The port is waiting for credits: the next one in flight must come as an event.
  void wakeOnNextCredit(int port);
  // Handles a kCredit event.
  void creditEvent(const Event& e);
  // Whether output `port` is idle with work it could send given credits.
  virtual bool waitingForCredits(int port) const = 0;
  void noteOccupancy(std::int64_t flits);
  virtual std::int64_t elidedOwnEvents(Time /*limit*/, Time& /*last*/) const { return 0; }
  // Cache hint: where returnCredit(inPort, ...) will write.
  void prefetchCreditReturn(int inPort) const;

  Network& net_;
  const NetworkConfig* config_;
  PacketPool* pool_ = nullptr;  // this node's partition's pool, set by wire()
  int flitShift_ = -1;          // log2 of the flit size when it is a power of two
  topo::NodeId node_;
  std::vector<OutPort> out_;
  std::vector<InPort> in_;
  std::uint32_t vcSpread_ = 0;  // rotates the VC of packets this node creates
  std::int64_t overflows_ = 0;
  std::int64_t maxBufferFlits_ = 0;
  std::int64_t hops_ = 0;
  std::int64_t elidedCredits_ = 0;
  const FollowSpec* follow_ = nullptr;  // off the hot path: read once per hop, then skipped
  std::vector<FollowRecord> followed_;
  bool followTruncated_ = false;

 private:
  void settleCreditsSlow(OutPort& o);
  void noteFollowed(int port, const Packet& p, Time start, Time end, Time arrive);
  void creditSent(int port, const CreditInFlight& c);  // from the peer at the port's end
};

}  // namespace fl::net
