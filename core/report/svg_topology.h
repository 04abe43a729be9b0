// The fabric as inline SVG, drawn with the shared layout (core/layout): group boxes,
// nodes, and every visible link (or bundle of parallel links) as two directional lanes ("keep right": direction 0,
// a -> b, runs on the right of the a -> b path) coloured by utilisation with viridis.
// Idle lanes are grey, hot lanes get a red outline, and a legend explains both.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "layout/topology_layout.h"
#include "topology/topology.h"

namespace fl::report {

struct LaneValue {
  double utilization = 0;  // fraction of the usable capacity in the bin shown
  std::int64_t bytes = 0;  // wire bytes in that bin; 0 draws the lane as idle
};

struct TopologyPictureOptions {
  double maxWidth = 900, maxHeight = 860;  // pixels, drawing plus margins
  std::size_t labelNodeLimit = 128;  // node names only when at most this many nodes show
  double hotThreshold = 0.7;         // outlined at or above this utilisation
  // Parallel links between the same two nodes drawn as one bundle (as the app's canvas
  // does); false draws every link's own two lanes.
  bool bundles = true;
};

struct TopologyPicture {
  std::string svg;
  int lanes = 0;      // lane elements drawn: 2 per visible bundle or lone link with a path
  int bundles = 0;    // of the items drawn, bundles of more than one link
  int hotLanes = 0;
  bool nodeLabels = false;
};

// `lanes` is indexed by link id * 2 + direction; missing entries count as idle.
TopologyPicture renderTopologySvg(const topo::Topology& t, const layout::TopologyLayout& l,
                                  const std::vector<LaneValue>& lanes,
                                  const TopologyPictureOptions& options = {});

}  // namespace fl::report
