#include "scenario/friendly_names.h"

namespace fl {

namespace {

struct Name {
  const char *key, *value, *name;
};

// Spelled as the seeds spell them (specs/ and seeds/ 002, 003, 004).
constexpr Name kNames[] = {
    {"mapping.kind", "baseline", "Baseline mapping"},
    {"mapping.kind", "er", "ER-Mapping"},
    {"mapping.kind", "her", "HER-Mapping"},
    {"mapping.kind", "explicit", "Explicit mapping"},
    {"balancer.kind", "none", "No balancer"},
    {"balancer.kind", "greedy", "Greedy balancer"},
    {"balancer.kind", "topology_aware", "Topology-aware balancer"},
    {"balancer.kind", "non_invasive", "Non-invasive balancer"},
    {"scheme.tp", "tp_nvls", "TP-NVLS"},
    {"scheme.tp", "sp_nvls", "SP-NVLS"},
    {"scheme.tp", "cais_base", "CAIS-Base"},
    {"scheme.tp", "cais_coord", "CAIS-Coord"},
    {"scheme.tp", "cais_partial", "CAIS-Partial"},
    {"scheme.tp", "cais", "CAIS"},
    {"scheme.ep", "ep", "EP"},
    {"scheme.ep", "hybrid", "HybridEP"},
    {"topology.preset", "cluster-s", "Cluster-S"},
    {"topology.preset", "cluster-m", "Cluster-M"},
    {"topology.preset", "cluster-l", "Cluster-L"},
};

}  // namespace

std::string friendlyValueName(const std::string& key, const std::string& value) {
  for (const Name& n : kNames)
    if (key == n.key && value == n.value) return n.name;
  return {};
}

}  // namespace fl
