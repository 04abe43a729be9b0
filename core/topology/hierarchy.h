// Multi-level hierarchy (datacenters of nodes of GPUs, seed 004): a tree of switches
// whose leaves are GPUs. Levels are outermost first; level i has `count` members under
// each level-(i-1) switch (the root for i = 0), each joined to it by one link with level
// i's bandwidth and latency (Trunk between switches, Access for GPU to leaf switch).
// A level with per-GPU uplinks (rail-style boxes, seed 001 §6.7) has no member links:
// instead every GPU under a member gets its own Nic link to the member's parent switch,
// so the member's switch (e.g. a node's NVLink switch) carries only traffic inside it.
//
// Layout (relied on by UpDownRouting): nodes are created in DFS preorder from the root
// (node 0, "root", depth 0), so every subtree is a contiguous id range and every
// subtree's GPUs a contiguous endpoint range. Node.level is the depth (root 0, level-i
// members i + 1) and Node.parent the tree parent (also across per-GPU levels); Link.level
// is i. Ports: a non-root switch's port 0 is its uplink unless its level has per-GPU
// uplinks; then come its children's links (shared next level, child j on the next port)
// or, when the next level has per-GPU uplinks, one Nic port per GPU of its subtree in
// endpoint order. A GPU's port 0 is its access link; Nic ports follow, one per per-GPU
// level, outermost first. Names join level names and indices: "dc17/node1/gpu3" for
// levels named dc, node, gpu.
#pragma once
#include <memory>
#include <vector>

#include "scenario/scenario.h"
#include "topology/topology.h"

namespace fl::topo {

// Throws fl::InputError (key "topology.levels..." ) for impossible hierarchies.
std::unique_ptr<Topology> buildHierarchy(const TopologySpec& spec);

// The GPU level (the last) must have shared uplinks: throws fl::InputError naming
// topology.levels[i].uplinks, without a location. validateScenario() checks it too, so
// the loader can point at the line.
void checkLevelUplinks(const std::vector<LevelSpec>& levels);

}  // namespace fl::topo
