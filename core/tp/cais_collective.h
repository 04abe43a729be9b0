// CAIS reduce-scatter (red.cais) and all-gather (ld.cais) as collectives:
// workload.collective.algorithm: cais (see cais_collective.cpp).
#pragma once
#include <memory>

#include "workloads/collective.h"

namespace fl::tp {

std::unique_ptr<work::Workload> makeCaisCollective(const CollectiveSpec& c, net::Network& net, Simulator& sim);

}  // namespace fl::tp
