#include "gpu/gpu_spec.h"

#include "scenario/did_you_mean.h"
#include "scenario/input_error.h"
#include "scenario/scenario.h"

namespace fl {
namespace {

constexpr double T = 1e12;          // TFLOP/s, TB/s
constexpr std::int64_t GB = 1'000'000'000;
constexpr std::int64_t MiB = 1 << 20;

struct Preset {
  const char* summary;
  GpuSpec spec;
};

// Figures are dense. Vendor datasheets headline 2:4-sparsity numbers (marked "*" there);
// the dense figure is half of those. Tensor order: FP32 (CUDA cores), TF32, BF16, FP16, FP8.
// tensor_efficiency 0.7 is an assumption (unconfirmed): large dense GEMMs typically
// reach 60-80 % of peak; it is a scenario key (gpu.tensor_efficiency) for that reason.
const Preset kPresets[] = {
    // NVIDIA H100 Tensor Core GPU datasheet, "H100 SXM" column: FP32 67 TF, TF32 989*,
    // BF16/FP16 1,979*, FP8 3,958* TFLOPS, 80 GB at 3.35 TB/s. NVIDIA Hopper architecture
    // whitepaper (H100 SXM5): 132 SMs, 50 MB L2, dense 494.7 / 989.4 / 1978.9 TFLOPS.
    // Clock: 1.83 GHz is the rate at which 132 SMs x 4096 dense FP16 FLOP/clk give 989.4
    // TFLOPS (derived; the datasheet quotes no clock -- unconfirmed).
    {"H100 SXM: 132 SMs, 989 TFLOPS BF16 / 1979 FP8 dense, 80 GB HBM3 at 3.35 TB/s",
     {"h100", 132, 1.83e9, {66.9 * T, 494.7 * T, 989.4 * T, 989.4 * T, 1978.9 * T}, 0.7, 3.35 * T,
      80 * GB, 50 * MiB}},
    // NVIDIA H200 product page / datasheet ("H200 SXM"): FP32 67 TF, TF32 989*, BF16/FP16
    // 1,979*, FP8 3,958* TFLOPS, 141 GB HBM3e at 4.8 TB/s. Same GH100 die as H100, so 132
    // SMs, 50 MB L2 and the clock are carried over (the product page does not list them --
    // unconfirmed). DySHARP configures its GPUs from H200 (seed 000 §V-A).
    {"H200 SXM: 132 SMs, 989 TFLOPS BF16 / 1979 FP8 dense, 141 GB HBM3e at 4.8 TB/s",
     {"h200", 132, 1.83e9, {66.9 * T, 494.7 * T, 989.4 * T, 989.4 * T, 1978.9 * T}, 0.7, 4.8 * T,
      141 * GB, 50 * MiB}},
    // NVIDIA A100 datasheet ("A100 80GB SXM"): FP32 19.5 TF, TF32 156 (312*), BF16/FP16
    // 312 (624*) TFLOPS, no FP8, 80 GB HBM2e at 2,039 GB/s. Ampere architecture
    // whitepaper: 108 SMs, 1410 MHz boost, 40 MB L2.
    {"A100 SXM 80GB: 108 SMs, 312 TFLOPS BF16 dense, no FP8, 80 GB HBM2e at 2.04 TB/s",
     {"a100", 108, 1.41e9, {19.5 * T, 156 * T, 312 * T, 312 * T, 0}, 0.7, 2039e9, 80 * GB,
      40 * MiB}},
    // NVIDIA HGX B200 / DGX B200 datasheets, per GPU: FP8 9 PF*, BF16/FP16 4.5 PF*, TF32
    // 2.2 PF* (dense halves); hardware.md "MoEntwine platform" row (seed 003 §VI-A1): 2250
    // TFLOPS FP16, 180 GB HBM at 8 TB/s. Unconfirmed (not in NVIDIA's datasheets): 148
    // SMs, FP32 75 TFLOPS, 126 MB L2, 1.965 GHz -- all plain parameters.
    {"B200: 148 SMs (unconfirmed), 2250 TFLOPS BF16 / 4500 FP8 dense, 180 GB HBM3e at 8 TB/s",
     {"b200", 148, 1.965e9, {75 * T, 1100 * T, 2250 * T, 2250 * T, 4500 * T}, 0.7, 8 * T, 180 * GB,
      126 * MiB}},
};

const Preset* find(std::string_view name) {
  for (const Preset& p : kPresets)
    if (name == p.spec.name) return &p;
  return nullptr;
}

}  // namespace

const std::vector<std::string>& gpuPresetNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const Preset& p : kPresets) v.push_back(p.spec.name);
    return v;
  }();
  return names;
}

GpuSpec gpuPreset(std::string_view name) {
  const Preset* p = find(name);
  if (!p)
    throw InputError({}, "gpu.preset", "one of " + joinList(gpuPresetNames()), "'" + std::string(name) + "'",
                     closeMatchHint(name, gpuPresetNames()));
  return p->spec;
}

void applyGpuPreset(std::string_view name, GpuSettings& settings) {
  const GpuSpec g = gpuPreset(name);
  settings.preset = g.name;
  settings.sms = g.sms;
  settings.hbm_bandwidth = g.hbm_bandwidth;
}

GpuSpec gpuSpecFor(const GpuSettings& settings) {
  GpuSpec g = gpuPreset(settings.preset);
  for (double& f : g.tensor_flops) f = f / g.sms * settings.sms;  // per-SM rate kept
  g.sms = settings.sms;
  g.tensor_efficiency = settings.tensor_efficiency;
  g.hbm_bandwidth = settings.hbm_bandwidth;
  return g;
}

std::string gpuPresetSummary(std::string_view name) {
  const Preset* p = find(name);
  return p ? p->summary : "";
}

}  // namespace fl
