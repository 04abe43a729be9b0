// The TP tile shared by the baseline and ER mappings (seed 003 §IV-B3, spec moentwine.md
// §2.3 [R]: the paper's algorithm figure is lost): a p x q tile with p*q = t, p | X, q | Y,
// whose grid has a Hamiltonian cycle of unit steps; the smallest p + q, then the smallest p.
#pragma once
#include <optional>
#include <utility>
#include <vector>

namespace fl::mapping {

struct Tile {
  int p = 1, q = 1;  // rows x columns
};

// nullopt when no such tile exists (t odd and > 1, or no divisor pair fits X x Y).
std::optional<Tile> chooseTile(int rows, int cols, int t);

// The canonical cycle on a P x Q grid as (row, col) in ring order: row 0 left to right,
// a snake through rows 1..P-1 over columns Q-1..1, back up column 0 (P even); the
// transpose when P is odd and Q even. 1 x 1 is the single cell.
std::vector<std::pair<int, int>> canonicalCycle(int P, int Q);

}  // namespace fl::mapping
