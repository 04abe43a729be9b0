// workload.kind: tp_layer: transformer layers under tensor parallelism over every GPU of
// the topology (seed 002), run by the scheme in scheme.tp (tp_agent.h).
#pragma once
#include <memory>

#include "workloads/workload.h"

namespace fl::tp {

std::unique_ptr<work::Workload> makeTpLayer(const Scenario& s, net::Network& net, Simulator& sim);

}  // namespace fl::tp
