// HybridEP's parameter-efficient migration (seed 004 §IV-B, spec 1.9): experts travel as
// a sparse residual against a shared expert. SREncode: R_e = W_e - S_h, keep the k
// entries of largest magnitude as (value, index) pairs; SRDecode: W_hat = S_h + scatter.
// The simulator uses only the ratio (expert bytes / compression ratio); these functions
// are the real transform, for tests and for sizing k from a ratio.
#pragma once
#include <cstdint>
#include <vector>

namespace fl::xdc {

using Tensor = std::vector<float>;  // one expert's parameters, flattened

// S_h = (1/E) sum_e W_e (the paper's initialisation; how it is kept in sync is not given).
Tensor sharedExpert(const std::vector<Tensor>& experts);

struct SparseResidual {
  std::vector<float> values;
  std::vector<std::uint32_t> indices;  // ascending
  std::size_t size = 0;                // dense length
};

// Top-k of |W - S_h| (the paper does not say "by magnitude"; spec 1.9 [R]). Ties break
// to the lower index, so the result is deterministic.
SparseResidual srEncode(const Tensor& expert, const Tensor& shared, std::size_t k);
Tensor srDecode(const SparseResidual& r, const Tensor& shared);

// Entries kept for a ratio: CR = N b_v / (k (b_v + b_i)), so k = N b_v / (CR (b_v + b_i)),
// at least 1 (spec 1.9; the paper gives CR only).
std::size_t keptEntries(std::size_t n, double ratio, int valueBytes = 4, int indexBytes = 4);
// Bytes of the (value, index) payload.
std::int64_t encodedBytes(const SparseResidual& r, int valueBytes = 4, int indexBytes = 4);

}  // namespace fl::xdc
