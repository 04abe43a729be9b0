#include "xdc/domain_partition.h"

#include <cassert>

namespace fl::xdc {

std::int64_t gpuCount(const std::vector<int>& sf) {
  std::int64_t g = 1;
  for (int f : sf) g *= f;
  return g;
}

std::vector<int> renumber(std::int64_t m, const std::vector<int>& sf) {
  std::vector<int> x(sf.size());
  for (std::size_t i = sf.size(); i-- > 0;) {
    x[i] = static_cast<int>(m % sf[i]);
    m /= sf[i];
  }
  return x;
}

std::int64_t globalRank(const std::vector<int>& location, const std::vector<int>& sf) {
  std::int64_t m = 0;
  for (std::size_t i = 0; i < sf.size(); ++i) m = m * sf[i] + location[i];
  return m;
}

PairKind classifyPair(std::int64_t m, std::int64_t n, int level, const std::vector<int>& sf,
                      const std::vector<int>& domains) {
  const std::vector<int> lm = renumber(m, sf), ln = renumber(n, sf);
  const auto l = static_cast<std::size_t>(level);
  for (std::size_t i = 0; i < sf.size(); ++i)
    if (i != l && lm[i] != ln[i]) return PairKind::None;
  const int s = domains[l];
  const int edM = lm[l] / s, offM = lm[l] % s, edN = ln[l] / s, offN = ln[l] % s;
  if (edM == edN && offM != offN) return PairKind::AllGather;
  if (edM != edN && offM == offN) return PairKind::AllToAll;
  return PairKind::None;
}

std::vector<std::int64_t> peers(std::int64_t m, int level, PairKind kind, const std::vector<int>& sf,
                                const std::vector<int>& domains) {
  std::vector<std::int64_t> out;
  peers(m, level, kind, sf, domains, out);
  return out;
}

void peers(std::int64_t m, int level, PairKind kind, const std::vector<int>& sf, const std::vector<int>& domains,
           std::vector<std::int64_t>& out) {
  out.clear();
  if (kind == PairKind::None) return;
  const auto l = static_cast<std::size_t>(level);
  // Only digit l changes: rank = m + (digit' - digit) x stride, stride = prod_{j>l} SF^j.
  std::int64_t stride = 1;
  for (std::size_t j = l + 1; j < sf.size(); ++j) stride *= sf[j];
  const int s = domains[l], w = static_cast<int>((m / stride) % sf[l]), ed = w / s, off = w % s;
  const std::int64_t base = m - std::int64_t(w) * stride;
  if (kind == PairKind::AllGather) {
    for (int o = 0; o < s; ++o)
      if (o != off) out.push_back(base + std::int64_t(ed * s + o) * stride);
  } else {
    for (int d = 0; d < sf[l] / s; ++d)
      if (d != ed) out.push_back(base + std::int64_t(d * s + off) * stride);
  }
  // Ascending: the level's digit grows with o or d, the others are fixed.
}

PairCounts pairCounts(int level, const std::vector<int>& sf, const std::vector<int>& domains) {
  const auto l = static_cast<std::size_t>(level);
  const std::int64_t g = gpuCount(sf);
  return {g * (sf[l] / domains[l] - 1), g * (domains[l] - 1)};
}

}  // namespace fl::xdc
