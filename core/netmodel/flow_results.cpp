#include "netmodel/flow_results.h"

#include <string>

namespace fl::netmodel {

void fillFlowLinkResults(const topo::Topology& t, const std::vector<FlowLinkStats>& stats, Time bin,
                         Time makespan, Results& r) {
  r.links.clear();
  r.links.resize(2 * t.links().size());
  r.payload_bytes = r.wire_bytes = r.uplink_bytes = r.downlink_bytes = 0;
  r.uplink_payload_bytes = r.downlink_payload_bytes = 0;
  for (const topo::Link& l : t.links())
    for (int dir = 0; dir < 2; ++dir) {
      const auto i = static_cast<std::size_t>(2 * l.id + dir);
      LinkDirectionResult& d = r.links[i];
      const topo::NodeId from = dir == 0 ? l.a : l.b, to = dir == 0 ? l.b : l.a;
      d.id = std::to_string(l.id) + ":" + std::to_string(dir);
      d.link = l.id;
      d.direction = dir;
      d.from = t.node(from).name;
      d.to = t.node(to).name;
      d.kind = topo::toString(l.kind);
      d.uplink = topo::isEndpoint(t.node(from).kind);
      d.downlink = topo::isEndpoint(t.node(to).kind);
      d.nic_receive = dir == 1 && topo::isNicLink(t, l);
      d.capacity_Bps = l.bandwidth * l.efficiency;
      if (i < stats.size()) {
        d.bytes = d.payload_bytes = stats[i].bytes;
        d.busy = stats[i].busy;
        d.bin_bytes = stats[i].bins;
      }
      d.utilization = makespan > 0 ? static_cast<double>(d.busy) / static_cast<double>(makespan) : 0;
      r.payload_bytes += d.bytes;
      r.wire_bytes += d.bytes;
      if (d.uplink) r.uplink_bytes += d.bytes, r.uplink_payload_bytes += d.bytes;
      if (d.downlink) r.downlink_bytes += d.bytes, r.downlink_payload_bytes += d.bytes;
    }
  r.bin = bin;
  r.bins = bin > 0 ? static_cast<int>((makespan + bin - 1) / bin) : 0;
}

}  // namespace fl::netmodel
