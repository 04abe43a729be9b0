#include "network/network.h"

#include <algorithm>
#include <stdexcept>

#include "results/results.h"
#include "scenario/scenario.h"

namespace fl::net {

namespace {
constexpr Time kLiveSamplesPerBin = 64;
}  // namespace

static_assert(kTrafficPhases == std::tuple_size_v<decltype(LinkDirectionResult::phase_payload_bytes)>);

Network::Network(const topo::Topology& topology, const NetworkSpec& spec, Time bin,
                 Simulator& sim, const std::vector<int>& partitionOf, std::int64_t recordedBinBudget)
    : topology_(topology), partitionOf_(partitionOf) {
  config_.recordedBinBudget = recordedBinBudget;
  config_.wire = WireFormat::from(spec);
  config_.virtualChannels = spec.virtual_channels;
  if (config_.virtualChannels < 1 || config_.virtualChannels > NetworkConfig::kMaxVirtualChannels)
    throw std::invalid_argument("network.virtual_channels: 1 to 64 expected, found " +
                                std::to_string(config_.virtualChannels));  // the schema checks 2..64
  config_.vcDepthFlits = spec.vc_depth_flits;
  config_.switchLatency = spec.switch_latency;
  config_.reductionBuffer = spec.reduction_buffer;
  config_.reductionThroughput = spec.reduction_throughput;
  config_.outstandingRequests = spec.outstanding_requests;
  config_.acknowledgedWrites = spec.acknowledged_writes;
  config_.packetPayload = spec.packet_payload;
  config_.bin = bin;
  config_.mergeTable = spec.merge_table;
  config_.mergeTimeout = spec.merge_timeout;
  config_.mergeRecords = spec.merge_records;
  config_.merging = spec.merging;
  pools_.resize(static_cast<std::size_t>(sim.partitionCount()));
  // Live packets sampled at fixed instants (64 a bin), so that the peak does not depend
  // on the partitioning.
  liveTracker_ = std::make_unique<PeakTracker>(sim, bin / kLiveSamplesPerBin);
  for (int i = 0; i < sim.partitionCount(); ++i)
    pools_[static_cast<std::size_t>(i)].track(liveTracker_.get(), &sim.partition(i));

  const auto& nodes = topology.nodes();
  nodes_.reserve(nodes.size());
  componentOf_.resize(nodes.size());
  for (const topo::Node& n : nodes) {
    std::unique_ptr<NetworkNode> c;
    if (topo::isEndpoint(n.kind)) {
      auto e = std::make_unique<EndpointNode>(*this, n.id, n.endpoint);
      endpoints_.push_back(e.get());
      c = std::move(e);
    } else {
      auto s = std::make_unique<SwitchNode>(*this, n.id);
      switches_.push_back(s.get());
      c = std::move(s);
    }
    componentOf_[static_cast<std::size_t>(n.id)] = sim.add(*c, partitionOf[static_cast<std::size_t>(n.id)]);
    nodes_.push_back(std::move(c));
  }
  std::sort(endpoints_.begin(), endpoints_.end(),
            [](auto* a, auto* b) { return a->endpointIndex() < b->endpointIndex(); });
  for (auto& c : nodes_) c->wire();
}

Network::~Network() = default;

void Network::enableBackgroundClass() {
  if (config_.requestVcs() < 2)
    throw std::invalid_argument("network.virtual_channels: a background traffic class needs at least 4 virtual "
                                "channels (two request VCs, one of them reserved), found " +
                                std::to_string(config_.virtualChannels));
  config_.backgroundVc = config_.requestVcs() - 1;
  config_.vcPriority[static_cast<std::size_t>(config_.backgroundVc)] = NetworkConfig::kLowPriority;
}

int Network::addGroup(std::vector<topo::NodeId> members) {
  MulticastGroup g;
  g.members = std::move(members);
  return addGroup(g);
}

int Network::addGroup(const MulticastGroup& g) {
  if (!g.targets.empty() && g.targets.size() != g.members.size())
    throw std::logic_error("network: a multicast group needs one target count per member");
  StoredGroup stored;
  stored.first = static_cast<std::uint32_t>(groupMembers_.size());
  stored.size = static_cast<std::uint32_t>(g.members.size());
  stored.targeted = !g.targets.empty();
  stored.targetsPerFlit = g.targetsPerFlit;
  groupMembers_.insert(groupMembers_.end(), g.members.begin(), g.members.end());
  if (stored.targeted) groupTargets_.insert(groupTargets_.end(), g.targets.begin(), g.targets.end());
  else groupTargets_.resize(groupMembers_.size(), 0);
  groups_.push_back(stored);
  return static_cast<int>(groups_.size()) - 1;
}

int Network::replicaExtensionFlits(int id, std::size_t index) const {
  const StoredGroup& g = groups_[static_cast<std::size_t>(id)];
  if (!g.targeted) return 0;
  const int n = groupTargets_[g.first + index];
  return (n + g.targetsPerFlit - 1) / g.targetsPerFlit;
}

std::int64_t Network::elidedEvents(Time limit, Time& last) const {
  std::int64_t n = 0;
  for (const auto& node : nodes_) n += node->elidedEvents(limit, last);
  return n;
}

// Merge units over all switches (seed 002 §V-B): success, table peaks, skew. Fields the
// workload filled (its own counts at homes and requesters) are kept.
void Network::collectCais(Results& r) const {
  std::int64_t requests = 0, hits = 0, sessions = 0, skewCount = 0, peak = 0;
  double skewSum = 0;
  CaisResults c = r.cais.value_or(CaisResults{});
  c.bypasses = c.evictions = c.timeouts = c.partial_flushes = 0;
  c.sync_packets = c.throttle_events = 0;
  for (const SwitchNode* s : switches_) {
    if (const GroupSyncTable* g = s->groupSync()) {
      const GroupSyncStats& st = g->stats();
      c.sync_packets += st.syncs + st.releases + st.throttleOn + st.throttleOff;
      c.throttle_events += st.throttleOn;
    }
    for (const MergeUnit& m : s->mergeUnits()) {
      const MergeUnitStats& st = m.stats();
      requests += st.loads + st.reductions;
      hits += st.hits;
      sessions += st.sessions;
      skewSum += st.skewSumPs;
      skewCount += st.skewCount;
      peak = std::max(peak, st.peakEntries);
      c.bypasses += st.bypasses;
      c.evictions += st.evictions;
      c.timeouts += st.timeouts;
      c.partial_flushes += st.partialFlushes;
    }
  }
  if (requests == 0 && !r.cais) return;
  c.requests = requests;
  c.hits = hits;
  const std::int64_t mergeable = requests - sessions;
  c.merge_success_rate = mergeable > 0 ? static_cast<double>(hits) / static_cast<double>(mergeable) : 1.0;
  c.arrival_skew_ns_mean = skewCount > 0 ? skewSum / static_cast<double>(skewCount) / 1000.0 : 0;
  c.peak_table_bytes_per_port = peak * config_.packetPayload;
  // The spec's required table (§2.13) is this run's peak when the table is unbounded (its
  // entries then never time out: MergeUnit); otherwise it is not measured here (0).
  if (config_.mergeTable <= 0) c.required_table_bytes_per_port = c.peak_table_bytes_per_port;
  r.cais = c;
}

std::int64_t Network::peakLivePackets() const { return liveTracker_->peak(); }

void Network::collect(Results& r, Time makespan) const {
  r.links.clear();
  r.switches.clear();
  r.payload_bytes = r.wire_bytes = r.uplink_bytes = r.downlink_bytes = 0;
  r.uplink_payload_bytes = r.downlink_payload_bytes = 0;
  r.packet_hops = 0;
  r.buffer_overflows = 0;
  r.reduction_hits = r.reduction_lookups = 0;
  for (const auto& node : nodes_) {
    r.packet_hops += node->hops();
    r.buffer_overflows += node->bufferOverflows();
    const auto& ports = topology_.ports(node->node());
    const bool fromEndpoint = topo::isEndpoint(topology_.node(node->node()).kind);
    for (std::size_t i = 0; i < node->outputs().size(); ++i) {
      const auto& out = node->outputs()[i];
      const auto& st = out.channel.stats();
      const topo::Link& link = topology_.link(ports[i].link);
      LinkDirectionResult d;
      d.link = link.id;
      d.direction = ports[i].direction;
      d.id = std::to_string(link.id) + ":" + std::to_string(d.direction);
      d.from = topology_.node(node->node()).name;
      d.to = topology_.node(out.peerNode).name;
      d.kind = topo::toString(link.kind);
      d.uplink = fromEndpoint;
      d.downlink = out.peerIsEndpoint;
      d.bytes = st.wireBytes;
      d.payload_bytes = st.payloadBytes;
      d.packets = st.packets;
      d.busy = st.busy;
      d.capacity_Bps = out.channel.rate();
      d.utilization = makespan > 0 ? static_cast<double>(st.busy) / static_cast<double>(makespan) : 0;
      d.bin_bytes = st.binBytes;
      d.nic_receive = d.direction == 1 && topo::isNicLink(topology_, link);  // builders: a is the lower end
      std::copy(std::begin(st.phasePayload), std::end(st.phasePayload), d.phase_payload_bytes.begin());
      r.payload_bytes += st.payloadBytes;
      r.wire_bytes += st.wireBytes;
      if (d.uplink) {
        r.uplink_bytes += st.wireBytes;
        r.uplink_payload_bytes += st.payloadBytes;
      }
      if (d.downlink) {
        r.downlink_bytes += st.wireBytes;
        r.downlink_payload_bytes += st.payloadBytes;
      }
      r.links.push_back(std::move(d));
    }
  }
  std::sort(r.links.begin(), r.links.end(), [](const auto& a, const auto& b) {
    return a.link != b.link ? a.link < b.link : a.direction < b.direction;
  });
  for (SwitchNode* s : switches_) {  // collecting files the switch's pending log notes
    SwitchResult sr;
    sr.node = s->node();
    sr.id = topology_.node(s->node()).name;
    sr.packets_forwarded = s->stats().packetsForwarded;
    sr.multicast_replicas = s->stats().multicastReplicas;
    sr.reductions = s->stats().reductions;
    sr.reduction_bins = s->stats().reductionBins;
    sr.replica_bins = s->stats().replicaBins;
    sr.reduction_contributions = s->stats().contributions;
    sr.max_buffer_flits = s->maxBufferFlits();
    r.reduction_hits += s->stats().reductionHits;
    r.reduction_lookups += s->stats().contributions;
    if (s->stats().contributions > 0)
      sr.reduction_buffer_hit_rate = static_cast<double>(s->stats().reductionHits) /
                                     static_cast<double>(s->stats().contributions);
    for (const auto& b : s->reductionBuffers()) {
      sr.evictions += b.evictions();
      sr.peak_reduction_entries = std::max(sr.peak_reduction_entries, b.peakEntries());
      sr.peak_reduction_bytes = std::max(sr.peak_reduction_bytes, b.peakBytes());
    }
    s->collectReductionHistory(sr, topology_);
    s->collectMergeUnits(sr, topology_);
    r.switches.push_back(std::move(sr));
  }
  collectCais(r);
  r.packets_injected = r.packets_consumed = 0;
  r.packets_created_in_switches = r.packets_consumed_in_switches = 0;
  for (const SwitchNode* s : switches_) {
    r.packets_created_in_switches += s->stats().packetsCreated;
    r.packets_consumed_in_switches += s->stats().packetsConsumed;
  }
  r.packets_in_flight = 0;
  for (const auto& p : pools_) r.packets_in_flight += p.live();
  for (const EndpointNode* e : endpoints_) {
    r.packets_injected += e->stats().packetsInjected;
    r.packets_consumed += e->stats().packetsConsumed;
  }
}

void Network::setFollow(const FollowSpec* spec) {
  for (auto& node : nodes_) node->setFollow(spec);
}

PacketFollow Network::followed() const {
  PacketFollow f;
  for (const auto& node : nodes_) {
    const auto& ports = topology_.ports(node->node());
    for (const auto& rec : node->followed()) {
      FollowedHop h = rec.hop;
      const auto& port = ports[static_cast<std::size_t>(rec.port)];
      h.link = port.link;
      h.direction = port.direction;
      h.to = node->outputs()[static_cast<std::size_t>(rec.port)].peerNode;
      f.hops.push_back(h);
    }
    f.truncated |= node->followTruncated();
  }
  sortHops(f.hops);
  return f;
}

}  // namespace fl::net
