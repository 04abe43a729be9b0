#include "mapping/baseline_mapping.h"

namespace fl::mapping {

std::vector<std::vector<int>> baselineGroups(int X, int Y, Tile tile, int row0, int col0, int systemCols) {
  std::vector<std::vector<int>> groups;
  const auto cycle = canonicalCycle(tile.p, tile.q);
  for (int i = 0; i < X / tile.p; ++i)
    for (int j = 0; j < Y / tile.q; ++j) {
      std::vector<int> g;
      for (auto [r, c] : cycle) g.push_back((row0 + i * tile.p + r) * systemCols + col0 + j * tile.q + c);
      groups.push_back(std::move(g));
    }
  return groups;
}

}  // namespace fl::mapping
