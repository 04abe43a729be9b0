#include "topology/nvswitch.h"

#include <algorithm>
#include <string>

#include "scenario/scenario.h"
#include "topology/checks.h"
#include "topology/routing_nvswitch.h"

namespace fl::topo {

std::vector<int> nvswitchLinkSplit(int linksPerGpu, int switches) {
  std::vector<int> split(static_cast<size_t>(switches), linksPerGpu / switches);
  int extra = linksPerGpu % switches;
  // Outer chips first, alternating ends, so the split is mirror-symmetric when the
  // remainder allows it (the reported DGX-H100 wiring is 5/4/4/5).
  for (int i = 0; extra > 0; ++i) {
    int chip = (i % 2 == 0) ? i / 2 : switches - 1 - i / 2;
    ++split[static_cast<size_t>(chip)];
    --extra;
  }
  return split;
}

namespace {

void validate(const TopologySpec& s) {
  requireAtLeast("topology.gpus", s.gpus, 1);
  requireAtLeast("topology.switches", s.switches, 1);
  requireAtLeast("topology.switch_ports", s.switch_ports, 1);
  if (s.links_per_gpu < s.switches)
    inputError("topology.links_per_gpu",
               "at least one link per switch chip (>= topology.switches = " +
                   std::to_string(s.switches) + ")",
               std::to_string(s.links_per_gpu));
  requirePositive("topology.link_bandwidth", s.link_bandwidth);
  requireNonNegative("topology.link_latency", static_cast<double>(s.link_latency));
  requireEfficiency("topology.link_efficiency", s.link_efficiency);
  requireBudget("topology.gpus", std::int64_t{s.gpus} + s.switches, "nodes");
  requireBudget("topology.links_per_gpu", std::int64_t{s.gpus} * s.links_per_gpu, "links");
  const auto split = nvswitchLinkSplit(s.links_per_gpu, s.switches);
  const std::int64_t perChip = std::int64_t{s.gpus} * *std::max_element(split.begin(), split.end());
  if (perChip > s.switch_ports)
    throw InputError({}, "topology.switch_ports",
                     "at least " + std::to_string(perChip) + " ports per chip (" +
                         std::to_string(s.gpus) + " GPUs x " +
                         std::to_string(perChip / s.gpus) + " links)",
                     std::to_string(s.switch_ports),
                     "or fewer topology.gpus / topology.links_per_gpu, or more topology.switches");
}

}  // namespace

std::unique_ptr<Topology> buildNvSwitch(const TopologySpec& spec) {
  validate(spec);
  auto t = std::make_unique<Topology>();
  const auto split = nvswitchLinkSplit(spec.links_per_gpu, spec.switches);
  for (int g = 0; g < spec.gpus; ++g) t->addNode(NodeKind::Gpu, "gpu" + std::to_string(g));
  for (int c = 0; c < spec.switches; ++c) t->addNode(NodeKind::Switch, "sw" + std::to_string(c));
  for (int g = 0; g < spec.gpus; ++g)
    for (int c = 0; c < spec.switches; ++c)
      for (int k = 0; k < split[static_cast<size_t>(c)]; ++k)
        t->addLink(LinkKind::Access, g, spec.gpus + c, spec.link_bandwidth, spec.link_latency,
                   spec.link_efficiency);

  t->setRouting(std::make_unique<NvSwitchRouting>(*t, spec.gpus, spec.switches));
  t->kind = "nvswitch";
  // "5/4/4/5" when uneven, "2 each" when even (NVL72's 18 chips would be a long list).
  std::string splitText;
  if (std::all_of(split.begin(), split.end(), [&](int n) { return n == split[0]; }))
    splitText = std::to_string(split[0]) + " each";
  else
    for (size_t c = 0; c < split.size(); ++c) splitText += (c ? "/" : "") + std::to_string(split[c]);
  t->description = (spec.preset.empty() ? std::string("NVSwitch") : spec.preset) + ": " +
                   std::to_string(spec.gpus) + " GPUs, " + std::to_string(spec.switches) +
                   " NVSwitch chips, " + std::to_string(spec.links_per_gpu) +
                   " links/GPU (per chip " + splitText + ")";
  return t;
}

}  // namespace fl::topo
