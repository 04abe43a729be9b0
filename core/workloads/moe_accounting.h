// Counting an MoE layer's traffic by what it achieves, packet by packet, at the GPUs
// that send and receive it (on an NVSwitch fabric every link is a GPU's uplink or
// downlink, so these sums equal the links' totals): payload split into useful, redundant
// and useless bytes, and wire bytes (whose excess over payload is the framing overhead).
#pragma once
#include <cstdint>
#include <vector>

#include "results/results.h"
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

// The time the useful bytes need at each GPU's link rate, framed as tightly as the
// packet format allows (full NVLink packets: dispatch data as writes, combine data as
// read responses): per GPU the busier direction decides; sequential phases add up,
// concurrent ones share the links. A lower bound for every scheme.
Time idealCommTime(const MoePlan& plan, bool concurrent, const std::vector<double>& gpuRate,
                   double dispatchFraming, double combineFraming);

}  // namespace fl::work
