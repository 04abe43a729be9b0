#include "sim/memory_estimate.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "netmodel/message_plan.h"
#include "network/channel.h"
#include "network/endpoint_node.h"
#include "network/packet.h"
#include "network/wire_format.h"
#include "results/results.h"
#include "scenario/input_error.h"
#include "topology/topology.h"
#include "tp/tp_plan.h"
#include "wsc/wsc_run.h"
#include "xdc/cross_dc_run.h"

namespace fl {

namespace {

// Per-item costs (bytes), from the types and calibrated against peak RSS (README table).
constexpr std::int64_t kPerNode = 4096;           // node component, ports, routing state
constexpr std::int64_t kPerChannel = 1024;        // channel, in/out port, queues
constexpr std::int64_t kPerVcFlitSlot = 0;        // buffers are counters, not storage
// A packet slot (64 B) in a pool that grows by doubling, its handle in queues and free
// lists, and its events.
constexpr std::int64_t kPerLivePacket = 2 * static_cast<std::int64_t>(sizeof(net::Packet)) + 32;
// A recorded bin: 12 B in the network's series (grown by doubling: up to 24), 12 B in
// Results' copy, and the JSON output: a node of the document (16 B, in arrays grown by
// doubling) and its text (~14 B indented, in a string grown by doubling). Measured:
// 65 B per bin above the process' base on wsc-balancer-mixed (1.07 M bins, 86 MiB).
constexpr std::int64_t kPerBinRunning = 24;
constexpr std::int64_t kPerBinKept = 12 + 64;
constexpr std::int64_t kPerBin = kPerBinRunning + kPerBinKept;
// A switch's logged entry (the first kEntryLogLimit of a run): its record and, per
// contribution or request, an arrival offset; NVLS adds its log-id and filed counters.
constexpr double kPerReductionLogged = sizeof(ReductionEntryRecord) + sizeof(std::uint32_t) + sizeof(std::uint16_t);
constexpr double kPerReductionArrival = sizeof(std::uint32_t);
constexpr double kPerMergeLogged = sizeof(MergeEntryRecord) + sizeof(MergeBypassRecord);
constexpr double kPerMergeArrival = sizeof(MergeArrival);
// Logs grow by doubling while the run fills them (up to twice their size) and Results
// keep a copy: three times the logged bytes at the peak.
constexpr double kLogCopies = 3;
// A message posted to an endpoint and not yet sent: its job in a queue grown by doubling.
constexpr double kPerPostedMessage = 2.0 * (sizeof(net::Message) + 16);
// The flow model's state per route entry (xdc::flowRouteEntries): the shared route's link
// and member count (8 B), the peers, and the solver's per-link arrays while the flows are
// active, in vectors grown by doubling. Measured: 14.9 B per entry at the peak of
// xdc-1000x8-auto (240 MB of heap for 16.1 M entries, valgrind massif); 2x margin.
constexpr double kPerFlowRouteEntry = 32;

// A wafer layer plan's item (netmodel::PlanItem; the vector's spare capacity is never
// touched), its deps' heap block (32 B at least, with malloc's header; 16 B margin) and
// the model's start and end times; each dependency 4 B more. Measured: 107 B per item
// (an 8x8 wafer, DeepSeek-V3 at TP 32: peak RSS 435 MB at 500 iterations, 1.71 GB at
// 2000, 8.1 k items each). Per iteration, a balancer's expert hosts and shares (a vector per
// expert) and the layer's per-die token counts.
constexpr double kPerPlanItem = sizeof(netmodel::PlanItem) + 48 + 2 * sizeof(Time);
constexpr double kPerPlanDep = sizeof(std::int32_t);
constexpr double kPerExpertIteration = 64;
constexpr double kPerDenseBin = sizeof(std::int64_t);  // netmodel::LinkTally
constexpr double kPerDieIteration = 16;

std::int64_t clampMul(double a, double b) {
  const double v = a * b;
  return v >= 9.0e18 ? INT64_MAX / 4 : static_cast<std::int64_t>(v);
}

// A lower bound on the simulated time of the run (its recorded bins span at least this):
// the bytes the busiest endpoint sends over its own links' capacity; a wafer run's
// iterations, one after another, each as long as the first (`wsc`: its probe); a cross-DC
// iteration as HybridEP's model predicts its forward pass (per layer, times the layers), twice for
// training (the backward pass moves as much; the gradient all-reduce comes on top).
double runSeconds(const Scenario& s, const topo::Topology& t, const std::optional<wsc::IterationProbe>& wsc,
                  const std::optional<xdc::CrossDcSetup>& xdc) {
  const WorkloadSpec& w = s.workload;
  if (w.kind == WorkloadKind::Traffic) return toSeconds(w.traffic.warmup + w.traffic.duration);
  if (wsc) return toSeconds(wsc->makespan) * std::max(1, w.wsc.iterations);
  if (xdc) {
    const double forward = xdc->prediction.lat * std::max(1, w.xdc.layers);
    if (w.xdc.pass != XdcPass::Training) return forward;
    // The gradient all-reduce, at least as long as at its busiest level: each of a level's
    // W groups sends 2 (W - 1) / W of the gradients through the GPUs' shares of that
    // level's narrowest link (the model's B^l, times the GPUs in a group).
    double allReduce = 0, below = std::max(1, t.endpointCount());
    for (const auto& level : xdc->input.levels) {
      const double groups = std::max(1, level.workers);
      below = std::max(1.0, below / groups);
      if (level.bandwidth > 0)
        allReduce = std::max(allReduce, 2 * (groups - 1) / groups * xdc->plan.allReduce / (level.bandwidth * below));
    }
    return 2 * forward + allReduce;
  }
  double capacity = 0;
  if (t.endpointCount() > 0)
    for (const topo::Port& p : t.ports(t.endpointNode(0))) {
      const topo::Link& l = t.link(p.link);
      capacity += l.bandwidth * l.efficiency;
    }
  if (capacity <= 0) return 0;
  const double gpus = std::max(1, t.endpointCount());
  double bytes = 0;
  if (w.kind == WorkloadKind::Collective) {
    const double size = static_cast<double>(w.collective.size);
    switch (w.collective.op) {
      case CollectiveOp::AllReduce: bytes = 2 * size * (gpus - 1) / gpus; break;
      case CollectiveOp::P2P: bytes = size; break;
      default: bytes = size * (gpus - 1) / gpus; break;
    }
  } else if (w.kind == WorkloadKind::TpLayer) {
    // every junction's T x hidden fp16 output reduced and gathered: 2 (N - 1) / N of it
    const tp::TpPlan plan = tp::planTpLayers(w.tp, t.endpointCount());
    bytes = plan.junctions * 2.0 * plan.tokens * plan.hidden * 2.0 * (gpus - 1) / gpus;
  } else {
    const MoeSpec& m = w.moe;
    // dispatch and combine of every token to its top_k experts, 2-byte activations
    bytes = 2.0 * m.tokens_per_gpu * m.top_k * m.hidden * 2.0 * (gpus - 1) / gpus;
  }
  return bytes / capacity;
}

// The packets a workload's whole run can bring to life, where a closed form is known
// (-1 where it is not: NVLS, CAIS, MoE, TP, wafer and cross-DC plans replicate, merge
// and answer in switches). No more can be alive at once, whatever the buffers hold.
// Unicast writes only here: each one and, with network.acknowledged_writes, its ack.
double workloadPackets(const Scenario& s, const topo::Topology& t) {
  const WorkloadSpec& w = s.workload;
  const NetworkSpec& n = s.network;
  const double perWrite = n.acknowledged_writes ? 2.0 : 1.0;
  const double payload = static_cast<double>(std::max<std::int64_t>(1, n.packet_payload));
  const int gpus = t.endpointCount();
  if (w.kind == WorkloadKind::Traffic) {
    // Each endpoint posts one packet per exponential gap (workloads/synthetic_traffic.cpp)
    // of mean wire / (load x its injection rate), rounded to whole picoseconds (at least
    // 1), until the generation window ends: a Poisson count of mean mu over all
    // endpoints. mu + 8 sqrt(mu) + 16 is exceeded with probability below 1e-14.
    const double wire = static_cast<double>(net::WireFormat::from(n).wireBytes(net::Op::Write, n.packet_payload));
    const double window = static_cast<double>(std::max<Time>(0, w.traffic.duration));
    double mu = 0;
    for (int e = 0; e < gpus; ++e) {
      double injection = 0;
      for (const topo::Port& p : t.ports(t.endpointNode(e))) {
        const topo::Link& l = t.link(p.link);
        injection += l.bandwidth * l.efficiency;
      }
      if (injection <= 0 || w.traffic.load <= 0) continue;
      const double gap = wire / (w.traffic.load * injection) * 1e12;  // ps
      mu += window / std::max(1.0, gap - 0.5);  // rounding shortens a gap by at most 0.5 ps
    }
    return perWrite * (mu + 8 * std::sqrt(mu) + 16);
  }
  if (w.kind != WorkloadKind::Collective) return -1;
  const CollectiveSpec& c = w.collective;
  const auto packets = [&](double bytes) { return std::ceil(bytes / payload); };  // of one message
  const double size = static_cast<double>(std::max<std::int64_t>(0, c.size));
  const double chunk = std::ceil(size / std::max(1, gpus));  // chunkBytes(): at most this
  if (c.algorithm == CollectiveAlgorithm::Ring) {
    // Every GPU sends one chunk per step (workloads/ring_collective.cpp).
    const double steps = (c.op == CollectiveOp::AllGather ? 0 : gpus - 1) + (c.op == CollectiveOp::ReduceScatter ? 0 : gpus - 1);
    return perWrite * gpus * steps * packets(chunk);
  }
  if (c.algorithm != CollectiveAlgorithm::Direct) return -1;
  // One message per (source, destination) pair of the traffic matrix
  // (workloads/direct_collective.cpp).
  switch (c.op) {
    case CollectiveOp::P2P: return perWrite * packets(size);
    case CollectiveOp::AllToAll: return perWrite * gpus * (gpus - 1.0) * packets(chunk);
    case CollectiveOp::AllToAllV: {
      double sum = 0;
      if (!c.matrix.empty()) {
        for (const auto& row : c.matrix)
          for (std::int64_t b : row) sum += packets(static_cast<double>(std::max<std::int64_t>(0, b)));
        return perWrite * sum;
      }
      // Row sums S (n-1)/n, each of n-1 entries rounded up by at most 1 byte and then to
      // whole packets.
      const double out = size * (gpus - 1.0) / std::max(1, gpus) + gpus;
      return perWrite * gpus * (std::ceil(out / payload) + gpus - 1.0);
    }
    default: return 0;  // the direct algorithm moves nothing for the others
  }
}

bool reducesInSwitches(const Scenario& s) {
  const WorkloadSpec& w = s.workload;
  if (w.kind == WorkloadKind::Collective) return w.collective.algorithm == CollectiveAlgorithm::Nvls;
  if (w.kind == WorkloadKind::MoeLayer)
    return s.scheme.communication == MoeCommunication::DySharp || s.scheme.communication == MoeCommunication::NvlsStatic;
  if (w.kind == WorkloadKind::TpLayer) return s.scheme.tp == TpScheme::TpNvls || s.scheme.tp == TpScheme::SpNvls;
  return false;
}

bool mergesInSwitches(const Scenario& s) {
  const WorkloadSpec& w = s.workload;
  if (w.kind == WorkloadKind::Collective) return w.collective.algorithm == CollectiveAlgorithm::Cais;
  return w.kind == WorkloadKind::TpLayer && !reducesInSwitches(s);
}

// Entries the switches reduce or merge over the run: one per payload-sized piece of the
// reduced data (and, for CAIS's TP junctions, one more per piece loaded back).
double switchPieces(const Scenario& s, const topo::Topology& t) {
  const WorkloadSpec& w = s.workload;
  const double payload = static_cast<double>(std::max<std::int64_t>(1, s.network.packet_payload));
  if (w.kind == WorkloadKind::Collective) return std::ceil(static_cast<double>(w.collective.size) / payload) + t.endpointCount();
  if (w.kind == WorkloadKind::MoeLayer)
    return static_cast<double>(w.moe.tokens_per_gpu) * t.endpointCount() * w.moe.hidden * 2 / payload;
  const tp::TpPlan plan = tp::planTpLayers(w.tp, t.endpointCount());
  const double perJunction = std::ceil(static_cast<double>(plan.tokens) * plan.hidden * 2 / payload);
  return plan.junctions * perJunction * (mergesInSwitches(s) ? 2 : 1);
}

enum class Engine { Packet, Flow, Analytical };

// As runFollowing (sim/run.cpp) chooses; `setup`: HybridEP's, made for cross-DC runs only.
Engine engineOf(const Scenario& s, const std::optional<xdc::CrossDcSetup>& setup) {
  if (setup && xdc::runsOnFlow(s, *setup)) return Engine::Flow;
  if (s.workload.kind == WorkloadKind::WscInference && s.network.model == NetworkModel::Analytical)
    return Engine::Analytical;
  return Engine::Packet;
}

// The packet engine's parts: packets in flight, the switches' entry logs, posted messages.
void addPacketParts(MemoryEstimate& e, const Scenario& s, const topo::Topology& t) {
  const std::int64_t channels = 2 * static_cast<std::int64_t>(t.links().size());
  const NetworkSpec& n = s.network;
  // Packets in flight: the fewer of what the buffers can hold and what the workload can
  // bring to life. Buffers: one half of each input buffer's VCs (requests or responses)
  // in data packets, plus what the endpoints' outstanding requests can have answered at
  // once: responses wait in their endpoints' queues, not in buffers. Measured peaks:
  // 64 k packets for an NVLS all-reduce on DGX-H100 (8 x 1024 requests x 8 answers),
  // 351 k for an NVL32 DySHARP layer of 64 tokens (tests/core/test_memory_estimate.cpp).
  // Deep buffers (network.vc_depth_flits for long links) make that far more than a
  // light workload ever sends, hence the workload's own count where one is known.
  const double dataFlits = std::max(1, n.header_flits + n.address_flits) +
                           std::ceil(static_cast<double>(n.packet_payload) / std::max(1, n.flit_bytes));
  const double buffered = static_cast<double>(channels) * std::max(1, n.virtual_channels / 2) *
                          std::ceil(n.vc_depth_flits / dataFlits);
  // Per outstanding request: itself, and its reads, data and answers (a CAIS load: the
  // home's read, its data, the response; ld_reduce: a read and data per member, the result).
  const bool fansOut = reducesInSwitches(s) || s.workload.kind == WorkloadKind::TpLayer;
  const double answers = fansOut ? 2.0 * t.endpointCount() + 2 : 4;
  const double outstanding = static_cast<double>(t.endpointCount()) * std::max(0, n.outstanding_requests) * answers;
  const double workload = workloadPackets(s, t);
  const bool byWorkload = workload >= 0 && workload < buffered + outstanding;
  const double inFlight = byWorkload ? workload : buffered + outstanding;
  e.packetsInFlight = inFlight >= 9.0e18 ? INT64_MAX / 4 : static_cast<std::int64_t>(std::ceil(inFlight));
  e.parts.push_back({"packets in flight", clampMul(inFlight, kPerLivePacket),
                     byWorkload ? (s.workload.kind == WorkloadKind::Traffic ? "workload.traffic.load, workload.traffic.duration"
                                                                            : "workload.collective.size")
                                : "network.vc_depth_flits, network.virtual_channels, network.outstanding_requests"});

  if (reducesInSwitches(s) || mergesInSwitches(s)) {
    std::int64_t switches = 0;
    for (const topo::Node& node : t.nodes()) switches += topo::isEndpoint(node.kind) ? 0 : 1;
    const double logged = std::min(switchPieces(s, t), static_cast<double>(kEntryLogLimit));
    const double perEntry = reducesInSwitches(s) ? kPerReductionLogged + kPerReductionArrival * t.endpointCount()
                                                 : kPerMergeLogged + kPerMergeArrival * t.endpointCount();
    const std::int64_t bytes = clampMul(static_cast<double>(switches) * logged, kLogCopies * perEntry);
    e.parts.push_back({"switch entry logs", bytes, "workload size (logs keep the first entries per switch)"});
    e.resultsBytes += bytes / static_cast<std::int64_t>(kLogCopies);
  }

  // Messages posted at once and waiting in the endpoints' queues: CAIS collectives post
  // every block's (tp/cais_collective.cpp), N - 1 per block of the data; direct ones one
  // per pair; MoE layers a token's to each of its top-k experts (workloads/moe_agent.cpp),
  // dispatch and combine.
  const WorkloadSpec& w = s.workload;
  const int gpus = t.endpointCount();
  if (w.kind == WorkloadKind::Collective && w.collective.algorithm == CollectiveAlgorithm::Cais) {
    const double payload = static_cast<double>(std::max<std::int64_t>(1, n.packet_payload));
    const double messages = (gpus - 1.0) * (std::ceil(static_cast<double>(w.collective.size) / payload) + gpus);
    e.parts.push_back({"posted messages", clampMul(messages, kPerPostedMessage), "workload.collective.size"});
  } else if (w.kind == WorkloadKind::Collective && w.collective.algorithm == CollectiveAlgorithm::Direct) {
    // one message per (source, destination) pair (workloads/direct_collective.cpp)
    const double messages = w.collective.op == CollectiveOp::P2P ? 1.0 : gpus * (gpus - 1.0);
    e.parts.push_back({"posted messages", clampMul(messages, kPerPostedMessage), "topology size"});
  } else if (w.kind == WorkloadKind::MoeLayer) {
    const double messages = 2.0 * w.moe.tokens_per_gpu * gpus * std::max(1, w.moe.top_k);
    e.parts.push_back({"posted messages", clampMul(messages, kPerPostedMessage),
                       "workload.moe.tokens_per_gpu, workload.moe.top_k"});
  }
}

}  // namespace

std::int64_t MemoryEstimate::total() const {
  std::int64_t sum = 0;
  for (const Part& p : parts) sum += p.bytes;
  return sum;
}

std::int64_t physicalMemoryBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? static_cast<std::int64_t>(pages) * size : 0;
}

std::int64_t memoryLimitBytes(const Scenario& s) {
  if (s.run.memory_limit > 0) return s.run.memory_limit;
  const std::int64_t physical = physicalMemoryBytes();
  return physical > 0 ? physical / 4 * 3 : std::int64_t{8} << 30;
}

std::string formatApproxBytes(std::int64_t bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 5) {
    v /= 1024;
    ++u;
  }
  char text[32];
  // Three significant figures, never in exponent form (1020 KiB, not 1.02e+03 KiB).
  std::snprintf(text, sizeof text, u == 0 || v >= 100 ? "%.0f %s" : "%.3g %s", v, units[u]);
  return text;
}

MemoryEstimate estimateRunMemory(const Scenario& s, const topo::Topology& t) {
  MemoryEstimate e;
  const auto nodes = static_cast<std::int64_t>(t.nodes().size());
  const std::int64_t channels = 2 * static_cast<std::int64_t>(t.links().size());
  e.parts.push_back({"fabric and its state", nodes * kPerNode + channels * (kPerChannel + kPerVcFlitSlot),
                     "topology size (topology.gpus, topology.rows/cols, topology.levels)"});

  // The models without packets (sim/run.cpp's dispatch) hold their own state instead.
  std::optional<xdc::CrossDcSetup> setup;  // made once: the model's choice and its routes both need it
  if (s.workload.kind == WorkloadKind::CrossDcMoe) setup = xdc::prepareCrossDc(s, t);
  const Engine engine = engineOf(s, setup);
  if (engine == Engine::Flow) {
    const double entries = static_cast<double>(
        xdc::flowRouteEntries(*setup, t.endpointCount() > 0 ? t.node(t.endpointNode(0)).level : 1));
    e.parts.push_back({"flow routes and solver", clampMul(entries, kPerFlowRouteEntry),
                       "topology.levels (GPUs x peers per level)"});
  }
  if (engine == Engine::Packet) addPacketParts(e, s, t);

  // A wafer run's layer plan holds every iteration's transfers and tasks: sized from one
  // iteration's, never built whole here (100,000 iterations would exhaust the machine
  // before the refusal).
  std::optional<wsc::IterationProbe> probe;
  if (s.workload.kind == WorkloadKind::WscInference) {
    const WscSpec& w = s.workload.wsc;
    probe = wsc::probeOneIteration(s, t);
    const double iterations = std::max(1, w.iterations);
    const double perIteration = static_cast<double>(probe->items) * kPerPlanItem +
                                static_cast<double>(probe->deps) * kPerPlanDep + w.experts * kPerExpertIteration +
                                static_cast<double>(t.endpointCount()) * kPerDieIteration;
    e.parts.push_back({"wafer layer plan", clampMul(iterations, perIteration),
                       "workload.wsc.iterations, workload.wsc.micro_batches"});
  }

  // Recorded bins: every channel busy across the run's bins, at most its share of the
  // recorded-bin budget.
  const double bins = std::ceil(runSeconds(s, t, probe, setup) * 1e12 / static_cast<double>(std::max<Time>(1, s.run.bin))) + 1;
  const double perChannel = std::min(bins, static_cast<double>(std::max<std::int64_t>(
                                               net::kMinRecordedBins, net::kRecordedBinBudget / std::max<std::int64_t>(1, channels))));
  e.binBytes = clampMul(static_cast<double>(channels) * perChannel, kPerBin);
  e.parts.push_back({"recorded time bins", e.binBytes, "run.bin (wider)"});
  // The analytical model sums each link's bytes into dense bins first (transfers come in
  // plan order, not time order): 8 B for every bin of the run on every link, before the
  // non-empty ones are kept (held to the budget above).
  if (engine == Engine::Analytical)
    e.parts.push_back({"analytical model's dense bins", clampMul(static_cast<double>(channels) * bins, kPerDenseBin),
                       "run.bin (wider)"});
  e.resultsBytes += clampMul(static_cast<double>(channels) * perChannel, kPerBinKept);

  if (s.workload.kind == WorkloadKind::MoeLayer) {
    const MoeSpec& m = s.workload.moe;
    // routing and per-token state: a few dozen bytes per token and expert choice, and
    // dysharp's multicast groups (one per token and GPU)
    const double tokens = static_cast<double>(m.tokens_per_gpu) * t.endpointCount();
    e.parts.push_back({"MoE tokens and routing", clampMul(tokens * m.top_k, 128.0),
                       "workload.moe.tokens_per_gpu, workload.moe.top_k"});
  }
  return e;
}

void throwMemoryLimit(const MemoryEstimate& e, std::int64_t limit, const std::string& what, const std::string& found) {
  std::vector<MemoryEstimate::Part> parts = e.parts;
  std::sort(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
  std::string detail;
  for (std::size_t i = 0; i < parts.size() && i < 2; ++i)
    detail += (i ? ", " : "") + parts[i].what + " " + formatApproxBytes(parts[i].bytes);
  std::string keys = "raise run.memory_limit";
  if (!parts.empty() && !parts.front().keys.empty()) keys += ", or reduce " + parts.front().what + ": " + parts.front().keys;
  throw InputError({}, "run.memory_limit", what + " to fit in " + formatApproxBytes(limit) + " (run.memory_limit)",
                   found.empty() ? "an estimated peak of " + formatApproxBytes(e.total() + kProcessBaseBytes) + " (" + detail + ")"
                                 : found,
                   keys);
}

void requireFits(const MemoryEstimate& e, std::int64_t limit, const std::string& what) {
  if (e.total() + kProcessBaseBytes > limit) throwMemoryLimit(e, limit, what);
}

MemoryBudget memoryBudget(const MemoryEstimate& e, std::int64_t limit) {
  // What the fixed parts leave, half for recorded bins and half for packets, never below
  // what the estimate itself gave each (the estimate fits, or the run was refused).
  std::int64_t fixed = kProcessBaseBytes, packets = 0;
  for (const auto& p : e.parts) {
    if (p.what == "packets in flight") packets = p.bytes;
    else if (p.what != "recorded time bins") fixed += p.bytes;
  }
  const std::int64_t spare = std::max<std::int64_t>(0, limit - fixed);
  MemoryBudget b;
  b.recordedBins = std::min(net::kRecordedBinBudget, std::max(e.binBytes, spare / 2) / kPerBin);
  b.livePackets = std::max(packets, spare / 2) / kPerLivePacket;
  return b;
}

}  // namespace fl
