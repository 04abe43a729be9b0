#include "results/results.h"

#include <algorithm>

namespace fl {

std::int64_t BinSeries::at(std::int32_t bin) const {
  const auto it = std::lower_bound(bins.begin(), bins.end(), bin);
  return it != bins.end() && *it == bin ? bytes[static_cast<std::size_t>(it - bins.begin())] : 0;
}

std::vector<std::int64_t> BinSeries::dense(std::int32_t count) const {
  std::vector<std::int64_t> d(static_cast<std::size_t>(std::max(count, 0)), 0);
  for (std::size_t i = 0; i < bins.size(); ++i)
    if (bins[i] < count) d[static_cast<std::size_t>(bins[i])] += bytes[i];
  return d;
}

}  // namespace fl
