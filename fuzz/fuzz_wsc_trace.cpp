// libFuzzer target: the wafer-scale load trace CSV (workload.wsc.trace, rows
// iteration,layer,expert,tokens). The first byte picks the expert count (1..256),
// the second the iteration (0..3); the rest is the file's text. traceShares reads a
// path, so each input is written to a scratch file first (core stays untouched).
// An accepted trace gives one finite share >= 0 per expert, summing to 1.
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "scenario/input_error.h"
#include "wsc/gating.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  static const std::string path = "/tmp/fabriclab-fuzz-wsc-trace-" + std::to_string(getpid()) + ".csv";
  const int experts = 1 + data[0];
  const int iteration = data[1] % 4;
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data) + 2, static_cast<std::streamsize>(size - 2));
  }
  try {
    const std::vector<double> shares = fl::wsc::traceShares(path, experts, iteration);
    if (shares.size() != static_cast<std::size_t>(experts)) std::abort();
    double sum = 0;
    for (double s : shares) {
      if (!std::isfinite(s) || s < 0) std::abort();
      sum += s;
    }
    if (std::abs(sum - 1) > 1e-9) std::abort();
  } catch (const fl::InputError&) {
  }
  return 0;
}
