// Topology specs the topology, layout and canvas tests build again and again.
#pragma once
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace fl::test {

inline TopologySpec meshSpec(int rows, int cols, int waferRows = 1, int waferCols = 1) {
  TopologySpec s;
  s.kind = TopologyKind::Mesh;
  s.rows = rows;
  s.cols = cols;
  s.wafer_rows = waferRows;
  s.wafer_cols = waferCols;
  return s;
}

// Levels named dc, node, gpu, x, ...: counts outermost first, all with one link type.
inline TopologySpec hierarchySpec(const std::vector<int>& counts, double bandwidth = 1e9, Time latency = 1000) {
  static const char* const names[] = {"dc", "node", "gpu", "x", "y", "z"};
  TopologySpec s;
  s.kind = TopologyKind::Hierarchy;
  for (std::size_t i = 0; i < counts.size(); ++i)
    s.levels.push_back(LevelSpec{names[i], counts[i], bandwidth, latency, LevelUplinks::Shared});
  return s;
}

}  // namespace fl::test
