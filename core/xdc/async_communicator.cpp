#include "xdc/async_communicator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <stdexcept>

#include "xdc/domain_partition.h"

namespace fl::xdc {

namespace {

// Communication stages; each has its own receive counters and tag kind.
enum Comm : int { kAg, kDispatch, kCombine, kCombineGrad, kDispatchGrad, kExpertGrad, kArScatter, kArGather, kComms };
enum class Group { Domain, Across, Level };  // AG peers, A2A peers, every other worker of the level
struct CommSpec {
  Group group;
  bool inward;        // innermost level first
  const char* span;
  bool alwaysSpan;    // record the span even without peers (the all-to-alls, as before)
  bool allGatherBytes, allReduceBytes;  // payload per peer: else the all-to-all chunk
};
constexpr CommSpec kComm[kComms] = {
    {Group::Domain, false, "all_gather", false, true, false},
    {Group::Across, false, "dispatch", true, false, false},
    {Group::Across, true, "combine", true, false, false},
    {Group::Across, false, "combine_backward", true, false, false},  // the combine mirrored
    {Group::Across, true, "dispatch_backward", true, false, false},
    {Group::Domain, true, "expert_grad", false, true, false},        // the all-gather mirrored
    {Group::Level, true, "all_reduce", false, false, true},          // reduce-scatter
    {Group::Level, false, "all_reduce", false, false, true},         // all-gather
};

// Compute timers.
enum Timer : int { kPreExpert, kExpert, kExpertBwd, kPreExpertBwd, kNoTimer = -1 };
constexpr const char* kTimerSpan[] = {"pre_expert", "expert", "expert_backward", "pre_expert_backward"};

// A phase: a communication stage and a compute timer that start together; it is done when
// both are. A step (one layer's forward or one layer's backward) is a sequence of phases.
// Gradient traffic runs beside them on a lane of its own (GpuState::Lane), one entry after
// another: an all-reduce bucket (its reduce-scatter kArScatter, then its all-gather
// kArGather) and, with gradOverlap, each layer's expert gradients (kExpertGrad), which then
// leave the backward step (kBackwardOverlap): nothing in the backward pass waits for them.
struct Phase {
  int comm;  // -1: none
  int timer;
};
constexpr Phase kForward[] = {{kAg, kPreExpert}, {kDispatch, kNoTimer}, {-1, kExpert}, {kCombine, kNoTimer}};
constexpr Phase kBackward[] = {
    {kCombineGrad, kNoTimer}, {-1, kExpertBwd}, {kDispatchGrad, kNoTimer}, {kExpertGrad, kPreExpertBwd}};
constexpr Phase kBackwardOverlap[] = {
    {kCombineGrad, kNoTimer}, {-1, kExpertBwd}, {kDispatchGrad, kNoTimer}, {-1, kPreExpertBwd}};
constexpr int kExpertBwdPhase = 1;  // the expert gradients are ready when it ends

// The gradient lane's entries, the same sequence on every GPU: with gradOverlap, per layer
// from the last, its expert gradients (released when its expert backward ends) then its
// all-reduce bucket (released when its backward step ends); without, one bucket of every
// layer's gradients after the backward pass.
struct LaneEntry {
  bool expertGrad;  // else an all-reduce bucket
  int layer;        // -1: every layer's
};

// Tag: GPU (32 bits) | kind (4) | level (8) | step parity (1). Kind 0: SREncode done, 1: a
// compute timer, 2 + c: the receives of comm stage c. For a timer the GPU is the one
// computing; for a send it is the sender (its bundle reaches all its peers).
constexpr std::uint64_t kEncodeDone = 0, kTimerDone = 1, kRecv = 2;
std::uint64_t tagOf(std::int64_t gpu, std::uint64_t kind, int level, int parity) {
  return std::uint64_t(gpu) | (kind << 32) | (std::uint64_t(level) << 36) | (std::uint64_t(parity) << 44);
}

struct GpuState {
  int step = 0;    // forward layers 0..L-1, then (training) backward L..2L-1
  int phase = 0;
  int level = -1;  // the level of the current communication step
  bool commDone = false, timerDone = false, stepsDone = false;
  Time phaseStart = 0;
  // The gradient lane: entries released (their gradients ready) and the one running.
  struct Lane {
    int released = 0, entry = 0;  // entry: the next or running one
    bool running = false;
    int comm = kArScatter, level = -1;
    Time phaseStart = 0;
  } ar;
  // Receives per step parity, comm stage and level: a peer may run one step ahead
  // (never two: it would need this GPU's sends of the step between).
  std::vector<std::array<std::array<int, kComms>, 2>> received;  // [level][parity][comm]
};

class Communicator {
 public:
  Communicator(const CommunicatorPlan& p, const netmodel::FlowTreeRoutes& r, netmodel::FlowSolver& s)
      : plan_(p), routes_(r), solver_(s), levels_(static_cast<int>(p.workers.size())), gpus_(gpuCount(p.workers)) {
    if (p.domains.size() != p.workers.size()) throw std::invalid_argument("communicator: one domain size per level");
    state_.resize(static_cast<std::size_t>(gpus_));
    for (GpuState& g : state_) g.received.resize(static_cast<std::size_t>(levels_));
    steps_.resize(static_cast<std::size_t>(gpus_) * static_cast<std::size_t>(levels_) * 3);
    bytes_ = stepBytes(p);
    stepCount_ = p.training ? 2 * p.layers : p.layers;
    if (p.training && p.gradOverlap) {
      for (int l = p.layers; l-- > 0;) {
        lane_.push_back({true, l});
        if (p.allReduce > 0) lane_.push_back({false, l});
      }
    } else if (p.training && p.allReduce > 0) {
      lane_.push_back({false, -1});
    }
    durations_ = {p.preExpert, p.expertCompute, p.expertBackward, p.preExpertBackward};
  }

  CommunicatorResult run() {
    for (std::int64_t g = 0; g < gpus_; ++g) {
      if (plan_.encode > 0) solver_.addFlow({}, 0, plan_.encode, tagOf(g, kEncodeDone, 0, 0));
      else startStep(g, 0);
    }
    solver_.run([this](std::int64_t, std::uint64_t tag, Time at) { onEvent(tag, at); });
    return result_;
  }

 private:
  std::span<const Phase> phases(int step) const {
    if (step < plan_.layers) return kForward;
    return plan_.gradOverlap ? std::span<const Phase>(kBackwardOverlap) : std::span<const Phase>(kBackward);
  }
  bool laneComm(int comm) const {
    return comm == kArScatter || comm == kArGather || (comm == kExpertGrad && plan_.gradOverlap);
  }
  int layerOf(int step) const { return step < plan_.layers ? step : 2 * plan_.layers - 1 - step; }

  void span(std::int64_t g, int layer, const char* kind, Time start, Time end) {
    if (g == 0) result_.gpu0.push_back({layer, kind, start, end});
  }

  int peerCount(int level, Group group) const {
    const int sf = plan_.workers[std::size_t(level)], s = plan_.domains[std::size_t(level)];
    return group == Group::Domain ? s - 1 : group == Group::Across ? sf / s - 1 : sf - 1;
  }

  // A GPU's peers, bundle route and latency for one level and group: the same every layer
  // and pass, so built on first use and kept (the solver's shared routes), not rebuilt
  // per send and delivery (at 1000 x 8 GPUs that rebuilding was half the instructions).
  struct Step {
    std::int32_t route = -1;  // the solver's shared route; -1: not built yet
    std::uint32_t peerOff = 0, peers = 0;
    Time latency = 0;
  };
  const Step& step(std::int64_t g, int level, Group group) {
    Step& st = steps_[(std::size_t(g) * std::size_t(levels_) + std::size_t(level)) * 3 + std::size_t(group)];
    if (st.route >= 0) return st;
    if (group == Group::Level) {  // every other worker of the level: AG peers with one domain
      std::vector<int> whole = plan_.workers;
      peers(g, level, PairKind::AllGather, plan_.workers, whole, to_);
    } else {
      peers(g, level, group == Group::Domain ? PairKind::AllGather : PairKind::AllToAll, plan_.workers,
            plan_.domains, to_);
    }
    st.peerOff = static_cast<std::uint32_t>(peerPool_.size());
    st.peers = static_cast<std::uint32_t>(to_.size());
    for (std::int64_t to : to_) peerPool_.push_back(static_cast<std::int32_t>(to));
    if (!to_.empty()) {
      // Members at one level cross links of the same levels: one latency for the bundle.
      routes_.route(static_cast<int>(g), static_cast<int>(to_.front()), route_);
      st.latency = solver_.routeLatency(route_);
      routes_.fanOut(static_cast<int>(g), to_, bundleRoute_, bundleCounts_);
    } else {
      bundleRoute_.clear();
      bundleCounts_.clear();
    }
    st.route = solver_.addSharedRoute(bundleRoute_, bundleCounts_);
    return st;
  }

  // One GPU's chunks to all its peers of a level leave together as one bundle (flow_solver.h):
  // the members cross the sender's links together and fan out below the level's switch.
  // In these symmetric iterations they would get equal max-min rates as separate flows
  // too; one bundle per sender and step instead of one flow per pair is what keeps
  // 1000 DCs x 8 GPUs (16 million messages a layer) at seconds.
  void send(std::int64_t from, int comm, int level, int parity, Time now) {
    const CommSpec& c = kComm[comm];
    const Step& st = step(from, level, c.group);
    if (st.peers == 0) return;
    const auto l = std::size_t(level);
    const std::int64_t bytes = c.allGatherBytes ? bytes_.allGather[l] : c.allReduceBytes ? bytes_.allReduce[l] : bytes_.chunk[l];
    solver_.addBundle(st.route, bytes, st.latency, now, tagOf(from, kRecv + std::uint64_t(comm), level, parity));
    const std::int64_t total = bytes * std::int64_t(st.peers);
    if (comm == kAg) result_.agBytes += total;
    else if (comm == kExpertGrad) result_.gradBytes += total;
    else if (c.allReduceBytes) result_.allReduceBytes += total;
    else result_.a2aBytes += total;
    result_.flows += std::int64_t(st.peers);
  }

  void startStep(std::int64_t g, Time now) {
    GpuState& s = state_[std::size_t(g)];
    if (s.step == stepCount_) {
      s.stepsDone = true;
      finishIfDone(g, now);
      return;
    }
    s.phase = 0;
    startPhase(g, now);
  }

  void startPhase(std::int64_t g, Time now) {
    GpuState& s = state_[std::size_t(g)];
    const Phase& ph = phases(s.step)[std::size_t(s.phase)];
    s.level = -1;
    s.commDone = ph.comm < 0;
    s.timerDone = ph.timer < 0;
    s.phaseStart = now;
    if (ph.timer >= 0) solver_.addFlow({}, 0, now + durations_[std::size_t(ph.timer)], tagOf(g, kTimerDone, 0, 0));
    advance(g, now);
  }

  void finishPhase(std::int64_t g, Time now) {
    GpuState& s = state_[std::size_t(g)];
    const auto ph = phases(s.step);
    if (s.step >= plan_.layers && plan_.gradOverlap && s.phase == kExpertBwdPhase) release(g, now, true);
    if (++s.phase < static_cast<int>(ph.size())) {
      startPhase(g, now);
      return;
    }
    // Only this step's stages: a peer one step ahead may already have filled another's.
    const int parity = s.step & 1;
    for (auto& perLevel : s.received)
      for (const Phase& p : ph)
        if (p.comm >= 0) perLevel[std::size_t(parity)][std::size_t(p.comm)] = 0;
    // A backward step readies its layer's all-reduce bucket (all of them after the last
    // layer without overlap).
    if (s.step >= plan_.layers && (plan_.gradOverlap || s.step == stepCount_ - 1)) release(g, now, false);
    ++s.step;
    startStep(g, now);
  }

  void finishIfDone(std::int64_t g, Time now) {
    const GpuState& s = state_[std::size_t(g)];
    if (s.stepsDone && s.ar.entry == int(lane_.size())) result_.makespan = std::max(result_.makespan, now);
  }

  // The next lane entry's gradients are ready, if it is of this kind (lane order is release
  // order; a lane without all-reduce bytes holds no buckets).
  void release(std::int64_t g, Time now, bool expertGrad) {
    GpuState::Lane& a = state_[std::size_t(g)].ar;
    if (a.released == int(lane_.size()) || lane_[std::size_t(a.released)].expertGrad != expertGrad) return;
    ++a.released;
    startEntry(g, now);
  }

  // The lane: one entry at a time, in release order.
  void startEntry(std::int64_t g, Time now) {
    GpuState::Lane& a = state_[std::size_t(g)].ar;
    if (a.running || a.entry == a.released) return;
    a.running = true;
    a.comm = lane_[std::size_t(a.entry)].expertGrad ? kExpertGrad : kArScatter;
    a.level = -1;
    a.phaseStart = now;
    advanceEntry(g, now);
  }

  // Moves GPU g's lane entry on through every level whose receives are complete; like advance().
  void advanceEntry(std::int64_t g, Time now) {
    GpuState& s = state_[std::size_t(g)];
    GpuState::Lane& a = s.ar;
    const int parity = a.entry & 1;
    for (;;) {
      const CommSpec& c = kComm[a.comm];
      if (a.level >= 0 && s.received[std::size_t(a.level)][std::size_t(parity)][std::size_t(a.comm)] <
                              peerCount(a.level, c.group))
        return;
      int next = a.level < 0 ? (c.inward ? levels_ - 1 : 0) : a.level + (c.inward ? -1 : 1);
      while (next >= 0 && next < levels_ && peerCount(next, c.group) == 0) next += c.inward ? -1 : 1;
      if (next >= 0 && next < levels_) {
        a.level = next;
        send(g, a.comm, next, parity, now);
        continue;
      }
      if (a.level >= 0) span(g, lane_[std::size_t(a.entry)].layer, c.span, a.phaseStart, now);
      if (a.comm == kArScatter) {
        a.comm = kArGather;
        a.level = -1;
        a.phaseStart = now;
        continue;
      }
      for (auto& perLevel : s.received)
        for (int comm : {kExpertGrad, kArScatter, kArGather}) perLevel[std::size_t(parity)][std::size_t(comm)] = 0;
      ++a.entry;
      a.running = false;
      if (a.entry < a.released) {
        startEntry(g, now);
        return;
      }
      finishIfDone(g, now);
      return;
    }
  }

  // Moves GPU g through every communication step whose receives are complete.
  void advance(std::int64_t g, Time now) {
    GpuState& s = state_[std::size_t(g)];
    if (s.stepsDone) return;
    const Phase& ph = phases(s.step)[std::size_t(s.phase)];
    if (!s.commDone) {
      const CommSpec& c = kComm[ph.comm];
      const int parity = s.step & 1;
      for (;;) {
        if (s.level >= 0 &&
            s.received[std::size_t(s.level)][std::size_t(parity)][std::size_t(ph.comm)] < peerCount(s.level, c.group))
          return;  // waiting for this level's receives
        int next = s.level < 0 ? (c.inward ? levels_ - 1 : 0) : s.level + (c.inward ? -1 : 1);
        while (next >= 0 && next < levels_ && peerCount(next, c.group) == 0) next += c.inward ? -1 : 1;
        if (next < 0 || next >= levels_) break;
        s.level = next;
        send(g, ph.comm, next, parity, now);
      }
      s.commDone = true;
      if (s.level >= 0 || c.alwaysSpan) span(g, layerOf(s.step), c.span, s.phaseStart, now);
    }
    if (s.timerDone) finishPhase(g, now);
  }

  void onEvent(std::uint64_t tag, Time at) {
    const auto g = static_cast<std::int64_t>(tag & 0xffffffffu);
    const std::uint64_t kind = (tag >> 32) & 0xf;
    const int level = static_cast<int>((tag >> 36) & 0xff);
    const int parity = static_cast<int>((tag >> 44) & 1);
    GpuState& s = state_[std::size_t(g)];
    if (kind == kEncodeDone) {
      startStep(g, at);
      return;
    }
    if (kind == kTimerDone) {
      s.timerDone = true;
      span(g, layerOf(s.step), kTimerSpan[phases(s.step)[std::size_t(s.phase)].timer], s.phaseStart, at);
      if (s.commDone) finishPhase(g, at);
      return;
    }
    // g's bundle reached every peer of this step. A receive moves its GPU on only when it
    // completes the step's count (advance() is a no-op before that).
    const int comm = static_cast<int>(kind - kRecv);
    const bool lane = laneComm(comm);
    const Group group = kComm[comm].group;
    const Step& st = step(g, level, group);
    const int need = peerCount(level, group);
    const std::uint32_t off = st.peerOff, n = st.peers;
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::int32_t to = peerPool_[off + i];  // by index: advance() may grow the pool
      GpuState& d = state_[std::size_t(to)];
      const int got = ++d.received[std::size_t(level)][std::size_t(parity)][std::size_t(comm)];
      if (got != need) continue;
      if (!lane && (d.step & 1) == parity) advance(to, at);
      if (lane && d.ar.running && (d.ar.entry & 1) == parity) advanceEntry(to, at);
    }
  }

  const CommunicatorPlan& plan_;
  const netmodel::FlowTreeRoutes& routes_;
  netmodel::FlowSolver& solver_;
  int levels_;
  std::int64_t gpus_;
  int stepCount_ = 0;
  std::vector<LaneEntry> lane_;
  std::array<Time, 4> durations_{};
  std::vector<GpuState> state_;
  StepBytes bytes_;
  std::vector<std::int32_t> route_, bundleRoute_;
  std::vector<std::uint32_t> bundleCounts_;
  std::vector<std::int64_t> to_;      // peer buffer
  std::vector<Step> steps_;           // [gpu][level][group]
  std::vector<std::int32_t> peerPool_;
  CommunicatorResult result_;
};

}  // namespace

StepBytes stepBytes(const CommunicatorPlan& p) {
  if (p.domains.size() != p.workers.size()) throw std::invalid_argument("communicator: one domain size per level");
  StepBytes b;
  double gathered = p.expert;
  for (std::size_t l = 0; l < p.workers.size(); ++l) {
    const int sf = p.workers[l], s = p.domains[l];
    if (s < 1 || sf % s) throw std::invalid_argument("communicator: a domain size must divide its level");
    b.allGather.push_back(std::llround(gathered));
    b.chunk.push_back(std::llround(p.data * s / sf));
    gathered *= s;
  }
  // One bucket's: reduce-scatter innermost first, each level splits what is left.
  double share = p.allReduce / (p.gradOverlap ? std::max(1, p.layers) : 1);
  b.allReduce.assign(p.workers.size(), 0);
  for (std::size_t l = p.workers.size(); l-- > 0;) {
    share /= p.workers[l];
    b.allReduce[l] = std::llround(share);
  }
  return b;
}

CommunicatorResult runAsyncCommunicator(const CommunicatorPlan& plan, const netmodel::FlowTreeRoutes& routes,
                                        netmodel::FlowSolver& solver) {
  return Communicator(plan, routes, solver).run();
}

}  // namespace fl::xdc
