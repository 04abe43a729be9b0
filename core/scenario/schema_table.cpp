// The schema table itself: one entry per scenario key, in the order docs and saved files
// list them; here the top-level, topology, network and gpu keys, then those of
// schema_table_workload.cpp. Defaults are not written here: they are read from a default
// Scenario (scenario.h), so the table can never disagree with the struct.
#include <yaml-cpp/yaml.h>

#include <charconv>

#include "gpu/gpu_spec.h"
#include "scenario/schema.h"
#include "scenario/schema_builders.h"
#include "scenario/schema_values.h"
#include "topology/presets.h"
#include "topology/wafer_presets.h"

namespace fl {
namespace {

using namespace schema_build;

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
    // Wafer presets also size the VCs (wafer_presets.h); kept likewise when set explicitly.
    if (int d = waferPresetVcDepthFlits(s.topology.preset)) before.network.vc_depth_flits = d;
    if (int d = waferPresetVcDepthFlits(name)) after.network.vc_depth_flits = d;
    // Hierarchy presets (cluster-s ...) fill the levels list, kept likewise when edited.
    if (s.topology.levels == before.topology.levels) s.topology.levels = after.topology.levels;
    for (const ParamSpec& q : schema()) {
      const bool filled = q.path.rfind("topology.", 0) == 0 || q.path == "network.vc_depth_flits";
      if (!filled || q.path == rules.path || !q.scalar) continue;
      std::string old = q.get(before), fresh = q.get(after);
      if (old != fresh && q.get(s) == old) q.set(s, YAML::Node(fresh), src);
    }
    s.topology.preset = name;
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

std::vector<ParamSpec> build() {
  using Q = QuantityKind;
  std::vector<ParamSpec> t;
  t.push_back(text("name", FIELD(name), "short title shown by the GUI and in results; one line", true));
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
                   "nvswitch and mesh: data-link layer efficiency (CRC, replay, DL flits): usable rate = "
                   "bandwidth x efficiency",
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

  // The kinds each topology key applies to, from its doc ("mesh: rows of dies per wafer").
  for (ParamSpec& p : t) p.topologyKinds = topologyKindsOfDoc(p.doc);

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
  t.push_back(zeroMeans(quantity("network.switch.merge_table", Q::Bytes, FIELD(network.merge_table), kNonNegative,
                                 "CAIS merging table per GPU-facing switch port (entries of network.packet_payload)",
                                 "seed 002 §IV-A: 40 KB, 320 entries per port"),
                        "unbounded, and no timeout: the required-table run, specs/cais.md §2.13"));
  t.push_back(zeroMeans(quantity("network.switch.merge_timeout", Q::Time, FIELD(network.merge_timeout), kNonNegative,
                                 "CAIS: an entry idle this long is evicted by its state's rule (none with an "
                                 "unbounded network.switch.merge_table)",
                                 "our choice (specs/cais.md §1.1: seed 002 gives none): above the coordinated "
                                 "3 us skew, below the uncoordinated 35 us"),
                        "none"));
  t.push_back(integer("network.switch.merge_records", FIELD(network.merge_records), {1, 16},
                      "CAIS: deferred requesters a Load-Wait entry's 128 B content array records; more bypass",
                      "our choice (specs/cais.md §2.2): 8 B records"));
  t.push_back(boolean("network.switch.merging", FIELD(network.merging),
                      "CAIS: merge ld.cais/red.cais in the switch (false: they pass as plain loads and writes)"));

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

  addWorkloadSchemeRunKeys(t);
  addXdcKeys(t);
  addWscKeys(t);

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
