// 2-D mesh of dies over a grid of wafers (wafer-scale chips, seed 003): wafer_rows x
// wafer_cols wafers of rows x cols dies, one global R x C grid. Each die is a Die
// endpoint joined by a Local link to its own Router; neighbouring routers are joined by
// Mesh links, or Border links where they cross a wafer edge.
//
// Layout (relied on by XyRouting): global cell i = r * C + c holds die(r,c) = node 2i and
// router(r,c) = node 2i + 1; endpoint i is die(r,c) (row-major). A router's port 0 is its
// Local link. Horizontal links have a = west end (direction 0 = east), vertical links
// a = north end (row r, direction 0 = south, towards row r + 1).
#pragma once
#include <memory>

#include "topology/topology.h"

namespace fl::topo {

// Throws fl::InputError (key "topology.<field>") for impossible meshes.
std::unique_ptr<Topology> buildMesh(const TopologySpec& spec);

}  // namespace fl::topo
