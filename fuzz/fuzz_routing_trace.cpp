// libFuzzer target: the MoE routing trace CSV (workload.moe.routing.trace). The
// first two bytes pick the expert count (1..256) and top_k (1..16); every
// accepted trace must hold top_k distinct ids below the expert count per row.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "moe/routing_trace.h"
#include "scenario/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const int experts = 1 + data[0];
  const int topK = 1 + data[1] % 16;
  const std::string_view text(reinterpret_cast<const char*>(data) + 2, size - 2);
  try {
    const fl::RoutingTrace t = fl::parseRoutingTrace(text, "fuzz.csv", experts, topK);
    if (t.rows() == 0 || t.experts.size() != t.rows() * static_cast<std::size_t>(topK)) std::abort();
    for (std::int32_t e : t.experts)
      if (e < 0 || e >= experts) std::abort();
  } catch (const fl::InputError&) {
  }
  return 0;
}
