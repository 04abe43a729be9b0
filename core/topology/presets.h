// Named NVSwitch systems and wafer-scale meshes. A preset fills the topology first; every key written
// explicitly in a scenario (or given with --set) then overrides it, whatever the order
// of keys in the file (scenario/schema.cpp).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace fl {

struct TopologySpec;

// dgx-h100, gh200-nvl32, nvl64, gb200-nvl72, then the hierarchies cluster-s, cluster-m,
// cluster-l, xdc-1000, xdc-1000x8, the DGX B200 clusters dgx-b200-4node and dgx-b200-8node,
// then the wafer presets (wafer_presets.h).
const std::vector<std::string>& topologyPresetNames();

// Sets kind, gpus, switches, links_per_gpu, switch_ports and the link's bandwidth,
// latency and efficiency (hierarchy presets: kind and levels), plus spec.preset = name;
// leaves every other field alone.
// Throws InputError (key path "topology.preset", with a did-you-mean hint) for an
// unknown name.
void applyTopologyPreset(std::string_view name, TopologySpec& spec);

// One line for docs and tooltips, e.g. "DGX-H100: 8 GPUs, 4 NVSwitch chips, ...".
std::string topologyPresetSummary(std::string_view name);

}  // namespace fl
