// How much memory a run needs, estimated from the scenario before it starts, and the
// limit it must fit in (run.memory_limit). A run that cannot fit is refused with the
// estimate and the keys to change; a run that outgrows its estimate while running is
// stopped by budgets derived from the same limit (recorded bins per link, live packets),
// with the same message, rather than killed by the kernel.
//
// The parts are upper-bound-leaning models of what core/sim/run.cpp and the results
// allocate, calibrated against peak RSS (/usr/bin/time -v) of bundled scenarios: the
// process itself, the fabric and its per-channel state, packets in flight, the recorded
// time bins (the network's series and their copy in Results), switch entry logs, and
// the workload's own tables (MoE routing, multicast groups, pipeline tasks).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace fl {

namespace topo {
class Topology;
}

struct MemoryEstimate {
  struct Part {
    std::string what;  // "recorded time bins", ...
    std::int64_t bytes = 0;
    std::string keys;  // the keys that make it smaller, "run.bin (wider)"
  };
  std::vector<Part> parts;
  std::int64_t resultsBytes = 0;  // of the total, what the finished point's Results keep
  std::int64_t binBytes = 0;      // of the total, recorded bins (network and Results)
  std::int64_t packetsInFlight = 0;  // the bound on packets alive at once behind its part
  std::int64_t total() const;
};

// Bytes of a run's fixed cost that one process pays once (code, libraries, allocator).
// Measured: 15.6 MiB peak RSS for `fabriclab-cli validate`, 15.7-16.1 MiB for the smallest
// runs (benchmarks/bench_memory_estimate.sh); the libraries count in the resident set.
inline constexpr std::int64_t kProcessBaseBytes = 20ll << 20;

// Physical memory of this machine (sysconf), 0 when unknown.
std::int64_t physicalMemoryBytes();
// run.memory_limit, or 75 % of physical memory when it is 0 (8 GiB when unknown).
std::int64_t memoryLimitBytes(const Scenario& s);

// One point (s without a sweep) on its fabric; excludes kProcessBaseBytes.
MemoryEstimate estimateRunMemory(const Scenario& s, const topo::Topology& topology);

// "1.5 GiB": three significant digits (scenario/quantity.h formatBytes is exact)
std::string formatApproxBytes(std::int64_t bytes);

// The error for a run (or sweep point) that cannot fit: InputError at run.memory_limit
// naming the estimate, its largest parts and the keys to change. `what` says which run
// ("the run", "sweep point 3 (workload.collective.size=1 GiB)").
[[noreturn]] void throwMemoryLimit(const MemoryEstimate& e, std::int64_t limit, const std::string& what,
                                   const std::string& found = {});
// Throws that error when the estimate plus the process' own base exceeds the limit.
void requireFits(const MemoryEstimate& e, std::int64_t limit, const std::string& what);

// Budgets a run is held to while it runs, derived from its limit and estimate: what is
// left after the fixed parts, shared between recorded bins and packets in flight.
struct MemoryBudget {
  std::int64_t recordedBins = 0;  // time bins all channels together may record
  std::int64_t livePackets = 0;   // packets alive at once
};
MemoryBudget memoryBudget(const MemoryEstimate& e, std::int64_t limit);

}  // namespace fl
