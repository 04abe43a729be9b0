#include "results/results_codec.h"

#include <cstring>
#include <stdexcept>
#include <type_traits>

namespace fl {

namespace {

// Field lists: one function per struct, used for writing and reading alike.
template <class Ar> void fields(Ar& a, BinSeries& v) { a(v.bins, v.bytes); }
template <class Ar> void fields(Ar& a, PhaseMark& v) { a(v.name, v.start, v.end); }
template <class Ar> void fields(Ar& a, LinkDirectionResult& v) {
  a(v.id, v.link, v.direction, v.from, v.to, v.kind, v.uplink, v.downlink, v.nic_receive, v.bytes, v.payload_bytes,
    v.packets, v.busy, v.capacity_Bps, v.utilization, v.bin_bytes, v.phase_payload_bytes, v.ftd, v.phases);
}
template <class Ar> void fields(Ar& a, LinkPhaseResult& v) { a(v.phase, v.bytes, v.busy, v.utilization, v.cls); }
template <class Ar> void fields(Ar& a, WscFtdResult& v) { a(v.members, v.bbox_rows, v.bbox_cols); }
template <class Ar> void fields(Ar& a, WscTpGroupResult& v) { a(v.members, v.edge_hops); }
template <class Ar> void fields(Ar& a, WscMigrationStage& v) { a(v.kind, v.hops); }
template <class Ar> void fields(Ar& a, WscMigration& v) {
  a(v.expert, v.from, v.to, v.stages, v.start_iteration, v.end_iteration);
}
template <class Ar> void fields(Ar& a, WscResults& v) {
  a(v.model, v.mapping, v.ftds, v.tp_groups, v.ftd_avg_hops, v.allreduce, v.dispatch, v.combine, v.comm,
    v.moe_compute, v.a2a_inter_ftd_bytes, v.cross_border_bytes, v.tokens_per_s_per_device, v.load_max_over_mean,
    v.migrations, v.migration_stall, v.hot_threshold, v.attention,
    v.hot_threshold_kind);
}
template <class Ar> void fields(Ar& a, NicIncastResult& v) { a(v.max_bytes, v.phase, v.nic, v.link, v.nics); }
template <class Ar> void fields(Ar& a, ReductionPortResult& v) {
  a(v.port, v.peer, v.entries, v.evictions, v.peak_entries, v.evictions_total);
}
template <class Ar> void fields(Ar& a, MergePortResult& v) {
  a(v.port, v.peer, v.entries, v.peak_entries, v.loads, v.reductions, v.hits, v.bypasses, v.evictions, v.timeouts,
    v.partial_flushes, v.capacity, v.skew_histogram);
}
template <class Ar> void fields(Ar& a, SwitchResult& v) {
  a(v.id, v.node, v.packets_forwarded, v.multicast_replicas, v.reductions, v.reduction_contributions, v.evictions,
    v.peak_reduction_entries, v.peak_reduction_bytes, v.max_buffer_flits, v.reduction_buffer_hit_rate,
    v.reduction_ports, v.entry_log, v.entry_arrivals, v.entry_log_truncated, v.reduction_bins, v.replica_bins,
    v.merge_ports, v.merge_log,
    v.merge_log_truncated, v.merge_arrivals, v.merge_bypasses);
}
template <class Ar> void fields(Ar& a, EndpointResult& v) { a(v.id, v.al_tlb_hits, v.al_tlb_misses, v.al_blocks_allocated); }
template <class Ar> void fields(Ar& a, LatencyStats& v) {
  a(v.samples, v.mean_ns, v.p50_ns, v.p99_ns, v.max_ns, v.histogram_edges_ns, v.histogram_counts);
}
template <class Ar> void fields(Ar& a, TrafficBreakdownRow& v) { a(v.phase, v.direction, v.useful, v.redundant, v.useless, v.overhead); }
template <class Ar> void fields(Ar& a, MoeResults& v) {
  a(v.communication, v.fusion, v.distinct_remote_gpus_per_token, v.ideal_comm, v.miv_bytes, v.miv_remote_peers,
    v.al_tlb_hits, v.al_tlb_misses);
}
template <class Ar> void fields(Ar& a, PipelineResults& v) {
  a(v.fusion, v.groups, v.group_sms, v.sms, v.tasks, v.sm_utilization, v.kernel_launches, v.launch_overhead,
    v.phase_busy, v.throughput_tokens_per_s, v.step_delays, v.straggler_delay_p95, v.overlap_efficiency, v.ts_peak,
    v.or_peak, v.ts_overflows, v.or_overflows);
}
template <class Ar> void fields(Ar& a, MemoryResults& v) {
  a(v.symmetric_layout_bytes, v.bookkeeping_bytes, v.token_buffer_bytes, v.expert_capacity);
}
template <class Ar> void fields(Ar& a, HybridEpLevel& v) {
  a(v.workers, v.domain_size, v.p, v.model_case, v.bandwidth_Bps, v.expert_bytes);
}
template <class Ar> void fields(Ar& a, HybridEpCurvePoint& v) { a(v.level, v.domain_size, v.p, v.lat_ns); }
template <class Ar> void fields(Ar& a, HybridEpSpan& v) { a(v.layer, v.kind, v.start, v.end); }
template <class Ar> void fields(Ar& a, HybridEpResults& v) {
  a(v.scheme, v.levels, v.model_lat_ns, v.model_ep_lat_ns, v.curve, v.a2a_pairs, v.ag_pairs, v.a2a_bytes, v.ag_bytes,
    v.flows, v.timeline, v.data_bytes, v.expert_bytes, v.compression_ratio, v.pre_expert_ns, v.layers,
    v.network_model, v.pass, v.grad_bytes, v.allreduce_bytes, v.dense_bytes);
}
template <class Ar> void fields(Ar& a, TpResults& v) { a(v.scheme, v.model, v.layer, v.sublayer, v.sublayer_utilization); }
template <class Ar> void fields(Ar& a, CaisResults& v) {
  a(v.merge_success_rate, v.requests, v.hits, v.bypasses, v.evictions, v.timeouts, v.partial_flushes,
    v.arrival_skew_ns_mean, v.peak_table_bytes_per_port, v.blocks, v.blocks_complete, v.blocks_overfilled,
    v.load_requests, v.load_responses, v.duplicate_responses, v.sync_packets, v.sync_wait_ns, v.throttle_events,
    v.required_table_bytes_per_port);
}
template <class Ar> void fields(Ar& a, FollowSpec& v) { a(v.keys, v.piece, v.maxHops); }
template <class Ar> void fields(Ar& a, PacketFollow& v) { a(v.spec, v.what, v.parts, v.hops, v.truncated); }
template <class Ar> void fields(Ar& a, Results& v) {
  a(v.scenario, v.seed, v.threads, v.partitions, v.events, v.packets, v.packet_hops, v.wall_seconds, v.sim_time,
    v.cancelled, v.time_limit_reached, v.makespan, v.phases, v.payload_bytes, v.wire_bytes, v.uplink_bytes,
    v.downlink_bytes, v.uplink_payload_bytes, v.downlink_payload_bytes, v.links, v.switches, v.endpoints, v.bin,
    v.bins, v.algbw_GBps, v.busbw_GBps, v.collective_size_bytes, v.latency, v.accepted_fraction, v.offered_GBps,
    v.accepted_GBps, v.breakdown, v.moe, v.pipeline, v.memory, v.direction_balance, v.traffic_phases, v.nic_incast,
    v.packets_injected, v.packets_consumed, v.packets_created_in_switches, v.packets_consumed_in_switches,
    v.packets_in_flight, v.buffer_overflows, v.agents_unfinished, v.peak_live_packets, v.reduction_hits,
    v.reduction_lookups, v.hybridep, v.cais, v.tp, v.wsc, v.follow);
}

// A struct that gains a field changes its size: update its field list above, then the
// size here. (Plain records, PipelineTask, ReductionEntryRecord and MergeEntryRecord, are copied whole.)
static_assert(sizeof(LinkDirectionResult) == 328, "LinkDirectionResult changed: update results_codec.cpp");
static_assert(sizeof(SwitchResult) == 392, "SwitchResult changed: update results_codec.cpp");
static_assert(sizeof(PipelineResults) == 256, "PipelineResults changed: update results_codec.cpp");
static_assert(sizeof(MoeResults) == 120, "MoeResults changed: update results_codec.cpp");
static_assert(sizeof(HybridEpResults) == 288, "HybridEpResults changed: update results_codec.cpp");
static_assert(sizeof(CaisResults) == 152, "CaisResults changed: update results_codec.cpp");
static_assert(sizeof(TpResults) == 136, "TpResults changed: update results_codec.cpp");
static_assert(sizeof(MergePortResult) == 184, "MergePortResult changed: update results_codec.cpp");
static_assert(sizeof(WscResults) == 304, "WscResults changed: update results_codec.cpp");
static_assert(sizeof(LinkPhaseResult) == 88, "LinkPhaseResult changed: update results_codec.cpp");
static_assert(sizeof(PacketFollow) == 128, "PacketFollow changed: update results_codec.cpp");
static_assert(sizeof(Results) == 2184, "Results changed: update results_codec.cpp");

template <class T> constexpr bool kPlain = std::is_arithmetic_v<T> || std::is_enum_v<T> ||
                                           std::is_same_v<T, PipelineTask> || std::is_same_v<T, ReductionEntryRecord> ||
                                           std::is_same_v<T, MergeEntryRecord> || std::is_same_v<T, MergeArrival> ||
                                           std::is_same_v<T, MergeBypassRecord> || std::is_same_v<T, FollowKey> ||
                                           std::is_same_v<T, FollowedHop>;

struct Writer {
  std::string out;
  template <class... T> void operator()(T&... v) { (put(v), ...); }
  void raw(const void* p, std::size_t n) { out.append(static_cast<const char*>(p), n); }
  template <class T> void put(T& v) {
    if constexpr (kPlain<T>) {
      raw(&v, sizeof v);
    } else if constexpr (std::is_same_v<T, std::string>) {
      const std::uint64_t n = v.size();
      raw(&n, sizeof n);
      raw(v.data(), v.size());
    } else {
      fields(*this, v);
    }
  }
  template <class T> void put(std::vector<T>& v) {
    const std::uint64_t n = v.size();
    raw(&n, sizeof n);
    if constexpr (kPlain<T>)
      raw(v.data(), v.size() * sizeof(T));
    else
      for (T& x : v) put(x);
  }
  template <class T> void put(std::optional<T>& v) {
    const std::uint8_t has = v.has_value();
    raw(&has, 1);
    if (v) put(*v);
  }
  template <class T, std::size_t N> void put(std::array<T, N>& v) {
    for (T& x : v) put(x);
  }
  template <class T, std::size_t N> void put(T (&v)[N]) {
    for (T& x : v) put(x);
  }
  template <class A, class B> void put(std::pair<A, B>& v) {
    put(v.first);
    put(v.second);
  }
};

struct Reader {
  const std::string& in;
  std::size_t at = 0;
  template <class... T> void operator()(T&... v) { (get(v), ...); }
  void raw(void* p, std::size_t n) {
    if (n > in.size() - at) throw std::runtime_error("results: truncated data");
    if (n == 0) return;  // an empty vector's data() may be null: memcpy(nullptr, ..., 0) is undefined
    std::memcpy(p, in.data() + at, n);
    at += n;
  }
  std::uint64_t count(std::size_t itemBytes) {
    std::uint64_t n = 0;
    raw(&n, sizeof n);
    if (n > (in.size() - at) / std::max<std::size_t>(1, itemBytes)) throw std::runtime_error("results: bad length");
    return n;
  }
  template <class T> void get(T& v) {
    if constexpr (kPlain<T>) {
      raw(&v, sizeof v);
    } else if constexpr (std::is_same_v<T, std::string>) {
      v.resize(count(1));
      raw(v.data(), v.size());
    } else {
      fields(*this, v);
    }
  }
  template <class T> void get(std::vector<T>& v) {
    v.resize(count(kPlain<T> ? sizeof(T) : 1));
    if constexpr (kPlain<T>)
      raw(v.data(), v.size() * sizeof(T));
    else
      for (T& x : v) get(x);
  }
  template <class T> void get(std::optional<T>& v) {
    std::uint8_t has = 0;
    raw(&has, 1);
    if (has) get(v.emplace());
    else v.reset();
  }
  template <class T, std::size_t N> void get(std::array<T, N>& v) {
    for (T& x : v) get(x);
  }
  template <class T, std::size_t N> void get(T (&v)[N]) {
    for (T& x : v) get(x);
  }
  template <class A, class B> void get(std::pair<A, B>& v) {
    get(v.first);
    get(v.second);
  }
};

}  // namespace

std::string encodeResults(const Results& r) {
  Writer w;
  w.put(const_cast<Results&>(r));  // the writer only reads
  return std::move(w.out);
}

Results decodeResults(const std::string& bytes) {
  Reader rd{bytes};
  Results r;
  rd.get(r);
  if (rd.at != bytes.size()) throw std::runtime_error("results: trailing data");
  return r;
}

}  // namespace fl
