#include "wsc/gating.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "engine/random.h"

namespace fl::wsc {

namespace {

std::vector<double> zipfShares(int experts, double s, std::uint64_t seed) {
  std::vector<int> perm(static_cast<std::size_t>(experts));
  std::iota(perm.begin(), perm.end(), 0);
  std::mt19937_64 rng(seed ^ 0x5a1fULL);
  for (int i = experts - 1; i > 0; --i) {  // Fisher-Yates with our own draw: portable across libraries
    const auto j = static_cast<int>(rng() % static_cast<std::uint64_t>(i + 1));
    std::swap(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(j)]);
  }
  std::vector<double> p(static_cast<std::size_t>(experts));
  double sum = 0;
  for (int r = 0; r < experts; ++r) sum += 1.0 / std::pow(r + 1.0, s);
  for (int r = 0; r < experts; ++r) p[static_cast<std::size_t>(perm[static_cast<std::size_t>(r)])] = 1.0 / std::pow(r + 1.0, s) / sum;
  return p;
}

// Multinomial by inversion with a portable generator (std::discrete_distribution's
// draws differ between standard libraries).
std::vector<double> sample(const std::vector<double>& p, std::int64_t picks, std::uint64_t seed) {
  std::vector<double> cdf(p.size());
  std::partial_sum(p.begin(), p.end(), cdf.begin());
  std::vector<double> out(p.size(), 0);
  std::mt19937_64 rng(seed);
  for (std::int64_t i = 0; i < picks; ++i) {
    const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53 * cdf.back();
    auto it = std::upper_bound(cdf.begin(), cdf.end(), u);
    if (it == cdf.end()) --it;
    out[static_cast<std::size_t>(it - cdf.begin())] += 1;
  }
  return out;
}

}  // namespace

std::vector<double> expertPicks(const WscSpec& w, double tokens, std::uint64_t seed, std::uint64_t stream,
                                const std::vector<double>& traceShares) {
  const auto E = static_cast<std::size_t>(w.experts);
  const double total = tokens * w.top_k;
  switch (w.gating) {
    case WscGating::UniformExact: return std::vector<double>(E, total / w.experts);
    case WscGating::Uniform:
      return sample(std::vector<double>(E, 1.0 / w.experts), std::llround(total), mixSeed(seed, stream));
    case WscGating::Zipf:
      return sample(zipfShares(w.experts, w.zipf_s, seed), std::llround(total), mixSeed(seed, stream));
    case WscGating::Trace: {
      std::vector<double> out(E);
      for (std::size_t e = 0; e < E; ++e) out[e] = total * traceShares[e];
      return out;
    }
  }
  return {};
}

}  // namespace fl::wsc
