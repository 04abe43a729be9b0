#include "workloads/collective.h"

namespace fl::work {

double busBandwidthFactor(CollectiveOp op, int n) {
  const double dn = n;
  switch (op) {
    case CollectiveOp::AllReduce: return 2.0 * (dn - 1) / dn;
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::AllGather:
    case CollectiveOp::AllToAll:
    case CollectiveOp::AllToAllV: return (dn - 1) / dn;
    case CollectiveOp::P2P: return 1.0;
  }
  return 1.0;
}

std::int64_t chunkBytes(std::int64_t total, int parts, int index) {
  const std::int64_t base = total / parts;
  return base + (index < total % parts ? 1 : 0);
}

void CollectiveWorkload::finish(Results& r) const {
  Workload::finish(r);
  const Time t = makespan();
  r.collective_size_bytes = spec_.size;
  if (t > 0) {
    const double algbw = static_cast<double>(spec_.size) / toSeconds(t) / 1e9;
    r.algbw_GBps = algbw;
    r.busbw_GBps = algbw * busBandwidthFactor(spec_.op, static_cast<int>(agents_.size()));
  }
}

}  // namespace fl::work
