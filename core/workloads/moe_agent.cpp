#include "workloads/moe_agent.h"

#include <algorithm>

namespace fl::work {

int MoeShared::requestExtension(const TokenRoute& r) const {
  if (comm == MoeCommunication::Explicit) return static_cast<int>(r.gpus.size());
  if (comm != MoeCommunication::DySharp) return 0;
  int experts = 0;
  for (auto e : r.experts) experts += e;
  return (experts + 7) / 8;  // eight 16-bit expert ids per target extension flit
}

bool MoeShared::needs(int gpu, int source, int token) const {
  const auto& g = plan->route(source, token).gpus;
  return std::binary_search(g.begin(), g.end(), gpu);
}

void BarrierCoordinator::handle(const Event& e) {
  if (meetings_.size() <= e.arg32) meetings_.resize(e.arg32 + 1);
  Meeting& m = meetings_[e.arg32];
  if (m.arrived == 0) m.first = now();
  m.last = now();
  if (++m.arrived < static_cast<int>(shared_.agents.size()) || e.arg == 1) return;
  for (ComponentId a : shared_.agents) schedule(now() + shared_.barrierLatency, a, kTimer, 0, kReleaseBase + e.arg32);
}

Time BarrierCoordinator::spread(std::uint32_t id) const {
  if (id >= meetings_.size() || meetings_[id].arrived < static_cast<int>(shared_.agents.size())) return 0;
  return meetings_[id].last - meetings_[id].first;
}

MoeAgent::MoeAgent(net::EndpointNode& ep, const MoeShared& s, int rank)
    : Agent(ep),
      s_(s),
      rank_(rank),
      tlb_(s.tlbEntries, s.translates() ? static_cast<std::uint32_t>(s.plan->gpus) : 0,
           static_cast<std::uint32_t>(s.plan->tokens)) {
  const MoePlan& p = *s.plan;
  combineGot_.assign(static_cast<std::size_t>(p.tokens), 0);
  combineOperands_.assign(static_cast<std::size_t>(p.tokens), 0);
  dispatchExpected_ = s.comm == MoeCommunication::NvlsStatic
                          ? static_cast<std::int64_t>(p.gpus - 1) * p.tokens * p.dispatchBytes
                          : p.tokensIn[static_cast<std::size_t>(rank)] * p.dispatchBytes;
  for (int t = 0; t < p.tokens; ++t) combineExpected_ += combineOperandsExpected(t);
  expected_ = dispatchExpected_ + combineExpected_;
  for (int g = 0; g < 2; ++g) ep.setIssueRate(g + 1, s.issueRate[g]);
}

std::int64_t MoeAgent::combineOperandsExpected(int token) const {
  const MoePlan& p = *s_.plan;
  const auto remote = static_cast<std::int64_t>(p.route(rank_, token).gpus.size());
  return (s_.comm == MoeCommunication::NvlsStatic ? p.gpus - 1 : remote) * p.combineBytes;
}

int MoeAgent::nvlinkPackets(std::uint32_t bytes) const {
  const auto max = static_cast<std::uint32_t>(s_.wire.maxPacketPayload);
  return static_cast<int>(std::max<std::uint32_t>(1, (bytes + max - 1) / max));
}

void MoeAgent::start() {
  beginPhase("dispatch");
  std::vector<Post> dispatch, combine, both;
  for (int t = 0; t < s_.plan->tokens; ++t) dispatchToken(t, dispatch);
  // Both directions at once: alternate the two operators' messages token by token.
  beginCombine(combine);
  for (std::size_t i = 0; i < std::max(dispatch.size(), combine.size()); ++i) {
    if (i < dispatch.size()) both.push_back(dispatch[i]);
    if (i < combine.size()) both.push_back(combine[i]);
  }
  postAll(both);
  checkCombine();
  checkDispatch();
}

// Combine reads translate the token's algebraic index through the AL TLB; a miss reads
// the AL Table first.
Time MoeAgent::responseDelay(const net::Packet& p) {
  if (!s_.translates()) return 0;
  const std::uint64_t block = (static_cast<std::uint64_t>(tagSource(p.tag)) << 32) |
                              static_cast<std::uint32_t>(tagToken(p.tag));
  return tlb_.combine(block, nvlinkPackets(p.dataBytes())) ? 0 : s_.alTableLatency;
}

void MoeAgent::onDelivered(const net::Packet& p) {
  const int kind = tagPhase(p.tag);
  const int phase = kind == kTagDispatch ? kDispatch : kCombine;  // notifications: combine
  acc_.wire[phase][kDownlink] += p.wireBytes;
  if (kind == kTagNotify) {
    notified(p);
    return;
  }
  const int source = tagSource(p.tag), token = tagToken(p.tag);
  if (token >= s_.plan->tokens) {  // padding to expert capacity (persistent): useless
    acc_.add(phase, kDownlink, kUseless, p.payload());
    return;
  }
  const std::uint64_t block = (static_cast<std::uint64_t>(source) << 32) | static_cast<std::uint32_t>(token);
  switch (p.op) {
    case net::Op::Write:
      if (phase == kDispatch) {
        const bool needed = s_.needs(rank_, source, token);
        acc_.add(kDispatch, kDownlink, needed ? kUseful : kUseless, p.payload());
        if (s_.translates()) tlb_.dispatch(block, nvlinkPackets(p.payload()));
        dispatchBytesIn_ += p.payload();
        received_ += p.payload();
        if (trackTokens_ && needed) {
          auto& got = dispatchGot_[static_cast<std::size_t>(source) * static_cast<std::size_t>(s_.plan->tokens) +
                                   static_cast<std::size_t>(token)];
          got += static_cast<std::int32_t>(p.payload());
          if (got == s_.plan->dispatchBytes) {
            if (s_.dispatchWindow > 0) acknowledge(source, token);
            tokenArrived(source, token);
          }
        }
        checkDispatch();
      } else {
        combineArrived(token, p.payload(), p.payload());
      }
      break;
    case net::Op::LdReduceRead:
      // This GPU's contribution goes back up: useful if one of its experts had the token.
      acc_.add(kCombine, kUplink, s_.needs(rank_, source, token) ? kUseful : kUseless, p.dataBytes());
      acc_.wire[kCombine][kUplink] += s_.wire.wireBytes(net::Op::LdReduceData, p.dataBytes());
      break;
    case net::Op::LdReduceResult:
      combineArrived(token, p.payload(), static_cast<std::int64_t>(p.payload()) * p.contributions);
      break;
    case net::Op::Ack:
      if (phase == kDispatch) dispatchAcked(token);
      break;
    default:
      break;
  }
}

void MoeAgent::post(net::Message m, int phase, int cls) {
  // Uplink accounting at the source, packet by packet as the endpoint will cut them.
  const bool request = m.op == net::Op::LdReduce;
  for (std::int64_t left = m.bytes; left > 0; left -= s_.packetPayload) {
    const std::int64_t chunk = std::min(left, s_.packetPayload);
    const std::int64_t payload = request ? 0 : chunk;
    acc_.wire[phase][kUplink] += s_.wire.wireBytes(m.op, payload, m.extensionFlits);
    if (payload > 0 && cls >= 0) acc_.add(phase, kUplink, cls, payload);
  }
  Agent::post(m);
}

// Protocol overhead: one header flit up this GPU's link and down the source's.
void MoeAgent::acknowledge(int source, int token) {
  net::Message m = message(net::Op::Ack, 0, kDispatch, source, token);
  m.destination = s_.nodeOf[static_cast<std::size_t>(source)];
  acc_.wire[kDispatch][kUplink] += s_.wire.wireBytes(net::Op::Ack, 0);
  Agent::post(m);
}

void MoeAgent::postAll(const std::vector<Post>& posts) {
  for (const Post& p : posts) post(p.m, p.phase, p.cls);
}

net::Message MoeAgent::message(net::Op op, std::int64_t bytes, int phase, int source, int token) const {
  net::Message m;
  m.inOrder = true;  // a token vector's packets go out together, as one warp sends it
  m.op = op;
  m.bytes = bytes;
  m.tag = moeTag(phase, source, token);
  // Links count payload per phase (1 dispatch, 2 combine; MoeLayer names them) for the
  // NIC incast; readiness notifications are signals, not token data: phase 0.
  m.phase = static_cast<std::uint8_t>(phase == kTagNotify ? 0 : phase + 1);
  // Dispatch's and Combine's SMs issue at a limited rate, if set (signals pass freely):
  // ungated messages cost the endpoint nothing per packet.
  if (phase != kTagNotify && s_.issueRate[phase] > 0) m.issueGate = m.phase;
  // Distinct reduction keys per token: its packets are numbered from token x pieces.
  const std::int64_t pieces = (bytes + s_.packetPayload - 1) / s_.packetPayload;
  m.firstPiece = static_cast<std::uint32_t>(token * pieces);
  return m;
}

void MoeAgent::dispatchToken(int t, std::vector<Post>& out) const {
  const MoePlan& p = *s_.plan;
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
    m.group = s_.group(rank_, t);
    m.extensionFlits = s_.requestExtension(r);
    out.push_back({m, kDispatch, kUseful});
  }
}

void MoeAgent::combineRequest(int t, std::vector<Post>& out) const {
  const MoePlan& p = *s_.plan;
  const TokenRoute& r = p.route(rank_, t);
  net::Message m = message(net::Op::LdReduce, p.combineBytes, kCombine, rank_, t);
  if (s_.comm == MoeCommunication::NvlsStatic) {
    m.group = s_.staticGroup[static_cast<std::size_t>(rank_)];
    m.expected = static_cast<std::uint16_t>(p.gpus - 1);
  } else {
    if (r.gpus.empty()) return;
    m.group = s_.group(rank_, t);
    m.expected = static_cast<std::uint16_t>(r.gpus.size());
    m.extensionFlits = s_.requestExtension(r);
  }
  out.push_back({m, kCombine, kUseful});
}

void MoeAgent::combinePush(int src, int t, std::vector<Post>& out) const {
  net::Message m = message(net::Op::Write, s_.plan->combineBytes, kCombine, src, t);
  m.destination = s_.nodeOf[static_cast<std::size_t>(src)];
  out.push_back({m, kCombine, kUseful});
}

void MoeAgent::beginCombine(std::vector<Post>& out) {
  const MoePlan& p = *s_.plan;
  beginPhase("combine");
  combineStarted_ = true;
  if (s_.comm == MoeCommunication::DeepEp) {
    // Every token this GPU's experts processed goes back to its source as one partial,
    // to all sources at once as DeepEP's combine sends (token-major, sources from the
    // next rank on): source by source, every GPU would send to GPU 0 first, then to GPU
    // 1, ..., one incast at a time, and run at about half the link rate.
    for (int t = 0; t < p.tokens; ++t)
      for (int k = 1; k < p.gpus; ++k) {
        const int src = (rank_ + k) % p.gpus;
        if (s_.needs(rank_, src, t)) combinePush(src, t, out);
      }
  } else {
    for (int t = 0; t < p.tokens; ++t) combineRequest(t, out);
  }
}

// Combine data for one of this GPU's tokens: the first copy of its output is useful,
// further partials are redundant (an in-switch reduction would have merged them), and
// outputs of tokens no remote expert had are useless (zeros).
void MoeAgent::combineArrived(int token, std::int64_t payload, std::int64_t operandBytes) {
  const auto at = static_cast<std::size_t>(token);
  auto& got = combineGot_[at];
  const bool needed = !s_.plan->route(rank_, token).gpus.empty();
  const std::int64_t room = needed ? std::max<std::int64_t>(0, s_.plan->combineBytes - got) : 0;
  acc_.add(kCombine, kDownlink, kUseful, std::min(payload, room));
  acc_.add(kCombine, kDownlink, needed ? kRedundant : kUseless, payload - std::min(payload, room));
  got += payload;
  combineOperands_[at] += operandBytes;
  combineOperandsIn_ += operandBytes;
  received_ += operandBytes;
  if (combineOperands_[at] == combineOperandsExpected(token)) tokenCombined(token);
  checkCombine();
}

void MoeAgent::checkDispatch() {
  if (dispatchDone_ || dispatchBytesIn_ < dispatchExpected_) return;
  dispatchDone_ = true;
  dispatchComplete();
}

void MoeAgent::checkCombine() {
  if (!combineStarted_ || combineDone_ || combineOperandsIn_ < combineExpected_) return;
  combineDone_ = true;
  combineComplete();
}

void MoeAgent::dispatchComplete() {
  endPhase("dispatch");
  if (combineDone_) finish();
}

void MoeAgent::combineComplete() {
  endPhase("combine");
  if (dispatchDone_) finish();
}

void MoeAgent::trackTokens() {
  trackTokens_ = true;
  dispatchGot_.assign(static_cast<std::size_t>(s_.plan->gpus) * static_cast<std::size_t>(s_.plan->tokens), 0);
}

}  // namespace fl::work
