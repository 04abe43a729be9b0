// NVSwitch fabric: N GPUs, each wired to every one of S switch chips with L links in
// total, spread as evenly as possible over the chips (DGX-H100: 18 links over 4 chips
// = 5/4/4/5). Node ids: GPUs 0..N-1 ("gpu<i>"), then chips N..N+S-1 ("sw<c>").
#pragma once
#include <memory>
#include <vector>

#include "topology/topology.h"

namespace fl::topo {

// Links from each GPU to each chip: floor(L/S) everywhere, the remainder handed out
// symmetrically from the outside in (chip 0, S-1, 1, S-2, ...).
std::vector<int> nvswitchLinkSplit(int linksPerGpu, int switches);

// Throws fl::InputError (key "topology.<field>") for impossible fabrics.
std::unique_ptr<Topology> buildNvSwitch(const TopologySpec& spec);

}  // namespace fl::topo
