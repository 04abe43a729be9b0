// The schema table itself: one entry per scenario key, in the order docs and saved files
// list them. Defaults are not written here: they are read from a default Scenario
// (scenario.h), so the table can never disagree with the struct.
#include <yaml-cpp/yaml.h>

#include <charconv>
#include <functional>
#include <type_traits>

#include "gpu/gpu_spec.h"
#include "moe/moe_model.h"
#include "moe/routing_trace.h"
#include "pipeline/launch_baselines.h"
#include "scenario/did_you_mean.h"
#include "scenario/schema.h"
#include "scenario/schema_values.h"
#include "topology/presets.h"

namespace fl {
namespace {

using namespace detail;

// A field accessor that works for const and non-const scenarios.
#define FIELD(member) [](auto& s) -> auto& { return s.member; }

struct Range {
  std::optional<double> min, max;
  bool minExclusive = false;
};
const Range kPositive{0, {}, true};
const Range kNonNegative{0, {}};

ParamSpec base(std::string path, std::string type, Range r, std::string doc, std::string source) {
  ParamSpec p;
  p.path = std::move(path);
  p.type = std::move(type);
  p.min = r.min;
  p.max = r.max;
  p.minExclusive = r.minExclusive;
  p.doc = std::move(doc);
  p.source = std::move(source);
  return p;
}

// A key whose 0 is a setting of its own rather than a quantity of nothing.
ParamSpec zeroMeans(ParamSpec p, std::string meaning) {
  p.zeroMeans = std::move(meaning);
  return p;
}

template <class F>
ParamSpec integer(std::string path, F field, Range r, std::string doc, std::string source = {}) {
  ParamSpec p = base(std::move(path), "int", r, std::move(doc), std::move(source));
  p.get = [field](const Scenario& s) { return std::to_string(field(s)); };
  p.set = [field, rules = p](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    using T = std::remove_reference_t<decltype(field(s))>;
    field(s) = static_cast<T>(readInteger(n, rules.path, rules, src));
  };
  return p;
}

template <class F>
ParamSpec real(std::string path, std::string type, F field, Range r, std::string doc,
               std::string source = {}) {
  ParamSpec p = base(std::move(path), type, r, std::move(doc), std::move(source));
  if (type == "fraction") p.quantity = QuantityKind::Fraction;
  p.get = [field](const Scenario& s) { return formatNumber(field(s)); };
  p.set = [field, rules = p](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    field(s) = readReal(n, rules.path, rules, src);
  };
  return p;
}

template <class F>
ParamSpec quantity(std::string path, QuantityKind kind, F field, Range r, std::string doc,
                   std::string source = {}) {
  static const char* types[] = {"bytes", "bandwidth", "time", "fraction", "int"};
  ParamSpec p = base(std::move(path), types[static_cast<int>(kind)], r, std::move(doc), std::move(source));
  p.quantity = kind;
  p.unit = siUnit(kind);
  p.get = [field, kind](const Scenario& s) {
    return formatQuantity(static_cast<double>(field(s)), kind);
  };
  p.set = [field, rules = p](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    using T = std::remove_reference_t<decltype(field(s))>;
    field(s) = static_cast<T>(readQuantity(n, rules.path, rules, src));
  };
  return p;
}

template <class F>
ParamSpec boolean(std::string path, F field, std::string doc, std::string source = {}) {
  ParamSpec p = base(std::move(path), "bool", {}, std::move(doc), std::move(source));
  p.choices = {"false", "true"};
  p.get = [field](const Scenario& s) { return std::string(field(s) ? "true" : "false"); };
  p.set = [field, path = p.path](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    field(s) = readBool(n, path, src);
  };
  return p;
}

template <class E, class F>
ParamSpec choice(std::string path, F field, std::vector<std::pair<std::string, E>> values,
                 std::string doc, std::string source = {}) {
  ParamSpec p = base(std::move(path), "enum", {}, std::move(doc), std::move(source));
  for (const auto& v : values) p.choices.push_back(v.first);
  p.get = [field, values](const Scenario& s) {
    for (const auto& v : values)
      if (v.second == field(s)) return v.first;
    return std::string("?");
  };
  p.set = [field, values, rules = p](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    std::string name = readChoice(n, rules.path, rules, src);
    for (const auto& v : values)
      if (v.first == name) field(s) = v.second;
  };
  return p;
}

template <class F>
ParamSpec text(std::string path, F field, std::string doc) {
  ParamSpec p = base(std::move(path), "string", {}, std::move(doc), {});
  p.get = [field](const Scenario& s) { return field(s); };
  p.set = [field, path = p.path](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    field(s) = scalarText(n, path, src, "a text");
  };
  return p;
}

// Changing the preset keeps every topology value that differs from what the old preset
// (or the defaults) gave, i.e. every value set explicitly, and takes the rest from the new
// preset. So explicit keys win whatever the order of keys, --set flags or sweep axes.
ParamSpec presetParam() {
  ParamSpec p = base("topology.preset", "enum", {},
                     "named system filling the NVSwitch keys first; explicit keys override it",
                     "see Presets below");
  p.choices = {"none"};
  for (const std::string& n : topologyPresetNames()) p.choices.push_back(n);
  p.get = [](const Scenario& s) { return s.topology.preset.empty() ? std::string("none") : s.topology.preset; };
  p.set = [rules = p](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    std::string name = readChoice(n, rules.path, rules, src);
    if (name == "none") name.clear();
    Scenario before, after;
    if (!s.topology.preset.empty()) applyTopologyPreset(s.topology.preset, before.topology);
    if (!name.empty()) applyTopologyPreset(name, after.topology);
    for (const ParamSpec& q : schema()) {
      if (q.path.rfind("topology.", 0) != 0 || q.path == rules.path || !q.scalar) continue;
      std::string old = q.get(before), fresh = q.get(after);
      if (old != fresh && q.get(s) == old) q.set(s, YAML::Node(fresh), src);
    }
    s.topology.preset = name;
  };
  return p;
}

// gpu.preset and workload.moe.model follow topology.preset's rule: switching keeps every
// filled key whose value differs from what the old preset gave (set explicitly) and takes
// the rest from the new one. `apply(name, s)` fills a scenario (and names the preset);
// `filled` lists the keys it fills; switching to `keepAll` ("custom") changes none of them.
template <class F>
ParamSpec fillingPreset(std::string path, std::vector<std::string> choices, std::string doc, std::string source,
                        F name, std::function<void(const std::string&, Scenario&)> apply,
                        std::vector<std::string> filled, std::string keepAll = {}) {
  ParamSpec p = base(std::move(path), "enum", {}, std::move(doc), std::move(source));
  p.choices = std::move(choices);
  p.get = [name](const Scenario& s) { return name(s); };
  p.set = [rules = p, name, apply, filled, keepAll](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    const std::string chosen = readChoice(n, rules.path, rules, src);
    Scenario before, after;
    apply(name(s), before);
    apply(chosen, after);
    for (const std::string& key : filled) {
      if (chosen == keepAll) break;
      const ParamSpec* q = findParam(key);
      const std::string old = q->get(before), fresh = q->get(after);
      if (old != fresh && q->get(s) == old) q->set(s, YAML::Node(fresh), src);
    }
    name(s) = chosen;
  };
  return p;
}

// gpu.tile: "128x128" (bM x bN).
ParamSpec tileParam() {
  ParamSpec p = base("gpu.tile", "tile", {1, 4096},
                     "GEMM output tile bM x bN (rows are tokens) run as one task on one SM, e.g. 128x128",
                     "seed 000 §VII-C (tile 128); seed 001 §4 uses 128x64");
  p.get = [](const Scenario& s) { return std::to_string(s.gpu.tile_m) + "x" + std::to_string(s.gpu.tile_n); };
  p.set = [rules = p](Scenario& s, const YAML::Node& n, const ValueSource& src) {
    const std::string expected = "a tile 'bMxbN' with each side from 1 to 4096, such as '128x128'";
    std::string text = scalarText(n, rules.path, src, expected);
    std::string t;
    for (char c : text)
      if (c != ' ') t += c == 'X' ? 'x' : c;
    const size_t x = t.find('x');
    int v[2] = {0, 0};
    bool ok = x != std::string::npos;
    for (int i = 0; ok && i < 2; ++i) {
      const std::string part = i == 0 ? t.substr(0, x) : t.substr(x + 1);
      auto [q, ec] = std::from_chars(part.data(), part.data() + part.size(), v[i]);
      ok = !part.empty() && ec == std::errc() && q == part.data() + part.size() && v[i] >= 1 && v[i] <= 4096;
    }
    if (!ok) throw InputError(src.at(n), rules.path, expected, "'" + text + "'");
    s.gpu.tile_m = v[0], s.gpu.tile_n = v[1];
  };
  return p;
}

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
      list = YAML::Load(text);
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

std::vector<ParamSpec> build() {
  using Q = QuantityKind;
  std::vector<ParamSpec> t;
  t.push_back(text("name", FIELD(name), "short title shown by the GUI and in results"));
  t.push_back(text("description", FIELD(description), "free text"));

  // --- topology
  t.push_back(choice<TopologyKind>("topology.kind", FIELD(topology.kind),
      {{"nvswitch", TopologyKind::NvSwitch}, {"mesh", TopologyKind::Mesh}, {"hierarchy", TopologyKind::Hierarchy}},
      "fabric family: NVSwitch system, wafer-scale 2-D mesh, or multi-level hierarchy"));
  t.push_back(presetParam());
  t.push_back(integer("topology.gpus", FIELD(topology.gpus), {2, 1'000'000}, "nvswitch: number of GPUs",
                      "hardware.md: HGX / DGX H100 row"));
  t.push_back(integer("topology.switches", FIELD(topology.switches), {1, 100'000}, "nvswitch: number of NVSwitch chips",
                      "hardware.md: HGX / DGX H100 row"));
  t.push_back(integer("topology.links_per_gpu", FIELD(topology.links_per_gpu), {1, 4096},
                      "nvswitch: NVLinks per GPU, spread as evenly as possible over the chips",
                      "hardware.md: H100, NVLink 4 row"));
  t.push_back(integer("topology.switch_ports", FIELD(topology.switch_ports), {1, 1'000'000},
                      "nvswitch: NVLink ports per switch chip", "hardware.md: 3rd-gen NVSwitch row"));
  t.push_back(quantity("topology.link.bandwidth", Q::Bandwidth, FIELD(topology.link_bandwidth), kPositive,
                       "nvswitch and mesh: every link's rate, per link, per direction",
                       "hardware.md: H100, NVLink 4 row (25 GB/s per link per direction)"));
  t.push_back(quantity("topology.link.latency", Q::Time, FIELD(topology.link_latency), kNonNegative,
                       "nvswitch and mesh: propagation delay of every link, per direction",
                       "seed 000 §V-A; hardware.md: NVLink latency row"));
  t.push_back(real("topology.link.efficiency", "fraction", FIELD(topology.link_efficiency), {0, 1, true},
                   "data-link layer efficiency (CRC, replay, DL flits): usable rate = bandwidth x efficiency",
                   "1 = ideal; presets use 0.98, calibrated to hardware.md: H100 usable GPU-to-GPU bandwidth row"));
  t.push_back(integer("topology.rows", FIELD(topology.rows), {1, 100'000}, "mesh: rows of dies per wafer"));
  t.push_back(integer("topology.cols", FIELD(topology.cols), {1, 100'000}, "mesh: columns of dies per wafer"));
  t.push_back(integer("topology.wafers.rows", FIELD(topology.wafer_rows), {1, 10'000}, "mesh: rows of wafers"));
  t.push_back(integer("topology.wafers.cols", FIELD(topology.wafer_cols), {1, 10'000}, "mesh: columns of wafers"));
  t.push_back(zeroMeans(
      quantity("topology.wafers.border_bandwidth", Q::Bandwidth, FIELD(topology.border_bandwidth), kNonNegative,
               "mesh: links crossing a wafer border, per link, per direction; 0 = topology.link.bandwidth",
               "hardware.md: MoEntwine platform row (cross-wafer border 9 TB/s)"),
      "as topology.link.bandwidth"));
  t.push_back(zeroMeans(quantity("topology.wafers.border_latency", Q::Time, FIELD(topology.border_latency), kNonNegative,
                                 "mesh: latency of links crossing a wafer border; 0 = topology.link.latency"),
                        "as topology.link.latency"));
  t.push_back(zeroMeans(
      quantity("topology.die_injection_bandwidth", Q::Bandwidth, FIELD(topology.die_injection_bandwidth), kNonNegative,
               "mesh: die to its own router, per direction; 0 = topology.link.bandwidth (one injection channel, as "
               "in BookSim)"),
      "as topology.link.bandwidth"));
  {
    ParamSpec p = base("topology.levels", "list of levels", {},
                       "hierarchy: levels, outermost first, each {name, count, bandwidth, latency}", {});
    p.scalar = false;
    p.get = [](const Scenario& s) { return levelsText(s.topology.levels); };
    p.set = [](Scenario& s, const YAML::Node& n, const ValueSource& src) {
      s.topology.levels = readLevels(n, "topology.levels", src);
    };
    t.push_back(p);
  }

  // --- network
  t.push_back(quantity("network.flit", Q::Bytes, FIELD(network.flit_bytes), {1, 4096}, "flit size",
                       "seed 000 §V-A; hardware.md: NVLink flit row"));
  t.push_back(integer("network.header_flits", FIELD(network.header_flits), {0, 64}, "command/header flits of every packet",
                      "hardware.md: NVLink flit row"));
  t.push_back(integer("network.address_flits", FIELD(network.address_flits), {0, 64},
                      "address-extension flits of requests that carry an address", "hardware.md: NVLink flit row"));
  t.push_back(integer("network.byte_enable_flits", FIELD(network.byte_enable_flits), {0, 64},
                      "byte-enable flits of writes", "hardware.md: NVLink flit row"));
  t.push_back(quantity("network.max_packet_payload", Q::Bytes, FIELD(network.max_packet_payload), {1, 1 << 20},
                       "data bytes one NVLink packet carries; framing is counted per such packet",
                       "hardware.md: NVLink flit row (256 B)"));
  t.push_back(quantity("network.packet_payload", Q::Bytes, FIELD(network.packet_payload), {1, 1 << 30},
                       "data bytes one simulated packet carries (larger = faster, coarser simulation)"));
  t.push_back(integer("network.virtual_channels", FIELD(network.virtual_channels), {2, 64},
                      "virtual channels per port, even: first half requests, second half responses"));
  t.push_back(integer("network.vc_depth_flits", FIELD(network.vc_depth_flits), {1, 1'000'000},
                      "input buffer per virtual channel, in flits; must hold a whole packet"));
  t.push_back(quantity("network.switch.latency", Q::Time, FIELD(network.switch_latency), kNonNegative,
                       "router/switch traversal, on top of link latency", "seed 000 §V-A (folded into the link's 250 ns)"));
  t.push_back(quantity("network.switch.reduction_buffer", Q::Bytes, FIELD(network.reduction_buffer), kNonNegative,
                       "in-switch reduction buffer per switch port", "seed 000 §V-A"));
  t.push_back(zeroMeans(quantity("network.switch.reduction_throughput", Q::Bandwidth,
                                 FIELD(network.reduction_throughput), kNonNegative,
                                 "reduction operands per switch chip per second; 0 = unlimited",
                                 "hardware.md: NVSwitch SHARP ALU throughput row (unconfirmed)"),
                        "unlimited"));
  t.push_back(integer("network.outstanding_requests", FIELD(network.outstanding_requests), {1, 1'000'000},
                      "per endpoint: reads and acknowledged writes in flight"));
  t.push_back(boolean("network.acknowledged_writes", FIELD(network.acknowledged_writes),
                      "acknowledged (true) or posted (false) stores and reductions"));

  // --- gpu
  t.push_back(fillingPreset(
      "gpu.preset", gpuPresetNames(), "GPU model filling gpu.sms and gpu.hbm_bandwidth; explicit keys override it",
      "see GPU presets above", FIELD(gpu.preset),
      [](const std::string& name, Scenario& s) { applyGpuPreset(name, s.gpu); }, {"gpu.sms", "gpu.hbm_bandwidth"}));
  t.push_back(integer("gpu.sms", FIELD(gpu.sms), {1, 1024},
                      "streaming multiprocessors; each runs one GEMM tile at a time (per-SM throughput is the preset's)",
                      "vendor whitepapers (core/gpu/gpu_spec.cpp)"));
  t.push_back(real("gpu.tensor_efficiency", "fraction", FIELD(gpu.tensor_efficiency), {0, 1, true},
                   "achieved / peak dense tensor throughput of GEMM tiles",
                   "assumption (unconfirmed): large GEMMs reach 60-80 % of peak"));
  t.push_back(quantity("gpu.hbm_bandwidth", Q::Bandwidth, FIELD(gpu.hbm_bandwidth), kPositive,
                       "HBM bandwidth of one GPU, shared equally by its SMs", "vendor datasheets (core/gpu/gpu_spec.cpp)"));
  t.push_back(zeroMeans(
      quantity("gpu.sm_comm_bandwidth", Q::Bandwidth, FIELD(gpu.sm_comm_bandwidth), kNonNegative,
               "MoE layer: bytes per second one SM of a communication task issues to other GPUs (stores, "
               "multimem stores) or loads from them (ld_reduce results); a GPU's Dispatch and Combine each "
               "issue at most their SMs x this; 0 = not a limit (links only)",
               "deepseek-ai/DeepEP issues: intranode normal kernels stay below NVLink line rate with their "
               "default SMs: H20 337 GB/s with 24 SMs, maintainers advise more SMs (#16), ~14 GB/s per SM; "
               "GB200 169 / 135 GB/s dispatch / combine with 24 SMs (#394); H800 153 GB/s is link-bound"),
      "no limit"));
  t.push_back(tileParam());

  // --- workload
  t.push_back(choice<WorkloadKind>("workload.kind", FIELD(workload.kind),
      {{"collective", WorkloadKind::Collective}, {"traffic", WorkloadKind::Traffic}, {"moe_layer", WorkloadKind::MoeLayer}},
      "one collective operation, synthetic traffic at a given load, or one MoE layer under expert parallelism"));
  t.push_back(choice<CollectiveOp>("workload.collective.op", FIELD(workload.collective.op),
      {{"p2p", CollectiveOp::P2P}, {"all_reduce", CollectiveOp::AllReduce},
       {"reduce_scatter", CollectiveOp::ReduceScatter}, {"all_gather", CollectiveOp::AllGather},
       {"all_to_all", CollectiveOp::AllToAll}, {"all_to_all_v", CollectiveOp::AllToAllV}},
      "collective operation"));
  t.push_back(choice<CollectiveAlgorithm>("workload.collective.algorithm", FIELD(workload.collective.algorithm),
      {{"ring", CollectiveAlgorithm::Ring}, {"nvls", CollectiveAlgorithm::Nvls}, {"direct", CollectiveAlgorithm::Direct}},
      "ring and nvls: all_reduce, reduce_scatter, all_gather (nvls on nvswitch only); direct: p2p, all_to_all(_v)",
      "hardware.md: NVLS programming model"));
  t.push_back(quantity("workload.collective.size", Q::Bytes, FIELD(workload.collective.size), {1, 1e15},
                       "bytes per GPU, as nccl-tests' size", "hardware.md: Measured collective performance"));
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

  const Scenario defaults;
  for (ParamSpec& p : t) p.defaultText = p.get(defaults);
  return t;
}

}  // namespace

const std::vector<ParamSpec>& schema() {
  static const std::vector<ParamSpec> table = build();
  return table;
}

}  // namespace fl
