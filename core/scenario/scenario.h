// The typed scenario: the single source of truth for a run. The YAML loader, the CLI's
// --set overrides and the GUI editors all produce this value through the same schema
// and validation (scenario/schema.h). Units are SI inside: bytes, bytes per second,
// picoseconds. Defaults here are the documented defaults (docs/scenario.md gives the
// source of each).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/time.h"
#include "gpu/dtype.h"

namespace fl {

enum class TopologyKind { NvSwitch, Mesh, Hierarchy };

// How the members of a hierarchy level are joined to their parent's switch: by one link
// each (Shared: a node's single uplink), or by one link from every GPU inside the member
// straight to the parent switch (PerGpu: rail-style multi-node boxes, one NIC per GPU,
// seed 001 §6.7), the member's own switch then carrying only traffic inside it.
enum class LevelUplinks { Shared, PerGpu };

// One level of a hierarchy, outermost first (e.g. datacenter, node, gpu). `count` is
// how many children each parent has at this level; the level's link joins each child
// to its parent's switch (or, with per-GPU uplinks, each GPU of the child).
struct LevelSpec {
  std::string name;
  int count = 1;
  double bandwidth = 0;  // bytes/s per direction, per link
  Time latency = 0;
  LevelUplinks uplinks = LevelUplinks::Shared;
  bool operator==(const LevelSpec&) const = default;
};

struct TopologySpec {
  TopologyKind kind = TopologyKind::NvSwitch;
  std::string preset;  // "" or one of dgx-h100, gh200-nvl32, nvl64, gb200-nvl72

  // NVSwitch fabrics: `gpus` GPUs, `switches` chips, `links_per_gpu` links per GPU
  // spread as evenly as possible over the chips; each chip has `switch_ports` ports.
  int gpus = 8;
  int switches = 4;
  int links_per_gpu = 18;
  int switch_ports = 64;

  // Every link of an NVSwitch fabric or mesh (per link, per direction).
  double link_bandwidth = 25e9;        // bytes/s, NVLink 4: 25 GB/s per link per direction
  Time link_latency = 250 * kNanosecond;
  double link_efficiency = 1.0;        // data-link layer efficiency (CRC, replay, DL flits)

  // Meshes: rows x cols dies per wafer, wafers.rows x wafers.cols wafers.
  int rows = 8;
  int cols = 8;
  int wafer_rows = 1;
  int wafer_cols = 1;
  double border_bandwidth = 0;  // bytes/s per border link per direction; 0 = link_bandwidth
  Time border_latency = 0;      // 0 = link_latency
  double die_injection_bandwidth = 0;  // die <-> its own router; 0 = link_bandwidth

  // Hierarchies, outermost level first.
  std::vector<LevelSpec> levels;

  bool operator==(const TopologySpec&) const = default;
};

// Flow: max-min fair fluid flows (core/netmodel/flow_solver.h), cross_dc_moe only. Auto:
// cross_dc_moe picks packet for a small iteration and flow otherwise (xdc/network_choice.h);
// every other workload runs on packets.
enum class NetworkModel { Packet, Analytical, Flow, Auto };

struct NetworkSpec {
  int flit_bytes = 16;             // NVLink flit
  int header_flits = 1;            // command/header flit of every packet
  int address_flits = 1;           // address-extension flit of requests that carry an address
  int byte_enable_flits = 1;       // byte-enable flit of writes
  std::int64_t max_packet_payload = 256;  // bytes of data one NVLink packet carries
  std::int64_t packet_payload = 256;      // bytes of data one simulated packet carries; framing
                                          // is still accounted per max_packet_payload
  int virtual_channels = 16;       // split evenly: first half requests, second half responses
                                   // (seed 000 §V-A: sixteen 256-deep VCs, eight each)
  int vc_depth_flits = 256;        // input buffer per VC
  Time switch_latency = 0;         // router traversal, on top of link latency
  std::int64_t reduction_buffer = 64 * 1024;  // bytes per switch port
  double reduction_throughput = 0;            // bytes/s of operands per switch chip; 0 = unlimited
  int outstanding_requests = 1024;            // per endpoint: reads/acked writes in flight
  bool acknowledged_writes = false;           // posted (false) or acknowledged stores/reductions
  // CAIS merge units, one per GPU-facing switch port (seed 002 §IV-A; specs/cais.md §2.2)
  std::int64_t merge_table = 40 * 1024;       // bytes per port (320 entries of 128 B); 0 = unbounded
  Time merge_timeout = 10 * kMicrosecond;     // idle time before an entry is evicted; 0 = none
  int merge_records = 16;                     // deferred requesters one Load-Wait entry holds
  bool merging = true;                        // false: ld.cais/red.cais pass unmerged
  // How a workload's message plan is carried (core/netmodel/): the packet model above, or
  // seed 003's Eq. 1 (hops x (bytes / bandwidth + latency), no contention). Workloads that
  // emit a plan (wsc_inference) read it; the others always run on packets.
  NetworkModel model = NetworkModel::Auto;
  bool operator==(const NetworkSpec&) const = default;
};

enum class CollectiveOp { P2P, AllReduce, ReduceScatter, AllGather, AllToAll, AllToAllV };
enum class CollectiveAlgorithm { Ring, Nvls, Direct, Cais };

struct CollectiveSpec {
  CollectiveOp op = CollectiveOp::AllReduce;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
  std::int64_t size = 64ll * 1024 * 1024;  // bytes per GPU (nccl-tests' "size")
  std::int64_t nvls_window = 1ll << 20;    // nvls: ld_reduce bytes in flight per GPU
  int source = 0;                          // p2p
  int destination = 1;                     // p2p
  // all_to_all_v: bytes from GPU i to GPU j; empty = derived from `skew`.
  std::vector<std::vector<std::int64_t>> matrix;
  double skew = 0;  // all_to_all_v without a matrix: Zipf exponent of per-pair sizes
  Time stagger = 0;  // cais: GPUs N/2..N-1 start this much later (two-cohort drift)
  bool operator==(const CollectiveSpec&) const = default;
};

enum class TrafficPattern { Uniform, Transpose, Hotspot };

struct TrafficSpec {
  TrafficPattern pattern = TrafficPattern::Uniform;
  double load = 0.3;                 // offered load, fraction of injection bandwidth
  Time duration = 20 * kMicrosecond; // generation window
  Time warmup = 2 * kMicrosecond;    // packets created before this are not measured
  double hotspot_fraction = 0.2;     // hotspot: share of packets sent to the hotspots
  std::vector<int> hotspots = {0};   // endpoint indices
  bool operator==(const TrafficSpec&) const = default;
};

// The GPUs' compute model (core/gpu/gpu_spec.h holds the full hardware description; this
// is what a scenario chooses and overrides). gpu.preset fills sms and hbm_bandwidth.
struct GpuSettings {
  std::string preset = "h100";     // h100, h200, a100, b200
  int sms = 132;                   // H100 SXM (core/gpu/gpu_spec.cpp)
  double tensor_efficiency = 0.7;  // achieved / peak dense tensor throughput (unconfirmed)
  double hbm_bandwidth = 3.35e12;  // bytes/s, H100 SXM
  // bytes/s one SM of a communication kernel moves to or from other GPUs; 0 = not a
  // limit (links only). DeepEP's kernels are SM-bound below line rate (schema source).
  double sm_comm_bandwidth = 0;
  int tile_m = 128;                // GEMM output tile bM x bN (seed 000 §VII-C: 128)
  int tile_n = 128;
  bool operator==(const GpuSettings&) const = default;
};

enum class ExpertPlacementKind { Contiguous, RoundRobin, Explicit };
enum class RoutingDistribution { Uniform, Normal, PowerLaw, Trace };

struct MoeRoutingSpec {
  RoutingDistribution distribution = RoutingDistribution::Uniform;
  double sigma = 0.032;  // normal: std of per-expert load shares (seed 000 §V-B)
  double alpha = 1.0;    // power_law: exponent (seed 000 §VI-C3 sweeps 0.5-2.5)
  std::string trace;     // trace: CSV path, absolute once loaded (resolved against the file)
  bool operator==(const MoeRoutingSpec&) const = default;
};

// One MoE layer under expert parallelism over every endpoint. workload.moe.model fills
// hidden, expert_ffn, experts, top_k and the dtypes (core/moe/moe_model.cpp); explicit
// keys win. Defaults are DeepSeek-V3 (hardware.md: MoE model configurations).
struct MoeSpec {
  std::string model = "deepseek-v3";  // a preset name, or "custom"
  int tokens_per_gpu = 4096;          // hardware.md: DeepEP row (4096 tokens)
  int hidden = 7168;
  int expert_ffn = 2048;
  int experts = 256;
  int top_k = 8;
  Dtype dispatch_dtype = Dtype::Fp8;   // hardware.md: DeepEP row (FP8 dispatch)
  Dtype combine_dtype = Dtype::Bf16;   // (BF16 combine)
  ExpertPlacementKind placement = ExpertPlacementKind::Contiguous;
  std::vector<int> placement_list;     // explicit: the GPU of each expert
  MoeRoutingSpec routing;
  bool operator==(const MoeSpec&) const = default;
};

// One training iteration (forward) of an MoE model across datacenters (HybridEP, seed
// 004): workload.xdc.model fills hidden, experts, expert_bytes, top_k and layers (the
// paper's Table II, core/xdc/xdc_models.cpp); explicit keys win.
// forward: the forward pass only (the paper's stream model); training: + backward pass and
// the gradient all-reduce (xdc/async_communicator.h).
enum class XdcPass { Forward, Training };
struct XdcSpec {
  std::string model = "mistral-small";
  int hidden = 768;
  int experts = 32;
  std::int64_t expert_bytes = 18'874'368;  // P_E: 2 x H x 4H fp32 parameters (spec 2.6)
  int top_k = 1;
  int tokens = 2048;             // per GPU per layer, for data_bytes = 0
  std::int64_t data_bytes = 0;   // D per GPU per all-to-all; 0 = tokens x hidden x 4 B x top_k
  int layers = 12;
  Time pre_expert = 0;           // Lat_PE per layer; 0 = derived from the GPU (xdc/pre_expert.h)
  XdcPass pass = XdcPass::Forward;
  std::int64_t dense_bytes = 0;  // non-expert parameter bytes per MoE layer (all-reduced); 0 = derived
  bool grad_overlap = true;      // training: each layer's gradients all-reduced during the backward pass
  bool operator==(const XdcSpec&) const = default;
};

enum class TpPhase { Inference, Training };
// Order of a CAIS GEMM's output tiles (GEMM-RS pushes, AG-GEMM loads), the same on every GPU.
enum class TpRowOrder { MMajor, HomeInterleaved };

// Transformer layers under tensor parallelism over every GPU (seed 002 §IV-B, Table I).
// workload.tp.model fills hidden, ffn_hidden, heads, seq_len and batch (core/tp/tp_model.cpp);
// explicit keys win. Defaults: LLaMA-7B as Table I runs it (half-scale, 66 SMs).
struct TpSpec {
  std::string model = "llama-7b";
  int hidden = 4096;
  int ffn_hidden = 11264;
  int heads = 32;
  int seq_len = 3072;
  int batch = 3;
  TpPhase phase = TpPhase::Inference;
  int layers = 2;  // specs/cais.md §1.2 [D]: 2, so that L2 (FFN2 -> next layer's QKV) exists
  // Drift (specs/cais.md §2.8 [D]), the same for every scheme: each kernel launch on each
  // GPU waits an exponential offset of this mean; each thread block's time is scaled by a
  // lognormal of mean 1 and this coefficient of variation. Calibrated once (cais_base,
  // LLaMA-7B: ~35 us mean arrival skew, seed 002 §V-B1).
  Time kernel_offset = 10 * kMicrosecond;
  double tb_noise_cv = 0.1;
  double rs_sm_fraction = 0;  // cais_partial/cais: SMs of GEMM-RS while both run; 0 = FLOP-proportional
  int throttle_on = 16, throttle_off = 8;  // cais_coord+: waiting groups per GPU at one sync switch
  TpRowOrder row_order = TpRowOrder::HomeInterleaved;  // our choice: see the schema row
  std::int64_t load_in_flight = 64 * 1024;  // bytes of ld.cais a loading thread block has unanswered
  bool operator==(const TpSpec&) const = default;
};


enum class WscStage { Prefill, Decode, Hybrid };
enum class WscGating { UniformExact, Uniform, Zipf, Trace };
// Where routed experts live (core/wsc/expert_placement.h).
enum class WscExpertPlacement { Modulo, Explicit };
// What workload.wsc.hot_threshold is a fraction of: 1 (utilisation itself) or the phase's
// busiest die-to-die link (seed 003 §V-A's "hot": busy whenever the phase is).
enum class WscHotThreshold { Absolute, Relative };

// One decoder layer of MoE inference on a wafer-scale chip (seed 003 §III-B, spec
// moentwine.md §2.1). workload.wsc.model fills hidden, expert_ffn, experts, top_k.
struct WscSpec {
  std::string model = "qwen3-235b";  // spec §3.5's worked case
  int hidden = 4096;
  int expert_ffn = 1536;
  int experts = 128;
  int top_k = 8;
  int tp = 4;                        // TP degree t (spec §2.1)
  int tokens_per_group = 256;        // T (§VI-B1 fixes 256)
  WscStage stage = WscStage::Prefill;
  bool all_gather = true;            // §IV-A keeps AG; false: reduce-scatter only (§VI-B6)
  WscGating gating = WscGating::UniformExact;
  double zipf_s = 1.0;
  std::string trace;                 // CSV iteration,layer,expert,tokens (absolute once loaded)
  int iterations = 1;
  int micro_batches = 1;
  double hot_threshold = 0.9;        // a link is hot in a phase at utilisation >= this (spec §2.7)
  WscHotThreshold hot_threshold_kind = WscHotThreshold::Absolute;
  int moe_layers = 94;               // MoE layers per iteration (Table I); NI copies use all their phases
  // Attention compute per stage (wsc/attention.h; [R]: the paper fixes T and never models it)
  int attention_params = 71'303'168;    // attention weights per layer (model config: Qwen3 q, k, v, o)
  std::int64_t kv_bytes_per_token = 2048;  // FP16 KV cache per token per layer (Qwen3: 2 x 4 heads x 128 x 2 B)
  int context = 2048;                   // prefill: prompt length; decode: KV tokens each new token reads [U]
  double prefill_share = 0.5;           // hybrid: share of the T tokens that are prefill tokens [U]
  WscExpertPlacement expert_placement = WscExpertPlacement::Modulo;  // expert e on die e mod N (spec §1.2)
  std::vector<int> expert_dies;         // explicit: the die of expert e at entry e
  int expert_slots = 0;                 // experts a die holds; 0 = ceil(E / N) + 1 [U]
  bool operator==(const WscSpec&) const = default;
};

enum class WorkloadKind { Collective, Traffic, MoeLayer, CrossDcMoe, TpLayer, WscInference };

struct WorkloadSpec {
  WorkloadKind kind = WorkloadKind::Collective;
  CollectiveSpec collective;
  TrafficSpec traffic;
  MoeSpec moe;
  XdcSpec xdc;
  TpSpec tp;
  WscSpec wsc;
  bool operator==(const WorkloadSpec&) const = default;
};

// How a moe_layer moves tokens (seed 000 §V-C, §III) and how its work is scheduled on the
// GPUs (seed 000 §IV, seed 001 §4).
enum class MoeCommunication { DeepEp, NvlsStatic, DySharp, Explicit };
enum class MoeFusion { Sequential, CommOnly, Overlap, TokenCentric, Persistent };

// Kernel launches from a simulated host (seed 001 Table 1.1): the host issues each launch
// one after another, `overhead` apiece; a kernel cannot start before its launch is done.
struct LaunchSpec {
  std::string baseline = "custom";   // a Table 1.1 system filling `kernels`, or custom
  int kernels = 0;                   // launches per layer; 0 = the fusion scheme's own kernels
  Time overhead = 5 * kMicrosecond;  // host time per launch (unconfirmed: ~5 us per cudaLaunchKernel)
  bool operator==(const LaunchSpec&) const = default;
};

// DySHARP's token-centric fusion (seed 000 §IV): SM groups and the token tracker's tables.
struct TokenCentricSpec {
  int dispatch_sms = 0, gemm1_sms = 0, gemm2_sms = 0, combine_sms = 0;  // all 0 = automatic
  int tile_tokens = 128;             // readiness granularity: tokens per GEMM TB row (seed 000 §IV-B)
  int ts_table_entries = 1024;       // Tile Status table (seed 000 §V-A)
  int or_table_entries = 1024;       // Output Readiness table (seed 000 §V-A)
  Time overflow_latency = 500 * kNanosecond;  // a tracker access spilled to DRAM (unconfirmed)
  bool operator==(const TokenCentricSpec&) const = default;
};

// FlashDMoE's persistent kernel (seed 001 §4–5).
struct PersistentSpec {
  bool payload_efficient = true;     // send only selected tokens; false: pad to expert capacity
  double capacity_factor = 1.0;      // expert capacity = factor x tokens / E (seed 001 Table 6.2)
  int task_n = 64;                   // task tile 128 x 64 (seed 001 §4.3); rows from gpu.tile
  bool operator==(const PersistentSpec&) const = default;
};

enum class NoiseDistribution { None, Exponential, Lognormal };

// Stragglers (seed 001 §3.1): per-GPU kernel-start jitter and per-task duration noise.
struct StragglerSpec {
  NoiseDistribution start_jitter_distribution = NoiseDistribution::None;
  Time start_jitter = 0;             // mean extra delay of each kernel start on each GPU
  NoiseDistribution task_noise_distribution = NoiseDistribution::None;
  double task_noise = 0;             // mean relative extra duration of each task
  int steps = 1;                     // layer passes run back to back (delay P95 over them)
  bool operator==(const StragglerSpec&) const = default;
};

// HybridEP's hybrid expert/data transmission (seed 004 §IV) for cross_dc_moe.
enum class XdcScheme { Ep, Hybrid };
struct HybridSpec {
  std::vector<int> domains;       // expert-domain size per level; empty = auto (the model's choice)
  double compression_ratio = 1;   // SR compression: expert bytes / ratio on the wire; 1 = off
  bool fusion = true;             // SREncode fused into the optimizer step, SRDecode into the GEMMs
  bool operator==(const HybridSpec&) const = default;
};
// How a tp_layer communicates (seed 002 §IV-C, §V): NVLS baselines and CAIS.
enum class TpScheme { TpNvls, SpNvls, CaisBase, CaisCoord, CaisPartial, Cais };

struct SchemeSpec {
  MoeCommunication communication = MoeCommunication::DeepEp;
  MoeFusion fusion = MoeFusion::Sequential;
  int al_tlb_entries = 512;                 // seed 000 §V-A
  Time al_table_latency = 300 * kNanosecond;  // unconfirmed: one DRAM access
  int ld_reduce_in_flight = 4;              // dysharp combine: tokens in flight per SM (unconfirmed)
  int st_in_flight = 4;                     // dysharp dispatch: unacknowledged tokens per SM (unconfirmed)
  int comm_sms = 20;                        // SMs of communication kernels (DeepEP Buffer.num_sms, 20)
  LaunchSpec launch;
  TokenCentricSpec token_centric;
  PersistentSpec persistent;
  StragglerSpec stragglers;
  XdcScheme ep = XdcScheme::Hybrid;
  HybridSpec hybrid;
  TpScheme tp = TpScheme::CaisBase;
  bool operator==(const SchemeSpec&) const = default;
};

struct RunSpec {
  std::uint64_t seed = 1;
  Time bin = 1 * kMicrosecond;  // width of recorded time bins
  int threads = 1;              // worker threads; results never depend on it
  int partitions = 0;           // 0 = automatic
  Time time_limit = 10 * kSecond;  // simulated-time safety stop
  std::int64_t memory_limit = 0;   // bytes a run may use; 0 = 75 % of physical memory
  int jobs = 0;                    // sweep points run at once; 0 = one per core
  std::string follow = "none";     // packets whose hops are recorded (scenario/follow_selector.h)
  bool operator==(const RunSpec&) const = default;
};

// A sweep runs the scenario once per point of the cartesian product of its axes.
// Each value is a YAML scalar string applied through the schema, like --set.
struct SweepAxis {
  std::string key;
  std::vector<std::string> values;
  std::vector<std::string> labels = {};  // optional: a short name per value ("NVLS"), for views
  bool operator==(const SweepAxis&) const = default;
};

// One step of a scenario's guided tour (the optional `story:` list, scenario/story.h):
// a short text and what showing it does to the views. Empty fields do nothing.
struct StoryStep {
  std::string text;
  std::string point;      // a sweep point: its 1-based number or its label
  std::string dock;       // a dock to raise, by its title ("Plots", "Sweep")
  Time at = -1;           // move the timeline to this time (-1: leave it)
  std::string phase;      // ... or to the start of the phase of this name
  std::string direction;  // direction filter: both | up | down
  std::string follow;     // Follow One: selectors joined by "; " (scenario/follow_selector.h), "" none
  bool operator==(const StoryStep&) const = default;
};

// Which dies form each TP group and each Full Token Domain on a mesh (seed 003 §IV,
// core/mapping/). groups: die lists in ring order; ftds: optional, validated.
enum class MappingKind { Baseline, Er, Her, Explicit };

struct MappingSpec {
  MappingKind kind = MappingKind::Baseline;
  std::vector<std::vector<std::int64_t>> groups;
  std::vector<std::vector<std::int64_t>> ftds;
  bool operator==(const MappingSpec&) const = default;
};

// Expert balancing across iterations (seed 003 §V, core/balance/).
enum class BalancerKind { None, Greedy, TopologyAware, NonInvasive };
enum class BalancerLoad { Gating, Single, Mixed };
enum class MigrationPriority { Low, Equal };

struct BalancerSpec {
  BalancerKind kind = BalancerKind::None;
  BalancerLoad load = BalancerLoad::Gating;  // expert loads: workload.wsc.gating, or a synthetic scenario (spec §2.10 [R])
  double zipf_s = 0.25;      // popularity skew [U]: unbalanced EP = 256 gives max/mean ~3 (spec §2.10)
  int warmup = 5;            // single: iterations before popularity settles [U]
  int period = 50;           // mixed: iterations of one cycle of the scenario mixture [U]
  int shadow_slots = 1;      // shadow slots per die (spec §2.11 [U])
  double alpha = 0.1;        // trigger: summed imbalance over this (0.1 x MoE layers, [U])
  int interval = 10;         // invasive balancers: iterations between migrations (beta, §VI-C1)
  int window = 8;            // prediction: mean over this many past iterations [U]
  MigrationPriority migration_priority = MigrationPriority::Low;  // NI copies in the packet model (spec §2.9)
  bool operator==(const BalancerSpec&) const = default;
};

struct Scenario {
  int schema_version = 1;
  std::string name;
  std::string description;
  TopologySpec topology;
  NetworkSpec network;
  GpuSettings gpu;
  WorkloadSpec workload;
  SchemeSpec scheme;
  RunSpec run;
  std::vector<SweepAxis> sweep;
  std::vector<StoryStep> story = {};  // scenario/story.h
  MappingSpec mapping;
  BalancerSpec balancer;
  bool operator==(const Scenario&) const = default;
};

}  // namespace fl
