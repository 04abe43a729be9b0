// Network parameters as the model uses them (derived from NetworkSpec), and the event
// kinds every network node understands.
#pragma once
#include <cstdint>

#include "engine/time.h"
#include "network/wire_format.h"

#include <algorithm>
#include <array>

namespace fl::net {

enum EventKind : std::uint32_t {
  kArrive = 1,      // packet head (switch) or tail (endpoint) arrives; arg = handle, arg32 = port
  kOutputFree = 2,  // a channel finished serialising; arg32 = output port
  kCredit = 3,      // credits come back; arg32 = output port, arg = vc << 32 | flits
  kEmit = 4,        // a switch-originated packet is ready; arg = handle
  kWake = 5,        // an endpoint re-tries injection (e.g. after posting work)
  kRespond = 6,     // a delayed response is ready; arg = handle, arg32 = port + 1 (0: any)
  kIssueOpen = 7,   // an endpoint's issue gate opens again; arg32 = gate
  kMergeTimeout = 8,  // a switch's merge unit looks for timed-out entries; arg32 = unit
};

inline bool isCaisClassed(Op op) { return op == Op::CaisLoad || op == Op::CaisRed || op == Op::CaisSync; }

struct NetworkConfig {
  WireFormat wire;
  int virtualChannels = 2;
  int vcDepthFlits = 256;
  Time switchLatency = 0;
  std::int64_t reductionBuffer = 64 * 1024;
  double reductionThroughput = 0;  // bytes/s per switch chip; 0 = unlimited
  int outstandingRequests = 1024;
  bool acknowledgedWrites = false;
  std::int64_t packetPayload = 256;
  Time bin = kMicrosecond;
  std::int64_t recordedBinBudget = std::int64_t{1} << 26;  // bins all channels may record
  // CAIS merge units (seed 002 §IV-A): table bytes per GPU-facing port (0: unbounded),
  // idle timeout (0: none), deferred requesters per Load-Wait entry, merging on/off.
  std::int64_t mergeTable = 40 * 1024;
  Time mergeTimeout = 10 * kMicrosecond;
  int mergeRecords = 16;
  bool merging = true;
  // CAIS coordination and traffic control (seed 002 §III-B2, §III-C2), set by the tp_layer
  // workload: a sync switch throttles a GPU with this many groups waiting there, releases
  // it at throttleOff; traffic control puts loads and reductions on separate request VCs.
  int caisThrottleOn = 0, caisThrottleOff = 0;  // 0: no throttling
  bool caisTrafficControl = false;
  // The control VC (specs/cais.md §2.11: "VC7 sync and throttle control"), set with
  // coordination: the last VC carries only the one-flit SYNC, RELEASE and THROTTLE
  // packets, at kHighPriority, so a RELEASE never queues behind bulk load responses (it
  // shared their VCs and waited 2-5 us). -1: none.
  int caisControlVc = -1;
  // Background traffic class (seed 003's NI-Balancer copies, spec moentwine.md §2.9): when
  // a workload posts background messages, the last request VC is reserved for them at
  // kLowPriority (strict priority: granted only when no other request or response can
  // go), so they use idle capacity only. -1: no background class (all request VCs carry
  // ordinary traffic).
  int backgroundVc = -1;
  // Output arbitration priority by VC: every switch output grants, among the queued heads
  // that can go, those of the highest level, round-robin within a level
  // (VirtualOutputQueue::grant). Set by whoever reserves a VC for a class (above).
  static constexpr std::int8_t kLowPriority = -1, kNormalPriority = 0, kHighPriority = 1;
  static constexpr int kMaxVirtualChannels = 64;  // network.virtual_channels' upper bound
  std::array<std::int8_t, kMaxVirtualChannels> vcPriority{};  // all kNormalPriority

  int requestVcs() const { return virtualChannels / 2; }
  // Request VCs for ordinary (foreground) traffic: 0 .. foregroundRequestVcs() - 1.
  int foregroundRequestVcs() const { return backgroundVc >= 0 ? requestVcs() - 1 : requestVcs(); }
  // Traffic control: ld.cais and its fetches on the lower half of the request VCs,
  // red.cais, merged writes and sync packets on the upper half (specs/cais.md §2.11).
  int caisVcBase(Op op) const { return op == Op::CaisLoad || op == Op::CaisRead ? 0 : std::max(1, requestVcs() / 2); }
  int caisVcCount(Op op) const {
    const int half = std::max(1, requestVcs() / 2);
    return op == Op::CaisLoad || op == Op::CaisRead ? half : std::max(1, requestVcs() - half);
  }
  // A VC of the packet's class with room for `flits` (-1: none).
  template <class Credits>
  int caisRequestVc(Op op, const Credits& credits, std::int32_t flits) const {
    const int base = caisVcBase(op), n = caisVcCount(op);
    for (int v = base; v < base + n; ++v)
      if (credits[static_cast<std::size_t>(v)] >= flits) return v;
    return -1;
  }
  int vcFor(bool response, std::uint32_t spread) const {
    const int half = virtualChannels / 2;
    const int n = response ? (caisControlVc >= 0 ? half - 1 : half) : foregroundRequestVcs();
    return (response ? half : 0) + static_cast<int>(spread % static_cast<std::uint32_t>(n));
  }
};

}  // namespace fl::net
