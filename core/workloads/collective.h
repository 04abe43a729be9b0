// Collective workloads and their nccl-tests metrics. Size S is nccl-tests' "size": the
// per-GPU buffer of all-reduce; the full (input) vector of reduce-scatter; the full
// (output) vector of all-gather; the per-GPU send buffer of all-to-all.
#pragma once
#include <cstdint>
#include <memory>

#include "workloads/workload.h"

namespace fl::work {

// busbw / algbw as nccl-tests defines it (PERFORMANCE.md): all-reduce 2(n-1)/n;
// reduce-scatter, all-gather, all-to-all (n-1)/n; point-to-point 1.
double busBandwidthFactor(CollectiveOp op, int n);

// Bytes of chunk `index` when `total` is split into `parts` nearly equal chunks.
std::int64_t chunkBytes(std::int64_t total, int parts, int index);

class CollectiveWorkload : public Workload {
 public:
  explicit CollectiveWorkload(const CollectiveSpec& spec) : spec_(spec) {}
  void finish(Results& r) const override;

 protected:
  CollectiveSpec spec_;
};

std::unique_ptr<Workload> makeRingCollective(const CollectiveSpec& c, net::Network& net, Simulator& sim);
std::unique_ptr<Workload> makeNvlsCollective(const CollectiveSpec& c, net::Network& net, Simulator& sim);
std::unique_ptr<Workload> makeDirectCollective(const CollectiveSpec& c, net::Network& net, Simulator& sim);

}  // namespace fl::work
