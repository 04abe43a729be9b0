#include "topology/mesh.h"

#include <string>

#include "scenario/scenario.h"
#include "topology/checks.h"
#include "topology/routing_xy.h"

namespace fl::topo {

namespace {

void validate(const TopologySpec& s) {
  requireAtLeast("topology.rows", s.rows, 1);
  requireAtLeast("topology.cols", s.cols, 1);
  requireAtLeast("topology.wafer_rows", s.wafer_rows, 1);
  requireAtLeast("topology.wafer_cols", s.wafer_cols, 1);
  requirePositive("topology.link_bandwidth", s.link_bandwidth);
  requireNonNegative("topology.link_latency", static_cast<double>(s.link_latency));
  requireEfficiency("topology.link_efficiency", s.link_efficiency);
  requireNonNegative("topology.border_bandwidth", s.border_bandwidth);
  requireNonNegative("topology.border_latency", static_cast<double>(s.border_latency));
  requireNonNegative("topology.die_injection_bandwidth", s.die_injection_bandwidth);
  // Two nodes and (up to) three links per die.
  const std::int64_t dies = std::int64_t{s.rows} * s.wafer_rows * s.cols * s.wafer_cols;
  requireBudget("topology.rows", 2 * dies, "nodes");
}

std::string cellName(const char* what, int r, int c) {
  return std::string(what) + "(" + std::to_string(r) + "," + std::to_string(c) + ")";
}

}  // namespace

std::unique_ptr<Topology> buildMesh(const TopologySpec& spec) {
  validate(spec);
  auto t = std::make_unique<Topology>();
  const int R = spec.rows * spec.wafer_rows, C = spec.cols * spec.wafer_cols;
  const double injection =
      spec.die_injection_bandwidth > 0 ? spec.die_injection_bandwidth : spec.link_bandwidth;
  const double borderBw = spec.border_bandwidth > 0 ? spec.border_bandwidth : spec.link_bandwidth;
  const Time borderLat = spec.border_latency > 0 ? spec.border_latency : spec.link_latency;
  auto router = [C](int r, int c) { return static_cast<NodeId>(2 * (r * C + c) + 1); };

  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) {
      const int wafer = (r / spec.rows) * spec.wafer_cols + c / spec.cols;
      for (NodeKind k : {NodeKind::Die, NodeKind::Router}) {
        Node& n = t->node(t->addNode(k, cellName(k == NodeKind::Die ? "die" : "router", r, c)));
        n.row = r;
        n.col = c;
        n.wafer = wafer;
      }
      // The die-router hop is on-die wiring: no propagation delay, no link-layer loss.
      t->addLink(LinkKind::Local, router(r, c) - 1, router(r, c), injection, 0, 1.0);
    }
  auto join = [&](NodeId a, NodeId b, bool border) {
    if (border)
      t->addLink(LinkKind::Border, a, b, borderBw, borderLat, spec.link_efficiency);
    else
      t->addLink(LinkKind::Mesh, a, b, spec.link_bandwidth, spec.link_latency, spec.link_efficiency);
  };
  for (int r = 0; r < R; ++r)
    for (int c = 0; c + 1 < C; ++c) join(router(r, c), router(r, c + 1), (c + 1) % spec.cols == 0);
  for (int r = 0; r + 1 < R; ++r)
    for (int c = 0; c < C; ++c) join(router(r, c), router(r + 1, c), (r + 1) % spec.rows == 0);

  t->setRouting(std::make_unique<XyRouting>(*t, R, C));
  t->kind = "mesh";
  t->meshRows = R;
  t->meshCols = C;
  t->waferRows = spec.wafer_rows;
  t->waferCols = spec.wafer_cols;
  t->description = (spec.preset.empty() ? std::string("mesh") : spec.preset) + ": " +
                   std::to_string(R) + "x" + std::to_string(C) + " dies, " +
                   std::to_string(spec.wafer_rows) + "x" + std::to_string(spec.wafer_cols) +
                   " wafers of " + std::to_string(spec.rows) + "x" + std::to_string(spec.cols) +
                   ", XY routing";
  return t;
}

}  // namespace fl::topo
