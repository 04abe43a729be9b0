// A fabric as a graph: nodes (endpoints and switches/routers) joined by full-duplex
// links, plus the routing function that the network model consults at every hop.
// Builders for each kind live beside this file (nvswitch.h, mesh.h, hierarchy.h).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/time.h"

namespace fl {
struct TopologySpec;
}

namespace fl::topo {

using NodeId = std::int32_t;
using LinkId = std::int32_t;

enum class NodeKind {
  Gpu,     // endpoint of an NVSwitch fabric or hierarchy
  Die,     // endpoint of a mesh (its router is the Router node of the same coordinates)
  Switch,  // NVSwitch chip, or a hierarchy level's switch
  Router,  // the router inside a mesh die
};

enum class LinkKind {
  Access,  // endpoint <-> switch (NVLink GPU-switch, hierarchy leaf level)
  Mesh,    // router <-> neighbouring router on the same wafer
  Border,  // router <-> router across a wafer border
  Local,   // die <-> its own router (inside the die)
  Trunk,   // switch <-> parent switch in a hierarchy
  Nic,     // GPU <-> an ancestor switch in a hierarchy (per-GPU uplinks: the GPU's own NIC)
};

bool isEndpoint(NodeKind k);
const char* toString(NodeKind k);
const char* toString(LinkKind k);

struct Node {
  NodeId id = -1;
  NodeKind kind = NodeKind::Gpu;
  std::string name;  // unique, human-readable: "gpu3", "sw1", "die(2,5)", "dc17/node2/gpu4"
  int endpoint = -1; // index among endpoints (Gpu/Die), -1 for switches/routers
  // Layout hints for views: mesh coordinates (global row/col and wafer), hierarchy level
  // and parent (-1 for roots). Unused fields stay -1.
  int row = -1, col = -1, wafer = -1;
  int level = -1;
  NodeId parent = -1;
};

// A full-duplex link; direction 0 is a -> b, direction 1 is b -> a.
struct Link {
  LinkId id = -1;
  LinkKind kind = LinkKind::Access;
  NodeId a = -1, b = -1;
  int portA = -1, portB = -1;   // port index of this link at a and at b
  double bandwidth = 0;         // bytes/s per direction (before efficiency)
  double efficiency = 1.0;      // data-link efficiency: usable rate = bandwidth * efficiency
  Time latency = 0;             // propagation, per direction
  int level = -1;               // hierarchy level of the link (-1 elsewhere)
};

// One port of a node: the link it belongs to and which end of it this node is.
struct Port {
  LinkId link = -1;
  NodeId peer = -1;
  int peerPort = -1;
  int direction = 0;  // direction index of the channel leaving this node through the port
};

class Topology;

// Deterministic routing: the candidate output ports at node `at` towards node `dst`
// (any node: endpoints, and switches for in-switch computing responses). Candidates
// are equal-cost alternatives (e.g. parallel links, or a GPU's links to every chip);
// the network picks one deterministically. Empty when `at == dst`.
class Routing {
 public:
  virtual ~Routing() = default;
  virtual void candidates(const Topology& t, NodeId at, NodeId dst, std::vector<int>& ports) const = 0;
  virtual const char* name() const = 0;
  // True when every link of an endpoint reaches every endpoint at equal cost, so an
  // endpoint may put any packet on any free link without asking (NVSwitch fabrics, and
  // any fabric whose endpoints have one link). False where an endpoint's links lead to
  // different places (a GPU's NVLink to its node switch vs its own NIC).
  virtual bool endpointLinksInterchangeable() const { return true; }
};

class Topology {
 public:
  NodeId addNode(NodeKind kind, std::string name);
  LinkId addLink(LinkKind kind, NodeId a, NodeId b, double bandwidth, Time latency,
                 double efficiency = 1.0);

  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<Link>& links() const { return links_; }
  const Node& node(NodeId id) const { return nodes_[static_cast<size_t>(id)]; }
  Node& node(NodeId id) { return nodes_[static_cast<size_t>(id)]; }
  const Link& link(LinkId id) const { return links_[static_cast<size_t>(id)]; }
  Link& link(LinkId id) { return links_[static_cast<size_t>(id)]; }  // builders set e.g. level
  const std::vector<Port>& ports(NodeId id) const { return ports_[static_cast<size_t>(id)]; }
  // Endpoints (Gpu and Die nodes) in index order; endpoint i is node endpoints()[i].
  const std::vector<NodeId>& endpoints() const { return endpoints_; }
  NodeId endpointNode(int endpoint) const { return endpoints_[static_cast<size_t>(endpoint)]; }
  int endpointCount() const { return static_cast<int>(endpoints_.size()); }

  void setRouting(std::unique_ptr<Routing> r) { routing_ = std::move(r); }
  const Routing& routing() const { return *routing_; }
  void candidates(NodeId at, NodeId dst, std::vector<int>& ports) const {
    routing_->candidates(*this, at, dst, ports);
  }

  // What was built, for views and results.
  std::string kind;         // "nvswitch" | "mesh" | "hierarchy"
  std::string description;  // one line, e.g. "DGX-H100: 8 GPUs, 4 NVSwitch chips, 18 links/GPU"
  int meshRows = 0, meshCols = 0;      // global die grid (meshes)
  int waferRows = 0, waferCols = 0;    // wafer grid (meshes)
  std::vector<std::string> levelNames; // hierarchies, outermost first

 private:
  std::vector<Node> nodes_;
  std::vector<Link> links_;
  std::vector<std::vector<Port>> ports_;
  std::vector<NodeId> endpoints_;
  std::unique_ptr<Routing> routing_;
};

// Hierarchies: the link's downward direction carries what a GPU or a node receives from
// outside it: a GPU's own NIC (LinkKind::Nic), or the trunk into a leaf switch (a node's
// single uplink). Other links and other fabrics have no NICs.
bool isNicLink(const Topology& t, const Link& l);

// Builds the topology a scenario describes (dispatches on spec.kind). Throws
// fl::InputError for impossible topologies, naming the offending key path.
std::unique_ptr<Topology> buildTopology(const TopologySpec& spec);

}  // namespace fl::topo
