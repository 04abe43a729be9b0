#include "workloads/moe_layer.h"

#include <algorithm>

#include "gpu/al_tlb.h"
#include "scenario/schema.h"
#include "workloads/moe_accounting.h"
#include "workloads/moe_plan.h"

namespace fl::work {
namespace {

// Timer arguments of an agent: compute finished, or released from a barrier.
constexpr std::uint64_t kGemm1Done = 1, kGemm2Done = 2;
constexpr std::uint32_t kAfterDispatch = 0, kAfterCompute = 1;  // barriers
constexpr std::uint64_t kReleasedAfterDispatch = 100 + kAfterDispatch;
constexpr std::uint64_t kReleasedAfterCompute = 100 + kAfterCompute;
constexpr std::uint32_t kBarrierArrive = 102;

std::uint64_t moeTag(int phase, int source, int token) {
  return (static_cast<std::uint64_t>(phase) << 62) | (static_cast<std::uint64_t>(source) << 32) |
         static_cast<std::uint64_t>(token);
}
int tagPhase(std::uint64_t tag) { return static_cast<int>(tag >> 62); }
int tagSource(std::uint64_t tag) { return static_cast<int>((tag >> 32) & 0x3fffffffu); }
int tagToken(std::uint64_t tag) { return static_cast<int>(tag & 0xffffffffu); }

// What every agent reads: the plan, the scheme and the multicast groups made for it.
struct MoeShared {
  const MoePlan* plan = nullptr;
  MoeCommunication comm = MoeCommunication::DeepEp;
  MoeFusion fusion = MoeFusion::Sequential;
  std::vector<int> tokenGroup;   // dysharp/explicit: [gpu * tokens + token], -1 without remote
  std::vector<int> staticGroup;  // nvls_static: per source, every other GPU
  std::vector<topo::NodeId> nodeOf;
  std::int64_t packetPayload = 256;
  net::WireFormat wire;
  Time barrierLatency = 0;
  int tlbEntries = 512;
  Time alTableLatency = 0;
  ComponentId coordinator = 0;
  std::vector<ComponentId> agents;

  bool inSwitch() const { return comm != MoeCommunication::DeepEp; }
  bool dynamic() const { return comm == MoeCommunication::DySharp || comm == MoeCommunication::Explicit; }
  // Only dynamic multimem addressing translates algebraic indices in the hub (AL TLB);
  // explicit addressing carries the final addresses.
  bool translates() const { return comm == MoeCommunication::DySharp; }
  int requestExtension(const TokenRoute& r) const {
    if (comm == MoeCommunication::Explicit) return static_cast<int>(r.gpus.size());
    if (comm != MoeCommunication::DySharp) return 0;
    int experts = 0;
    for (auto e : r.experts) experts += e;
    return (experts + 7) / 8;  // eight 16-bit expert ids per target extension flit
  }
  bool needs(int gpu, int source, int token) const {
    const auto& g = plan->route(source, token).gpus;
    return std::binary_search(g.begin(), g.end(), gpu);
  }
};

// Barriers between sequential phases: every GPU reports, all are released together one
// barrier latency later (a flag round trip over NVLink).
class BarrierCoordinator : public Component {
 public:
  explicit BarrierCoordinator(const MoeShared& s) : shared_(s) {}
  void handle(const Event& e) override {
    if (++arrived_[e.arg32] < static_cast<int>(shared_.agents.size())) return;
    for (ComponentId a : shared_.agents) schedule(now() + shared_.barrierLatency, a, kTimer, 0, 100 + std::uint64_t{e.arg32});
  }

 private:
  const MoeShared& shared_;
  int arrived_[2] = {0, 0};
};

class MoeAgent : public Agent {
 public:
  MoeAgent(net::EndpointNode& ep, const MoeShared& s, int rank)
      : Agent(ep), s_(s), rank_(rank), tlb_(s.tlbEntries) {
    const MoePlan& p = *s.plan;
    combineGot_.assign(static_cast<std::size_t>(p.tokens), 0);
    dispatchExpected_ = s.comm == MoeCommunication::NvlsStatic
                            ? static_cast<std::int64_t>(p.gpus - 1) * p.tokens * p.dispatchBytes
                            : p.tokensIn[static_cast<std::size_t>(rank)] * p.dispatchBytes;
    for (int t = 0; t < p.tokens; ++t) {
      const auto remote = static_cast<std::int64_t>(p.route(rank, t).gpus.size());
      combineExpected_ += (s.comm == MoeCommunication::NvlsStatic ? p.gpus - 1 : remote) * p.combineBytes;
    }
    expected_ = dispatchExpected_ + combineExpected_;
  }

  const MoeAccounting& accounting() const { return acc_; }
  std::string name() const { return "gpu" + std::to_string(rank_); }
  const AlTlb& tlb() const { return tlb_; }
  // NVLink packets a simulated packet of `bytes` stands for (the hub sees each one).
  int nvlinkPackets(std::uint32_t bytes) const {
    const auto max = static_cast<std::uint32_t>(s_.wire.maxPacketPayload);
    return static_cast<int>(std::max<std::uint32_t>(1, (bytes + max - 1) / max));
  }

  void start() override {
    beginPhase("dispatch");
    std::vector<Post> dispatch;
    collectDispatch(dispatch);
    if (s_.fusion == MoeFusion::CommOnly) {
      // Both directions at once: alternate the two operators' messages token by token.
      std::vector<Post> combine;
      beginCombine(combine);
      std::vector<Post> both;
      for (std::size_t i = 0; i < std::max(dispatch.size(), combine.size()); ++i) {
        if (i < dispatch.size()) both.push_back(dispatch[i]);
        if (i < combine.size()) both.push_back(combine[i]);
      }
      postAll(both);
      checkCombine();
    } else {
      postAll(dispatch);
    }
    checkDispatch();
  }

  void onTimer(std::uint64_t what) override {
    const Time t = now();
    if (what == kReleasedAfterDispatch) {
      beginPhase("gemm1");
      wakeAt(t + s_.plan->gemm1[static_cast<std::size_t>(rank_)], kGemm1Done);
    } else if (what == kGemm1Done) {
      endPhase("gemm1");
      beginPhase("gemm2");
      wakeAt(t + s_.plan->gemm2[static_cast<std::size_t>(rank_)], kGemm2Done);
    } else if (what == kGemm2Done) {
      endPhase("gemm2");
      schedule(now() + s_.barrierLatency, s_.coordinator, kBarrierArrive, kAfterCompute);
    } else if (what == kReleasedAfterCompute) {
      std::vector<Post> combine;
      beginCombine(combine);
      postAll(combine);
      checkCombine();
    }
  }

  // Combine reads translate the token's algebraic index through the AL TLB; a miss reads
  // the AL Table first.
  Time responseDelay(const net::Packet& p) override {
    if (!s_.translates()) return 0;
    const std::uint64_t block = (static_cast<std::uint64_t>(tagSource(p.tag)) << 32) |
                                static_cast<std::uint32_t>(tagToken(p.tag));
    return tlb_.combine(block, nvlinkPackets(p.dataBytes)) ? 0 : s_.alTableLatency;
  }

  void onDelivered(const net::Packet& p) override {
    const int phase = tagPhase(p.tag);
    acc_.wire[phase][kDownlink] += p.wireBytes;
    const int source = tagSource(p.tag), token = tagToken(p.tag);
    const std::uint64_t block = (static_cast<std::uint64_t>(source) << 32) | static_cast<std::uint32_t>(token);
    switch (p.op) {
      case net::Op::Write:
        if (phase == kDispatch) {
          acc_.add(kDispatch, kDownlink, s_.needs(rank_, source, token) ? kUseful : kUseless, p.payload);
          if (s_.translates()) tlb_.dispatch(block, nvlinkPackets(p.payload));
          dispatchGot_ += p.payload;
          received_ += p.payload;
          checkDispatch();
        } else {
          combineArrived(token, p.payload, p.payload);
        }
        break;
      case net::Op::LdReduceRead: {
        // This GPU's contribution goes back up: useful if one of its experts had the token.
        acc_.add(kCombine, kUplink, s_.needs(rank_, source, token) ? kUseful : kUseless, p.dataBytes);
        acc_.wire[kCombine][kUplink] += s_.wire.wireBytes(net::Op::LdReduceData, p.dataBytes);
        break;
      }
      case net::Op::LdReduceResult:
        combineArrived(token, p.payload, static_cast<std::int64_t>(p.payload) * p.contributions);
        break;
      default:
        break;
    }
  }

 private:
  void post(net::Message m, int phase, int cls) {
    // Uplink accounting at the source, packet by packet as the endpoint will cut them.
    const bool request = m.op == net::Op::LdReduce;
    for (std::int64_t left = m.bytes; left > 0; left -= s_.packetPayload) {
      const std::int64_t chunk = std::min(left, s_.packetPayload);
      const std::int64_t payload = request ? 0 : chunk;
      acc_.wire[phase][kUplink] += s_.wire.wireBytes(m.op, payload, m.extensionFlits);
      if (payload > 0) acc_.add(phase, kUplink, cls, payload);
    }
    Agent::post(m);
  }

  struct Post {
    net::Message m;
    int phase, cls;
  };
  void postAll(const std::vector<Post>& posts) {
    for (const Post& p : posts) post(p.m, p.phase, p.cls);
  }

  net::Message message(net::Op op, std::int64_t bytes, int phase, int source, int token) const {
    net::Message m;
    m.inOrder = true;  // a token vector's packets go out together, as one warp sends it
    m.op = op;
    m.bytes = bytes;
    m.tag = moeTag(phase, source, token);
    // Distinct reduction keys per token: its packets are numbered from token x pieces.
    const std::int64_t pieces = (bytes + s_.packetPayload - 1) / s_.packetPayload;
    m.firstPiece = static_cast<std::uint32_t>(token * pieces);
    return m;
  }

  void collectDispatch(std::vector<Post>& out) {
    const MoePlan& p = *s_.plan;
    for (int t = 0; t < p.tokens; ++t) {
      const TokenRoute& r = p.route(rank_, t);
      if (s_.comm == MoeCommunication::DeepEp) {
        for (std::size_t i = 0; i < r.gpus.size(); ++i) {
          net::Message m = message(net::Op::Write, p.dispatchBytes, kDispatch, rank_, t);
          m.destination = s_.nodeOf[static_cast<std::size_t>(r.gpus[i])];
          out.push_back({m, kDispatch, i == 0 ? kUseful : kRedundant});  // one copy would do with multicast
        }
      } else if (s_.comm == MoeCommunication::NvlsStatic) {
        net::Message m = message(net::Op::McStore, p.dispatchBytes, kDispatch, rank_, t);
        m.group = s_.staticGroup[static_cast<std::size_t>(rank_)];
        out.push_back({m, kDispatch, r.gpus.empty() ? kUseless : kUseful});
      } else if (!r.gpus.empty()) {
        net::Message m = message(net::Op::McStore, p.dispatchBytes, kDispatch, rank_, t);
        m.group = s_.tokenGroup[static_cast<std::size_t>(rank_) * static_cast<std::size_t>(p.tokens) + static_cast<std::size_t>(t)];
        m.extensionFlits = s_.requestExtension(r);
        out.push_back({m, kDispatch, kUseful});
      }
    }
  }

  void beginCombine(std::vector<Post>& out) {
    const MoePlan& p = *s_.plan;
    beginPhase("combine");
    combineStarted_ = true;
    if (s_.comm == MoeCommunication::DeepEp) {
      // Every token this GPU's experts processed goes back to its source as one partial.
      for (int src = 0; src < p.gpus; ++src) {
        if (src == rank_) continue;
        for (int t = 0; t < p.tokens; ++t) {
          if (!s_.needs(rank_, src, t)) continue;
          net::Message m = message(net::Op::Write, p.combineBytes, kCombine, src, t);
          m.destination = s_.nodeOf[static_cast<std::size_t>(src)];
          out.push_back({m, kCombine, kUseful});
        }
      }
    } else {
      for (int t = 0; t < p.tokens; ++t) {
        const TokenRoute& r = p.route(rank_, t);
        net::Message m = message(net::Op::LdReduce, p.combineBytes, kCombine, rank_, t);
        if (s_.comm == MoeCommunication::NvlsStatic) {
          m.group = s_.staticGroup[static_cast<std::size_t>(rank_)];
          m.expected = static_cast<std::uint16_t>(p.gpus - 1);
        } else {
          if (r.gpus.empty()) continue;
          m.group = s_.tokenGroup[static_cast<std::size_t>(rank_) * static_cast<std::size_t>(p.tokens) + static_cast<std::size_t>(t)];
          m.expected = static_cast<std::uint16_t>(r.gpus.size());
          m.extensionFlits = s_.requestExtension(r);
        }
        out.push_back({m, kCombine, kUseful});
      }
    }
  }

  // Combine data for one of this GPU's tokens: the first copy of its output is useful,
  // further partials are redundant (an in-switch reduction would have merged them), and
  // outputs of tokens no remote expert had are useless (zeros).
  void combineArrived(int token, std::int64_t payload, std::int64_t operandBytes) {
    auto& got = combineGot_[static_cast<std::size_t>(token)];
    const bool needed = !s_.plan->route(rank_, token).gpus.empty();
    const std::int64_t room = needed ? std::max<std::int64_t>(0, s_.plan->combineBytes - got) : 0;
    acc_.add(kCombine, kDownlink, kUseful, std::min(payload, room));
    acc_.add(kCombine, kDownlink, needed ? kRedundant : kUseless, payload - std::min(payload, room));
    got += payload;
    combineOperands_ += operandBytes;
    received_ += operandBytes;
    checkCombine();
  }

  void checkDispatch() {
    if (dispatchDone_ || dispatchGot_ < dispatchExpected_) return;
    dispatchDone_ = true;
    endPhase("dispatch");
    if (s_.fusion == MoeFusion::Sequential)
      schedule(now() + s_.barrierLatency, s_.coordinator, kBarrierArrive, kAfterDispatch);
    else if (combineDone_)
      finish();
  }

  void checkCombine() {
    if (!combineStarted_ || combineDone_ || combineOperands_ < combineExpected_) return;
    combineDone_ = true;
    endPhase("combine");
    if (dispatchDone_) finish();
  }

  const MoeShared& s_;
  int rank_;
  AlTlb tlb_;
  MoeAccounting acc_;
  std::vector<std::int64_t> combineGot_;
  std::int64_t dispatchExpected_ = 0, dispatchGot_ = 0;
  std::int64_t combineExpected_ = 0, combineOperands_ = 0;
  bool dispatchDone_ = false, combineStarted_ = false, combineDone_ = false;
};

class MoeLayer : public Workload {
 public:
  MoeLayer(const Scenario& s, int gpus) : plan_(planMoeLayer(s, gpus)), spec_(s) {}
  MoePlan plan_;
  MoeShared shared_;
  std::unique_ptr<BarrierCoordinator> coordinator_;
  Scenario spec_;
  Time ideal_ = 0;

  void finish(Results& r) const override {
    Workload::finish(r);
    MoeAccounting total;
    MoeResults moe;
    r.endpoints.clear();
    for (const auto& a : agents_) {
      const auto& agent = static_cast<const MoeAgent&>(*a);
      total.merge(agent.accounting());
      moe.al_tlb_hits += agent.tlb().hits();
      moe.al_tlb_misses += agent.tlb().misses();
      EndpointResult e;
      e.id = agent.name();
      e.al_tlb_hits = agent.tlb().hits();
      e.al_tlb_misses = agent.tlb().misses();
      e.al_blocks_allocated = agent.tlb().allocatedBlocks();
      r.endpoints.push_back(std::move(e));
    }
    r.breakdown = total.rows();
    moe.communication = getValue(spec_, "scheme.communication");
    moe.fusion = getValue(spec_, "scheme.fusion");
    moe.distinct_remote_gpus_per_token = plan_.meanRemoteGpus;
    moe.ideal_comm = ideal_;
    r.moe = moe;
  }
};

}  // namespace

std::unique_ptr<Workload> makeMoeLayer(const Scenario& s, net::Network& net, Simulator& sim) {
  const int gpus = net.endpointCount();
  auto w = std::make_unique<MoeLayer>(s, gpus);
  MoeShared& sh = w->shared_;
  sh.plan = &w->plan_;
  sh.comm = s.scheme.communication;
  sh.fusion = s.scheme.fusion;
  sh.packetPayload = net.config().packetPayload;
  sh.tlbEntries = s.scheme.al_tlb_entries;
  sh.alTableLatency = s.scheme.al_table_latency;
  sh.wire = net.config().wire;
  sh.nodeOf = net.topology().endpoints();
  Time longest = 0;
  for (const auto& l : net.topology().links()) longest = std::max(longest, l.latency);
  sh.barrierLatency = std::max<Time>(2 * longest, kNanosecond);
  if (sh.comm == MoeCommunication::NvlsStatic) {
    for (int g = 0; g < gpus; ++g) {
      std::vector<topo::NodeId> others;
      for (int d = 0; d < gpus; ++d)
        if (d != g) others.push_back(sh.nodeOf[static_cast<std::size_t>(d)]);
      sh.staticGroup.push_back(net.addGroup(std::move(others)));
    }
  } else if (sh.dynamic()) {
    const MoePlan& p = w->plan_;
    sh.tokenGroup.assign(static_cast<std::size_t>(gpus) * static_cast<std::size_t>(p.tokens), -1);
    for (int g = 0; g < gpus; ++g)
      for (int t = 0; t < p.tokens; ++t) {
        const TokenRoute& r = p.route(g, t);
        if (r.gpus.empty()) continue;
        net::Network::MulticastGroup group;
        for (auto d : r.gpus) group.members.push_back(sh.nodeOf[static_cast<std::size_t>(d)]);
        if (sh.comm == MoeCommunication::DySharp) {
          group.targets = r.experts;  // trimmed target list: this GPU's experts
        } else {
          group.targets.assign(r.gpus.size(), 1);  // one explicit address per replica
          group.targetsPerFlit = 1;
        }
        sh.tokenGroup[static_cast<std::size_t>(g) * static_cast<std::size_t>(p.tokens) + static_cast<std::size_t>(t)] =
            net.addGroup(std::move(group));
      }
  }
  // Ideal communication time: useful bytes at each GPU's link rate, tightest framing.
  std::vector<double> rate(static_cast<std::size_t>(gpus), 0.0);
  for (int g = 0; g < gpus; ++g)
    for (const auto& port : net.topology().ports(sh.nodeOf[static_cast<std::size_t>(g)])) {
      const auto& l = net.topology().link(port.link);
      rate[static_cast<std::size_t>(g)] += l.bandwidth * l.efficiency;
    }
  const auto full = static_cast<double>(sh.wire.maxPacketPayload);
  const auto framing = [&](net::Op op) {
    return full / static_cast<double>(sh.wire.wireBytes(op, sh.wire.maxPacketPayload));
  };
  w->ideal_ = idealCommTime(w->plan_, sh.fusion == MoeFusion::CommOnly, rate, framing(net::Op::Write),
                            framing(net::Op::ReadResponse));
  w->coordinator_ = std::make_unique<BarrierCoordinator>(sh);
  sh.coordinator = sim.add(*w->coordinator_, net.partitionOf(net.topology().endpointNode(0)));
  int rank = 0;
  w->createAgents(net, sim, [&](net::EndpointNode& ep) { return std::make_unique<MoeAgent>(ep, sh, rank++); });
  for (const auto& a : w->agents()) sh.agents.push_back(a->id());
  return w;
}

}  // namespace fl::work
