// libFuzzer target: the quantity parser (every unit-bearing key, --set value
// and GUI edit). The first byte picks the kind; parse must either throw
// fl::InputError or give a value that formats and parses back to itself
// (quantity.h's round-trip promise).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "scenario/input_error.h"
#include "scenario/quantity.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    switch (data[0] % 7) {
      case 5: {
        const fl::Time t = fl::parseTime(text);
        if (fl::parseTime(fl::formatTime(t)) != t) std::abort();
        break;
      }
      case 6: {
        const std::int64_t b = fl::parseBytes(text);
        if (fl::parseBytes(fl::formatBytes(b)) != b) std::abort();
        break;
      }
      default: {
        const auto kind = static_cast<fl::QuantityKind>(data[0] % 5);
        const double v = fl::parseQuantity(text, kind);
        if (std::isfinite(v) && fl::parseQuantity(fl::formatQuantity(v, kind), kind) != v) std::abort();
      }
    }
  } catch (const fl::InputError&) {
  }
  return 0;
}
