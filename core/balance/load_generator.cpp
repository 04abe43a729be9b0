#include "balance/load_generator.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "engine/random.h"

namespace fl::balance {

namespace {

constexpr double kPi = 3.14159265358979323846;

std::vector<double> zipfOverPermutation(int experts, double s, std::uint64_t seed, std::uint64_t stream) {
  RandomStream rng(seed, stream);
  std::vector<int> perm(static_cast<std::size_t>(experts));
  std::iota(perm.begin(), perm.end(), 0);
  for (int i = experts - 1; i > 0; --i)
    std::swap(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(rng.uniformInt(0, i))]);
  std::vector<double> p(static_cast<std::size_t>(experts));
  double sum = 0;
  for (int r = 0; r < experts; ++r) sum += std::pow(r + 1.0, -s);
  for (int r = 0; r < experts; ++r) p[static_cast<std::size_t>(perm[static_cast<std::size_t>(r)])] = std::pow(r + 1.0, -s) / sum;
  return p;
}

}  // namespace

std::vector<double> LoadGenerator::popularity(int iteration) const {
  if (scenario == LoadScenario::Single)
    return zipfOverPermutation(experts, zipf_s, seed, 1000 + static_cast<std::uint64_t>(std::min(iteration, warmup)));
  std::vector<double> p(static_cast<std::size_t>(experts), 0);
  double total = 0;
  for (int s = 0; s < 4; ++s) {
    const double c = 1 + std::cos(2 * kPi * (static_cast<double>(iteration) / std::max(1, period) - s / 4.0));
    const auto q = zipfOverPermutation(experts, zipf_s, seed, 2000 + static_cast<std::uint64_t>(s));
    for (std::size_t e = 0; e < p.size(); ++e) p[e] += c * q[e];
    total += c;
  }
  for (double& x : p) x /= total;
  return p;
}

std::vector<double> LoadGenerator::sample(int iteration) const {
  const auto p = popularity(iteration);
  std::vector<double> cdf(p.size());
  std::partial_sum(p.begin(), p.end(), cdf.begin());
  std::vector<double> out(p.size(), 0);
  RandomStream rng(seed, 5000 + static_cast<std::uint64_t>(iteration));
  const auto picks = static_cast<std::int64_t>(std::llround(picksPerIteration));
  for (std::int64_t i = 0; i < picks; ++i) {
    auto it = std::upper_bound(cdf.begin(), cdf.end(), rng.uniform01() * cdf.back());
    if (it == cdf.end()) --it;
    out[static_cast<std::size_t>(it - cdf.begin())] += 1;
  }
  return out;
}

}  // namespace fl::balance
