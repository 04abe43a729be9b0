#include "xdc/async_communicator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "xdc/domain_partition.h"

namespace fl::xdc {

namespace {

enum Kind : std::uint64_t { PreExpertDone, AgRecv, DispatchRecv, CombineRecv, ExpertDone, EncodeDone };
enum class Stage { AllGather, Dispatch, Expert, Combine, Done };

// Tag: GPU (32 bits) | kind (4) | level (8) | layer parity (1). For the compute timers the
// GPU is the one computing; for a send it is the sender (its bundle reaches all its peers).
std::uint64_t tagOf(std::int64_t gpu, Kind k, int level, int parity) {
  return std::uint64_t(gpu) | (std::uint64_t(k) << 32) | (std::uint64_t(level) << 36) | (std::uint64_t(parity) << 44);
}

struct GpuState {
  int layer = 0;
  Stage stage = Stage::AllGather;
  int level = -1;  // the level of the current AG / A2A step
  bool preExpertDone = false, allGatherDone = false;
  Time spanStart = 0, peStart = 0;
  // Receives per layer parity, kind (AG, dispatch, combine) and level: a peer may run one
  // layer ahead (never two: it would need this GPU's combine of the next layer).
  std::vector<std::array<std::array<int, 3>, 2>> received;  // [level][parity][kind]
};

class Communicator {
 public:
  Communicator(const CommunicatorPlan& p, const netmodel::FlowTreeRoutes& r, netmodel::FlowSolver& s)
      : plan_(p), routes_(r), solver_(s), levels_(static_cast<int>(p.workers.size())), gpus_(gpuCount(p.workers)) {
    if (p.domains.size() != p.workers.size()) throw std::invalid_argument("communicator: one domain size per level");
    state_.resize(static_cast<std::size_t>(gpus_));
    for (GpuState& g : state_) g.received.resize(static_cast<std::size_t>(levels_));
    steps_.resize(static_cast<std::size_t>(gpus_) * static_cast<std::size_t>(levels_) * 2);
    StepBytes b = stepBytes(p);
    agBytes_ = std::move(b.allGather);
    chunk_ = std::move(b.chunk);
  }

  CommunicatorResult run() {
    for (std::int64_t g = 0; g < gpus_; ++g) {
      if (plan_.encode > 0) timer(g, plan_.encode, EncodeDone);
      else startLayer(g, 0);
    }
    solver_.run([this](std::int64_t, std::uint64_t tag, Time at) { onEvent(tag, at); });
    return result_;
  }

 private:
  void timer(std::int64_t g, Time at, Kind k) { solver_.addFlow({}, 0, at, tagOf(g, k, 0, 0)); }

  void span(std::int64_t g, int layer, const char* kind, Time start, Time end) {
    if (g == 0) result_.gpu0.push_back({layer, kind, start, end});
  }

  // One GPU's chunks to all its peers of a level leave together as one bundle (flow_solver.h):
  // the members cross the sender's links together and fan out below the level's switch.
  // In these symmetric iterations they would get equal max-min rates as separate flows
  // too; one bundle per sender and step instead of one flow per pair is what keeps
  // 1000 DCs x 8 GPUs (16 million messages a layer) at seconds.
  void send(std::int64_t from, PairKind kind, int level, std::int64_t bytes, Kind recvKind, int parity, Time now) {
    const Step& st = step(from, level, kind);
    if (st.peers == 0) return;
    solver_.addBundle(st.route, bytes, st.latency, now, tagOf(from, recvKind, level, parity));
    (kind == PairKind::AllGather ? result_.agBytes : result_.a2aBytes) += bytes * std::int64_t(st.peers);
    result_.flows += std::int64_t(st.peers);
  }

  // A GPU's peers, bundle route and latency for one level and kind: the same every layer
  // and pass, so built on first use and kept (the solver's shared routes), not rebuilt
  // per send and delivery (at 1000 x 8 GPUs that rebuilding was half the instructions).
  struct Step {
    std::int32_t route = -1;  // the solver's shared route; -1: not built yet
    std::uint32_t peerOff = 0, peers = 0;
    Time latency = 0;
  };
  const Step& step(std::int64_t g, int level, PairKind kind) {
    Step& st = steps_[(std::size_t(g) * std::size_t(levels_) + std::size_t(level)) * 2 +
                      (kind == PairKind::AllGather ? 0 : 1)];
    if (st.route >= 0) return st;
    peers(g, level, kind, plan_.workers, plan_.domains, to_);
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

  void startLayer(std::int64_t g, Time now) {
    GpuState& s = state_[std::size_t(g)];
    if (s.layer == plan_.layers) {
      s.stage = Stage::Done;
      result_.makespan = std::max(result_.makespan, now);
      return;
    }
    s.stage = Stage::AllGather;
    s.level = -1;
    s.preExpertDone = s.allGatherDone = false;
    s.peStart = s.spanStart = now;
    timer(g, now + plan_.preExpert, PreExpertDone);
    advance(g, now);
  }

  int peerCount(int level, Stage st) const {
    const int sf = plan_.workers[std::size_t(level)], s = plan_.domains[std::size_t(level)];
    return st == Stage::AllGather ? s - 1 : sf / s - 1;
  }

  // Moves GPU g through every step whose receives are complete.
  void advance(std::int64_t g, Time now) {
    GpuState& s = state_[std::size_t(g)];
    const int parity = s.layer & 1;
    for (;;) {
      if (s.stage == Stage::AllGather || s.stage == Stage::Dispatch || s.stage == Stage::Combine) {
        const int kind = s.stage == Stage::AllGather ? 0 : s.stage == Stage::Dispatch ? 1 : 2;
        if (s.level >= 0 && s.received[std::size_t(s.level)][std::size_t(parity)][std::size_t(kind)] <
                                peerCount(s.level, s.stage))
          return;  // waiting for this level's receives
        // Next level with peers (combine walks inward-out: innermost level first).
        const bool inward = s.stage == Stage::Combine;
        int next = s.level < 0 ? (inward ? levels_ - 1 : 0) : s.level + (inward ? -1 : 1);
        while (next >= 0 && next < levels_ && peerCount(next, s.stage) == 0) next += inward ? -1 : 1;
        if (next >= 0 && next < levels_) {
          s.level = next;
          if (s.stage == Stage::AllGather)
            send(g, PairKind::AllGather, next, agBytes_[std::size_t(next)], AgRecv, parity, now);
          else
            send(g, PairKind::AllToAll, next, chunk_[std::size_t(next)],
                 s.stage == Stage::Dispatch ? DispatchRecv : CombineRecv, parity, now);
          continue;
        }
        // The stage is complete.
        if (s.stage == Stage::AllGather) {
          if (!s.allGatherDone && s.level >= 0) span(g, s.layer, "all_gather", s.spanStart, now);  // had peers
          s.allGatherDone = true;
          if (!s.preExpertDone) return;  // the A2A needs the pre-expert output
          s.stage = Stage::Dispatch;
        } else if (s.stage == Stage::Dispatch) {
          span(g, s.layer, "dispatch", s.spanStart, now);
          s.stage = Stage::Expert;
          s.spanStart = now;
          timer(g, now + plan_.expertCompute, ExpertDone);
          return;
        } else {
          span(g, s.layer, "combine", s.spanStart, now);
          for (auto& perLevel : s.received) perLevel[std::size_t(parity)] = {};
          ++s.layer;
          startLayer(g, now);
          return;
        }
        s.level = -1;
        s.spanStart = now;
        continue;
      }
      return;  // Expert or Done: timers move these on
    }
  }

  void onEvent(std::uint64_t tag, Time at) {
    const auto g = static_cast<std::int64_t>(tag & 0xffffffffu);
    const auto kind = static_cast<Kind>((tag >> 32) & 0xf);
    const int level = static_cast<int>((tag >> 36) & 0xff);
    const int parity = static_cast<int>((tag >> 44) & 1);
    GpuState& s = state_[std::size_t(g)];
    switch (kind) {
      case EncodeDone: startLayer(g, at); return;
      case PreExpertDone:
        s.preExpertDone = true;
        span(g, s.layer, "pre_expert", s.peStart, at);
        if (s.stage == Stage::AllGather && s.allGatherDone) {
          s.stage = Stage::Dispatch;
          s.level = -1;
          s.spanStart = at;
          advance(g, at);
        }
        return;
      case ExpertDone:
        span(g, s.layer, "expert", s.spanStart, at);
        s.stage = Stage::Combine;
        s.level = -1;
        s.spanStart = at;
        advance(g, at);
        return;
      case AgRecv: case DispatchRecv: case CombineRecv: {
        // g's bundle reached every peer of this step. A receive moves its GPU on only when
        // it completes the step's count (advance() is a no-op before that).
        const PairKind pk = kind == AgRecv ? PairKind::AllGather : PairKind::AllToAll;
        const Step& st = step(g, level, pk);
        const int need = peerCount(level, kind == AgRecv ? Stage::AllGather : Stage::Dispatch);
        const std::uint32_t off = st.peerOff, n = st.peers;
        for (std::uint32_t i = 0; i < n; ++i) {
          const std::int32_t to = peerPool_[off + i];  // by index: advance() may grow the pool
          GpuState& d = state_[std::size_t(to)];
          const int got = ++d.received[std::size_t(level)][std::size_t(parity)][std::size_t(kind - AgRecv)];
          if (got == need && (d.layer & 1) == parity) advance(to, at);
        }
        return;
      }
    }
  }

  const CommunicatorPlan& plan_;
  const netmodel::FlowTreeRoutes& routes_;
  netmodel::FlowSolver& solver_;
  int levels_;
  std::int64_t gpus_;
  std::vector<GpuState> state_;
  std::vector<std::int64_t> agBytes_, chunk_;
  std::vector<std::int32_t> route_, bundleRoute_;
  std::vector<std::uint32_t> bundleCounts_;
  std::vector<std::int64_t> to_;      // peer buffer
  std::vector<Step> steps_;           // [gpu][level][AG, A2A]
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
  return b;
}

CommunicatorResult runAsyncCommunicator(const CommunicatorPlan& plan, const netmodel::FlowTreeRoutes& routes,
                                        netmodel::FlowSolver& solver) {
  return Communicator(plan, routes, solver).run();
}

}  // namespace fl::xdc
