// The schema table from workload on: workload, workload.moe, scheme and run keys, in the
// order docs and saved files list them (schema_table.cpp has the rest).
#include <yaml-cpp/yaml.h>

#include "gpu/gpu_spec.h"
#include "moe/moe_model.h"
#include "moe/routing_trace.h"
#include "pipeline/launch_baselines.h"
#include "scenario/bounded_yaml.h"
#include "scenario/did_you_mean.h"
#include "scenario/follow_selector.h"
#include "scenario/schema_builders.h"
#include "tp/tp_model.h"

namespace fl::schema_build {
namespace {

// workload.moe.placement: contiguous, round_robin or a list with the GPU of each expert.
// A list may also arrive as text ("[0, 1]": --set, the GUI, a saved file).
void setPlacement(Scenario& s, const YAML::Node& n, const ValueSource& src, const ParamSpec& rules) {
  const std::vector<std::string> names = {"contiguous", "round_robin"};
  const std::string expected = "contiguous, round_robin or a list of GPU indices such as [0, 0, 1, 1]";
  MoeSpec& m = s.workload.moe;
  if (n.IsSequence()) {
    m.placement_list = readIntList(n, rules.path, rules, src);
    m.placement = ExpertPlacementKind::Explicit;
    return;
  }
  std::string text = scalarText(n, rules.path, src, expected);
  text.erase(0, text.find_first_not_of(" \t"));
  text.erase(text.find_last_not_of(" \t") + 1);
  if (!text.empty() && text.front() == '[') {
    YAML::Node list;
    try {
      list = loadBoundedYaml(text);
    } catch (const YAML::Exception& e) {
      throw InputError(src.at(n), rules.path, expected, "'" + text + "'", e.msg);
    }
    ValueSource inner = src;
    inner.fallback = src.at(n), inner.useMarks = false;
    if (list.IsSequence()) return setPlacement(s, list, inner, rules);
  }
  if (text == names[0] || text == names[1]) {
    m.placement = text == names[0] ? ExpertPlacementKind::Contiguous : ExpertPlacementKind::RoundRobin;
    m.placement_list.clear();
    return;
  }
  throw InputError(src.at(n), rules.path, expected, "'" + text + "'", closeMatchHint(text, names));
}

ParamSpec placementParam() {
  ParamSpec p = base("workload.moe.placement", "placement", {0, 9'999'999},
                     "GPUs of the experts: contiguous (E/G consecutive experts per GPU), round_robin (expert e on "
                     "GPU e mod G), or a list of GPU indices, one per expert", "");
  p.scalar = false;
  p.get = [](const Scenario& s) -> std::string {
    switch (s.workload.moe.placement) {
      case ExpertPlacementKind::Contiguous: return "contiguous";
      case ExpertPlacementKind::RoundRobin: return "round_robin";
      case ExpertPlacementKind::Explicit: break;
    }
    return intListText(s.workload.moe.placement_list);
  };
  p.set = [rules = p](Scenario& s, const YAML::Node& n, const ValueSource& src) { setPlacement(s, n, src, rules); };
  return p;
}

// workload.moe.routing.trace: a path, made absolute against the scenario file's directory.
ParamSpec traceParam() {
  ParamSpec p = base("workload.moe.routing.trace", "path", {},
                     "trace: CSV 'token,experts' (experts space- or semicolon-separated), relative to the scenario "
                     "file; token t of GPU g replays row (g x tokens_per_gpu + t) mod rows", "");
  p.get = [](const Scenario& s) { return s.workload.moe.routing.trace; };
  p.set = [path = p.path](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    s.workload.moe.routing.trace = resolveTracePath(scalarText(n, path, src, "a file path"), src.file);
  };
  return p;
}

const std::vector<std::pair<std::string, Dtype>> kWireDtypes = {
    {"fp8", Dtype::Fp8}, {"bf16", Dtype::Bf16}, {"fp16", Dtype::Fp16}, {"fp32", Dtype::Fp32}, {"tf32", Dtype::Tf32}};

}  // namespace

void addWorkloadSchemeRunKeys(std::vector<ParamSpec>& t) {
  using Q = QuantityKind;
  // --- workload
  t.push_back(choice<WorkloadKind>("workload.kind", FIELD(workload.kind),
      {{"collective", WorkloadKind::Collective}, {"traffic", WorkloadKind::Traffic}, {"moe_layer", WorkloadKind::MoeLayer},
       {"cross_dc_moe", WorkloadKind::CrossDcMoe},
       {"tp_layer", WorkloadKind::TpLayer},
       {"wsc_inference", WorkloadKind::WscInference}},
      "one collective operation, synthetic traffic at a given load, one MoE layer under expert parallelism, "
      "an MoE training iteration across datacenters (HybridEP, seed 004), transformer layers under tensor "
      "parallelism over every GPU (CAIS, seed 002), or one decoder layer of MoE inference on a wafer-scale mesh "
      "(MoEntwine, seed 003)"));
  t.push_back(choice<CollectiveOp>("workload.collective.op", FIELD(workload.collective.op),
      {{"p2p", CollectiveOp::P2P}, {"all_reduce", CollectiveOp::AllReduce},
       {"reduce_scatter", CollectiveOp::ReduceScatter}, {"all_gather", CollectiveOp::AllGather},
       {"all_to_all", CollectiveOp::AllToAll}, {"all_to_all_v", CollectiveOp::AllToAllV}},
      "collective operation"));
  t.push_back(choice<CollectiveAlgorithm>("workload.collective.algorithm", FIELD(workload.collective.algorithm),
      {{"ring", CollectiveAlgorithm::Ring}, {"nvls", CollectiveAlgorithm::Nvls}, {"direct", CollectiveAlgorithm::Direct},
       {"cais", CollectiveAlgorithm::Cais}},
      "ring and nvls: all_reduce, reduce_scatter, all_gather (nvls on nvswitch only); direct: p2p, all_to_all(_v); "
      "cais: reduce_scatter (red.cais) and all_gather (ld.cais) merged in the switches (nvswitch only, seed 002)",
      "hardware.md: NVLS programming model"));
  t.push_back(quantity("workload.collective.size", Q::Bytes, FIELD(workload.collective.size), {1, 1e15},
                       "bytes per GPU, as nccl-tests' size", "hardware.md: Measured collective performance"));
  t.push_back(quantity("workload.collective.nvls_window", Q::Bytes, FIELD(workload.collective.nvls_window), {1, 1e15},
                       "nvls: ld_reduce bytes each GPU keeps in flight; each reduced piece is stored (multimem.st) as "
                       "it returns and the next piece is requested, so both link directions stay busy",
                       "NCCL's NVLS chunks (128 KiB, hardware.md: NVLS programming model) x 8 in flight; with it a "
                       "DGX-H100 all-reduce reaches busbw ~510 GB/s at large sizes (measured ~480, hardware.md)"));
  t.push_back(quantity("workload.collective.stagger", Q::Time, FIELD(workload.collective.stagger), kNonNegative,
                       "cais: GPUs N/2..N-1 start this much later than the others (a two-cohort drift that "
                       "fills the merge tables: specs/cais.md C8)"));
  t.push_back(integer("workload.collective.source", FIELD(workload.collective.source), {0, 1e9}, "p2p: sending endpoint"));
  t.push_back(integer("workload.collective.destination", FIELD(workload.collective.destination), {0, 1e9},
                      "p2p: receiving endpoint"));
  {
    ParamSpec p = base("workload.collective.matrix", "byte matrix", {},
                       "all_to_all_v: bytes from endpoint i (row) to endpoint j (column), N x N; [] = from skew", {});
    p.scalar = false;
    p.get = [](const Scenario& s) { return matrixText(s.workload.collective.matrix); };
    p.set = [](Scenario& s, const YAML::Node& n, const ValueSource& src) {
      s.workload.collective.matrix = readMatrix(n, "workload.collective.matrix", src);
    };
    t.push_back(p);
  }
  t.push_back(zeroMeans(real("workload.collective.skew", "float", FIELD(workload.collective.skew), {0, 100},
                             "all_to_all_v without a matrix: Zipf exponent of per-pair sizes (0 = uniform)"),
                        "uniform"));
  t.push_back(choice<TrafficPattern>("workload.traffic.pattern", FIELD(workload.traffic.pattern),
      {{"uniform", TrafficPattern::Uniform}, {"transpose", TrafficPattern::Transpose}, {"hotspot", TrafficPattern::Hotspot}},
      "destination pattern"));
  t.push_back(real("workload.traffic.load", "fraction", FIELD(workload.traffic.load), {0, 1, true},
                   "offered load, fraction of each endpoint's injection bandwidth"));
  t.push_back(quantity("workload.traffic.duration", Q::Time, FIELD(workload.traffic.duration), kPositive,
                       "packet generation window"));
  t.push_back(quantity("workload.traffic.warmup", Q::Time, FIELD(workload.traffic.warmup), kNonNegative,
                       "packets created before this are not measured; less than duration"));
  t.push_back(real("workload.traffic.hotspot_fraction", "fraction", FIELD(workload.traffic.hotspot_fraction), {0, 1},
                   "hotspot: share of packets sent to the hotspots"));
  {
    ParamSpec p = base("workload.traffic.hotspots", "list of ints", {0, 1e9}, "hotspot: endpoint indices", {});
    p.scalar = false;
    p.get = [](const Scenario& s) { return intListText(s.workload.traffic.hotspots); };
    p.set = [rules = p](Scenario& s, const YAML::Node& n, const ValueSource& src) {
      s.workload.traffic.hotspots = readIntList(n, rules.path, rules, src);
    };
    t.push_back(p);
  }

  // --- workload.moe
  {
    std::vector<std::string> models = {"custom"};
    for (const std::string& m : moeModelNames()) models.push_back(m);
    t.push_back(fillingPreset(
        "workload.moe.model", models,
        "moe_layer: model filling hidden, expert_ffn, experts, top_k and the dtypes; explicit keys override it; "
        "custom fills nothing",
        "see MoE models above", FIELD(workload.moe.model),
        [](const std::string& name, Scenario& s) { applyMoeModel(name, s.workload.moe); },
        {"workload.moe.hidden", "workload.moe.expert_ffn", "workload.moe.experts", "workload.moe.top_k",
         "workload.moe.dispatch_dtype", "workload.moe.combine_dtype"},
        "custom"));
  }
  t.push_back(integer("workload.moe.tokens_per_gpu", FIELD(workload.moe.tokens_per_gpu), {1, 100'000'000},
                      "moe_layer: tokens each GPU routes (its data-parallel batch)",
                      "hardware.md: DeepEP row (4096 tokens)"));
  t.push_back(integer("workload.moe.hidden", FIELD(workload.moe.hidden), {1, 1'000'000},
                      "moe_layer: hidden (embedding) size of a token", "hardware.md: MoE model configurations"));
  t.push_back(integer("workload.moe.expert_ffn", FIELD(workload.moe.expert_ffn), {1, 1'000'000},
                      "moe_layer: intermediate size of one expert", "hardware.md: MoE model configurations"));
  t.push_back(integer("workload.moe.experts", FIELD(workload.moe.experts), {1, 65'536},
                      "moe_layer: routed experts E (16-bit expert ids, seed 000 §III-B)",
                      "hardware.md: MoE model configurations"));
  t.push_back(integer("workload.moe.top_k", FIELD(workload.moe.top_k), {1, 1024},
                      "moe_layer: experts per token k, at most experts", "hardware.md: MoE model configurations"));
  t.push_back(choice<Dtype>("workload.moe.dispatch_dtype", FIELD(workload.moe.dispatch_dtype), kWireDtypes,
                            "moe_layer: element type of dispatched tokens and of the expert GEMMs (fp32 computes on "
                            "CUDA cores; tf32 is FP32 data, 4 bytes, on TF32 tensor cores)",
                            "hardware.md: DeepEP row (FP8 dispatch)"));
  t.push_back(choice<Dtype>("workload.moe.combine_dtype", FIELD(workload.moe.combine_dtype), kWireDtypes,
                            "moe_layer: element type of expert outputs sent back and reduced",
                            "hardware.md: DeepEP row (BF16 combine)"));
  t.push_back(placementParam());
  t.push_back(choice<RoutingDistribution>("workload.moe.routing.distribution", FIELD(workload.moe.routing.distribution),
      {{"uniform", RoutingDistribution::Uniform}, {"normal", RoutingDistribution::Normal},
       {"power_law", RoutingDistribution::PowerLaw}, {"trace", RoutingDistribution::Trace}},
      "moe_layer: how tokens pick their k distinct experts: uniformly, by expert popularity drawn from a normal "
      "or power law, or from a recorded trace",
      "seed 000 §V-B (training: normal, sigma 0.032), §VI-C3 (inference: power law)"));
  t.push_back(real("workload.moe.routing.sigma", "float", FIELD(workload.moe.routing.sigma), {0, 1, true},
                   "normal: standard deviation of per-expert load shares around 1/E (clipped at 0, renormalised)",
                   "seed 000 §V-B (0.032; §VI-C3 sweeps 0.01-0.05)"));
  t.push_back(real("workload.moe.routing.alpha", "float", FIELD(workload.moe.routing.alpha), {0, 100, true},
                   "power_law: exponent of expert popularity, share of the r-th most popular expert ~ r^-alpha "
                   "(0.5 to 2.5)", "seed 000 §VI-C3"));
  t.push_back(traceParam());

  // --- workload.tp (seed 002 §IV-B)
  {
    t.push_back(fillingPreset(
        "workload.tp.model", [] {
          std::vector<std::string> m = {"custom"};
          for (const std::string& n : tp::tpModelNames()) m.push_back(n);
          return m;
        }(),
        "tp_layer: model filling hidden, ffn_hidden, heads, seq_len, batch and gpu.sms; explicit keys override it; "
        "custom fills nothing",
        "seed 002 Table I (already half-scale, 66 SMs) and Table II (full 132 / half 66 SMs)", FIELD(workload.tp.model),
        [](const std::string& name, Scenario& s) { tp::applyTpModel(name, s.workload.tp, s.gpu); },
        {"workload.tp.hidden", "workload.tp.ffn_hidden", "workload.tp.heads", "workload.tp.seq_len",
         "workload.tp.batch", "gpu.sms"},
        "custom"));
  }
  t.push_back(integer("workload.tp.hidden", FIELD(workload.tp.hidden), {1, 1'000'000},
                      "tp_layer: hidden size h (a multiple of gpu.tile_n and of the GPU count)", "seed 002 Table I"));
  t.push_back(integer("workload.tp.ffn_hidden", FIELD(workload.tp.ffn_hidden), {1, 10'000'000},
                      "tp_layer: FFN size f (2-GEMM GELU FFN; f/N a multiple of gpu.tile_n)", "seed 002 Table I"));
  t.push_back(integer("workload.tp.heads", FIELD(workload.tp.heads), {1, 100'000},
                      "tp_layer: attention heads, split over the GPUs (a multiple of the GPU count)", "seed 002 Table I"));
  t.push_back(integer("workload.tp.seq_len", FIELD(workload.tp.seq_len), {1, 10'000'000},
                      "tp_layer: sequence length s", "seed 002 Table I"));
  t.push_back(integer("workload.tp.batch", FIELD(workload.tp.batch), {1, 1'000'000},
                      "tp_layer: batch b; T = s x b tokens, T/N rows per GPU a multiple of gpu.tile_m",
                      "seed 002 Table I"));
  t.push_back(choice<TpPhase>("workload.tp.phase", FIELD(workload.tp.phase),
      {{"inference", TpPhase::Inference}, {"training", TpPhase::Training}},
      "tp_layer: inference = prefill forward only; training = forward and backward", "seed 002 §IV-B"));
  t.push_back(integer("workload.tp.layers", FIELD(workload.tp.layers), {1, 1000},
                      "tp_layer: identical layers run back to back",
                      "our choice (specs/cais.md §1.2): 2, so that L2 (FFN2 -> next layer's QKV) exists"));
  t.push_back(quantity("workload.tp.kernel_offset", Q::Time, FIELD(workload.tp.kernel_offset), kNonNegative,
                       "tp_layer drift: mean of the exponential delay of each kernel launch on each GPU (host "
                       "launch jitter), every scheme alike",
                       "our choice (specs/cais.md §2.8), calibrated so cais_base on LLaMA-7B shows seed 002 §V-B1's "
                       "~35 us mean arrival skew"));
  t.push_back(real("workload.tp.tb_noise_cv", "fraction", FIELD(workload.tp.tb_noise_cv), {0, 10},
                   "tp_layer drift: coefficient of variation of each thread block's time (lognormal, mean 1)",
                   "our choice (specs/cais.md §2.8), calibrated with workload.tp.kernel_offset"));
  t.push_back(real("workload.tp.rs_sm_fraction", "fraction", FIELD(workload.tp.rs_sm_fraction), {0, 1},
                   "cais_partial/cais: share of the SMs running GEMM-RS while GEMM-RS and AG-GEMM both have "
                   "ready thread blocks (work-conserving); 0 = FLOP-proportional F_RS / (F_RS + F_AG)",
                   "our choice (specs/cais.md §2.10): the paper gives no split rule"));
  t.push_back(integer("workload.tp.throttle_on", FIELD(workload.tp.throttle_on), {1, 1'000'000},
                      "cais_coord+: a sync switch throttles a GPU (one-flit THROTTLE-on) once this many of its "
                      "groups wait there for the rest of their members",
                      "our choice: specs/cais.md §2.7 suggests L_on = 64 live sessions per GPU; we count groups "
                      "waiting at one of the 4 sync switches, each holding an SM (66 SMs / 4 = 16)"));
  t.push_back(integer("workload.tp.throttle_off", FIELD(workload.tp.throttle_off), {0, 1'000'000},
                      "cais_coord+: THROTTLE-off once the GPU's waiting groups fall to this many",
                      "our choice: half of throttle_on (specs/cais.md §2.7: L_off = L_on / 2)"));
  t.push_back(choice<TpRowOrder>("workload.tp.row_order", FIELD(workload.tp.row_order),
      {{"m_major", TpRowOrder::MMajor}, {"home_interleaved", TpRowOrder::HomeInterleaved}},
      "cais_*: order of the GEMM-RS and AG-GEMM output tiles, the same on every GPU (TB groups, seed 002 §III-B1); "
      "m_major = row by row, so every GPU pushes to and loads from one home at a time; home_interleaved = "
      "tile k goes to home k mod N (the homes' tiles m-major in turn), so every wave spreads over all N homes",
      "our choice: the paper gives no order (specs/cais.md §2.7 assumes m-major); real GEMM schedulers swizzle "
      "their tiles, and m-major puts all requests on one home's 4 of 32 switch ports; a per-GPU rotation "
      "(start at the own shard) would make addresses GPU-dependent and defeat merging"));
  t.push_back(quantity("workload.tp.load_in_flight", Q::Bytes, FIELD(workload.tp.load_in_flight), kPositive,
                       "cais_*: ld.cais bytes the thread block loading a remote row block keeps unanswered (its "
                       "pipeline buffers); concurrent loading blocks' requests interleave",
                       "our choice: 4 pipeline stages x a 128 x 64 BF16 A slice (16 KiB; specs/cais.md §1.1's "
                       "128 x 128 tiles, K-step 64)"));

  // --- scheme
  t.push_back(choice<MoeCommunication>("scheme.communication", FIELD(scheme.communication),
      {{"deepep", MoeCommunication::DeepEp}, {"nvls_static", MoeCommunication::NvlsStatic},
       {"dysharp", MoeCommunication::DySharp}, {"explicit", MoeCommunication::Explicit}},
      "moe_layer: deepep = one unicast copy per destination GPU, no in-switch computing; nvls_static = dispatch "
      "as NVLS AllGather and combine as ReduceScatter (useless traffic); dysharp = dynamic multimem addressing "
      "(one packet with a target expert list, switch replicates and reduces); explicit = every destination "
      "encoded in the packet (nvls_static and dysharp need an nvswitch topology)",
      "seed 000 §V-C baselines, §II-C, §III"));
  t.push_back(choice<MoeFusion>("scheme.fusion", FIELD(scheme.fusion),
      {{"sequential", MoeFusion::Sequential}, {"comm_only", MoeFusion::CommOnly}, {"overlap", MoeFusion::Overlap},
       {"token_centric", MoeFusion::TokenCentric}, {"persistent", MoeFusion::Persistent}},
      "moe_layer: sequential = dispatch, GEMM-1, GEMM-2, combine as kernels with a barrier between; comm_only = "
      "dispatch and combine concurrently without computation; overlap = COMET: dispatch overlapped with GEMM-1 "
      "and GEMM-2 with combine at tile granularity, two kernels; token_centric = DySHARP: one pipeline on SM "
      "groups gated by the token tracker, dispatch and combine concurrent; persistent = FlashDMoE: one kernel "
      "whose processors run GEMM-1, GEMM-2 and combine tile tasks as they become ready",
      "seed 000 §VI-B1 (pure communication), §IV, §VI-A3; seed 001 §4"));
  t.push_back(zeroMeans(integer("scheme.dysharp.al_tlb_entries", FIELD(scheme.al_tlb_entries), {0, 1'000'000},
                                "dysharp: AL TLB entries in each destination GPU's hub (0: every lookup reads the "
                                "AL Table)",
                                "seed 000 §V-A (512 entries); §VI-C2 sweeps 64-1024"),
                        "no TLB"));
  t.push_back(quantity("scheme.dysharp.al_table_latency", Q::Time, FIELD(scheme.al_table_latency), kNonNegative,
                       "dysharp: extra delay of a combine read whose AL TLB lookup misses (AL Table access in DRAM)",
                       "unconfirmed: one DRAM access, ~300 ns; the seed gives no figure"));

  t.push_back(integer("scheme.dysharp.ld_reduce_in_flight", FIELD(scheme.ld_reduce_in_flight), {1, 100'000},
                      "in-switch combine in token pipelines: tokens whose dymultimem.ld_reduce may be in flight per "
                      "combine SM (the LSU's MultimemQ); bounds the reduction-buffer entries a GPU opens at once",
                      "unconfirmed: seed 000 §V-A gives a 32-entry MultimemQ; 4 tokens (56 KiB of BF16 outputs) per SM "
                      "keeps 64 KiB-per-port reduction buffers from thrashing"));
  t.push_back(zeroMeans(
      integer("scheme.dysharp.st_in_flight", FIELD(scheme.st_in_flight), {0, 100'000},
              "dysharp dispatch in token pipelines: tokens per dispatch SM whose dymultimem.st may await "
              "the destinations' acknowledgements (the LSU's MultimemQ); paces Dispatch end to end so "
              "switch queues stay short for Combine; 0 = no limit (credits only)",
              "unconfirmed: seed 000 §V-A gives a 32-entry MultimemQ and acknowledged stores (§IV-B2); "
              "4 tokens (28 KiB of FP8 tokens) per SM, as for ld_reduce_in_flight"),
      "no limit"));
  t.push_back(choice<TpScheme>("scheme.tp", FIELD(scheme.tp),
      {{"tp_nvls", TpScheme::TpNvls}, {"sp_nvls", TpScheme::SpNvls}, {"cais_base", TpScheme::CaisBase},
       {"cais_coord", TpScheme::CaisCoord}, {"cais_partial", TpScheme::CaisPartial}, {"cais", TpScheme::Cais}},
      "tp_layer: tp_nvls = all-reduce as a separate NVLS kernel (ld_reduce then multimem.st) between GEMM kernels, "
      "barriers around it; sp_nvls = reduce-scatter, LN on T/N rows, all-gather, each its own kernel; cais_base = "
      "GEMM thread blocks push red.cais and load ld.cais, merged in the switches, kernel-level dependencies; "
      "cais_coord = plus TB-group pre-launch and pre-access sync in the switches and throttling; cais_partial = plus "
      "graph-level dataflow and asymmetric GEMM-RS / AG-GEMM overlap; cais = plus traffic control (separate VCs "
      "for loads and reductions)",
      "seed 002 §IV-C, §V-A1"));
  t.push_back(integer("scheme.comm_sms", FIELD(scheme.comm_sms), {1, 100'000},
                      "sequential, overlap: SMs the dispatch and combine kernels occupy (the rest idle meanwhile)",
                      "deepseek-ai/DeepEP Buffer.num_sms default (20)"));
  t.push_back(fillingPreset(
      "scheme.launch.baseline", launchBaselineNames(),
      "kernel launches per layer of a published system (seed 001 Table 1.1), filling scheme.launch.kernels; "
      "custom fills nothing", "seed 001 Table 1.1 (Nsight Systems counts)", FIELD(scheme.launch.baseline),
      [](const std::string& name, Scenario& s) { s.scheme.launch.kernels = launchBaselineKernels(name); },
      {"scheme.launch.kernels"}, "custom"));
  t.push_back(zeroMeans(integer("scheme.launch.kernels", FIELD(scheme.launch.kernels), {0, 100'000},
                                "kernels the host launches per layer pass for the multi-kernel schemes (sequential, "
                                "overlap); 0 = the scheme's own (sequential 4, overlap 2); token_centric, persistent "
                                "and comm_only are one kernel and ignore it",
                                "seed 001 Table 1.1"),
                        "the scheme's own"));
  t.push_back(quantity("scheme.launch.overhead", Q::Time, FIELD(scheme.launch.overhead), kNonNegative,
                       "host time to launch one kernel; launches are issued one after another",
                       "unconfirmed: ~5 us per cudaLaunchKernel, the commonly measured order"));
  t.push_back(integer("scheme.token_centric.dispatch_sms", FIELD(scheme.token_centric.dispatch_sms), {0, 100'000},
                      "token_centric: SMs of the Dispatch group; the four groups sum to gpu.sms, or all are 0 "
                      "(automatic: comm_sms / 2 each for Dispatch and Combine, the rest split by GEMM FLOPs)",
                      "seed 000 §IV-C1"));
  t.push_back(integer("scheme.token_centric.gemm1_sms", FIELD(scheme.token_centric.gemm1_sms), {0, 100'000},
                      "token_centric: SMs of the GEMM-1 group (shared with GEMM-2 when one has no ready TB)",
                      "seed 000 §IV-C1"));
  t.push_back(integer("scheme.token_centric.gemm2_sms", FIELD(scheme.token_centric.gemm2_sms), {0, 100'000},
                      "token_centric: SMs of the GEMM-2 group", "seed 000 §IV-C1"));
  t.push_back(integer("scheme.token_centric.combine_sms", FIELD(scheme.token_centric.combine_sms), {0, 100'000},
                      "token_centric: SMs of the Combine group", "seed 000 §IV-C1"));
  t.push_back(integer("scheme.token_centric.tile_tokens", FIELD(scheme.token_centric.tile_tokens), {1, 65'536},
                      "overlap, token_centric, persistent: tokens per readiness tile (a GEMM TB row)",
                      "seed 000 §IV-B (128)"));
  t.push_back(integer("scheme.token_centric.ts_table_entries", FIELD(scheme.token_centric.ts_table_entries),
                      {0, 100'000'000}, "token_centric: Tile Status table entries on chip; more live tiles spill to DRAM",
                      "seed 000 §V-A (1024)"));
  t.push_back(integer("scheme.token_centric.or_table_entries", FIELD(scheme.token_centric.or_table_entries),
                      {0, 100'000'000},
                      "token_centric: Output Readiness table entries on chip; more waiting tokens spill to DRAM",
                      "seed 000 §V-A (1024)"));
  t.push_back(quantity("scheme.token_centric.overflow_latency", Q::Time, FIELD(scheme.token_centric.overflow_latency),
                       kNonNegative, "token_centric: extra time of a tracker update or readiness poll spilled to DRAM",
                       "unconfirmed: one DRAM round trip, ~500 ns"));
  t.push_back(boolean("scheme.persistent.payload_efficient", FIELD(scheme.persistent.payload_efficient),
                      "persistent: send only the selected tokens (in-place padding); false pads every expert's "
                      "send to its capacity", "seed 001 §5.4"));
  t.push_back(real("scheme.persistent.capacity_factor", "float", FIELD(scheme.persistent.capacity_factor), {0, 1000, true},
                   "persistent: expert capacity = factor x tokens / experts, rounded up to the tile rows (padded sends, "
                   "memory model)", "seed 001 §6.1 (1.0), Table 6.2 (EC = tokens / experts)"));
  t.push_back(integer("scheme.persistent.task_n", FIELD(scheme.persistent.task_n), {1, 4096},
                      "persistent: columns of a processor's tile task (rows: gpu.tile's bM)", "seed 001 §4.3 (128 x 64)"));
  const std::vector<std::pair<std::string, NoiseDistribution>> noise = {
      {"none", NoiseDistribution::None}, {"exponential", NoiseDistribution::Exponential},
      {"lognormal", NoiseDistribution::Lognormal}};
  t.push_back(choice<NoiseDistribution>("scheme.stragglers.start_jitter_distribution",
      FIELD(scheme.stragglers.start_jitter_distribution), noise,
      "distribution of each kernel start's extra delay on each GPU (lognormal: sigma 1, same mean)", "seed 001 §3.1"));
  t.push_back(quantity("scheme.stragglers.start_jitter", Q::Time, FIELD(scheme.stragglers.start_jitter), kNonNegative,
                       "mean kernel-start jitter", "seed 001 Fig. 3.1 (delays of tens of us)"));
  t.push_back(choice<NoiseDistribution>("scheme.stragglers.task_noise_distribution",
      FIELD(scheme.stragglers.task_noise_distribution), noise,
      "distribution of each task's relative extra duration (lognormal: sigma 1, same mean)", "seed 001 §3.1"));
  t.push_back(real("scheme.stragglers.task_noise", "fraction", FIELD(scheme.stragglers.task_noise), {0, 10},
                   "mean relative extra duration of a task (0.1 = 10 % longer on average)"));
  t.push_back(integer("scheme.stragglers.steps", FIELD(scheme.stragglers.steps), {1, 4096},
                      "layer passes run back to back; straggler delay P95 is taken over them", "seed 001 Fig. 3.1"));

  // --- run
  {
    ParamSpec p = base("run.seed", "int", {0, {}}, "random seed; a run is a pure function of scenario and seed", {});
    p.get = [](const Scenario& s) { return std::to_string(s.run.seed); };
    p.set = [rules = p](Scenario& s, const YAML::Node& n, const ValueSource& src) {
      s.run.seed = readUnsigned(n, rules.path, rules, src);
    };
    t.push_back(p);
  }
  t.push_back(quantity("run.bin", Q::Time, FIELD(run.bin), kPositive, "width of recorded time bins"));
  t.push_back(integer("run.threads", FIELD(run.threads), {1, 1024}, "worker threads; results never depend on it"));
  t.push_back(zeroMeans(
      integer("run.partitions", FIELD(run.partitions), {0, 1'000'000}, "engine partitions; 0 = automatic"),
      "automatic"));
  t.push_back(quantity("run.time_limit", Q::Time, FIELD(run.time_limit), kPositive, "simulated-time safety stop"));
  t.push_back(zeroMeans(
      quantity("run.memory_limit", Q::Bytes, FIELD(run.memory_limit), {0, 1ll << 50},
               "memory a run may use: a run whose estimated peak exceeds it is refused, one that outgrows it "
               "is stopped; sweep points run at once share it",
               "0: 75 % of physical memory (sysconf _SC_PHYS_PAGES; a margin for the OS and other programs)"),
      "75 % of physical memory"));
  t.push_back(zeroMeans(integer("run.jobs", FIELD(run.jobs), {0, 1024},
                                "sweep points run at once (each point's results never depend on it)",
                                "0: one per core (std::thread::hardware_concurrency), fewer when memory or "
                                "run.threads demand"),
                        "one per core"));
  {
    ParamSpec p = text("run.follow", FIELD(run.follow),
                       std::string("packets whose hops are recorded and written out (Follow One): ") + kFollowGrammar +
                           "; or a list of them (YAML list, or ';' between them), each drawn in its own colour",
                       true);
    p.source = "none: recording costs nothing; a chosen piece is a few hops per node (results/packet_follow.h)";
    p.set = [set = p.set, path = p.path](Scenario& s, const YAML::Node& n, const ValueSource& src) {
      FollowProblem problem;
      std::size_t at = 0;
      if (n.IsSequence()) {  // a list of selectors: held as one text, ';' between them
        if (n.size() == 0 || n.size() > kMaxFollowSelectors)
          throw InputError(src.at(n), path, "a list of 1 to " + std::to_string(kMaxFollowSelectors) + " selectors",
                           std::to_string(n.size()) + " entries");
        std::vector<std::string> texts;
        for (std::size_t i = 0; i < n.size(); ++i) {
          const std::string item = path + "[" + std::to_string(i) + "]";
          texts.push_back(scalarText(n[i], item, src, "a selector, e.g. 'gpu 0, token 3'"));
          if (texts.back().find(';') != std::string::npos)
            throw InputError(src.at(n[i]), item, "one selector per list entry", "'" + texts.back() + "'",
                             "give each selector its own entry");
          if (!parseFollowSelectors(texts.back(), &problem))
            throw InputError(src.at(n[i]), item, problem.expected, problem.found,
                             n.Style() == YAML::EmitterStyle::Flow
                                 ? "in [a, b] commas part the entries: quote each selector ('gpu 0, token 3')"
                                 : problem.hint);
        }
        s.run.follow = joinFollowList(texts);
        if (!parseFollowSelectors(s.run.follow, &problem, &at))  // 'none' in a list
          throw InputError(src.at(n[std::min(at, n.size() - 1)]), path + "[" + std::to_string(at) + "]",
                           problem.expected, problem.found, problem.hint);
        return;
      }
      set(s, n, src);
      if (!parseFollowSelectors(s.run.follow, &problem))
        throw InputError(src.at(n), path, problem.expected, problem.found, problem.hint);
    };
    t.push_back(p);
  }
}

}  // namespace fl::schema_build
