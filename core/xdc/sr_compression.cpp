#include "xdc/sr_compression.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace fl::xdc {

Tensor sharedExpert(const std::vector<Tensor>& experts) {
  if (experts.empty()) throw std::invalid_argument("sharedExpert: no experts");
  Tensor s(experts.front().size(), 0.0f);
  for (const Tensor& e : experts) {
    if (e.size() != s.size()) throw std::invalid_argument("sharedExpert: experts differ in size");
    for (std::size_t i = 0; i < s.size(); ++i) s[i] += e[i];
  }
  for (float& v : s) v /= static_cast<float>(experts.size());
  return s;
}

SparseResidual srEncode(const Tensor& expert, const Tensor& shared, std::size_t k) {
  if (expert.size() != shared.size()) throw std::invalid_argument("srEncode: sizes differ");
  Tensor r(expert.size());
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = expert[i] - shared[i];
  std::vector<std::uint32_t> order(r.size());
  std::iota(order.begin(), order.end(), 0u);
  k = std::min(k, r.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                    [&](std::uint32_t a, std::uint32_t b) {
                      const float x = std::fabs(r[a]), y = std::fabs(r[b]);
                      return x != y ? x > y : a < b;
                    });
  order.resize(k);
  std::sort(order.begin(), order.end());
  SparseResidual out;
  out.size = r.size();
  out.indices = order;
  for (std::uint32_t i : order) out.values.push_back(r[i]);
  return out;
}

Tensor srDecode(const SparseResidual& r, const Tensor& shared) {
  if (r.size != shared.size()) throw std::invalid_argument("srDecode: sizes differ");
  Tensor w = shared;
  for (std::size_t j = 0; j < r.indices.size(); ++j) w[r.indices[j]] += r.values[j];
  return w;
}

std::size_t keptEntries(std::size_t n, double ratio, int valueBytes, int indexBytes) {
  if (!(ratio >= 1)) throw std::invalid_argument("keptEntries: ratio below 1");
  const double k = double(n) * valueBytes / (ratio * (valueBytes + indexBytes));
  return std::max<std::size_t>(1, static_cast<std::size_t>(std::floor(k)));
}

std::int64_t encodedBytes(const SparseResidual& r, int valueBytes, int indexBytes) {
  return static_cast<std::int64_t>(r.values.size()) * (valueBytes + indexBytes);
}

}  // namespace fl::xdc
