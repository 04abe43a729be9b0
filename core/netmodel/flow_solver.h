// The flow-level network model (`network.model: flow`; what ASTRA-sim and SimAI use at
// scale): each message is a fluid flow along a fixed route of directed links. Active
// flows share every link max-min fairly (progressive filling), recomputed only when a
// flow starts or ends; a flow is delivered when its last byte has left plus the sum of
// its hops' latencies (no store-and-forward, no packets, no buffers).
//
// Cost: a recompute touches only the active flows and the links they cross
// (O(F h log L) for F active flows of h hops over L such links), never the whole link
// table; flows that finish at the same instant end in one batch. Each link's counts of
// active flows and members, and the set of links in use, are kept up to date as flows
// start and end rather than recounted per recompute, which then only lays out the flows
// of each link (in active_ order) and fills. Flow slots and routes
// are recycled once delivered, so memory follows the flows in flight, not the total.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <span>
#include <vector>

#include "engine/time.h"
#include "results/results.h"

namespace fl::netmodel {

struct FlowLinkStats {
  std::int64_t bytes = 0;  // bytes of flows that crossed it
  Time busy = 0;           // bytes / capacity: the time it was carrying data at line rate
  BinSeries bins;          // bytes per time bin
};

class FlowSolver {
 public:
  // Per directed link id: capacity (bytes/s, > 0) and latency. `bin`: width of the
  // time-binned byte series (> 0); a link busy across more than `maxBinsPerLink` of them
  // stops the run with run.bin's error (net::throwTooManyBins), as a packet channel does.
  FlowSolver(std::vector<double> capacity, std::vector<Time> latency, Time bin, std::int64_t maxBinsPerLink = INT32_MAX);

  // A flow of `bytes` along `route` (directed link ids) from `start`. May be called
  // before run() or from the delivery callback (start >= the callback's time). Returns
  // the flow's id (0, 1, ... in order of addition).
  std::int64_t addFlow(std::span<const std::int32_t> route, std::int64_t bytes, Time start,
                       std::uint64_t tag = 0);
  // A bundle: `members` flows of `bytes` each that start together and move at one rate
  // (e.g. one GPU's chunks to all its peers of a level). `route` lists every link the
  // members cross once, `counts[i]` members crossing route[i]; each member counts as a
  // flow on every link it crosses, so a bundle whose members would get equal max-min
  // rates as separate flows (every symmetric case) gets exactly those rates, for one
  // entry per link instead of one flow per member. All members are delivered together,
  // `latency` after the last byte leaves. Link bytes count bytes x counts[i].
  std::int64_t addBundle(std::span<const std::int32_t> route, std::span<const std::uint32_t> counts,
                         std::int64_t bytes, Time latency, Time start, std::uint64_t tag = 0);
  // A bundle route kept for the solver's lifetime and shared by every bundle added with
  // its id (one GPU's step repeats every layer): checked and stored once, and its bundles
  // copy nothing. Returns the route's id (0, 1, ...).
  std::int32_t addSharedRoute(std::span<const std::int32_t> route, std::span<const std::uint32_t> counts);
  std::int64_t addBundle(std::int32_t sharedRoute, std::int64_t bytes, Time latency, Time start,
                         std::uint64_t tag = 0);
  // The sum of the latencies along `route` (what addFlow adds to a flow).
  Time routeLatency(std::span<const std::int32_t> route) const;

  // Called when a flow is delivered, in time order (ties: in an order fixed by the input).
  using Delivered = std::function<void(std::int64_t id, std::uint64_t tag, Time at)>;
  void run(const Delivered& delivered = {});

  const std::vector<FlowLinkStats>& links() const { return stats_; }
  Time lastDelivery() const { return last_; }
  std::int64_t recomputes() const { return recomputes_; }
  std::int64_t flowsAdded() const { return nextId_; }
  std::size_t peakActiveFlows() const { return peakActive_; }

 private:
  struct Flow {
    double rem = 0;        // bytes not yet sent at `since_`
    double rate = 0;       // bytes/s
    double finish = 0;     // seconds: when the last byte leaves at this rate
    double start = 0;      // seconds
    std::int64_t id = 0;
    std::uint64_t tag = 0;
    std::int64_t bytes = 0;
    Time latency = 0;
    std::uint32_t routeOff = 0;
    std::uint32_t hops = 0;
    bool frozen = false;
    bool live = false;
    bool shared = false;   // route in sharedLinks_ (kept), else in routes_ (recycled)
  };
  struct Event {
    double t;
    int kind;  // 1: start (deliveries wait in buckets)
    std::int64_t id;
    std::int32_t slot;
    bool operator>(const Event& o) const {
      if (t != o.t) return t > o.t;
      if (kind != o.kind) return kind > o.kind;
      return id > o.id;
    }
  };

  const std::int32_t* links(const Flow& f) const {
    return (f.shared ? sharedLinks_.data() : routes_.data()) + f.routeOff;
  }
  const std::uint32_t* members(const Flow& f) const {
    return (f.shared ? sharedCounts_.data() : counts_.data()) + f.routeOff;
  }
  std::span<const std::int32_t> route(const Flow& f) const { return {links(f), f.hops}; }
  std::span<const std::uint32_t> counts(const Flow& f) const { return {members(f), f.hops}; }
  std::int32_t takeSlot();
  std::int32_t newFlow(std::int64_t bytes, Time latency, Time start, std::uint64_t tag);
  std::int64_t add(std::span<const std::int32_t> route, std::span<const std::uint32_t> counts, std::int64_t bytes,
                   Time latency, Time start, std::uint64_t tag);  // counts empty: one member per entry
  void schedule(std::int32_t slot);
  void advanceTo(double t);      // integrate link bytes into bins over [since_, t)
  void recompute();              // progressive filling over the active flows
  void attach(std::int32_t slot);  // a flow starts: onto its links' counts
  void detachEnded();              // flows in ended_ leave their links' counts
  void release(std::int32_t slot);
  void deliverAt(double t, std::int32_t slot);
  void compactRoutes();

  std::vector<double> capacity_;
  std::vector<Time> latency_;
  Time bin_;
  double binSeconds_;
  std::int64_t maxBins_;

  std::vector<Flow> flows_;            // slots
  std::vector<std::int32_t> freeSlots_;
  std::vector<std::int32_t> routes_;   // route pool
  std::vector<std::uint32_t> counts_;  // members per route entry (1 for a plain flow), beside routes_
  std::size_t deadRouteInts_ = 0;
  std::vector<std::int32_t> sharedLinks_;    // shared routes, never recycled
  std::vector<std::uint32_t> sharedCounts_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> sharedRoutes_;  // offset, hops
  std::vector<std::int32_t> active_;   // slots transmitting
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;  // future starts
  std::vector<std::int32_t> startNow_;                            // starts due at since_
  std::map<double, std::vector<std::int32_t>> deliveries_;        // by delivery time (seconds)
  std::map<double, std::vector<std::int32_t>>::iterator lastBucket_ = deliveries_.end();

  // per directed link
  std::vector<FlowLinkStats> stats_;
  std::vector<double> rateSum_, residual_, binned_;
  std::vector<std::int64_t> emitted_;  // whole bytes put into bins so far
  std::vector<std::int64_t> busyBins_;     // distinct bins each link was busy across so far
  std::vector<std::int64_t> lastBusyBin_;  // the last of them
  std::vector<std::int64_t> unfrozen_;  // unfrozen members per link (during a recompute)
  std::vector<std::int64_t> members_;   // active members per link
  std::vector<std::int32_t> entries_;   // active flows per link
  std::vector<std::int32_t> usedLinks_;  // links with entries_ > 0
  std::vector<std::int32_t> linkFlowBegin_;
  std::vector<std::int32_t> linkFlows_;  // CSR: active flows per used link, in active_ order
  std::vector<std::int32_t> busyLinks_;  // links with rateSum_ > 0
  std::vector<std::int32_t> ended_;      // the batch ending now

  double since_ = 0, rateTime_ = 0, nextFinish_ = std::numeric_limits<double>::infinity();
  std::int64_t nextId_ = 0, recomputes_ = 0;
  std::size_t peakActive_ = 0;
  Time last_ = 0;
};

}  // namespace fl::netmodel
