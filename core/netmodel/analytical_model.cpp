#include "netmodel/analytical_model.h"

#include <algorithm>

#include "netmodel/route_provider.h"

namespace fl::netmodel {

namespace {
Time serialise(const topo::Link& l, std::int64_t bytes) {
  return transferTime(static_cast<double>(bytes), l.bandwidth * l.efficiency);
}
}  // namespace

Time eq1Time(const topo::Topology& t, const std::vector<Hop>& route, std::int64_t bytes) {
  Time total = 0;
  for (const Hop& h : route) {
    const topo::Link& l = t.link(h.link);
    if (l.kind != topo::LinkKind::Local) total += serialise(l, bytes) + l.latency;
  }
  return total;
}

AnalyticalRun playAnalytical(const MessagePlan& plan, const topo::Topology& t, const TransferSink& sink) {
  checkPlan(plan);
  AnalyticalRun run;
  const std::size_t n = plan.items.size();
  run.timing.start.assign(n, 0);
  run.timing.end.assign(n, 0);
  std::vector<Time> laneFree(static_cast<std::size_t>(t.endpointCount()) * kPlanLanes, 0);
  const auto lane = [&](const PlanItem& it) -> Time& {
    return laneFree[static_cast<std::size_t>(it.src) * kPlanLanes + it.lane];
  };
  RouteProvider routes(t);
  // Plans repeat their pairs every iteration: each pair's route is looked up once.
  const auto endpoints = static_cast<std::size_t>(t.endpointCount());
  std::vector<std::vector<Hop>> routeOf(endpoints * endpoints);
  for (std::size_t i = 0; i < n; ++i) {
    const PlanItem& it = plan.items[i];
    Time ready = 0;
    for (std::int32_t d : it.deps) ready = std::max(ready, run.timing.end[static_cast<std::size_t>(d)]);
    if (it.lane > 0) ready = std::max(ready, lane(it));
    run.timing.start[i] = ready;
    Time at = ready;
    if (it.isTask()) {
      at += it.duration;
    } else {
      auto& route = routeOf[static_cast<std::size_t>(it.src) * endpoints + static_cast<std::size_t>(it.dst)];
      if (route.empty()) route = routes.route(it.src, it.dst);
      // Local links: the uplink is busy as the first hop starts, the downlink as the last ends.
      std::size_t lastTimed = 0;
      for (std::size_t k = 0; k < route.size(); ++k)
        if (t.link(route[k].link).kind != topo::LinkKind::Local) lastTimed = k;
      for (std::size_t k = 0; k < route.size(); ++k) {
        const topo::Link& l = t.link(route[k].link);
        const Time ser = serialise(l, it.bytes);
        if (l.kind == topo::LinkKind::Local) {
          const Time s = k < lastTimed ? at : at - ser;
          if (sink)
            sink({route[k].link, route[k].direction, std::max<Time>(s, ready), std::max<Time>(s, ready) + ser, it.bytes,
                  it.phase});
          continue;
        }
        if (sink) sink({route[k].link, route[k].direction, at, at + ser, it.bytes, it.phase});
        at += ser + l.latency;
      }
    }
    run.timing.end[i] = at;
    if (it.lane > 0) lane(it) = at;
  }
  return run;
}

}  // namespace fl::netmodel
