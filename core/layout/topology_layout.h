// Where things go when a fabric is drawn: node positions, link polylines and group boxes
// (wafers, datacenters, nodes) in abstract scene units. Qt-free, so the desktop canvas
// (views/) and the HTML/SVG report (core/report/) draw the same picture.
//   - NVSwitch fabrics: GPUs in rows above and below, switch chips in a row between.
//   - Meshes: the die grid; wafers outlined as groups; a die and its router share a spot.
//   - Hierarchies: nested group boxes (datacenter > node > GPU); groups are collapsed
//     unless expanded, so 1000 datacenters stay readable (a collapsed group is drawn as
//     one box and the links inside it are hidden).
#pragma once
#include <set>
#include <string>
#include <vector>

#include "topology/topology.h"

namespace fl::layout {

struct Point {
  double x = 0, y = 0;
};

struct NodePlacement {
  topo::NodeId node = -1;
  Point center;
  double width = 0, height = 0;
  bool visible = true;   // false inside a collapsed group (or a mesh router under its die)
  int group = -1;        // innermost group box holding it, -1 for none
};

struct GroupBox {
  std::string label;     // "wafer (0,1)", "dc17", "dc17/node1"
  double x = 0, y = 0, width = 0, height = 0;
  int level = 0;         // nesting depth, 0 outermost
  int parent = -1;       // index of the enclosing group, -1 for none
  bool collapsed = false;
  topo::NodeId switchNode = -1;  // hierarchy: the group's switch (its traffic stands for the group)
  bool visible = true;   // false inside a collapsed ancestor (kept so indices stay stable)
};

struct LinkPath {
  topo::LinkId link = -1;
  std::vector<Point> points;  // polyline from link.a to link.b
  bool visible = true;
};

struct TopologyLayout {
  std::vector<NodePlacement> nodes;  // indexed by node id
  std::vector<LinkPath> links;       // indexed by link id
  std::vector<GroupBox> groups;
  double width = 0, height = 0;      // bounding box, origin at (0, 0)
};

struct LayoutOptions {
  std::set<int> expandedGroups;  // hierarchy group indices to show open (by GroupBox order
                                 // of the fully expanded layout: stable across calls)
  bool expandAll = false;        // small hierarchies: open everything
  int autoExpandBelow = 200;     // open every group when the fabric has fewer endpoints
};

TopologyLayout layoutTopology(const topo::Topology& t, const LayoutOptions& options = {});

}  // namespace fl::layout
