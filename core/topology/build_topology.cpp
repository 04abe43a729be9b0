// buildTopology: the single entry point from a TopologySpec to a built fabric.
#include "scenario/input_error.h"
#include "scenario/scenario.h"
#include "topology/hierarchy.h"
#include "topology/mesh.h"
#include "topology/nvswitch.h"
#include "topology/topology.h"

namespace fl::topo {

std::unique_ptr<Topology> buildTopology(const TopologySpec& spec) {
  switch (spec.kind) {
    case TopologyKind::NvSwitch: return buildNvSwitch(spec);
    case TopologyKind::Mesh: return buildMesh(spec);
    case TopologyKind::Hierarchy: return buildHierarchy(spec);
  }
  throw InputError({}, "topology.kind", "nvswitch, mesh or hierarchy", "an unknown kind");
}

}  // namespace fl::topo
