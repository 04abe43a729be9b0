// Counting an MoE layer's traffic by what it achieves, packet by packet, at the GPUs
// that send and receive it (on an NVSwitch fabric every link is a GPU's uplink or
// downlink, so these sums equal the links' totals): payload split into useful, redundant
// and useless bytes, and wire bytes (whose excess over payload is the framing overhead).
#pragma once
#include <cstdint>
#include <vector>

#include "results/results.h"
#include "topology/topology.h"
#include "workloads/moe_plan.h"

namespace fl::work {

enum TrafficClass : int { kUseful = 0, kRedundant = 1, kUseless = 2 };

struct MoeAccounting {
  std::int64_t payload[2][2][3] = {};  // [phase][direction][class]
  std::int64_t wire[2][2] = {};        // [phase][direction]

  void add(int phase, int direction, int cls, std::int64_t bytes) {
    payload[phase][direction][cls] += bytes;
  }
  void merge(const MoeAccounting& o);
  // Rows for (dispatch, combine, all) x (uplink, downlink).
  std::vector<TrafficBreakdownRow> rows() const;
};

// Seconds the useful bytes need per phase (and for both phases at once) on the busiest
// resource: the lower bound's pieces, kept apart so that several bounds can be combined.
struct CommBound {
  double dispatch = 0, combine = 0, both = 0;
  void raise(const CommBound& o);
  // Sequential phases add up, concurrent ones share the links.
  Time time(bool concurrent) const;
};

// The time the useful bytes need at each GPU's link rate, framed as tightly as the
// packet format allows (full NVLink packets: dispatch data as writes, combine data as
// read responses): per GPU the busier direction decides. A lower bound for every scheme.
CommBound gpuLinkBound(const MoePlan& plan, const std::vector<double>& gpuRate, double dispatchFraming,
                       double combineFraming);
Time idealCommTime(const MoePlan& plan, bool concurrent, const std::vector<double>& gpuRate,
                   double dispatchFraming, double combineFraming);

// Fabrics with one path per GPU pair (hierarchies): each token's useful bytes on every
// link direction of the paths to its destination GPUs, once per direction (ideal
// multicast in Dispatch, ideal reduction in Combine), each direction at its own rate; the
// busiest direction decides. On multi-node fabrics this is what the NICs impose (a GPU's
// 25 GB/s NIC, not the sum of its links). `gpuNode[g]` is GPU g's topology node.
CommBound pathBound(const MoePlan& plan, const topo::Topology& t, const std::vector<topo::NodeId>& gpuNode,
                    double dispatchFraming, double combineFraming);

}  // namespace fl::work
