#include "balance/migration_path.h"

#include <climits>
#include <cstdlib>

namespace fl::balance {

namespace {

bool interLink(const mapping::Mapping& m, int a, int b) {
  return m.ftdOf[static_cast<std::size_t>(a)] != m.ftdOf[static_cast<std::size_t>(b)];
}

}  // namespace

std::vector<int> migrationPath(const mapping::Mapping& m, int from, int to) {
  const int r0 = m.row(from), c0 = m.col(from), r1 = m.row(to), c1 = m.col(to);
  const int dr = r1 >= r0 ? 1 : -1, dc = c1 >= c0 ? 1 : -1;
  const int R = std::abs(r1 - r0) + 1, C = std::abs(c1 - c0) + 1;
  const auto die = [&](int i, int j) { return (r0 + i * dr) * m.cols + c0 + j * dc; };
  // best[i][j][k]: fewest class changes from cell (i, j) to the target, having arrived over
  // a link of class k (0 intra, 1 inter, 2 none yet).
  std::vector<int> best(static_cast<std::size_t>(R * C * 3), INT_MAX);
  const auto at = [&](int i, int j, int k) -> int& { return best[static_cast<std::size_t>((i * C + j) * 3 + k)]; };
  for (int i = R - 1; i >= 0; --i)
    for (int j = C - 1; j >= 0; --j)
      for (int k = 0; k < 3; ++k) {
        if (i == R - 1 && j == C - 1) {
          at(i, j, k) = 0;
          continue;
        }
        int v = INT_MAX;
        const auto step = [&](int ni, int nj) {
          const int cls = interLink(m, die(i, j), die(ni, nj)) ? 1 : 0;
          v = std::min(v, at(ni, nj, cls) + (k != 2 && k != cls ? 1 : 0));
        };
        if (j + 1 < C) step(i, j + 1);
        if (i + 1 < R) step(i + 1, j);
        at(i, j, k) = v;
      }
  std::vector<int> path = {from};
  int i = 0, j = 0, k = 2;
  while (i != R - 1 || j != C - 1) {
    if (j + 1 < C) {
      const int cls = interLink(m, die(i, j), die(i, j + 1)) ? 1 : 0;
      if (at(i, j + 1, cls) + (k != 2 && k != cls ? 1 : 0) == at(i, j, k)) {  // along the row first, as XY
        ++j, k = cls;
        path.push_back(die(i, j));
        continue;
      }
    }
    k = interLink(m, die(i, j), die(i + 1, j)) ? 1 : 0;
    ++i;
    path.push_back(die(i, j));
  }
  return path;
}

std::vector<MigrationStage> migrationStages(const mapping::Mapping& m, int from, int to) {
  const auto path = migrationPath(m, from, to);
  std::vector<MigrationStage> stages;
  for (std::size_t s = 0; s + 1 < path.size(); ++s) {
    const bool global = interLink(m, path[s], path[s + 1]);
    if (stages.empty() || stages.back().global != global) stages.push_back({global, {path[s]}});
    stages.back().dies.push_back(path[s + 1]);
  }
  return stages;
}

}  // namespace fl::balance
