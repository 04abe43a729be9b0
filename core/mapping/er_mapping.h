// Entwined Ring Mapping, ER (seed 003 §IV-B1-B3; spec §2.5 [R], the algorithm figure is
// lost): the dual of the baseline. The FTDs are contiguous m x n tiles (m = X/p, n = Y/q);
// the TP group of die (r, c) is (r mod m, c mod n), a p x q grid with strides (m, n) whose
// ring is the canonical cycle, so vertical ring edges are m hops and horizontal ones n.
// The rings of different groups cross ("entwined") and share links.
#pragma once
#include <vector>

#include "mapping/tiling.h"

namespace fl::mapping {

// TP groups of one X x Y wafer at (row0, col0), numbered a x n + b for local index (a, b).
std::vector<std::vector<int>> erGroups(int X, int Y, Tile tile, int row0, int col0, int systemCols);

}  // namespace fl::mapping
