// What a run produces: summary figures (Results) and the time-binned recording that
// views animate and reports plot. Immutable once the run has finished. Units are kept
// in names: _ns, _bytes, _GBps, as in the JSON.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/time.h"
#include "results/packet_follow.h"
#include "results/wsc_results.h"

namespace fl {

// Bytes per time bin, stored sparsely (bins with traffic only, in increasing order):
// a 1000-datacenter fabric has tens of thousands of channels, mostly idle per bin.
struct BinSeries {
  std::vector<std::int32_t> bins;
  std::vector<std::int64_t> bytes;

  void add(std::int32_t bin, std::int64_t b) {
    if (!bins.empty() && bins.back() == bin) {
      bytes.back() += b;
    } else {
      bins.push_back(bin);
      bytes.push_back(b);
    }
  }
  std::int64_t at(std::int32_t bin) const;
  std::vector<std::int64_t> dense(std::int32_t count) const;
  bool operator==(const BinSeries&) const = default;
};

struct PhaseMark {
  std::string name;
  Time start = 0;
  Time end = 0;
};

// One directed link in one workload phase (seed 003 §V-A: hot and cold links): payload
// bytes, busy time (bytes / capacity), utilisation over the phase's window and a class,
// hot (>= threshold), idle (0) or cold.
struct LinkPhaseResult {
  std::string phase;
  std::int64_t bytes = 0;
  Time busy = 0;
  double utilization = 0;
  std::string cls;  // hot | cold | idle
};

// One direction of one link.
struct LinkDirectionResult {
  std::string id;      // "<link index>:<direction>" e.g. "12:0"
  int link = -1;       // topology link index
  int direction = 0;   // 0: a->b, 1: b->a
  std::string from, to;  // node names
  std::string kind;    // access | mesh | border | local | trunk | nic
  bool uplink = false;   // endpoint -> fabric
  bool downlink = false; // fabric -> endpoint
  // The receiving direction of a NIC (topo::isNicLink): into a GPU (its own NIC) or a
  // node (its single uplink) from the network above.
  bool nic_receive = false;
  std::int64_t bytes = 0;          // wire bytes
  std::int64_t payload_bytes = 0;  // data bytes inside them
  std::int64_t packets = 0;
  Time busy = 0;                   // time the channel was serialising
  double capacity_Bps = 0;         // usable rate: bandwidth x efficiency (bytes/s)
  double utilization = 0;          // busy / makespan
  BinSeries bin_bytes;  // wire bytes per time bin (run.bin)
  // Payload bytes per workload traffic phase (index 0: none; Results::traffic_phases
  // names the others), as net::Message::phase numbers them.
  std::array<std::int64_t, 4> phase_payload_bytes{};
  // Wafer-scale workloads (core/wsc): intra or inter (both ends in one Full Token Domain or
  // not; empty elsewhere) and the per-phase figures.
  std::string ftd;
  std::vector<LinkPhaseResult> phases;
};

// The heaviest incast into one NIC (seed 001 §6.7's "incast volume", measured): over the
// NIC receiving directions and the workload's traffic phases, the most payload bytes one
// NIC received in one phase.
struct NicIncastResult {
  std::int64_t max_bytes = 0;
  std::string phase;  // the traffic phase (dispatch | combine for MoE layers)
  std::string nic;    // the node that received them: a GPU, or a node's leaf switch
  std::string link;   // the link direction id
  int nics = 0;       // NIC receiving directions in the fabric
};

// One port's reduction buffer over time (ports that reduced anything).
struct ReductionPortResult {
  int port = -1;
  std::string peer;              // node at the other end of the port
  BinSeries entries;             // most entries held during each bin
  BinSeries evictions;           // evictions in each bin
  std::int64_t peak_entries = 0;
  std::int64_t evictions_total = 0;
};

// The life of one reduction-buffer entry (for inspectors): allocated, then completed or
// evicted. `tag` is the workload's message tag (an MoE layer encodes the token in it).
// When each contribution arrived is kept in the switch's shared `entry_arrivals` array:
// `arrived` offsets from `start` from index `arrivals` on, one per contribution (a packet
// carrying a partial sum of n contributions repeats its offset n times), in arrival
// order. Offsets are 32-bit picoseconds (4 B a contribution: runs log up to a million
// entries of up to 32 contributions), exact for entries that live under 4.29 ms; a longer
// one stores them in units of 2^arrival_shift ps (floored). contributionsAt() counts.
struct ReductionEntryRecord {
  std::int32_t port = -1;
  std::uint32_t piece = 0;
  std::uint64_t tag = 0;
  Time start = 0, end = 0;
  std::uint32_t arrivals = 0;   // first of this entry's offsets in SwitchResult::entry_arrivals
  std::uint16_t expected = 0;   // contributions the entry waited for
  std::uint16_t arrived = 0;    // contributions it held when it ended
  bool evicted = false;
  std::uint8_t arrival_shift = 0;  // offsets in 2^arrival_shift ps (0 unless it lived >= 4.29 ms)
};

// CAIS merge units (seed 002 §III-A): how an entry of a merging table ended.
enum class MergeEndReason : std::uint8_t {
  Completed,      // Count reached Expected (or the set's last request joined it)
  Evicted,        // pushed out by LRU to make room (Reduction: partial sum flushed)
  TimedOut,       // idle past network.switch.merge_timeout
  EvictedOnFill,  // a Load-Wait entry chosen as victim, freed when its data came
};
const char* mergeEndReasonName(MergeEndReason r);  // completed, evicted, timed_out, evicted_on_fill
// The life of one merging-table entry (for the merge-table inspector).
struct MergeEntryRecord {
  std::int32_t port = -1;     // switch port index towards the home GPU (its first link)
  std::uint32_t block = 0;    // block address (workload's numbering)
  bool load = false;          // ld.cais session (Load-Wait/Ready), else red.cais (Reduction)
  Time start = 0, end = 0;
  std::uint16_t arrived = 0;  // requests merged into it
  std::uint16_t expected = 0;
  MergeEndReason reason = MergeEndReason::Completed;
  bool waiting = false;       // a load session still in Load-Wait (its data not back) when it ended
  Time ready = -1;            // load sessions: when the home's data came (Load-Wait -> Load-Ready); -1: never
  std::uint32_t arrivals = 0; // first of its `arrived` requests in SwitchResult::merge_arrivals
};
// One request that joined a merging-table entry (for the inspector's marks): when, from
// the entry's start (ns, saturating), and which GPU (topology node id) sent it.
struct MergeArrival {
  std::uint32_t offset_ns = 0;
  std::int32_t gpu = -1;
};
// A request that passed a merge unit unmerged: no slot (the LRU victim in Load-Wait), a
// full content array, or merging off.
struct MergeBypassRecord {
  Time time = 0;
  std::int32_t port = -1;
  std::uint32_t block = 0;
  std::int32_t gpu = -1;  // topology node id of the requester (-1: unknown)
  bool load = false;
};
// Arrival sets (block, type) by skew, latest minus earliest arrival: bin 0 holds [0, 1) ns,
// bin k >= 1 [2^(k-1), 2^k) ns, the last bin everything above.
inline constexpr int kSkewHistogramBins = 40;
inline int skewHistogramBin(Time skewPs) {
  const auto ns = static_cast<std::uint64_t>(std::max<Time>(0, skewPs) / 1000);
  int k = 0;
  while (k < kSkewHistogramBins - 1 && (std::uint64_t(1) << k) <= ns) ++k;
  return k;
}
// One merge unit (one per GPU-facing port of a switch) over a run.
struct MergePortResult {
  int port = -1;
  std::string peer;             // the home GPU
  BinSeries entries;            // most live entries during each bin
  std::int64_t peak_entries = 0;
  std::int64_t loads = 0, reductions = 0, hits = 0, bypasses = 0, evictions = 0, timeouts = 0;
  std::int64_t partial_flushes = 0;
  std::int64_t capacity = 0;                 // merging-table entries (0: unbounded)
  std::vector<std::int64_t> skew_histogram;  // kSkewHistogramBins counts (skewHistogramBin)
};
struct SwitchResult {
  std::string id;   // node name
  int node = -1;
  std::int64_t packets_forwarded = 0;
  std::int64_t multicast_replicas = 0;  // extra copies made by multicast fan-out
  std::int64_t reductions = 0;          // completed in-switch reductions
  BinSeries reduction_bins;             // completed reductions per time bin (run.bin)
  BinSeries replica_bins;               // multicast replicas made per time bin
  std::int64_t reduction_contributions = 0;
  std::int64_t evictions = 0;           // partial results pushed out by LRU eviction
  std::int64_t peak_reduction_entries = 0;  // max over ports, entries
  std::int64_t peak_reduction_bytes = 0;    // max over ports, bytes
  std::int64_t max_buffer_flits = 0;        // max input-buffer occupancy seen (any VC)
  double reduction_buffer_hit_rate = 1.0;   // contributions that evicted nothing
  std::vector<ReductionPortResult> reduction_ports;
  std::vector<ReductionEntryRecord> entry_log;  // first kEntryLogLimit entries of the run
  std::vector<std::uint32_t> entry_arrivals;  // the logged entries' contribution offsets
  bool entry_log_truncated = false;
  std::vector<MergePortResult> merge_ports;   // CAIS merge units that saw traffic
  std::vector<MergeEntryRecord> merge_log;    // their entries' lives (first kEntryLogLimit)
  bool merge_log_truncated = false;
  std::vector<MergeArrival> merge_arrivals;        // the logged entries' requests (MergeEntryRecord::arrivals)
  std::vector<MergeBypassRecord> merge_bypasses;   // first kEntryLogLimit bypasses
};

// Contributions entry `e` of `s`'s log had received at time `t` (arrivals at t count).
inline int contributionsAt(const SwitchResult& s, const ReductionEntryRecord& e, Time t) {
  if (t < e.start) return 0;
  const Time offset = (t - e.start) >> e.arrival_shift;
  if (offset > Time(UINT32_MAX)) return e.arrived;  // past every stored offset
  const auto first = s.entry_arrivals.begin() + e.arrivals;
  return static_cast<int>(std::upper_bound(first, first + e.arrived, static_cast<std::uint32_t>(offset)) - first);
}

// When the k-th contribution of entry `e` arrived.
inline Time arrivalTime(const SwitchResult& s, const ReductionEntryRecord& e, int k) {
  return e.start + (static_cast<Time>(s.entry_arrivals[e.arrivals + static_cast<std::size_t>(k)]) << e.arrival_shift);
}

inline constexpr std::size_t kEntryLogLimit = 100000;  // per switch

// Per-endpoint figures a workload reports (DySHARP's destination hub: the AL TLB).
struct EndpointResult {
  std::string id;
  std::int64_t al_tlb_hits = 0, al_tlb_misses = 0;
  std::int64_t al_blocks_allocated = 0;  // layout blocks allocated on first touch
};

struct LatencyStats {
  std::int64_t samples = 0;
  double mean_ns = 0, p50_ns = 0, p99_ns = 0, max_ns = 0;
  // Histogram for plots: bucket i holds packets with latency in [edges[i], edges[i+1]) ns.
  std::vector<double> histogram_edges_ns;
  std::vector<std::int64_t> histogram_counts;
};

// MoE traffic by what it achieves (seed 000 §II): useful (must cross with ideal in-switch
// multicast and reduction), redundant (further copies of needed data), useless (data for
// GPUs that did not need it, zero contributions included), overhead (headers, byte
// enables, target and address flits). Payload bytes, except overhead (wire minus payload).
struct TrafficBreakdownRow {
  std::string phase;      // dispatch | combine | all
  std::string direction;  // uplink | downlink
  std::int64_t useful = 0, redundant = 0, useless = 0, overhead = 0;
};

struct MoeResults {
  std::string communication, fusion;
  double distinct_remote_gpus_per_token = 0;
  Time ideal_comm = 0;  // useful bytes / (per-GPU link rate x best framing efficiency)
  // Fabrics with NICs: seed 001 §6.7's Maximal Incast Volume, Tokens / Experts x
  // local_experts x precision x hidden x 2 x n_rg (moe_incast.h gives our reading), and
  // its n_rg (GPUs on other nodes than the receiving one).
  std::optional<std::int64_t> miv_bytes;
  int miv_remote_peers = 0;
  std::int64_t al_tlb_hits = 0, al_tlb_misses = 0;
  double al_tlb_hit_rate() const {
    const auto n = al_tlb_hits + al_tlb_misses;
    return n ? static_cast<double>(al_tlb_hits) / static_cast<double>(n) : 1.0;
  }
};

// Token pipelines (seed 000 §IV, seed 001 §4): what the GPUs' SMs did and when. A task is
// one unit of scheduled work on one SM group of one GPU: a chunk of tokens dispatched or
// combined, or a row of GEMM thread blocks (one tile of tokens of one expert); spans of
// kernel-launch gaps are tasks too, so a Gantt chart and a Chrome trace show them.
// Tensor-parallel layers (core/results/tp_timeline.h) add their kernels, their collectives
// (NVLS, or CAIS's red.cais / ld.cais as one GPU sees them) and TB-group sync waits.
enum class PipelineTaskKind : std::uint8_t {
  Dispatch, Gemm1, Gemm2, Combine, LaunchGap, Barrier,
  LocalGemm, Compute, GemmRs, LayerNorm, AgGemm, Collective, CaisReduce, CaisLoad, SyncWait
};
inline constexpr int kPipelineTaskKinds = 15;
inline constexpr int kMoePipelineTaskKinds = 6;  // Dispatch .. Barrier
// dispatch, gemm1, gemm2, combine, launch_gap, barrier, gemm, compute, gemm_rs, layer_norm,
// ag_gemm, nvls_collective, red_cais, ld_cais, sync_wait
const char* pipelineTaskKindName(PipelineTaskKind k);

struct PipelineTask {
  Time start = 0, end = 0;
  std::int32_t gpu = 0;
  std::int32_t tile = -1;    // GEMMs: expert tile row on this GPU; dispatch/combine: token chunk
  std::int32_t after = -1;   // index of the task that made this one ready (its critical
                             // predecessor, possibly on another GPU): for a GEMM-1 row the
                             // dispatch chunk that sent its last token (it may still be
                             // sending others), else the task whose completion did; -1: none
  std::int32_t tokens = 0;   // token rows it covered
  std::uint16_t sms = 1;     // SMs (thread blocks) it occupied at once at most
  std::uint16_t step = 0;    // layer pass (scheme.stragglers.steps)
  PipelineTaskKind kind = PipelineTaskKind::Dispatch;
  std::uint8_t group = 0;    // row of PipelineResults::groups it ran on (255: whole GPU)
  std::int16_t expert = -1;  // GEMMs: global expert id
  bool operator==(const PipelineTask&) const = default;
};

struct PipelineResults {
  std::string fusion;
  std::vector<std::string> groups;   // SM-group rows: dispatch, gemm1, gemm2, combine | processors | ...
  std::vector<int> group_sms;        // SMs in each group
  int sms = 0;                       // SMs per GPU
  std::vector<PipelineTask> tasks;   // in order of start time (ties: gpu, group)
  double sm_utilization = 0;         // SM-time with a task in flight / (GPUs x SMs x makespan)
  std::int64_t kernel_launches = 0;  // per GPU per layer pass
  Time launch_overhead = 0;          // per GPU: time its SMs waited for launches (mean over GPUs)
  Time phase_busy[4] = {};           // dispatch, gemm1, gemm2, combine: union of busy time, mean over GPUs
  double throughput_tokens_per_s = 0;  // tokens x GPUs x steps / makespan
  std::vector<Time> step_delays;     // per step: slowest minus fastest GPU finish
  Time straggler_delay_p95 = 0;      // P95 of step_delays
  std::optional<double> overlap_efficiency;  // weak-scaling sweeps: T(2) / T(N)
  std::int64_t ts_peak = 0, or_peak = 0;            // token tracker: most live entries
  std::int64_t ts_overflows = 0, or_overflows = 0;  // accesses spilled to DRAM
};

// FlashDMoE's memory overhead (seed 001 §5.3-5.4, Table 6.2), per GPU.
struct MemoryResults {
  std::int64_t symmetric_layout_bytes = 0;  // Size(L)
  std::int64_t bookkeeping_bytes = 0;
  std::int64_t token_buffer_bytes = 0;      // Size(T)
  std::int64_t expert_capacity = 0;         // EC (tokens)
};

// HybridEP (seed 004) for cross_dc_moe: the stream model's choice and prediction, the
// partition's pair counts and bytes, and GPU 0's two streams. Model times are for the
// iteration (layers x the per-layer Lat of Eq. 8).
struct HybridEpLevel {
  int workers = 1, domain_size = 1;
  double p = 1;
  double model_case = 1;    // 1, 2.1 or 2.2
  double bandwidth_Bps = 0; // B^l the model used (a GPU's share of the level's narrowest link)
  double expert_bytes = 0;  // P_E^l the model used (compressed, times outer domains)
};
struct HybridEpCurvePoint {
  int level = 0, domain_size = 1;
  double p = 1;
  double lat_ns = 0;
};
struct HybridEpSpan {
  int layer = 0;
  std::string kind;  // pre_expert | expert | all_gather | dispatch | combine
  Time start = 0, end = 0;
};
struct HybridEpResults {
  std::string scheme;  // ep | hybrid
  std::vector<HybridEpLevel> levels;
  double model_lat_ns = 0, model_ep_lat_ns = 0;
  std::vector<HybridEpCurvePoint> curve;
  std::int64_t a2a_pairs = 0, ag_pairs = 0;  // directed pairs of one A2A op / one AG op (Table VII)
  std::int64_t a2a_bytes = 0, ag_bytes = 0;  // sent in the iteration, all GPUs
  std::int64_t flows = 0;
  std::vector<HybridEpSpan> timeline;  // GPU 0
  // The model's inputs, so a view can re-evaluate the curve as the user edits them.
  double data_bytes = 0;         // D per GPU per all-to-all
  double expert_bytes = 0;       // P_E before compression
  double compression_ratio = 1;  // the divisor on expert bytes on the wire
  double pre_expert_ns = 0;      // Lat_PE per layer (given, or derived from the GPU)
  int layers = 1;
  std::string network_model;     // flow | packet: the model that ran the iteration
  std::string pass = "forward";  // forward | training (+ backward and gradient all-reduce)
  std::int64_t grad_bytes = 0, allreduce_bytes = 0;  // training: expert gradients to owners; all-reduce
  double dense_bytes = 0;        // training: non-expert parameter bytes per layer all-reduced
};

struct Results;
double computeDirectionBalance(const Results& r);
// From the links' per-phase payload: empty without NICs or without named phases.
std::optional<NicIncastResult> computeNicIncast(const Results& r);

// Tensor-parallel layers (seed 002 §V-A): per-layer time and sub-layers L1-L4 (0: not run).
struct TpResults {
  std::string scheme, model;
  Time layer = 0;                 // makespan / layers
  std::array<Time, 4> sublayer{};  // L1..L4: first GEMM-RS start to last AG-GEMM end, mean
  // L1..L4: busy fraction over all link directions within each such span, mean over the
  // spans of that kind (seed 002 §V-B2, Fig. 15; tp/window_utilization.h); 0: not run.
  std::array<double, 4> sublayer_utilization{};
};

// CAIS request merging in the switches (seed 002; specs/cais.md §2.13 defines them).
struct CaisResults {
  double merge_success_rate = 0;     // hits / (mergeable requests - distinct (block, type) sets)
  std::int64_t requests = 0;         // ld.cais + red.cais that reached a merge unit
  std::int64_t hits = 0, bypasses = 0, evictions = 0, timeouts = 0, partial_flushes = 0;
  double arrival_skew_ns_mean = 0;   // per (block, type): latest minus earliest arrival
  std::int64_t peak_table_bytes_per_port = 0;  // max over merge units of peak entries x entry bytes
  // Workload's own checks (brute-force counts at the homes and requesters).
  std::int64_t blocks = 0;                 // output blocks of reductions
  std::int64_t blocks_complete = 0;        // whose contribution counts summed to exactly N-1
  std::int64_t blocks_overfilled = 0;      // whose counts exceeded N-1 (must stay 0)
  std::int64_t load_requests = 0, load_responses = 0;  // ld.cais sent / answered
  std::int64_t duplicate_responses = 0;    // a second answer to one request (must stay 0)
  // TB-group coordination (cais_coord and later): SYNC + RELEASE + THROTTLE packets,
  // mean wait of a synchronised thread block (SYNC sent to RELEASE received), THROTTLE-on.
  std::int64_t sync_packets = 0;
  double sync_wait_ns = 0;
  std::int64_t throttle_events = 0;
  // Max over ports of peak live entries x entry bytes in the same run with an unbounded
  // table and no timeout (specs/cais.md §2.13); 0 when not measured.
  std::int64_t required_table_bytes_per_port = 0;
};

struct Results {
  std::string scenario;  // scenario name
  std::uint64_t seed = 0;
  int threads = 1;
  int partitions = 1;

  // engine
  std::int64_t events = 0;
  std::int64_t packets = 0;        // packets delivered to their final consumer
  std::int64_t packet_hops = 0;    // channel traversals
  double wall_seconds = 0;
  Time sim_time = 0;
  bool cancelled = false;
  bool time_limit_reached = false;  // stopped at run.time_limit with events left

  // summary
  Time makespan = 0;
  std::vector<PhaseMark> phases;

  // traffic
  std::int64_t payload_bytes = 0;  // over all channels
  std::int64_t wire_bytes = 0;
  std::int64_t uplink_bytes = 0;   // wire bytes endpoint -> fabric
  std::int64_t downlink_bytes = 0; // wire bytes fabric -> endpoint
  std::int64_t uplink_payload_bytes = 0;
  std::int64_t downlink_payload_bytes = 0;
  double payload_efficiency() const {
    return wire_bytes ? static_cast<double>(payload_bytes) / static_cast<double>(wire_bytes) : 0;
  }

  std::vector<LinkDirectionResult> links;
  std::vector<SwitchResult> switches;
  std::vector<EndpointResult> endpoints;  // filled by workloads that have per-GPU state
  Time bin = 0;
  int bins = 0;

  // collectives (nccl-tests' definitions)
  std::optional<double> algbw_GBps, busbw_GBps;
  std::int64_t collective_size_bytes = 0;

  // synthetic traffic
  std::optional<LatencyStats> latency;
  std::optional<double> accepted_fraction;      // delivered / offered payload in the window
  std::optional<double> offered_GBps, accepted_GBps;  // per endpoint, payload

  // MoE layers
  std::vector<TrafficBreakdownRow> breakdown;
  std::optional<MoeResults> moe;
  std::optional<PipelineResults> pipeline;
  std::optional<MemoryResults> memory;
  std::optional<WscResults> wsc;  // wsc_inference (seed 003)
  // Uplink/downlink balance over time (seed 000 Fig. 17, 20): sum over time bins of the
  // lower direction's wire bytes over the sum of the higher one's (endpoint links, all
  // GPUs together); 1 = both directions equally busy at every moment. Taken bin by bin
  // because a sequential layer is balanced in total (dispatch's heavy downlink, combine's
  // heavy uplink) while one direction idles at any time. Set by computeDirectionBalance.
  double direction_balance = 0;
  // Names of the workload's traffic phases 1, 2, ... (net::Message::phase; set by the
  // workload, e.g. dispatch, combine) and, on fabrics with NICs, the heaviest per-phase
  // NIC incast over them. Set by computeNicIncast.
  std::vector<std::string> traffic_phases;
  std::optional<NicIncastResult> nic_incast;

  // invariants checked during the run
  std::int64_t packets_injected = 0;
  std::int64_t packets_consumed = 0;
  std::int64_t packets_created_in_switches = 0;   // multicast replicas, reduction results
  std::int64_t packets_consumed_in_switches = 0;  // reduction operands, multicast originals
  std::int64_t packets_in_flight = 0;             // left in the fabric at the end (0 when drained)
  std::int64_t buffer_overflows = 0;  // must stay 0
  std::int64_t agents_unfinished = 0; // GPUs whose work never completed: a stall (must stay
                                      // 0), or the run stopped at run.time_limit
  std::int64_t peak_live_packets = 0;
  std::int64_t reduction_hits = 0, reduction_lookups = 0;  // over all switches

  std::optional<HybridEpResults> hybridep;  // cross_dc_moe
  // CAIS (seed 002): merge units over all switches; set when any saw ld.cais/red.cais.
  std::optional<CaisResults> cais;
  std::optional<TpResults> tp;  // tp_layer workloads
  // The hops of the packets run.follow names (results/packet_follow.h); unset without it.
  std::optional<PacketFollow> follow;
};

}  // namespace fl
