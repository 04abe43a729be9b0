#include "topology/hierarchy.h"

#include <algorithm>
#include <string>

#include "scenario/scenario.h"
#include "topology/checks.h"
#include "topology/routing_updown.h"

namespace fl::topo {

namespace {

bool perGpu(const LevelSpec& l) { return l.uplinks == LevelUplinks::PerGpu; }

void validate(const TopologySpec& s) {
  if (s.levels.empty()) inputError("topology.levels", "at least one level", "none");
  if (s.levels.size() > 64)  // depths are stored in a byte; no real fabric comes close
    inputError("topology.levels", "at most 64 levels", std::to_string(s.levels.size()));
  std::int64_t nodes = 1, width = 1;  // saturating, so deep specs cannot overflow
  int railLevels = 0;
  for (size_t i = 0; i < s.levels.size(); ++i) {
    const LevelSpec& l = s.levels[i];
    const std::string key = "topology.levels[" + std::to_string(i) + "]";
    if (l.name.empty() || l.name.find('/') != std::string::npos)
      inputError(key + ".name", "a non-empty name without '/'", "\"" + l.name + "\"");
    requireAtLeast(key + ".count", l.count, 1);
    requirePositive(key + ".bandwidth", l.bandwidth);
    requireNonNegative(key + ".latency", static_cast<double>(l.latency));
    railLevels += perGpu(l) ? 1 : 0;
    width = std::min(width * l.count, kMaxNodes + 1);
    nodes = std::min(nodes + width, kMaxNodes + 1);
  }
  checkLevelUplinks(s.levels);
  requireBudget("topology.levels", nodes, "nodes");
  // Tree links (fewer than nodes) plus one Nic link per GPU per per-GPU level.
  requireBudget("topology.levels", std::min(nodes + width * railLevels, kMaxNodes + 1), "links");
}

}  // namespace

// The GPU level's members are GPUs: "per GPU" would be its one link again, and a GPU
// without a link to its leaf switch would leave that switch disconnected.
void checkLevelUplinks(const std::vector<LevelSpec>& levels) {
  if (!levels.empty() && perGpu(levels.back()))
    throw InputError({}, "topology.levels[" + std::to_string(levels.size() - 1) + "].uplinks",
                     "shared on the GPU level (the last one)", "per_gpu",
                     "put uplinks: per_gpu on the level whose members hold the GPUs, e.g. the node level");
}

namespace {

// Adds the members of level `depth` under `parent` in preorder.
void addChildren(Topology& t, const std::vector<LevelSpec>& levels, NodeId parent, size_t depth,
                 const std::string& prefix) {
  const LevelSpec& l = levels[depth];
  const bool leaf = depth + 1 == levels.size();
  for (int j = 0; j < l.count; ++j) {
    std::string name = prefix + l.name + std::to_string(j);
    const NodeId id = t.addNode(leaf ? NodeKind::Gpu : NodeKind::Switch, name);
    t.node(id).level = static_cast<int>(depth) + 1;
    t.node(id).parent = parent;
    if (!perGpu(l)) {
      // a = child, so direction 0 is upward and the child's port 0 is its uplink.
      const LinkId link = t.addLink(leaf ? LinkKind::Access : LinkKind::Trunk, id, parent,
                                    l.bandwidth, l.latency);
      t.link(link).level = static_cast<int>(depth);
    }
    if (!leaf) addChildren(t, levels, id, depth + 1, name + "/");
  }
}

// Per-GPU uplinks, after the tree so every port layout stays arithmetic: for each such
// level (outermost first), each GPU in endpoint order gets a Nic link (a = GPU) to its
// ancestor at the level's parent depth.
void addNics(Topology& t, const std::vector<LevelSpec>& levels) {
  for (size_t i = 0; i < levels.size(); ++i) {
    if (!perGpu(levels[i])) continue;
    for (int e = 0; e < t.endpointCount(); ++e) {
      const NodeId gpu = t.endpointNode(e);
      NodeId up = gpu;
      while (t.node(up).level > static_cast<int>(i)) up = t.node(up).parent;
      const LinkId link = t.addLink(LinkKind::Nic, gpu, up, levels[i].bandwidth, levels[i].latency);
      t.link(link).level = static_cast<int>(i);
    }
  }
}

}  // namespace

std::unique_ptr<Topology> buildHierarchy(const TopologySpec& spec) {
  validate(spec);
  auto t = std::make_unique<Topology>();
  const NodeId root = t->addNode(NodeKind::Switch, "root");
  t->node(root).level = 0;
  addChildren(*t, spec.levels, root, 0, "");
  addNics(*t, spec.levels);

  t->setRouting(std::make_unique<UpDownRouting>(*t, spec.levels));
  t->kind = "hierarchy";
  std::string shape, rails;
  for (const LevelSpec& l : spec.levels) {
    shape += (shape.empty() ? "" : " x ") + std::to_string(l.count) + " " + l.name;
    if (perGpu(l)) rails += (rails.empty() ? "" : ", ") + l.name;
    t->levelNames.push_back(l.name);
  }
  t->description = (spec.preset.empty() ? std::string("hierarchy") : spec.preset) + ": " + shape +
                   " = " + std::to_string(t->endpointCount()) + " GPUs" +
                   (rails.empty() ? "" : ", a NIC per GPU across " + rails);
  return t;
}

}  // namespace fl::topo
