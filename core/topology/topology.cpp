// The fabric graph: node/link/port bookkeeping shared by every topology kind.
#include "topology/topology.h"

#include <cassert>

namespace fl::topo {

bool isEndpoint(NodeKind k) { return k == NodeKind::Gpu || k == NodeKind::Die; }

const char* toString(NodeKind k) {
  switch (k) {
    case NodeKind::Gpu: return "gpu";
    case NodeKind::Die: return "die";
    case NodeKind::Switch: return "switch";
    case NodeKind::Router: return "router";
  }
  return "?";
}

const char* toString(LinkKind k) {
  switch (k) {
    case LinkKind::Access: return "access";
    case LinkKind::Mesh: return "mesh";
    case LinkKind::Border: return "border";
    case LinkKind::Local: return "local";
    case LinkKind::Trunk: return "trunk";
    case LinkKind::Nic: return "nic";
  }
  return "?";
}

bool isNicLink(const Topology& t, const Link& l) {
  if (l.kind == LinkKind::Nic) return true;
  if (l.kind != LinkKind::Trunk) return false;
  // Builders make the child the a end; a leaf switch is one whose first child is a GPU.
  const auto& ports = t.ports(l.a);
  for (const Port& p : ports)
    if (p.peer != l.b) return isEndpoint(t.node(p.peer).kind) && t.node(p.peer).parent == l.a;
  return false;
}

NodeId Topology::addNode(NodeKind kind, std::string name) {
  Node n;
  n.id = static_cast<NodeId>(nodes_.size());
  n.kind = kind;
  n.name = std::move(name);
  // Endpoint indices follow creation order, so builders control the numbering
  // (row-major dies, DFS-ordered hierarchy GPUs) simply by the order they add nodes.
  if (isEndpoint(kind)) {
    n.endpoint = static_cast<int>(endpoints_.size());
    endpoints_.push_back(n.id);
  }
  nodes_.push_back(std::move(n));
  ports_.emplace_back();
  return nodes_.back().id;
}

LinkId Topology::addLink(LinkKind kind, NodeId a, NodeId b, double bandwidth, Time latency,
                         double efficiency) {
  assert(a >= 0 && a < static_cast<NodeId>(nodes_.size()));
  assert(b >= 0 && b < static_cast<NodeId>(nodes_.size()) && a != b);
  Link l;
  l.id = static_cast<LinkId>(links_.size());
  l.kind = kind;
  l.a = a;
  l.b = b;
  l.bandwidth = bandwidth;
  l.efficiency = efficiency;
  l.latency = latency;
  auto& pa = ports_[static_cast<size_t>(a)];
  auto& pb = ports_[static_cast<size_t>(b)];
  l.portA = static_cast<int>(pa.size());
  l.portB = static_cast<int>(pb.size());
  pa.push_back(Port{l.id, b, l.portB, 0});
  pb.push_back(Port{l.id, a, l.portA, 1});
  links_.push_back(l);
  return l.id;
}

}  // namespace fl::topo
