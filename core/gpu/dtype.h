// Element types of GEMM operands and of tokens on the wire. Kept apart from the GPU
// presets so the scenario (dispatch/combine dtypes) can name them without pulling in
// the compute model.
#pragma once
#include <string_view>

namespace fl {

// Order is the index into GpuSpec::tensor_flops.
enum class Dtype { Fp32, Tf32, Bf16, Fp16, Fp8 };
inline constexpr int kDtypeCount = 5;

// Bytes per element in memory. TF32 is a tensor-core mode on FP32 data, so it is stored
// in 4 bytes.
constexpr int dtypeBytes(Dtype d) {
  switch (d) {
    case Dtype::Fp32:
    case Dtype::Tf32: return 4;
    case Dtype::Bf16:
    case Dtype::Fp16: return 2;
    case Dtype::Fp8: return 1;
  }
  return 4;
}

constexpr std::string_view dtypeName(Dtype d) {
  switch (d) {
    case Dtype::Fp32: return "fp32";
    case Dtype::Tf32: return "tf32";
    case Dtype::Bf16: return "bf16";
    case Dtype::Fp16: return "fp16";
    case Dtype::Fp8: return "fp8";
  }
  return "?";
}

}  // namespace fl
