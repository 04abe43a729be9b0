// Wafer-scale chips (seed 003, MoEntwine §VI-A1, spec moentwine.md §1.1) as mesh presets:
// wsc-4x4, wsc-6x6, wsc-8x8 (one wafer), wsc-2x2-8x8 (four 8x8 wafers in a 2x2 grid, 256
// dies) and wsc-1x2-4x4 (two 4x4 wafers side by side). Each has a "-per-die" variant that
// reads the paper's "8 TB/s bidirectional per die" as spread over the die's four ports
// instead of per neighbour link (the default reading, spec §1.1 [R]).
// A wafer preset also sizes the packet model's input buffers (network.vc_depth_flits, see
// waferPresetVcDepthFlits): NVLink's 256-flit VCs would make every wafer hop credit-bound.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace fl {

struct TopologySpec;

const std::vector<std::string>& waferPresetNames();
// False for a name that is not a wafer preset (spec untouched).
bool applyWaferPreset(std::string_view name, TopologySpec& spec);
std::string waferPresetSummary(std::string_view name);

// The VC depth in flits a wafer preset gives network.vc_depth_flits (0: not a wafer preset).
// Explicit keys still win: the preset fills it like its topology keys (schema_table.cpp).
int waferPresetVcDepthFlits(std::string_view name);

}  // namespace fl
