// Baseline mapping (seed 003 §III-B, §IV-B1; spec §2.4): each TP group is a contiguous
// p x q tile ("each located in a separate corner") with a ring of 1-hop edges; the FTDs
// are then strided grids whose bounding boxes overlap in the middle of the wafer.
#pragma once
#include <vector>

#include "mapping/tiling.h"

namespace fl::mapping {

// TP groups (ring order, global die ids) of one X x Y wafer whose top-left die is
// (row0, col0) in a system `systemCols` columns wide.
std::vector<std::vector<int>> baselineGroups(int X, int Y, Tile tile, int row0, int col0, int systemCols);

}  // namespace fl::mapping
