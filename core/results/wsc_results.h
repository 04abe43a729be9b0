// What a wafer-scale MoE inference layer reports (seed 003, MoEntwine; JSON keys wsc.*).
// Dies are numbered row-major over the whole system.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/time.h"

namespace fl {

struct WscFtdResult {
  std::vector<int> members;
  int bbox_rows = 0, bbox_cols = 0;
};

struct WscTpGroupResult {
  std::vector<int> members;  // ring order
  std::vector<int> edge_hops;
};

struct WscMigrationStage {
  std::string kind;  // local | global
  int hops = 0;
};

struct WscMigration {
  int expert = -1, from = -1, to = -1;
  std::vector<WscMigrationStage> stages;
  int start_iteration = 0, end_iteration = 0;
};

struct WscResults {
  std::string model;                 // network model: packet | analytical
  std::string mapping;               // baseline | er | her | explicit
  std::vector<WscFtdResult> ftds;
  std::vector<WscTpGroupResult> tp_groups;
  double ftd_avg_hops = 0;
  Time allreduce = 0, dispatch = 0, combine = 0, comm = 0, moe_compute = 0;
  std::int64_t a2a_inter_ftd_bytes = 0;
  std::vector<std::pair<std::string, std::int64_t>> cross_border_bytes;  // per phase
  double tokens_per_s_per_device = 0;
  std::vector<double> load_max_over_mean;  // per iteration
  std::vector<WscMigration> migrations;
  Time migration_stall = 0;
  double hot_threshold = 0.9;
  std::string hot_threshold_kind = "absolute";  // or "relative": of the phase's busiest link
  Time attention = 0;  // attention compute per iteration (workload.wsc.stage; summed over micro-batches)
};

}  // namespace fl
