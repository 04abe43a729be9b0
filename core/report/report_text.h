// One-line descriptions for the report: the workload, the fabric, a sweep point.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "scenario/scenario.h"
#include "topology/topology.h"

namespace fl::report {

// "all_reduce ring, 256 MiB per GPU", "p2p gpu0 → gpu1, 1 GiB",
// "uniform traffic at 30 % load for 4 us"
std::string workloadOneLine(const Scenario& s);

// The builder's description, or "mesh: 64 endpoints, 128 nodes, 176 links".
std::string topologyOneLine(const topo::Topology& t);

// "workload.collective.size = 64 KiB, workload.collective.algorithm = nvls"
std::string settingsText(const std::vector<std::pair<std::string, std::string>>& settings);

// The schema's text for a key ("25 GB/s"), or "" for an unknown key.
std::string valueText(const Scenario& s, const std::string& key);

}  // namespace fl::report
