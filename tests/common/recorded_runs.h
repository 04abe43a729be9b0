// Finished runs the view tests load into a RunModel: the topology and its results, and
// the bundled NVLS all-reduce (16 MiB on DGX-H100) whose switches reduce with
// collective tags. Each run is made once per test executable.
#pragma once
#include <memory>

#include "scenario/scenario_io.h"
#include "sim/run.h"
#include "topology/topology.h"

namespace fl::test {

struct RecordedRun {
  std::shared_ptr<const topo::Topology> topology;
  std::shared_ptr<const Results> results;
};

inline RecordedRun record(const Scenario& s) {
  return RecordedRun{std::shared_ptr<const topo::Topology>(topo::buildTopology(s.topology)),
                     std::make_shared<Results>(runScenario(s))};
}

inline const RecordedRun& nvlsAllReduce16MiB() {
  static const RecordedRun r = [] {
    Scenario s = loadScenario(FABRICLAB_SCENARIOS "/dgx-h100-allreduce-ring-vs-nvls.yaml");
    s.sweep.clear();
    applyOverrides(s, {"workload.collective.algorithm=nvls", "workload.collective.size=16 MiB", "run.bin=1 us"});
    return record(s);
  }();
  return r;
}

}  // namespace fl::test
