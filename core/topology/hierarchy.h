// Multi-level hierarchy (datacenters of nodes of GPUs, seed 004): a tree of switches
// whose leaves are GPUs. Levels are outermost first; level i has `count` members under
// each level-(i-1) switch (the root for i = 0), each joined to it by one link with level
// i's bandwidth and latency (Trunk between switches, Access for GPU to leaf switch).
//
// Layout (relied on by UpDownRouting): nodes are created in DFS preorder from the root
// (node 0, "root", depth 0), so every subtree is a contiguous id range and every
// subtree's GPUs a contiguous endpoint range. Node.level is the depth (root 0, level-i
// members i + 1); Link.level is i. A non-root node's port 0 is its uplink; a switch's
// child j is on port j (root) or 1 + j (others). Names join level names and indices:
// "dc17/node1/gpu3" for levels named dc, node, gpu.
#pragma once
#include <memory>

#include "topology/topology.h"

namespace fl::topo {

// Throws fl::InputError (key "topology.levels..." ) for impossible hierarchies.
std::unique_ptr<Topology> buildHierarchy(const TopologySpec& spec);

}  // namespace fl::topo
