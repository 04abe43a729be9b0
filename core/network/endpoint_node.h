// A GPU or die as the network sees it: a send queue of messages turned into packets
// lazily (so a 16 GiB transfer never materialises millions of packets), injected on
// whichever of its links is free and has credits (or, where its links lead to different
// places, on the link the routing names), with a limit on outstanding requests;
// and the receive side, which answers reads, ld_reduce fan-out reads and acknowledged
// writes, and hands deliveries to the workload agent.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/flat_map.h"
#include "network/endpoint_agent.h"
#include "network/network_node.h"
#include "network/response_queue.h"
#include "network/rotating_queue.h"

namespace fl::net {

// A unit of work posted by a workload: `bytes` of data moved by operation `op`.
struct Message {
  Op op = Op::Write;            // Write, ReadRequest, McStore, LdReduce, Red, or Ack (an
                                // end-to-end acknowledgement to `destination`, response class)
  topo::NodeId destination = -1;// endpoint for Write/ReadRequest; -1 for NVLS ops (the switch
                                // at the end of the chosen link); a switch for Red
  std::int64_t bytes = 0;       // data bytes (requested bytes for reads and ld_reduce)
  std::uint64_t tag = 0;
  std::int32_t group = -1;      // McStore, LdReduce, Red with multicast result
  std::uint16_t expected = 0;   // LdReduce/Red: operands of the full reduction
  topo::NodeId requester = -1;  // Red: where the result goes (endpoint) when group < 0
  std::uint32_t firstPiece = 0; // pieces are numbered from here (reduction keys follow)
  Time created = -1;            // -1: when posted (synthetic traffic stamps generation time)
  bool measured = false;
  int extensionFlits = 0;       // per NVLink packet: target list or explicit addresses
  bool inOrder = false;         // send all its packets before later messages (a warp working
                                // through one token vector); default: round-robin with others
  std::uint8_t phase = 0;       // the workload's traffic phase, counted per link (0: none;
                                // below kTrafficPhases)
  std::uint8_t issueGate = 0;   // the issue gate its packets pass (EndpointNode::setIssueRate);
                                // 0: none
  bool background = false;      // low-priority class (Network::enableBackgroundClass): sent
                                // only when nothing else can go, on the reserved request VC
};

// Issue gates: the SMs that post messages may issue fewer bytes per second than the links
// carry (a communication kernel on a few SMs). Gate g passes its messages' packets at no
// more than its rate, counting payload for stores and the bytes asked for by ld_reduce
// (what comes back into the SMs); waiting packets keep their place.
inline constexpr int kIssueGates = 3;  // 0 (none) and two gated classes

struct EndpointStats {
  std::int64_t packetsInjected = 0;
  std::int64_t packetsConsumed = 0;
  std::int64_t payloadConsumed = 0;
};

class EndpointNode : public NetworkNode {
 public:
  EndpointNode(Network& net, topo::NodeId node, int endpointIndex);
  void wire() override;
  void handle(const Event& e) override;
  void prefetch(const Event& e, bool near) const override;

  void setAgent(EndpointAgent* a) { agent_ = a; }
  // Gate `gate` (1..kIssueGates-1) passes at most `bytesPerSecond`; 0 = not a limit.
  void setIssueRate(int gate, double bytesPerSecond);
  void post(const Message& m);
  int endpointIndex() const { return endpoint_; }
  int outstanding() const { return outstanding_; }
  const EndpointStats& stats() const { return stats_; }
  bool idle() const;

 private:
  struct Job {
    Message m;
    std::int64_t remaining = 0;
    std::uint32_t nextPiece = 0;
    std::uint32_t fullWire = 0;  // wire bytes of a full-size packet of this message
  };

  void tryInjectAll();
  [[gnu::always_inline]] inline void tryInject(int port);  // small, and in every loop over ports
  bool waitingForCredits(int port) const override;
  bool takeResponse(ResponseQueue& q, int port);
  bool takeRequest(RotatingQueue<Job>& jobs, int port);
  // The one port that leads to `dst` when this endpoint's links lead to different places
  // (routed_), else -1: any port will do.
  int portTowards(topo::NodeId dst);
  void deliver(int inPort, PacketHandle h);
  Packet response(const Packet& request, Op op, std::uint32_t payload);
  void respond(const Packet& request, Op op, std::uint32_t payload, int port, Time delay = 0);
  // Queues response `r` for `port` (-1: the destination's), after `delay`.
  void sendResponse(const Packet& r, int port, Time delay = 0);
  // Queues response `r`, already counted live (PacketPool::hold).
  void queueResponse(const Packet& r, int port);
  bool needsResponse(Op op) const;

  struct IssueGate {
    double psPerByte = 0;   // 0: open
    double openAt = 0;      // ps: when the next packet may pass
    Time wakeAt = -1;       // a kIssueOpen event is scheduled for then
  };
  // Whether gate `g` holds a packet back now; if so, makes sure its opening is an event.
  bool issueGateClosed(int g);
  void chargeIssueGate(int g, std::int64_t bytes);

  int endpoint_;
  EndpointAgent* agent_ = nullptr;
  IssueGate gates_[kIssueGates];
  RotatingQueue<Job> jobs_;                      // request-class work, served round-robin
  RotatingQueue<Job> backgroundJobs_;            // background messages: only when jobs_ sends nothing
  // Endpoints whose links lead to different places (a GPU's NVLink and its own NIC):
  // work that must leave by one port waits in that port's queue.
  bool routed_ = false;
  std::vector<RotatingQueue<Job>> portJobs_;
  std::vector<int> route_;                       // scratch for the routing's candidates
  // CAIS requests (ld.cais, red.cais) go to the switch their address hashes to: one queue
  // per switch this endpoint's links reach, served by that switch's ports, so a port never
  // idles while work for its switch waits behind work for others. Empty until the first.
  // TB-group SYNC packets come from the GPU's synchronizer, not the SMs' load/store path:
  // they queue apart (a control queue per switch, served first; specs/cais.md §2.11 gives
  // sync its own VC), so a one-flit SYNC never waits behind megabytes of posted *.cais.
  // Traffic control (specs/cais.md §2.11) puts ld.cais in a queue of their own.
  enum class SwitchClass { Data = 0, Control = 1, Loads = 2 };
  std::vector<RotatingQueue<Job>> switchJobs_;   // class x switches_ + switch
  std::vector<std::int32_t> switchOfPort_;       // by port: index of its switch
  std::size_t switches_ = 0;
  std::vector<std::uint8_t> requestTurn_;        // by port: which request queue goes first next
  void wakeSwitchPorts(topo::NodeId sw);
  RotatingQueue<Job>& switchQueue(topo::NodeId sw, SwitchClass c = SwitchClass::Data);
  std::vector<ResponseQueue> portResponses_;  // responses tied to a port
  ResponseQueue responses_;                  // responses for any port
  FlatMap<int> ldReducePending_;  // piece -> operands still due
  int outstanding_ = 0;
  std::size_t injectFrom_ = 0;  // rotating first port of tryInjectAll
  // Memo of failed injection attempts: a port's last attempt sent nothing, and nothing
  // it read has changed since, when its OutPort::stuckStamp is stuckEpoch_ and its
  // stuckResponses is responsesFront(). What all ports read moves these on: the epoch
  // with the request queues and the outstanding limit, the other with the front of the
  // shared responses (an acknowledgement queued and sent restores it). What one port
  // reads (its credits, its own queues) clears its stamp.
  std::uint32_t stuckEpoch_ = 1;
  std::uint32_t responsesSent_ = 0;  // from responses_; wraps round before UINT32_MAX
  std::uint32_t responsesFront() const { return responses_.empty() ? 0 : responsesSent_ + 1; }
  void unstickAll();
  void setOutstanding(int n);
  EndpointStats stats_;
};

}  // namespace fl::net
