// Routes of a hierarchy's per-GPU NICs (uplinks: per_gpu). A GPU's NIC leads to a switch
// above its own node, so a straight line would cut across node boxes, their labels and
// their switches. Instead each NIC drops out of the bottom of its GPU into the channel
// under its row of boxes, runs along it to the spine of the comb the boxes hang on, and
// climbs the spine in a lane of its own to the switch. Lanes and channel depths are
// handed out so that no two routes cross: on each side of the spine, earlier rows take
// the lanes nearest the boxes, and within a row the GPU nearest the spine takes the
// shallowest channel and the outermost lane (nested L shapes).
#pragma once
#include <vector>

#include "layout/layout_internal.h"

namespace fl::layout::detail {

constexpr double kNicLane = 16;     // spacing of parallel routes (a link draws two lanes, ~10 wide)
constexpr double kNicChannel = 14;  // from a row's bottom to its first channel, and after the last

// Room beside the spine for `routes` climbing lanes on one side of it.
inline double nicSpineRoom(int routes) { return routes * kNicLane; }
// Room under a row whose busiest side sends `routes` along its channel (0: none needed).
inline double nicChannelRoom(int routes) { return routes > 0 ? 2 * kNicChannel + (routes - 1) * kNicLane : 0; }

struct NicBox {  // a child box of the switch the routes end at
  double bottom = 0;        // its row's bottom edge: the channels run below it
  int row = 0;
  bool leftOfSpine = false;
};

struct NicRoute {
  topo::LinkId link = -1;
  int box = 0;       // index into the boxes
  Point start;       // the GPU's centre (a collapsed box's centre when the GPU is hidden)
  double startWidth = 0;  // width of what is drawn at `start` (routes sharing it fan out)
};

// Sets the paths (start -> ... -> the parent's centre) of `routes`, which all end at the
// switch `parent`, drawn above the comb whose spine runs down from parent.center.x.
// `topChannel`: y of the channel between the parent and the first row of boxes.
void routeNics(TopologyLayout& l, const NodePlacement& parent, double topChannel, const std::vector<NicBox>& boxes,
               std::vector<NicRoute> routes);

}  // namespace fl::layout::detail
