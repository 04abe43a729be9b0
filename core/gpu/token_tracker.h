// DySHARP's token tracker tables (seed 000 §IV-B2): the Tile Status table (one entry per
// live 128-token tile of an expert, from its first dispatched token until its GEMM-2 row
// has notified the sources) and the Output Readiness table (one entry per token waiting
// for its experts' outputs). Both live on chip with a fixed number of entries and spill
// to DRAM on overflow; an access to a spilled entry costs a DRAM round trip.
#pragma once
#include <cstdint>

#include "engine/time.h"

namespace fl {

class TrackerTable {
 public:
  TrackerTable(std::int64_t entries, Time spillLatency) : capacity_(entries), spillLatency_(spillLatency) {}

  // Allocates an entry; returns whether it spilled (the table was full).
  bool allocate() {
    ++live_;
    if (live_ > peak_) peak_ = live_;
    return live_ > capacity_;
  }
  void release() { --live_; }
  // The extra time of one access to an entry allocated with `spilled`.
  Time access(bool spilled) {
    if (!spilled) return 0;
    ++overflows_;
    return spillLatency_;
  }

  std::int64_t live() const { return live_; }
  std::int64_t peak() const { return peak_; }
  std::int64_t overflows() const { return overflows_; }
  std::int64_t capacity() const { return capacity_; }

 private:
  std::int64_t capacity_;
  Time spillLatency_;
  std::int64_t live_ = 0, peak_ = 0, overflows_ = 0;
};

}  // namespace fl
