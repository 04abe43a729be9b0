#include "moe/routing_stats.h"

#include <stdexcept>

namespace fl {

std::vector<std::int64_t> expertLoads(const Routing& r) {
  std::vector<std::int64_t> loads(static_cast<std::size_t>(r.experts), 0);
  for (std::int32_t e : r.choices) ++loads[static_cast<std::size_t>(e)];
  return loads;
}

TokenMatrix dispatchCounts(const Routing& r, const ExpertPlacement& placement) {
  const auto G = static_cast<std::size_t>(r.gpus);
  TokenMatrix counts(G, std::vector<std::int64_t>(G, 0));
  std::vector<int> stamp(G, -1);  // last token (of this GPU) that counted GPU d
  for (int s = 0; s < r.gpus; ++s) {
    std::fill(stamp.begin(), stamp.end(), -1);
    for (int t = 0; t < r.tokens_per_gpu; ++t)
      for (std::int32_t e : r.chosen(s, t)) {
        const auto d = static_cast<std::size_t>(placement.gpuOf(e));
        if (stamp[d] != t) stamp[d] = t, ++counts[static_cast<std::size_t>(s)][d];
      }
  }
  return counts;
}

std::vector<std::int64_t> tokensSent(const TokenMatrix& c) {
  std::vector<std::int64_t> v(c.size(), 0);
  for (std::size_t s = 0; s < c.size(); ++s)
    for (std::size_t d = 0; d < c.size(); ++d)
      if (d != s) v[s] += c[s][d];
  return v;
}

std::vector<std::int64_t> tokensReceived(const TokenMatrix& c) {
  std::vector<std::int64_t> v(c.size(), 0);
  for (std::size_t s = 0; s < c.size(); ++s)
    for (std::size_t d = 0; d < c.size(); ++d)
      if (d != s) v[d] += c[s][d];
  return v;
}

double meanRemoteGpus(const Routing& r, const ExpertPlacement& placement) {
  const TokenMatrix c = dispatchCounts(r, placement);
  double remote = 0;
  for (std::int64_t x : tokensSent(c)) remote += static_cast<double>(x);
  const double tokens = static_cast<double>(r.gpus) * r.tokens_per_gpu;
  return tokens > 0 ? remote / tokens : 0.0;
}

double missProbability(int n, int m, int k) {
  if (k > n) throw std::invalid_argument("more picks than experts");
  double q = 1;
  for (int i = 0; i < k; ++i) q *= n - m - i <= 0 ? 0.0 : static_cast<double>(n - m - i) / (n - i);
  return q;
}

double expectedRemoteGpusUniform(const ExpertPlacement& p, int k, int source) {
  double d = 0;
  for (int g = 0; g < p.gpus(); ++g)
    if (g != source) d += 1 - missProbability(p.experts(), static_cast<int>(p.localExperts(g).size()), k);
  return d;
}

double varianceRemoteGpusUniform(const ExpertPlacement& p, int k, int source) {
  const int E = p.experts();
  auto m = [&](int g) { return static_cast<int>(p.localExperts(g).size()); };
  double mean = 0, second = 0;  // E[D], E[D^2]
  for (int g = 0; g < p.gpus(); ++g) {
    if (g == source) continue;
    const double qg = missProbability(E, m(g), k);
    mean += 1 - qg;
    for (int h = 0; h < p.gpus(); ++h) {
      if (h == source) continue;
      second += h == g ? 1 - qg : 1 - qg - missProbability(E, m(h), k) + missProbability(E, m(g) + m(h), k);
    }
  }
  return second - mean * mean;
}

double expectedRemoteGpusUniform(int gpus, int experts, int topK) {
  return (gpus - 1) * (1 - missProbability(experts, experts / gpus, topK));
}

}  // namespace fl
