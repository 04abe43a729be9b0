// Routing of an NVSwitch fabric (one switch stage): a GPU may leave through any of its
// links, since every chip reaches every GPU; a chip goes straight down to the
// destination over its parallel links.
#pragma once
#include <vector>

#include "topology/topology.h"

namespace fl::topo {

class NvSwitchRouting final : public Routing {
 public:
  // Expects the nvswitch.h layout: GPUs are nodes 0..gpus-1, chips gpus..gpus+switches-1.
  NvSwitchRouting(const Topology& t, int gpus, int switches);
  void candidates(const Topology& t, NodeId at, NodeId dst, std::vector<int>& ports) const override;
  const char* name() const override { return "nvswitch"; }

 private:
  // Ports of `from` whose peer is `to`, as a range into ports_ (CSR layout: one slice per
  // (gpu, chip) pair, so lookups allocate nothing).
  struct Range {
    int begin = 0, end = 0;
  };
  int gpus_, switches_;
  std::vector<int> portList_;
  std::vector<Range> gpuToChip_;  // [gpu * switches + chip]
  std::vector<Range> chipToGpu_;  // [chip * gpus + gpu]
};

}  // namespace fl::topo
