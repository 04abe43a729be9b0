#include "topology/routing_nvswitch.h"

namespace fl::topo {

NvSwitchRouting::NvSwitchRouting(const Topology& t, int gpus, int switches)
    : gpus_(gpus), switches_(switches) {
  // Collect, for each (from, to) pair, the ports of `from` leading to `to`. Ports are
  // grouped by peer here regardless of the order the builder created the links in.
  auto fill = [&](NodeId from, NodeId to) {
    Range r;
    r.begin = static_cast<int>(portList_.size());
    const auto& ps = t.ports(from);
    for (int p = 0; p < static_cast<int>(ps.size()); ++p)
      if (ps[static_cast<size_t>(p)].peer == to) portList_.push_back(p);
    r.end = static_cast<int>(portList_.size());
    return r;
  };
  gpuToChip_.reserve(static_cast<size_t>(gpus) * switches);
  for (int g = 0; g < gpus; ++g)
    for (int c = 0; c < switches; ++c) gpuToChip_.push_back(fill(g, gpus + c));
  chipToGpu_.reserve(static_cast<size_t>(gpus) * switches);
  for (int c = 0; c < switches; ++c)
    for (int g = 0; g < gpus; ++g) chipToGpu_.push_back(fill(gpus + c, g));
}

void NvSwitchRouting::candidates(const Topology& t, NodeId at, NodeId dst,
                                 std::vector<int>& ports) const {
  ports.clear();
  if (at == dst) return;
  auto append = [&](Range r) {
    ports.insert(ports.end(), portList_.begin() + r.begin, portList_.begin() + r.end);
  };
  auto allPorts = [&] {
    const int n = static_cast<int>(t.ports(at).size());
    for (int p = 0; p < n; ++p) ports.push_back(p);
  };
  if (at < gpus_) {
    if (dst < gpus_)
      allPorts();  // every chip reaches every GPU: all links are equal-cost
    else
      append(gpuToChip_[static_cast<size_t>(at) * switches_ + (dst - gpus_)]);
    return;
  }
  const int chip = at - gpus_;
  if (dst < gpus_)
    append(chipToGpu_[static_cast<size_t>(chip) * gpus_ + dst]);
  else
    allPorts();  // chip to chip has no direct link: down to any GPU, which goes back up
}

}  // namespace fl::topo
