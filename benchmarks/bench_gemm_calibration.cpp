// The tile GEMM model (core/gpu/tile_gemm) against measured cuBLAS times on an H200
// (benchmarks/calibration/h200_cublas_gemm.csv, see its header for how they were taken).
// Prints, per shape, the model's time on all 132 SMs with 128 x 128 tiles, the measured
// time and their ratio, then the geometric mean and spread of model/measured per dtype and
// the tensor efficiency that the large compute-bound shapes imply. A calibration report,
// not a pass/fail check: the model is a roofline of tile waves, cuBLAS picks other tile
// shapes, split-K and stream-K for small M, so the ratio is expected to move with M.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "gpu/gpu_spec.h"
#include "gpu/tile_gemm.h"

using namespace fl;

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : FABRICLAB_CALIBRATION_DIR "/h200_cublas_gemm.csv";
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "bench_gemm_calibration: cannot open %s\n", path.c_str());
    return 2;
  }
  const GpuSpec gpu = gpuPreset("h200");
  struct Stats { double logSum = 0, minR = 1e9, maxR = 0; int n = 0; double bigEff = 0; int bigN = 0; };
  std::map<std::string, Stats> byDtype;
  std::printf("%-5s %-18s %6s %6s %6s %10s %10s %7s %9s\n", "dtype", "shape", "m", "n", "k", "model us",
              "cuBLAS us", "ratio", "cuBLAS TF");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("dtype", 0) == 0) continue;
    std::stringstream ss(line);
    std::string dtype, label, f;
    GemmShape shape;
    double us = 0, tflops = 0;
    std::getline(ss, dtype, ',');
    std::getline(ss, label, ',');
    std::getline(ss, f, ','); shape.m = std::stoll(f);
    std::getline(ss, f, ','); shape.n = std::stoll(f);
    std::getline(ss, f, ','); shape.k = std::stoll(f);
    std::getline(ss, f, ','); us = std::stod(f);
    std::getline(ss, f, ','); tflops = std::stod(f);
    const Dtype d = dtype == "fp8" ? Dtype::Fp8 : Dtype::Bf16;
    const GemmTime t = gemmTime(gpu, shape, TileShape{}, d, Dtype::Bf16, gpu.sms);
    const double modelUs = t.seconds * 1e6, ratio = modelUs / us;
    std::printf("%-5s %-18s %6lld %6lld %6lld %10.2f %10.2f %7.3f %9.1f\n", dtype.c_str(), label.c_str(),
                static_cast<long long>(shape.m), static_cast<long long>(shape.n), static_cast<long long>(shape.k),
                modelUs, us, ratio, tflops);
    Stats& s = byDtype[dtype];
    s.logSum += std::log(ratio);
    s.minR = std::min(s.minR, ratio);
    s.maxR = std::max(s.maxR, ratio);
    ++s.n;
    if (shape.m >= 4096 && shape.k >= 2048) {  // compute-bound: what tensor_efficiency stands for
      s.bigEff += tflops * 1e12 / gpu.flops(d);
      ++s.bigN;
    }
  }
  for (const auto& [dtype, s] : byDtype)
    std::printf("%s: model/measured geomean %.3f (min %.3f, max %.3f) over %d shapes; measured efficiency "
                "of shapes with m >= 4096, k >= 2048: %.3f (model's gpu.tensor_efficiency %.2f)\n",
                dtype.c_str(), std::exp(s.logSum / s.n), s.minR, s.maxR, s.n, s.bigN ? s.bigEff / s.bigN : 0.0,
                gpu.tensor_efficiency);
  return 0;
}
