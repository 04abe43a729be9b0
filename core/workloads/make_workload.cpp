#include <stdexcept>

#include "tp/cais_collective.h"
#include "tp/tp_layer.h"
#include "workloads/collective.h"
#include "workloads/moe_layer.h"
#include "workloads/synthetic_traffic.h"
#include "wsc/wsc_run.h"
#include "xdc/cross_dc_run.h"

namespace fl::work {

std::unique_ptr<Workload> makeWorkload(const Scenario& s, net::Network& net, Simulator& sim) {
  if (s.workload.kind == WorkloadKind::Traffic) return makeSyntheticTraffic(s, net, sim);
  if (s.workload.kind == WorkloadKind::MoeLayer) return makeMoeLayer(s, net, sim);
  if (s.workload.kind == WorkloadKind::TpLayer) return tp::makeTpLayer(s, net, sim);
  if (s.workload.kind == WorkloadKind::WscInference) return wsc::makeWscWorkload(s, net, sim);
  if (s.workload.kind == WorkloadKind::CrossDcMoe) return xdc::makeCrossDcWorkload(s, net, sim);
  const CollectiveSpec& c = s.workload.collective;
  switch (c.algorithm) {
    case CollectiveAlgorithm::Ring: return makeRingCollective(c, net, sim);
    case CollectiveAlgorithm::Nvls: return makeNvlsCollective(c, net, sim);
    case CollectiveAlgorithm::Direct: return makeDirectCollective(c, net, sim);
    case CollectiveAlgorithm::Cais: return tp::makeCaisCollective(c, net, sim);
  }
  throw std::logic_error("unknown collective algorithm");
}

}  // namespace fl::work
