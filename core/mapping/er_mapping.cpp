#include "mapping/er_mapping.h"

namespace fl::mapping {

std::vector<std::vector<int>> erGroups(int X, int Y, Tile tile, int row0, int col0, int systemCols) {
  const int m = X / tile.p, n = Y / tile.q;
  const auto cycle = canonicalCycle(tile.p, tile.q);
  std::vector<std::vector<int>> groups;
  for (int a = 0; a < m; ++a)
    for (int b = 0; b < n; ++b) {
      std::vector<int> g;
      for (auto [I, J] : cycle) g.push_back((row0 + I * m + a) * systemCols + col0 + J * n + b);
      groups.push_back(std::move(g));
    }
  return groups;
}

}  // namespace fl::mapping
