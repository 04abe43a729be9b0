// The schema rows of wafer-scale MoE inference (seed 003, MoEntwine): network.model,
// workload.wsc.* and mapping.*, appended after the run keys (saving groups keys by path,
// so their place in the table only orders the docs).
#include <yaml-cpp/yaml.h>

#include "moe/routing_trace.h"
#include "scenario/schema_builders.h"
#include "wsc/wsc_models.h"

namespace fl::schema_build {
namespace {

std::string dieListsText(const std::vector<std::vector<std::int64_t>>& lists) {
  std::string out = "[";
  for (std::size_t i = 0; i < lists.size(); ++i) {
    out += i ? ", [" : "[";
    for (std::size_t k = 0; k < lists[i].size(); ++k) out += (k ? ", " : "") + std::to_string(lists[i][k]);
    out += "]";
  }
  return out + "]";
}

// mapping.groups / mapping.ftds: a list of die lists, or the same as text (--set, saved files).
std::vector<std::vector<std::int64_t>> readDieLists(const YAML::Node& n, const ParamSpec& rules,
                                                   const ValueSource& src) {
  const std::string expected = "a list of die-id lists such as [[0, 1, 5, 4], [2, 3, 7, 6]]";
  if (!n.IsSequence()) {
    const std::string text = scalarText(n, rules.path, src, expected);
    YAML::Node list;
    try {
      list = YAML::Load(text);
    } catch (const YAML::Exception& e) {
      throw InputError(src.at(n), rules.path, expected, "'" + text + "'", e.msg);
    }
    if (!list.IsSequence()) throw InputError(src.at(n), rules.path, expected, "'" + text + "'");
    ValueSource inner = src;
    inner.fallback = src.at(n), inner.useMarks = false;
    return readDieLists(list, rules, inner);
  }
  std::vector<std::vector<std::int64_t>> out;
  for (std::size_t i = 0; i < n.size(); ++i) {
    std::vector<std::int64_t> row;
    for (int d : readIntList(n[i], rules.path + "[" + std::to_string(i) + "]", rules, src)) row.push_back(d);
    out.push_back(std::move(row));
  }
  return out;
}

ParamSpec dieListsParam(std::string path, std::vector<std::vector<std::int64_t>> MappingSpec::*field, std::string doc,
                        std::string source) {
  ParamSpec p = base(std::move(path), "die lists", {0, 1'000'000}, std::move(doc), std::move(source));
  p.scalar = false;
  p.get = [field](const Scenario& s) { return dieListsText(s.mapping.*field); };
  p.set = [field, rules = p](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    s.mapping.*field = readDieLists(n, rules, src);
  };
  return p;
}

}  // namespace

void addWscKeys(std::vector<ParamSpec>& t) {
  const std::string spec = "shared/specs/moentwine.md ";
  t.push_back(choice<NetworkModel>("network.model", FIELD(network.model),
      {{"packet", NetworkModel::Packet}, {"analytical", NetworkModel::Analytical}, {"flow", NetworkModel::Flow},
       {"auto", NetworkModel::Auto}},
      "how a workload's messages are carried: packet (flits, credits, contention) or analytical (seed 003's Eq. 1: "
      "hops x (bytes / bandwidth + latency), store-and-forward, no contention; wsc_inference only) or flow (max-min "
      "fair fluid flows, recomputed when a flow starts or ends; cross_dc_moe only); auto = packet, except for a "
      "cross_dc_moe iteration of more than 1,000,000 simulated packets (bytes on the wire / "
      "network.packet_payload), which runs on flow. All give the same per-link bytes",
      spec + "§2.6; seed 004 §V-G (SimAI's flow level at 1000 DCs)"));
  {
    std::vector<std::string> filled = {"workload.wsc.hidden", "workload.wsc.expert_ffn", "workload.wsc.experts",
                                       "workload.wsc.top_k", "workload.wsc.moe_layers",
                                       "workload.wsc.attention_params", "workload.wsc.kv_bytes_per_token"};
    t.push_back(fillingPreset(
        "workload.wsc.model", wscModelNames(),
        "wsc_inference: model filling hidden, expert_ffn, experts, top_k and moe_layers (seed 003 Table I; H and F from the "
        "models' config files); custom keeps them",
        spec + "§1.3", FIELD(workload.wsc.model),
        [](const std::string& name, Scenario& s) { applyWscModel(name, s.workload.wsc); }, filled, "custom"));
  }
  t.push_back(integer("workload.wsc.hidden", FIELD(workload.wsc.hidden), {1, 1'000'000},
                      "wsc_inference: hidden size H (FP16 on the wire: 2H bytes per token)", spec + "§1.3"));
  t.push_back(integer("workload.wsc.expert_ffn", FIELD(workload.wsc.expert_ffn), {1, 1'000'000},
                      "wsc_inference: expert FFN size F (an expert is 3 H F bytes at INT8)", spec + "§1.3"));
  t.push_back(integer("workload.wsc.experts", FIELD(workload.wsc.experts), {1, 65536},
                      "wsc_inference: routed experts E, placed on dies by workload.wsc.expert_placement", spec + "§1.2"));
  t.push_back(integer("workload.wsc.top_k", FIELD(workload.wsc.top_k), {1, 1024},
                      "wsc_inference: experts per token k", spec + "§1.3"));
  t.push_back(integer("workload.wsc.moe_layers", FIELD(workload.wsc.moe_layers), {1, 10000},
                      "wsc_inference: MoE layers per iteration; one layer is simulated, NI-Balancer's copies may use "
                      "the phases of all of them", "seed 003 Table I (58 / 94 / 59 / 40 / 56)"));
  t.push_back(integer("workload.wsc.tp", FIELD(workload.wsc.tp), {1, 65536},
                      "wsc_inference: TP degree t of attention (dies per TP group); DP = dies / t", spec + "§2.1"));
  t.push_back(integer("workload.wsc.tokens_per_group", FIELD(workload.wsc.tokens_per_group), {1, 1'000'000},
                      "wsc_inference: tokens T per TP group per layer pass", "seed 003 §VI-B1 (256)"));
  t.push_back(choice<WscStage>("workload.wsc.stage", FIELD(workload.wsc.stage),
      {{"prefill", WscStage::Prefill}, {"decode", WscStage::Decode}, {"hybrid", WscStage::Hybrid}},
      "wsc_inference: inference stage, which sets the attention compute before the all-reduce (wsc/attention.h): "
      "prefill (T prompt tokens, each attending to context / 2 earlier ones on average), decode (T sequences, one "
      "new token each, reading context tokens of KV cache), hybrid (prefill_share of T as prefill, the rest decode); "
      "the all-to-all and expert compute do not change (the paper fixes T 'without distinguishing stages')",
      "seed 003 §VI-B1, §VI-C2 [R]"));
  t.push_back(integer("workload.wsc.attention_params", FIELD(workload.wsc.attention_params), {0, 2'000'000'000},
                      "wsc_inference: attention weights per layer (q, k, v, o projections), FP16, split over the TP "
                      "group; set by workload.wsc.model", "the models' config files (wsc/wsc_models.cpp) [R]"));
  t.push_back(quantity("workload.wsc.kv_bytes_per_token", QuantityKind::Bytes, FIELD(workload.wsc.kv_bytes_per_token),
                       {0, 1 << 30}, "wsc_inference: KV cache per token per layer (FP16); set by workload.wsc.model",
                       "the models' config files (wsc/wsc_models.cpp) [R]"));
  t.push_back(integer("workload.wsc.context", FIELD(workload.wsc.context), {0, 10'000'000},
                      "wsc_inference: sequence context in tokens: the prompt length in prefill, the KV cache each "
                      "decode token reads", spec + "§2.1 [U] (2048)"));
  t.push_back(real("workload.wsc.prefill_share", "fraction", FIELD(workload.wsc.prefill_share), {0, 1},
                   "wsc_inference, hybrid: share of the T tokens per group that are prefill tokens (chunked "
                   "prefill batched with decode)", spec + "§2.1 [U] (0.5)"));
  t.push_back(boolean("workload.wsc.all_gather", FIELD(workload.wsc.all_gather),
                      "wsc_inference: all-reduce as RS + AG (true) or RS only (false: each die keeps T/t tokens "
                      "and the Full Token Domain is the whole mesh)", spec + "§2.1, §3.6 (seed 003 §IV-A, §VI-B6)"));
  t.push_back(choice<WscGating>("workload.wsc.gating", FIELD(workload.wsc.gating),
      {{"uniform_exact", WscGating::UniformExact}, {"uniform", WscGating::Uniform}, {"zipf", WscGating::Zipf},
       {"trace", WscGating::Trace}},
      "wsc_inference: expert choice: uniform_exact (every expert exactly T k / E picks per group), uniform or zipf "
      "(seeded samples), trace (per-expert token shares from workload.wsc.trace)", spec + "§1.2"));
  t.push_back(real("workload.wsc.zipf_s", "float", FIELD(workload.wsc.zipf_s), {0, 100},
                   "wsc_inference, zipf: exponent s over a seeded permutation of the experts", spec + "§2.10"));
  {
    ParamSpec p = base("workload.wsc.trace", "path", {},
                       "wsc_inference, trace: CSV 'iteration,layer,expert,tokens', relative to the scenario file; "
                       "iteration i uses the shares of layer 0 in row group i", spec + "§2.10");
    p.get = [](const Scenario& s) { return s.workload.wsc.trace; };
    p.set = [path = p.path](Scenario& s, const YAML::Node& n, const ValueSource& src) {
      s.workload.wsc.trace = resolveTracePath(scalarText(n, path, src, "a file path"), src.file);
    };
    t.push_back(p);
  }
  t.push_back(integer("workload.wsc.iterations", FIELD(workload.wsc.iterations), {1, 100000},
                      "wsc_inference: layer passes run one after another (gating sampled per iteration)"));
  t.push_back(integer("workload.wsc.micro_batches", FIELD(workload.wsc.micro_batches), {1, 1024},
                      "wsc_inference: micro-batches per pass; all-to-all of one overlaps expert compute of another",
                      spec + "§2.1 step 9"));
  t.push_back(real("workload.wsc.hot_threshold", "fraction", FIELD(workload.wsc.hot_threshold), {0, 1, true},
                   "wsc_inference: a link is hot in a phase at utilisation >= this, idle at 0, cold otherwise",
                   spec + "§2.7 (θ = 0.9)"));
  t.push_back(choice<WscHotThreshold>("workload.wsc.hot_threshold_kind", FIELD(workload.wsc.hot_threshold_kind),
      {{"absolute", WscHotThreshold::Absolute}, {"relative", WscHotThreshold::Relative}},
      "wsc_inference: absolute (hot_threshold is a utilisation) or relative (a fraction of the busiest "
      "die-to-die link's utilisation in the same phase: seed 003 §V-A calls hot the links busy throughout a "
      "phase, whatever its latency gaps)",
      spec + "§2.7; seed 003 §V-A, Fig. 11(a)-(c) [R]"));
  t.push_back(choice<WscExpertPlacement>("workload.wsc.expert_placement", FIELD(workload.wsc.expert_placement),
      {{"modulo", WscExpertPlacement::Modulo}, {"explicit", WscExpertPlacement::Explicit}},
      "wsc_inference: the die holding each routed expert's weights: modulo (expert e on die e mod N) or explicit "
      "(workload.wsc.expert_dies; the mapping editor writes it when an expert is dragged to another die)",
      spec + "§1.2 [R]"));
  {
    ParamSpec p = base("workload.wsc.expert_dies", "die list", {0, 9'999'999},
                       "wsc_inference, explicit: the die of every expert, entry e for expert e (die id = row x "
                       "columns + column over the whole system); each die holds at most workload.wsc.expert_slots",
                       spec + "§1.2");
    p.scalar = false;
    p.get = [](const Scenario& s) { return intListText(s.workload.wsc.expert_dies); };
    p.set = [rules = p](Scenario& s, const YAML::Node& n, const ValueSource& src) {
      if (n.IsSequence()) {
        s.workload.wsc.expert_dies = readIntList(n, rules.path, rules, src);
        return;
      }
      const std::string text = scalarText(n, rules.path, src, "a list of die ids such as [0, 1, 1, 3]");
      YAML::Node list;  // a list arriving as text (--set, the GUI, a saved file)
      try {
        list = YAML::Load(text);
      } catch (const YAML::Exception& e) {
        throw InputError(src.at(n), rules.path, "a list of die ids such as [0, 1, 1, 3]", "'" + text + "'", e.msg);
      }
      if (!list.IsSequence())
        throw InputError(src.at(n), rules.path, "a list of die ids such as [0, 1, 1, 3]", "'" + text + "'");
      ValueSource inner = src;
      inner.fallback = src.at(n), inner.useMarks = false;
      s.workload.wsc.expert_dies = readIntList(list, rules.path, rules, inner);
    };
    t.push_back(p);
  }
  t.push_back(zeroMeans(integer("workload.wsc.expert_slots", FIELD(workload.wsc.expert_slots), {0, 65536},
                                "wsc_inference: routed experts a die can hold (its native placement; a balancer's "
                                "replicas use balancer.shadow_slots)", spec + "§1.2 [U]"),
                        "ceil(experts / dies) + 1: the modulo placement's most plus one spare slot for a move by "
                        "hand (our choice)"));
  t.push_back(choice<MappingKind>("mapping.kind", FIELD(mapping.kind),
      {{"baseline", MappingKind::Baseline}, {"er", MappingKind::Er}, {"her", MappingKind::Her},
       {"explicit", MappingKind::Explicit}},
      "mesh: TP groups and Full Token Domains: baseline (contiguous TP tiles), er (Entwined Ring: contiguous FTD "
      "tiles, strided TP rings), her (multi-wafer: ER per wafer, all-gather among counterpart dies, all-to-all on "
      "each wafer), explicit (mapping.groups)", spec + "§2.3-2.5, §2.8"));
  t.push_back(dieListsParam("mapping.groups", &MappingSpec::groups,
                            "mesh, explicit: TP groups as die-id lists in ring order (id = row x columns + column "
                            "over the whole system); every die in exactly one group of workload.wsc.tp dies",
                            spec + "§2.2"));
  t.push_back(dieListsParam("mapping.ftds", &MappingSpec::ftds,
                            "mesh, explicit: optional Full Token Domains, each holding one die of every group; [] = "
                            "the k-th ring member of every group",
                            spec + "§2.2"));
  // --- balancer
  t.push_back(choice<BalancerKind>("balancer.kind", FIELD(balancer.kind),
      {{"none", BalancerKind::None}, {"greedy", BalancerKind::Greedy}, {"topology_aware", BalancerKind::TopologyAware},
       {"non_invasive", BalancerKind::NonInvasive}},
      "wsc_inference: expert replication across iterations: greedy (EPLB as the paper describes it: hottest expert "
      "to the coldest die, invasive), topology_aware (Algorithm 1: relieve the hottest die to its nearest fitting "
      "die, invasive), non_invasive (NI-Balancer: Algorithm 1's choices copied in Local stages during the "
      "all-reduce and Global stages during the all-to-all, never stalling)", spec + "§2.9-2.11 (seed 003 §V)"));
  t.push_back(choice<BalancerLoad>("balancer.load", FIELD(balancer.load),
      {{"gating", BalancerLoad::Gating}, {"single", BalancerLoad::Single}, {"mixed", BalancerLoad::Mixed}},
      "wsc_inference: expert loads per iteration: from workload.wsc.gating, or a synthetic scenario: single "
      "(Zipf popularity fixed after the warm-up) or mixed (4 scenario mixtures drifting over balancer.period)",
      spec + "§2.10 [R]"));
  t.push_back(real("balancer.zipf_s", "float", FIELD(balancer.zipf_s), {0, 100},
                   "wsc_inference, single/mixed: Zipf exponent of expert popularity; 0.25 gives an unbalanced "
                   "max/mean of about 3 with one expert per die at EP = 256, the paper's traces 2-3 (§VI-C1)",
                   spec + "§2.10 [U]"));
  t.push_back(integer("balancer.warmup", FIELD(balancer.warmup), {0, 100000},
                      "wsc_inference, single: iterations whose popularity is redrawn before it settles", spec + "§2.10 [U]"));
  t.push_back(integer("balancer.period", FIELD(balancer.period), {1, 1'000'000},
                      "wsc_inference, mixed: iterations of one cycle of the scenario mixture", spec + "§2.10 [U]"));
  t.push_back(integer("balancer.shadow_slots", FIELD(balancer.shadow_slots), {0, 1024},
                      "wsc_inference: shadow slots per die for expert replicas", spec + "§2.11 [U] (1)"));
  t.push_back(real("balancer.alpha", "float", FIELD(balancer.alpha), {0, 1e6},
                   "wsc_inference: trigger when the summed imbalance max/mean - 1 over MoE layers exceeds this "
                   "(Eq. 2; one layer modelled)", spec + "§2.10 [U] (0.1 x MoE layers)"));
  t.push_back(integer("balancer.interval", FIELD(balancer.interval), {0, 1'000'000},
                      "wsc_inference: greedy and topology_aware wait more than this many iterations between "
                      "migrations (beta; non_invasive uses 0)", "seed 003 §VI-C1 ('triggered on average every 10 iterations')"));
  t.push_back(integer("balancer.window", FIELD(balancer.window), {1, 1'000'000},
                      "wsc_inference: expert loads are predicted as the mean of this many past iterations",
                      spec + "§2.10 [U] (8)"));
  t.push_back(choice<MigrationPriority>("balancer.migration_priority", FIELD(balancer.migration_priority),
      {{"low", MigrationPriority::Low}, {"equal", MigrationPriority::Equal}},
      "wsc_inference, non_invasive, packet model: low sends NI copies as a background class (the last request "
      "VC reserved for them, granted at every port only when nothing else can go, so the phases' traffic is not "
      "delayed beyond one packet per hop; the one VC carries network.vc_depth_flits per credit round trip, so "
      "copies are slower where that is below a link's bandwidth-delay product); equal shares the links "
      "round-robin with the phases' traffic",
      spec + "§2.9 [R] (low: 'strict priority to AR and A2A packets'; seed 003 §V-A moves experts in the background)"));
}

}  // namespace fl::schema_build
