// libFuzzer target: the wafer-scale expert load trace CSV (workload.wsc.trace, rows
// iteration,layer,expert,tokens; core/wsc/expert_load_trace.h). The first byte picks
// the expert count (1..256), the second how many iterations the run needs (1..4); the
// rest is the file's text. Bad input must end in fl::InputError. An accepted trace
// that covers the run gives, for each of those iterations, one finite share >= 0 per
// expert, summing to 1.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "scenario/input_error.h"
#include "wsc/expert_load_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const int experts = 1 + data[0];
  const int iterations = 1 + data[1] % 4;
  const std::string_view text(reinterpret_cast<const char*>(data) + 2, size - 2);
  try {
    const fl::wsc::ExpertLoadTrace trace = fl::wsc::parseExpertLoadTrace(text, "fuzz.csv", experts);
    fl::wsc::checkTraceCovers(trace, "fuzz.csv", iterations);
    for (int i = 0; i < iterations; ++i) {
      const std::vector<double> shares = trace.shares(i);
      if (shares.size() != static_cast<std::size_t>(experts)) std::abort();
      double sum = 0;
      for (double s : shares) {
        if (!std::isfinite(s) || s < 0) std::abort();
        sum += s;
      }
      if (std::abs(sum - 1) > 1e-9) std::abort();
    }
  } catch (const fl::InputError&) {
  }
  return 0;
}
