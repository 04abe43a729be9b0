// What a GPU can compute and move: SM count, dense tensor throughput per element type,
// HBM bandwidth. Presets carry public vendor figures (core/gpu/gpu_spec.cpp cites each);
// a scenario picks one with gpu.preset and may override sms, tensor_efficiency and
// hbm_bandwidth (scenario.h: GpuSettings).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/dtype.h"

namespace fl {

struct GpuSettings;

struct GpuSpec {
  std::string name;
  int sms = 0;
  double clock_hz = 0;  // informational: the model uses throughputs, not clocks
  // Dense (not 2:4 sparsity) peak FLOP/s per Dtype index; 0 = no tensor-core support.
  // FP32 is the non-tensor CUDA-core rate (there is no FP32 tensor path).
  std::array<double, kDtypeCount> tensor_flops{};
  double tensor_efficiency = 0.7;  // achieved / peak for large dense GEMMs
  double hbm_bandwidth = 0;        // bytes/s
  std::int64_t hbm_capacity = 0;   // bytes
  std::int64_t l2_bytes = 0;

  double flops(Dtype d) const { return tensor_flops[static_cast<int>(d)]; }
  bool supports(Dtype d) const { return flops(d) > 0; }
  // One SM's achieved throughput: peak / sms x efficiency.
  double smFlops(Dtype d) const { return flops(d) / sms * tensor_efficiency; }
  // One SM's share of HBM bandwidth when every SM streams.
  double smBandwidth() const { return hbm_bandwidth / sms; }
};

// h100, h200, a100, b200 (in this order).
const std::vector<std::string>& gpuPresetNames();

// The preset's full description. Throws InputError (key path "gpu.preset", with a
// did-you-mean hint) for an unknown name.
GpuSpec gpuPreset(std::string_view name);

// Sets settings.preset, sms and hbm_bandwidth from the preset; leaves the rest alone.
void applyGpuPreset(std::string_view name, GpuSettings& settings);

// The preset with the scenario's overrides: per-SM throughput stays the preset's, so
// changing sms scales the GPU's total throughput; hbm_bandwidth and tensor_efficiency
// replace the preset's.
GpuSpec gpuSpecFor(const GpuSettings& settings);

// One line for docs and tooltips.
std::string gpuPresetSummary(std::string_view name);

}  // namespace fl
