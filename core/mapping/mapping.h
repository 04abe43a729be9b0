// A mapping of a wafer-scale mesh (seed 003 §IV): which dies form each TP group (in ring
// order, the all-reduce domains) and which form each Full Token Domain (the all-to-all
// domains). Dies are numbered row-major over the whole system: id = row x columns + col,
// rows and columns counted across wafers. Built by baseline_mapping, er_mapping,
// her_mapping or from an explicit list (explicit_mapping); validated in one place.
#pragma once
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace fl::mapping {

struct Mapping {
  MappingKind kind = MappingKind::Baseline;
  int rows = 0, cols = 0;            // the system's die grid
  int waferRows = 0, waferCols = 0;  // dies per wafer
  std::vector<std::vector<int>> groups;  // TP groups, members in ring order
  std::vector<std::vector<int>> ftds;    // all-to-all domains
  std::vector<int> groupOf, ftdOf;       // per die
  // HER (§2.8): intra-wafer reduce-scatter only, then an all-gather among counterpart dies
  // (same position on every wafer); the all-to-all spans each wafer.
  bool interWaferAllGather = false;
  // Switched fabrics (DGX B200 nodes, NVL72; switched_fabric.h): the GPUs in one row, and
  // each pair's links on its route instead of the Manhattan distance.
  std::vector<int> pairHops;  // [a * dies + b]; empty on meshes

  int dies() const { return rows * cols; }
  int row(int die) const { return die / cols; }
  int col(int die) const { return die % cols; }
  int wafer(int die) const { return (row(die) / waferRows) * (cols / waferCols) + col(die) / waferCols; }
  int hops(int a, int b) const;  // Manhattan distance (XY route length)
};

// The mapping of `spec` on the topology's die grid for TP degree `tp`; allGather false
// keeps the reduce-scatter only, so the FTD becomes the whole mesh (§2.2). Throws
// ValidationError naming mapping.* or workload.wsc.tp for impossible mappings.
Mapping buildMapping(const MappingSpec& spec, const TopologySpec& topology, int tp, bool allGather = true);

// Finishes a mapping whose groups are set: FTDs (the k-th ring member of every group) when
// `ftds` is empty, groupOf / ftdOf, and the checks every mapping must pass.
void completeMapping(Mapping& m, const char* groupsKey);

// Hops of each ring edge of a group (member i to member i+1, the last back to the first).
std::vector<int> ringEdgeHops(const Mapping& m, const std::vector<int>& group);

struct BoundingBox {
  int rows = 0, cols = 0;
};
BoundingBox boundingBox(const Mapping& m, const std::vector<int>& dies);

// The baseline on a switched fabric (NVSwitch or hierarchy): TP groups of t consecutive
// GPUs (t = 8: one DGX node), rings in GPU order, FTDs the k-th GPU of every group (one per
// node: the rails of DeepSpeed-MoE's hierarchical all-to-all). Hops come later
// (switched_fabric.h), from the fabric's routes.
Mapping buildSwitchedMapping(const MappingSpec& spec, int gpus, int tp, bool allGather);

// Mean XY hops over ordered pairs u != v inside each FTD (uniform gating), averaged over
// the FTDs (spec §3.2).
double meanFtdHops(const Mapping& m);

}  // namespace fl::mapping
