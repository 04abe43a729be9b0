#include "scenario/validate.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

#include "gpu/gpu_spec.h"
#include "mapping/mapping.h"
#include "moe/routing_trace.h"
#include "scenario/input_error.h"
#include "scenario/quantity.h"
#include "topology/hierarchy.h"
#include "wsc/expert_load_trace.h"
#include "wsc/expert_placement.h"

namespace fl {
namespace {

constexpr std::int64_t kMaxEndpoints = 10'000'000;  // keeps builds within memory

std::int64_t endpoints64(const TopologySpec& t) {
  auto mul = [](std::int64_t a, std::int64_t b) {
    return (b != 0 && a > LLONG_MAX / 4 / b) ? LLONG_MAX / 4 : a * b;  // saturate
  };
  switch (t.kind) {
    case TopologyKind::NvSwitch: return t.gpus;
    case TopologyKind::Mesh: return mul(mul(mul(t.rows, t.cols), t.wafer_rows), t.wafer_cols);
    case TopologyKind::Hierarchy: {
      std::int64_t n = t.levels.empty() ? 0 : 1;
      for (const LevelSpec& l : t.levels) n = mul(n, l.count);
      return n;
    }
  }
  return 0;
}

std::string str(std::int64_t v) { return std::to_string(v); }

class Checker {
 public:
  explicit Checker(const ExplicitKeyPredicate& isExplicit) : isExplicit_(isExplicit) {}

  // Names the first explicitly written key among `paths` (else the first path).
  [[noreturn]] void fail(std::initializer_list<std::string> paths, std::string expected,
                         std::string found, std::string hint = {}) const {
    const std::string path = firstExplicit(paths);
    throw ValidationError(path, path, std::move(expected), std::move(found), std::move(hint));
  }

  // Names the first of `paths` always, and points at the first explicit one.
  [[noreturn]] void failAbout(std::initializer_list<std::string> paths, std::string expected,
                              std::string found, std::string hint = {}) const {
    throw ValidationError(*paths.begin(), firstExplicit(paths), std::move(expected), std::move(found),
                          std::move(hint));
  }

 private:
  std::string firstExplicit(std::initializer_list<std::string> paths) const {
    if (isExplicit_)
      for (const std::string& p : paths)
        if (isExplicit_(p)) return p;
    return *paths.begin();
  }

  const ExplicitKeyPredicate& isExplicit_;
};

void checkTopology(const TopologySpec& t, const Checker& c) {
  const std::int64_t n = endpoints64(t);
  switch (t.kind) {
    case TopologyKind::NvSwitch: {
      if (t.gpus < 2) c.fail({"topology.gpus"}, "at least 2 GPUs", str(t.gpus));
      if (t.links_per_gpu < t.switches)
        c.fail({"topology.links_per_gpu", "topology.switches"},
               "links_per_gpu of at least switches (" + str(t.switches) + "), so each GPU reaches every chip",
               "links_per_gpu " + str(t.links_per_gpu), "each GPU needs a link to every switch chip");
      // Links spread evenly: the busiest chip gets ceil(links / switches) of each GPU's links.
      const std::int64_t perChip = (t.links_per_gpu + t.switches - 1) / t.switches;
      if (std::int64_t(t.gpus) * perChip > t.switch_ports)
        c.fail({"topology.links_per_gpu", "topology.gpus", "topology.switch_ports", "topology.switches"},
               "at most " + str(t.switch_ports) + " ports used per switch chip",
               str(t.gpus) + " GPUs x " + str(perChip) + " links to a chip = " + str(t.gpus * perChip) + " ports",
               "more links per GPU than switch ports allow");
      break;
    }
    case TopologyKind::Mesh:
      if (n < 2)
        c.fail({"topology.rows", "topology.cols", "topology.wafers.rows", "topology.wafers.cols"},
               "at least 2 dies (rows x cols x wafers)", str(n) + " die");
      if (n > kMaxEndpoints)
        c.fail({"topology.rows", "topology.cols", "topology.wafers.rows", "topology.wafers.cols"},
               "at most " + str(kMaxEndpoints) + " dies", str(n) + " dies");
      break;
    case TopologyKind::Hierarchy:
      if (t.levels.empty())
        c.fail({"topology.levels"}, "at least one level for a hierarchy", "no levels",
               "add topology.levels: [{name: node, count: 8, bandwidth: 25 GB/s, latency: 250 ns}]");
      for (size_t i = 0; i < t.levels.size(); ++i)
        if (t.levels[i].count < 1)
          c.fail({"topology.levels[" + str(i) + "].count"}, "a count of at least 1", str(t.levels[i].count));
      topo::checkLevelUplinks(t.levels);
      if (n < 2) c.fail({"topology.levels"}, "at least 2 endpoints (product of level counts)", str(n));
      if (n > kMaxEndpoints)
        c.fail({"topology.levels"}, "at most " + str(kMaxEndpoints) + " endpoints (product of level counts)",
               str(n) + " endpoints");
      break;
  }
}

void checkNetwork(const NetworkSpec& net, const Checker& c) {
  if (net.flit_bytes < 1) c.fail({"network.flit"}, "a flit of at least 1 B", str(net.flit_bytes));
  if (net.packet_payload < 1 || net.max_packet_payload < 1)
    c.fail({"network.packet_payload", "network.max_packet_payload"}, "a payload of at least 1 B", "0 B");
  if (net.virtual_channels < 2 || net.virtual_channels % 2 != 0)
    c.fail({"network.virtual_channels"}, "an even number of virtual channels, at least 2",
           str(net.virtual_channels), "the first half carries requests, the second half responses");
  // Framing is per NVLink packet; data flits are counted over the whole simulated packet.
  const std::int64_t packets = (net.packet_payload + net.max_packet_payload - 1) / net.max_packet_payload;
  const std::int64_t overhead = net.header_flits + net.address_flits + net.byte_enable_flits;
  const std::int64_t data = (net.packet_payload + net.flit_bytes - 1) / net.flit_bytes;
  const std::int64_t flits = packets * overhead + data;
  if (flits > net.vc_depth_flits)
    c.fail({"network.packet_payload", "network.vc_depth_flits", "network.flit", "network.max_packet_payload",
            "network.header_flits", "network.address_flits", "network.byte_enable_flits"},
           "a packet of at most vc_depth_flits (" + str(net.vc_depth_flits) + ") flits",
           formatBytes(net.packet_payload) + " = " + str(packets) + " x " + str(overhead) + " framing + " +
               str(data) + " data flits = " + str(flits) + " flits",
           "virtual cut-through needs room for a whole packet: raise network.vc_depth_flits or lower "
           "network.packet_payload");
}

const char* opName(CollectiveOp op) {
  static const char* names[] = {"p2p", "all_reduce", "reduce_scatter", "all_gather", "all_to_all", "all_to_all_v"};
  return names[static_cast<int>(op)];
}

constexpr std::int64_t kMaxAllToAllMessages = 250'000'000;  // about 100 bytes each in the send queues

void checkCollective(const Scenario& s, const Checker& c) {
  const CollectiveSpec& w = s.workload.collective;
  const std::int64_t n = endpoints64(s.topology);
  const bool reduceFamily = w.op == CollectiveOp::AllReduce || w.op == CollectiveOp::ReduceScatter ||
                            w.op == CollectiveOp::AllGather;
  const std::string op = opName(w.op);
  switch (w.algorithm) {
    case CollectiveAlgorithm::Nvls:
      if (s.topology.kind != TopologyKind::NvSwitch)
        c.fail({"workload.collective.algorithm", "topology.kind"},
               "topology.kind nvswitch for algorithm nvls", "a " + std::string(s.topology.kind == TopologyKind::Mesh ? "mesh" : "hierarchy"),
               "nvls reduces and multicasts inside NVSwitch chips; use ring elsewhere");
      [[fallthrough]];
    case CollectiveAlgorithm::Ring:
      if (!reduceFamily)
        c.fail({"workload.collective.algorithm", "workload.collective.op"},
               "op all_reduce, reduce_scatter or all_gather for this algorithm", "op " + op,
               "use algorithm: direct for p2p, all_to_all and all_to_all_v");
      break;
    case CollectiveAlgorithm::Cais:
      if (s.topology.kind != TopologyKind::NvSwitch)
        c.fail({"workload.collective.algorithm", "topology.kind"}, "topology.kind nvswitch for algorithm cais",
               "a " + std::string(s.topology.kind == TopologyKind::Mesh ? "mesh" : "hierarchy"),
               "ld.cais and red.cais merge inside NVSwitch chips");
      if (w.op != CollectiveOp::ReduceScatter && w.op != CollectiveOp::AllGather)
        c.fail({"workload.collective.op", "workload.collective.algorithm"},
               "op reduce_scatter or all_gather for algorithm cais", "op " + op,
               "cais reduces with red.cais and gathers with ld.cais; an all-reduce is the two in turn");
      break;
    case CollectiveAlgorithm::Direct:
      if (reduceFamily)
        c.fail({"workload.collective.algorithm", "workload.collective.op"},
               "op p2p, all_to_all or all_to_all_v for algorithm direct", "op " + op,
               "use algorithm: ring or nvls for " + op);
      break;
  }
  // Direct all-to-all posts one message per ordered pair up front (and all_to_all_v keeps
  // its matrix): N(N-1) of them must fit in memory, as MoE assignments must.
  if ((w.op == CollectiveOp::AllToAll || w.op == CollectiveOp::AllToAllV) && n > 1 &&
      n - 1 > kMaxAllToAllMessages / n)
    c.fail({"topology.gpus", "topology.rows", "topology.levels", "workload.collective.op"},
           "at most " + str(kMaxAllToAllMessages) + " messages for " + op + " (N x (N-1) for N endpoints)",
           str(n) + " endpoints", "all_to_all on this many endpoints would not fit in memory");
  if (w.op == CollectiveOp::P2P) {
    if (w.source >= n) c.fail({"workload.collective.source"}, "an endpoint below " + str(n), str(w.source));
    if (w.destination >= n)
      c.fail({"workload.collective.destination"}, "an endpoint below " + str(n), str(w.destination));
    if (w.source == w.destination)
      c.fail({"workload.collective.destination", "workload.collective.source"},
             "a destination other than the source", str(w.destination));
  }
  if (!w.matrix.empty()) {
    if (std::int64_t(w.matrix.size()) != n)
      c.fail({"workload.collective.matrix"}, str(n) + " rows, one per endpoint",
             str(std::int64_t(w.matrix.size())) + (w.matrix.size() == 1 ? " row" : " rows"));
    for (size_t i = 0; i < w.matrix.size(); ++i)
      if (std::int64_t(w.matrix[i].size()) != n)
        c.fail({"workload.collective.matrix[" + str(i) + "]"}, str(n) + " columns, one per endpoint",
               "a row of " + str(std::int64_t(w.matrix[i].size())));
  }
}

void checkTraffic(const Scenario& s, const Checker& c) {
  const TrafficSpec& w = s.workload.traffic;
  const std::int64_t n = endpoints64(s.topology);
  if (w.warmup >= w.duration)
    c.fail({"workload.traffic.warmup", "workload.traffic.duration"},
           "a warmup shorter than the duration (" + formatTime(w.duration) + ")", formatTime(w.warmup));
  if (w.pattern == TrafficPattern::Hotspot && w.hotspots.empty())
    c.fail({"workload.traffic.hotspots"}, "at least one hotspot endpoint", "an empty list");
  for (size_t i = 0; i < w.hotspots.size(); ++i)
    if (w.hotspots[i] < 0 || w.hotspots[i] >= n)
      c.fail({"workload.traffic.hotspots[" + str(i) + "]"}, "an endpoint below " + str(n), str(w.hotspots[i]));
}

constexpr std::int64_t kMaxMoeAssignments = 250'000'000;  // token-expert pairs held in memory (1 GB)

// SM counts of the fusion schemes must fit the GPU.
void checkScheme(const Scenario& s, const Checker& c) {
  const SchemeSpec& k = s.scheme;
  const int sms = s.gpu.sms;
  if (k.comm_sms > sms)
    c.failAbout({"scheme.comm_sms", "gpu.sms", "gpu.preset"}, "at most gpu.sms (" + str(sms) + ") SMs",
                str(k.comm_sms), "lower scheme.comm_sms or raise gpu.sms");
  const TokenCentricSpec& t = k.token_centric;
  const int groups[] = {t.dispatch_sms, t.gemm1_sms, t.gemm2_sms, t.combine_sms};
  const bool automatic = groups[0] == 0 && groups[1] == 0 && groups[2] == 0 && groups[3] == 0;
  const int sum = groups[0] + groups[1] + groups[2] + groups[3];
  if (!automatic && sum != sms)
    c.fail({"scheme.token_centric.dispatch_sms", "scheme.token_centric.gemm1_sms", "scheme.token_centric.gemm2_sms",
            "scheme.token_centric.combine_sms", "gpu.sms", "gpu.preset"},
           "four SM groups summing to gpu.sms (" + str(sms) + "), or all 0 for automatic",
           str(groups[0]) + " + " + str(groups[1]) + " + " + str(groups[2]) + " + " + str(groups[3]) + " = " + str(sum));
  if (!automatic && (groups[0] == 0 || groups[3] == 0 || groups[1] + groups[2] == 0))
    c.fail({"scheme.token_centric.dispatch_sms", "scheme.token_centric.combine_sms", "scheme.token_centric.gemm1_sms"},
           "at least one SM for Dispatch, for Combine and for the GEMMs",
           str(groups[0]) + " / " + str(groups[1] + groups[2]) + " / " + str(groups[3]));
  // A limit of a few bytes per second would put packets beyond the simulated time range.
  if (const double bw = s.gpu.sm_comm_bandwidth; bw > 0 && bw < 1e6)
    c.fail({"gpu.sm_comm_bandwidth"}, "0 B/s (no limit) or at least 1 MB/s", formatQuantity(bw, QuantityKind::Bandwidth));
  if (k.persistent.task_n > 0 && sms < 2 && k.fusion == MoeFusion::Persistent)
    c.fail({"gpu.sms", "scheme.fusion"}, "at least 2 SMs (one processor and the OS block)", str(sms));
}

// Tensor parallelism over every GPU: the TP degree N is the GPU count, so the model must
// split N ways (heads, FFN, rows per GPU in whole tiles) and blocks must tile the tiles.
void checkTp(const Scenario& s, const Checker& c) {
  const TpSpec& t = s.workload.tp;
  const std::int64_t n = endpoints64(s.topology);
  if (s.topology.kind != TopologyKind::NvSwitch)
    c.fail({"workload.kind", "topology.kind"}, "topology.kind nvswitch for tp_layer",
           "a " + std::string(s.topology.kind == TopologyKind::Mesh ? "mesh" : "hierarchy"),
           "its schemes use NVLS and CAIS inside NVSwitch chips");
  if (n < 2) c.fail({"topology.gpus"}, "at least 2 GPUs for tensor parallelism", str(n));
  if (t.heads % n != 0)
    c.fail({"workload.tp.heads", "topology.gpus", "workload.tp.model"},
           "heads divisible by the TP degree (" + str(n) + " GPUs)", str(t.heads) + " heads",
           "the TP degree is the topology's GPU count");
  if (t.ffn_hidden % n != 0)
    c.fail({"workload.tp.ffn_hidden", "topology.gpus", "workload.tp.model"},
           "ffn_hidden divisible by the TP degree (" + str(n) + " GPUs)", str(t.ffn_hidden));
  if (t.hidden % s.gpu.tile_n != 0 || t.hidden % n != 0)
    c.fail({"workload.tp.hidden", "gpu.tile_n", "topology.gpus", "workload.tp.model"},
           "hidden a multiple of gpu.tile_n (" + str(s.gpu.tile_n) + ") and of the " + str(n) + " GPUs",
           str(t.hidden));
  const std::int64_t tokens = std::int64_t(t.seq_len) * t.batch;
  if (tokens % (n * s.gpu.tile_m) != 0)
    c.fail({"workload.tp.batch", "workload.tp.seq_len", "gpu.tile_m", "topology.gpus", "workload.tp.model"},
           "seq_len x batch a multiple of GPUs x gpu.tile_m (" + str(n * s.gpu.tile_m) + ")", str(tokens) + " tokens",
           "each GPU owns whole row blocks of the sequence");
  const std::int64_t tile = std::int64_t(s.gpu.tile_m) * s.gpu.tile_n * 2;
  if (tile % s.network.packet_payload != 0)
    c.fail({"network.packet_payload", "gpu.tile_m", "gpu.tile_n"},
           "a packet payload dividing one BF16 output tile (" + formatBytes(tile) + ")",
           formatBytes(s.network.packet_payload));
  const std::int64_t blocks = tokens * t.hidden * 2 / std::max<std::int64_t>(1, s.network.packet_payload);
  const std::int64_t junctions = std::int64_t(t.layers) * (t.phase == TpPhase::Training ? 4 : 2);
  if (blocks * junctions >= (std::int64_t(1) << 32))
    c.fail({"workload.tp.layers", "workload.tp.seq_len", "network.packet_payload"},
           "fewer than 2^32 blocks addressed in one run (layers x junctions x tokens x hidden x 2 B / packet payload)",
           str(blocks * junctions));
}

void checkMoe(const Scenario& s, const Checker& c) {
  const MoeSpec& m = s.workload.moe;
  const std::int64_t gpus = endpoints64(s.topology);
  if (m.top_k > m.experts)
    c.fail({"workload.moe.top_k", "workload.moe.experts", "workload.moe.model"},
           "top_k at most experts (" + str(m.experts) + ")", str(m.top_k), "each token picks k distinct experts");
  const std::int64_t pairs = gpus * m.tokens_per_gpu * m.top_k;
  if (pairs > kMaxMoeAssignments)
    c.fail({"workload.moe.tokens_per_gpu", "workload.moe.top_k", "topology.gpus"},
           "at most " + str(kMaxMoeAssignments) + " token-expert assignments (GPUs x tokens_per_gpu x top_k)",
           str(gpus) + " x " + str(m.tokens_per_gpu) + " x " + str(m.top_k) + " = " + str(pairs));
  // Task keys of the token pipeline hold the GPU in 16 bits (moe_pipeline_agent.h).
  if (s.scheme.fusion != MoeFusion::CommOnly && gpus > 65536)
    c.fail({"scheme.fusion", "topology.gpus"}, "at most 65536 GPUs for a scheduled MoE layer (comm_only has no limit)",
           str(gpus));
  switch (m.placement) {
    case ExpertPlacementKind::Contiguous:
      if (m.experts % gpus != 0)
        c.fail({"workload.moe.placement", "workload.moe.experts", "workload.moe.model", "topology.gpus"},
               "experts divisible by the " + str(gpus) + " GPUs for contiguous placement",
               str(m.experts) + " experts", "use placement: round_robin, or a list of GPU indices, one per expert");
      break;
    case ExpertPlacementKind::RoundRobin: break;
    case ExpertPlacementKind::Explicit:
      if (std::int64_t(m.placement_list.size()) != m.experts)
        c.fail({"workload.moe.placement", "workload.moe.experts", "workload.moe.model"},
               str(m.experts) + " GPU indices, one per expert", str(std::int64_t(m.placement_list.size())) + " entries",
               "every expert is placed exactly once");
      for (size_t e = 0; e < m.placement_list.size(); ++e)
        if (m.placement_list[e] < 0 || m.placement_list[e] >= gpus)
          c.fail({"workload.moe.placement[" + str(std::int64_t(e)) + "]"}, "a GPU index below " + str(gpus),
                 str(m.placement_list[e]));
      break;
  }
  const MoeRoutingSpec& r = m.routing;
  if (r.distribution == RoutingDistribution::PowerLaw && (r.alpha < 0.5 || r.alpha > 2.5))
    c.fail({"workload.moe.routing.alpha", "workload.moe.routing.distribution"}, "an alpha from 0.5 to 2.5 for power_law",
           formatNumber(r.alpha), "seed 000 §VI-C3 models inference routing as a power law with alpha 0.5 to 2.5");
  if (r.distribution == RoutingDistribution::Trace) {
    if (r.trace.empty())
      c.fail({"workload.moe.routing.trace", "workload.moe.routing.distribution"},
             "a trace file for distribution trace", "no path", "set workload.moe.routing.trace: routing.csv");
    try {
      (void)loadRoutingTrace(r.trace, m.experts, m.top_k);
    } catch (const InputError& e) {
      // The scenario key gets the location; the trace's own line and column go in the hint.
      std::string at = e.where().file;
      if (e.where().line > 0) at += " line " + str(e.where().line) + ", column " + str(e.where().column);
      c.fail({"workload.moe.routing.trace", "workload.moe.top_k", "workload.moe.experts", "workload.moe.model"},
             e.expected(), e.found(),
             "in " + at + (e.hint().empty() ? "" : "; " + e.hint()));
    }
  }
  const GpuSpec gpu = gpuPreset(s.gpu.preset);
  if (!gpu.supports(m.dispatch_dtype))
    c.fail({"workload.moe.dispatch_dtype", "gpu.preset", "workload.moe.model"},
           "an element type the GPU's tensor cores support", std::string(dtypeName(m.dispatch_dtype)) + " on " + gpu.name,
           gpu.name + " has no " + std::string(dtypeName(m.dispatch_dtype)) + " tensor cores; use bf16");
  const bool inSwitch = s.scheme.communication == MoeCommunication::NvlsStatic ||
                        s.scheme.communication == MoeCommunication::DySharp;
  if (inSwitch && s.topology.kind != TopologyKind::NvSwitch)
    c.fail({"scheme.communication", "topology.kind"}, "topology.kind nvswitch for this scheme.communication",
           std::string("a ") + (s.topology.kind == TopologyKind::Mesh ? "mesh" : "hierarchy"),
           "nvls_static and dysharp multicast and reduce inside NVSwitch chips; use deepep elsewhere");
  // explicit multicasts and reduces in the switch at the end of a GPU's link; behind
  // per-GPU uplinks a node's switch has no way out of the node (endpoints do not forward).
  const bool rails = s.topology.kind == TopologyKind::Hierarchy &&
                     std::any_of(s.topology.levels.begin(), s.topology.levels.end(),
                                 [](const LevelSpec& l) { return l.uplinks == LevelUplinks::PerGpu; });
  if (s.scheme.communication == MoeCommunication::Explicit && rails)
    c.fail({"scheme.communication", "topology.levels"}, "deepep on a hierarchy with per-GPU uplinks",
           "explicit", "in-switch multicast needs a switch that reaches every GPU; with uplinks: per_gpu only "
           "the GPUs' own NICs leave a node");
  checkScheme(s, c);
}

// cross_dc_moe (HybridEP): a hierarchy with shared uplinks (the flow model routes up and
// down the tree), and one expert-domain size per level dividing its count.
void checkCrossDc(const Scenario& s, const Checker& c) {
  const TopologySpec& t = s.topology;
  if (t.kind != TopologyKind::Hierarchy)
    c.fail({"workload.kind", "topology.kind"}, "topology.kind hierarchy for cross_dc_moe (datacenters of GPUs)",
           t.kind == TopologyKind::Mesh ? "mesh" : "nvswitch", "use a hierarchy or a preset such as cluster-m");
  for (const LevelSpec& l : t.levels)
    if (l.uplinks == LevelUplinks::PerGpu)
      c.fail({"topology.levels", "workload.kind"}, "shared uplinks on every level for cross_dc_moe", "per_gpu",
             "the flow model routes cross_dc_moe up and down the tree");
  const XdcSpec& x = s.workload.xdc;
  if (x.top_k > x.experts)
    c.fail({"workload.xdc.top_k", "workload.xdc.experts", "workload.xdc.model"},
           "at most workload.xdc.experts (" + str(x.experts) + ")", str(x.top_k));
  const auto& d = s.scheme.hybrid.domains;
  if (s.scheme.ep == XdcScheme::Hybrid && !d.empty()) {
    if (d.size() != t.levels.size())
      c.fail({"scheme.hybrid.domains", "topology.levels"},
             "one domain size per hierarchy level (" + str(std::int64_t(t.levels.size())) + ")",
             str(std::int64_t(d.size())) + " sizes");
    for (std::size_t i = 0; i < d.size(); ++i)
      if (t.levels[i].count % d[i] != 0)
        c.fail({"scheme.hybrid.domains", "topology.levels"},
               "a divisor of level " + str(std::int64_t(i)) + "'s count (" + str(t.levels[i].count) + ")",
               str(d[i]), "a domain groups whole workers: try 1 or " + str(t.levels[i].count));
  }
  // Flows per all-to-all pass: every GPU sends to at most the sum of the level counts.
  std::int64_t fanOut = 0;
  for (const LevelSpec& l : t.levels) fanOut += l.count;
  if (endpoints64(t) > 100'000'000 / std::max<std::int64_t>(1, fanOut))
    c.fail({"topology.levels", "workload.kind"}, "at most 100,000,000 GPU pairs per all-to-all for cross_dc_moe",
           str(endpoints64(t)) + " GPUs x " + str(fanOut) + " peers");
}

}  // namespace

ValidationError::ValidationError(std::string keyPath, std::string locateAt, std::string expected,
                                 std::string found, std::string hint)
    : InputError({}, std::move(keyPath), std::move(expected), std::move(found), std::move(hint)),
      locateAt_(std::move(locateAt)) {}

const std::string& locateKeyOf(const InputError& e) {
  const auto* v = dynamic_cast<const ValidationError*>(&e);
  return v ? v->locateAt() : e.keyPath();
}

int endpointCount(const TopologySpec& t) {
  const std::int64_t n = endpoints64(t);
  return n > INT_MAX ? INT_MAX : static_cast<int>(n);
}

// Wafer-scale inference (seed 003): a mesh, a possible mapping (mapping/mapping.h names
// the key and the reason), sizes the layer plan can hold.
void checkWsc(const Scenario& s, const Checker& c) {
  const WscSpec& w = s.workload.wsc;
  const bool mesh = s.topology.kind == TopologyKind::Mesh;
  if (!mesh && s.balancer.kind != BalancerKind::None)
    c.fail({"balancer.kind", "topology.kind", "topology.preset"},
           "balancer.kind none on a switched fabric: migration paths and NI's Local / Global stages are laid on "
           "a wafer mesh's cold links, and a switched fabric has none (every pair is the same 2 hops through a "
           "switch, and each GPU's links carry both phases); the paper does balance NVL72 (seed 003 §VI-D: +26 % compute) but "
           "moves its experts over dedicated NVMe channels, off the fabric (spec §1.4), which FabricLab does "
           "not model", "a balancer on topology.kind " +
           std::string(s.topology.kind == TopologyKind::NvSwitch ? "nvswitch" : "hierarchy"));
  if (s.balancer.kind == BalancerKind::NonInvasive && s.balancer.migration_priority == MigrationPriority::Low &&
      s.network.model != NetworkModel::Analytical && s.network.virtual_channels < 4)
    c.fail({"network.virtual_channels", "balancer.migration_priority"},
           "at least 4 virtual channels for NI copies at low priority (one request VC is reserved for them)",
           str(s.network.virtual_channels), "or balancer.migration_priority: equal");
  if (w.top_k > w.experts)
    c.fail({"workload.wsc.top_k", "workload.wsc.experts", "workload.wsc.model"},
           "top_k at most experts (" + str(w.experts) + ")", str(w.top_k));
  const std::int64_t dies = endpoints64(s.topology);
  if (dies > 4096) c.fail({"topology.rows", "topology.cols"}, "at most 4096 dies for wsc_inference", str(dies));
  if (w.gating == WscGating::Trace && w.trace.empty())
    c.fail({"workload.wsc.trace", "workload.wsc.gating"}, "a trace CSV for gating: trace", "none");
  if (w.gating == WscGating::Trace) {
    std::optional<wsc::ExpertLoadTrace> trace;
    try {
      trace = wsc::loadExpertLoadTrace(w.trace, w.experts);
    } catch (const InputError& e) {
      // The scenario key gets the location; the trace's own line and column go in the hint.
      std::string at = e.where().file;
      if (e.where().line > 0) at += " line " + str(e.where().line) + ", column " + str(e.where().column);
      c.fail({"workload.wsc.trace", "workload.wsc.experts", "workload.wsc.model"}, e.expected(), e.found(),
             "in " + at + (e.hint().empty() ? "" : "; " + e.hint()));
    }
    try {
      wsc::checkTraceCovers(*trace, w.trace, w.iterations);
    } catch (const InputError& e) {
      c.fail({"workload.wsc.iterations", "workload.wsc.trace"}, e.expected(), e.found(), "in " + w.trace);
    }
  }
  if (s.mapping.kind != MappingKind::Explicit && !s.mapping.groups.empty())
    c.fail({"mapping.groups", "mapping.kind"}, "mapping.groups only with mapping.kind: explicit",
           std::to_string(s.mapping.groups.size()) + " groups");
  if (mesh && s.mapping.kind == MappingKind::Her && s.topology.wafer_rows * s.topology.wafer_cols < 2)
    c.fail({"mapping.kind", "topology.wafer_rows", "topology.wafer_cols"}, "her on a system of at least 2 wafers",
           "1 wafer", "use er on one wafer");
  wsc::checkExpertPlacement(w, static_cast<int>(dies));  // throws ValidationError
  if (mesh) mapping::buildMapping(s.mapping, s.topology, w.tp, w.all_gather);  // throws ValidationError
  else mapping::buildSwitchedMapping(s.mapping, static_cast<int>(dies), w.tp, w.all_gather);
}

void validateScenario(const Scenario& s, const ExplicitKeyPredicate& isExplicit) {
  const Checker c(isExplicit);
  if (s.schema_version != 1) c.fail({"fabriclab"}, "schema version 1", str(s.schema_version));
  checkTopology(s.topology, c);
  checkNetwork(s.network, c);
  switch (s.workload.kind) {
    case WorkloadKind::Collective: checkCollective(s, c); break;
    case WorkloadKind::Traffic: checkTraffic(s, c); break;
    case WorkloadKind::MoeLayer: checkMoe(s, c); break;
    case WorkloadKind::CrossDcMoe: checkCrossDc(s, c); break;
    case WorkloadKind::TpLayer: checkTp(s, c); break;
    case WorkloadKind::WscInference: checkWsc(s, c); break;
  }
  if ((s.balancer.kind != BalancerKind::None || s.balancer.load != BalancerLoad::Gating) &&
      s.workload.kind != WorkloadKind::WscInference)
    c.fail({"balancer.kind", "balancer.load", "workload.kind"}, "balancer keys with workload.kind wsc_inference only",
           "workload.kind " + std::string(s.workload.kind == WorkloadKind::MoeLayer ? "moe_layer" : "collective or traffic"));
  if (s.network.model == NetworkModel::Analytical && s.workload.kind != WorkloadKind::WscInference)
    c.fail({"network.model", "workload.kind"}, "network.model packet for this workload (analytical: wsc_inference only)",
           "analytical");
  if (s.network.model == NetworkModel::Flow && s.workload.kind != WorkloadKind::CrossDcMoe)
    c.fail({"network.model", "workload.kind"}, "network.model packet or auto for this workload (flow: cross_dc_moe only)",
           "flow");
  if (s.run.bin <= 0) c.fail({"run.bin"}, "a bin width greater than 0 ns", formatTime(s.run.bin));
}

}  // namespace fl
