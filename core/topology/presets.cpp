#include "topology/presets.h"

#include "topology/wafer_presets.h"

#include "engine/time.h"
#include "scenario/did_you_mean.h"
#include "scenario/input_error.h"
#include "scenario/scenario.h"

namespace fl {
namespace {

struct Preset {
  const char* name;
  const char* summary;
  int gpus, switches, linksPerGpu, switchPorts;
  double linkBandwidth;  // bytes/s per link per direction
  Time linkLatency;
  double linkEfficiency;
};

// Link efficiency 0.98 is a calibration, not a datasheet figure: 256 B packets framed as
// 1 header + 1 address + 1 byte-enable flit + 16 data flits of 16 B give a wire efficiency
// of 16/19 = 84.2 %; x 450 GB/s x 0.98 = 371 GB/s, matching the measured 370-377 GB/s
// H100 peer bandwidth (hardware.md: "H100 usable GPU-to-GPU bandwidth" row; NVLink flit
// row for the framing). The same data-link layer is assumed for the other NVLink 4 systems.
//
// Latency: 250 ns per GPU-switch link, as simulated by DySHARP and CAIS (hardware.md:
// "NVLink latency" row, seeds 000 and 002). NVIDIA does not publish it.
const Preset kPresets[] = {
    // hardware.md: "HGX / DGX H100" row (8 GPUs, 4 NVSwitch chips, all GPUs wired to all
    // four), "H100, NVLink 4" row (18 links x 25 GB/s per direction), "3rd-gen NVSwitch"
    // row (64 ports). The 18 links split 5/4/4/5 over the chips.
    {"dgx-h100", "DGX-H100: 8 GPUs, 4 NVSwitch chips (64 ports), 18 NVLink 4 links per GPU",
     8, 4, 18, 64, 25e9, 250 * kNanosecond, 0.98},
    // hardware.md: "GH200 NVL32 (as simulated by DySHARP)" row (seed 000 §V-A): 32 GPUs,
    // 9 chips, 900 GB/s bidirectional per GPU = 18 links, 2 to each chip.
    {"gh200-nvl32", "GH200 NVL32: 32 GPUs, 9 NVSwitch chips (64 ports), 18 NVLink 4 links per GPU",
     32, 9, 18, 64, 25e9, 250 * kNanosecond, 0.98},
    // hardware.md: "64-GPU node (DySHARP sensitivity study)" row (seed 000 §VI-C1): 18
    // chips of 64 ports, one port per GPU per chip.
    {"nvl64", "NVL64: 64 GPUs, 18 NVSwitch chips (64 ports), 18 NVLink 4 links per GPU",
     64, 18, 18, 64, 25e9, 250 * kNanosecond, 0.98},
    // hardware.md: "GB200 NVL72" row (72 GPUs, 18 switch chips, one link from each GPU to
    // each chip) and "B200, NVLink 5" row (18 x 100 GB/s bidirectional = 50 GB/s per link
    // per direction). 72 ports per chip follow from one port per GPU. The 250 ns latency
    // is the NVLink 4 figure carried over: unconfirmed for NVLink 5.
    {"gb200-nvl72", "GB200 NVL72: 72 GPUs, 18 NVLink switch chips (72 ports), 18 NVLink 5 links per GPU",
     72, 18, 18, 72, 50e9, 250 * kNanosecond, 0.98},
};

// Hierarchies of HybridEP (seed 004 §V-A, §V-G): datacenters of A800 GPUs. Inside a DC
// every GPU hangs off the DC switch by PCIe 3.0 x16 (128 Gb/s = 16 GB/s per direction);
// each DC reaches the others by one 10 Gb/s Ethernet uplink. The paper treats one node as
// one DC and gives no latencies: 1 us (PCIe) and 10 us (Ethernet in one machine room) are
// unconfirmed; the 1000-DC presets use 1 ms between DCs (about 200 km of fibre), as the
// datacenter-hierarchy scenario. The paper's simulation uses one GPU per DC (§III).
struct HierarchyPreset {
  const char* name;
  const char* summary;
  int dcs, gpusPerDc;
  Time dcLatency;
};
const HierarchyPreset kHierarchyPresets[] = {
    {"cluster-s", "Cluster-S (HybridEP): 1 DC x 8 A800, PCIe 3.0 x16 inside, 10 Gb/s Ethernet uplink", 1, 8,
     10 * kMicrosecond},
    {"cluster-m", "Cluster-M (HybridEP): 2 DCs x 8 A800, PCIe 3.0 x16 inside, 10 Gb/s Ethernet between DCs", 2, 8,
     10 * kMicrosecond},
    {"cluster-l", "Cluster-L (HybridEP): 4 DCs x 8 A800, PCIe 3.0 x16 inside, 10 Gb/s Ethernet between DCs", 4, 8,
     10 * kMicrosecond},
    {"xdc-1000", "1000 DCs x 1 GPU (HybridEP's large-scale study), 10 Gb/s, 1 ms between DCs", 1000, 1,
     1 * kMillisecond},
    {"xdc-1000x8", "1000 DCs x 8 GPUs, PCIe 3.0 x16 inside, 10 Gb/s, 1 ms between DCs", 1000, 8, 1 * kMillisecond},
};

// DGX B200 clusters, the baselines of seed 003 §VI-B (spec moentwine.md §1.4): nodes of 8
// B200 GPUs on NVLink 5 (hardware.md "B200, NVLink 5" row: 18 links x 50 GB/s per direction
// = 900 GB/s per GPU per direction; the node's NVSwitch chips folded into one switch so each
// GPU has one 900 GB/s link, as the network models route a single path; 250 ns is the
// NVLink 4 latency carried over, unconfirmed), and one InfiniBand NIC per GPU to a spine
// (400 Gb/s ConnectX-7 = 50 GB/s per direction, 2 us: spec §1.4 [U], the paper gives
// neither). The paper pairs a 6x6 wafer with 4 nodes and an 8x8 wafer with 8 nodes.
struct DgxPreset {
  const char* name;
  const char* summary;
  int nodes;
};
const DgxPreset kDgxPresets[] = {
    {"dgx-b200-4node", "4 DGX B200 nodes (32 GPUs): NVLink 5 (900 GB/s per GPU per direction) inside, a 400 Gb/s "
                       "InfiniBand NIC per GPU between nodes", 4},
    {"dgx-b200-8node", "8 DGX B200 nodes (64 GPUs): NVLink 5 (900 GB/s per GPU per direction) inside, a 400 Gb/s "
                       "InfiniBand NIC per GPU between nodes", 8},
};

const DgxPreset* findDgx(std::string_view name) {
  for (const DgxPreset& p : kDgxPresets)
    if (name == p.name) return &p;
  return nullptr;
}

const HierarchyPreset* findHierarchy(std::string_view name) {
  for (const HierarchyPreset& p : kHierarchyPresets)
    if (name == p.name) return &p;
  return nullptr;
}

const Preset* find(std::string_view name) {
  for (const Preset& p : kPresets)
    if (name == p.name) return &p;
  return nullptr;
}

}  // namespace

const std::vector<std::string>& topologyPresetNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const Preset& p : kPresets) v.emplace_back(p.name);
    for (const HierarchyPreset& p : kHierarchyPresets) v.emplace_back(p.name);
    for (const DgxPreset& p : kDgxPresets) v.emplace_back(p.name);
    for (const std::string& w : waferPresetNames()) v.push_back(w);
    return v;
  }();
  return names;
}

void applyTopologyPreset(std::string_view name, TopologySpec& spec) {
  if (const HierarchyPreset* h = findHierarchy(name)) {
    spec.kind = TopologyKind::Hierarchy;
    spec.preset = h->name;
    spec.levels = {LevelSpec{"dc", h->dcs, 1.25e9, h->dcLatency}, LevelSpec{"gpu", h->gpusPerDc, 16e9, 1 * kMicrosecond}};
    return;
  }
  if (const DgxPreset* d = findDgx(name)) {
    spec.kind = TopologyKind::Hierarchy;
    spec.preset = d->name;
    spec.levels = {LevelSpec{"node", d->nodes, 50e9, 2 * kMicrosecond, LevelUplinks::PerGpu},
                   LevelSpec{"gpu", 8, 900e9, 250 * kNanosecond}};
    return;
  }
  if (applyWaferPreset(name, spec)) return;
  const Preset* p = find(name);
  if (!p)
    throw InputError({}, "topology.preset", "one of " + joinList(topologyPresetNames()),
                     "'" + std::string(name) + "'",
                     closeMatchHint(name, topologyPresetNames()));
  spec.kind = TopologyKind::NvSwitch;
  spec.preset = p->name;
  spec.gpus = p->gpus;
  spec.switches = p->switches;
  spec.links_per_gpu = p->linksPerGpu;
  spec.switch_ports = p->switchPorts;
  spec.link_bandwidth = p->linkBandwidth;
  spec.link_latency = p->linkLatency;
  spec.link_efficiency = p->linkEfficiency;
}

std::string topologyPresetSummary(std::string_view name) {
  if (const HierarchyPreset* h = findHierarchy(name)) return h->summary;
  if (const DgxPreset* d = findDgx(name)) return d->summary;
  const Preset* p = find(name);
  return p ? p->summary : waferPresetSummary(name);
}

}  // namespace fl
