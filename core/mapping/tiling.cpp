#include "mapping/tiling.h"

namespace fl::mapping {

namespace {
bool hasUnitRing(int p, int q) {
  const int t = p * q;
  return t == 1 || t == 2 || (t % 2 == 0 && p >= 2 && q >= 2);
}
}  // namespace

std::optional<Tile> chooseTile(int rows, int cols, int t) {
  std::optional<Tile> best;
  for (int p = 1; p <= t; ++p) {
    if (t % p != 0) continue;
    const int q = t / p;
    if (rows % p != 0 || cols % q != 0 || !hasUnitRing(p, q)) continue;
    if (!best || p + q < best->p + best->q) best = Tile{p, q};  // p ascending: ties keep the smaller p
  }
  return best;
}

std::vector<std::pair<int, int>> canonicalCycle(int P, int Q) {
  std::vector<std::pair<int, int>> cells;
  if (P * Q == 1) return {{0, 0}};
  if (P % 2 != 0) {  // transpose (Q even)
    for (auto [r, c] : canonicalCycle(Q, P)) cells.emplace_back(c, r);
    return cells;
  }
  if (Q == 1) {  // a 2 x 1 pair
    for (int r = 0; r < P; ++r) cells.emplace_back(r, 0);
    return cells;
  }
  for (int c = 0; c < Q; ++c) cells.emplace_back(0, c);
  for (int r = 1; r < P; ++r)
    for (int k = 0; k < Q - 1; ++k) cells.emplace_back(r, r % 2 == 1 ? Q - 1 - k : 1 + k);
  for (int r = P - 1; r >= 1; --r) cells.emplace_back(r, 0);
  return cells;
}

}  // namespace fl::mapping
