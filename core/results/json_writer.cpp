#include "results/json_writer.h"

#include "results/tp_timeline.h"

#include "results/setting_values.h"
#include "scenario/schema.h"

#include <cmath>
#include <limits>

namespace fl {
namespace {

// "L1", "L2", ...: seed 002's sub-layers (appended, not "L" + text: GCC 12's -Wrestrict
// misreads that as an overlapping copy).
std::string sublayerKey(std::size_t i) {
  std::string key = "L";
  key += std::to_string(i + 1);
  return key;
}

using Json = nlohmann::ordered_json;

// Finite numbers only: NaN/inf would become null, which readers mistake for "absent".
double finite(double v) { return std::isfinite(v) ? v : 0.0; }




Json hybridEpJson(const HybridEpResults& h) {
  Json levels = Json::array(), curve = Json::array(), timeline = Json::array();
  for (const HybridEpLevel& l : h.levels)
    levels.push_back(Json{{"workers", l.workers}, {"domain_size", l.domain_size}, {"p", finite(l.p)},
                          {"case", l.model_case}, {"bandwidth_GBps", finite(l.bandwidth_Bps / 1e9)},
                          {"expert_bytes", finite(l.expert_bytes)}});
  for (const HybridEpCurvePoint& c : h.curve)
    curve.push_back(Json{{"level", c.level}, {"domain_size", c.domain_size}, {"p", finite(c.p)},
                         {"lat_ns", finite(c.lat_ns)}});
  for (const HybridEpSpan& sp : h.timeline)
    timeline.push_back(Json{{"layer", sp.layer}, {"kind", sp.kind}, {"start_ns", toNs(sp.start)},
                            {"end_ns", toNs(sp.end)}});
  return Json{{"scheme", h.scheme},
              {"levels", std::move(levels)},
              {"model", Json{{"lat_ns", finite(h.model_lat_ns)}, {"ep_lat_ns", finite(h.model_ep_lat_ns)},
                             {"curve", std::move(curve)}}},
              {"a2a_pairs", h.a2a_pairs},
              {"ag_pairs", h.ag_pairs},
              {"a2a_bytes", h.a2a_bytes},
              {"ag_bytes", h.ag_bytes},
              {"flows", h.flows},
              {"timeline", std::move(timeline)},
              {"input", Json{{"data_bytes", finite(h.data_bytes)}, {"expert_bytes", finite(h.expert_bytes)},
                             {"compression_ratio", finite(h.compression_ratio)},
                             {"pre_expert_ns", finite(h.pre_expert_ns)}, {"layers", h.layers},
                             {"dense_bytes", finite(h.dense_bytes)}}},
              {"network_model", h.network_model},
              {"pass", h.pass},
              {"grad_bytes", h.grad_bytes},
              {"allreduce_bytes", h.allreduce_bytes}};
}

Json wscJson(const WscResults& x) {
  Json w;
  w["model"] = x.model;
  w["mapping"] = x.mapping;
  Json ftds = Json::array();
  for (const auto& f : x.ftds) ftds.push_back(Json{{"members", f.members}, {"bbox_rows", f.bbox_rows}, {"bbox_cols", f.bbox_cols}});
  w["ftds"] = std::move(ftds);
  Json groups = Json::array();
  for (const auto& g : x.tp_groups) groups.push_back(Json{{"members", g.members}, {"edge_hops", g.edge_hops}});
  w["tp_groups"] = std::move(groups);
  w["ftd_avg_hops"] = finite(x.ftd_avg_hops);
  w["allreduce_ns"] = toNs(x.allreduce);
  w["dispatch_ns"] = toNs(x.dispatch);
  w["combine_ns"] = toNs(x.combine);
  w["comm_ns"] = toNs(x.comm);
  w["moe_compute_ns"] = toNs(x.moe_compute);
  w["attention_ns"] = toNs(x.attention);
  w["a2a_inter_ftd_bytes"] = x.a2a_inter_ftd_bytes;
  Json border;
  for (const auto& [phase, bytes] : x.cross_border_bytes) border[phase] = bytes;
  w["cross_border_bytes"] = std::move(border);
  w["tokens_per_s_per_device"] = finite(x.tokens_per_s_per_device);
  Json loads = Json::array();
  for (double v : x.load_max_over_mean) loads.push_back(finite(v));
  w["load_max_over_mean"] = std::move(loads);
  Json migrations = Json::array();
  for (const auto& m : x.migrations) {
    Json stages = Json::array();
    for (const auto& st : m.stages) stages.push_back(Json{{"kind", st.kind}, {"hops", st.hops}});
    migrations.push_back(Json{{"expert", m.expert}, {"from", m.from}, {"to", m.to}, {"stages", std::move(stages)},
                              {"start_iteration", m.start_iteration}, {"end_iteration", m.end_iteration}});
  }
  w["migrations"] = std::move(migrations);
  w["migration_stall_ns"] = toNs(x.migration_stall);
  w["hot_threshold"] = finite(x.hot_threshold);
  w["hot_threshold_kind"] = x.hot_threshold_kind;
  return w;
}

Json workloadJson(const Scenario& s) {
  Json w;
  if (s.workload.kind == WorkloadKind::Collective) {
    w["kind"] = "collective";
    w["op"] = getValue(s, "workload.collective.op");
    w["algorithm"] = getValue(s, "workload.collective.algorithm");
  } else if (s.workload.kind == WorkloadKind::TpLayer) {
    w["kind"] = "tp_layer";
    for (const char* key : {"workload.tp.model", "workload.tp.phase", "workload.tp.layers", "scheme.tp"}) {
      const std::string k = key;
      w[k.substr(k.rfind('.') + 1)] = getValue(s, k);
    }
  } else if (s.workload.kind == WorkloadKind::MoeLayer) {
    w["kind"] = "moe_layer";
    for (const char* key : {"workload.moe.model", "workload.moe.tokens_per_gpu", "workload.moe.hidden",
                            "workload.moe.experts", "workload.moe.top_k", "workload.moe.routing.distribution",
                            "scheme.communication", "scheme.fusion"}) {
      const std::string k = key;
      w[k.substr(k.rfind('.') + 1)] = getValue(s, k);
    }
  } else if (s.workload.kind == WorkloadKind::CrossDcMoe) {
    w["kind"] = "cross_dc_moe";
    for (const char* key : {"workload.xdc.model", "workload.xdc.layers", "scheme.ep", "scheme.hybrid.domains",
                            "scheme.hybrid.compression_ratio", "scheme.hybrid.fusion"}) {
      const std::string k = key;
      w[k.substr(k.find('.') + 1)] = getValue(s, k);
    }
    w["network_model"] = "flow";
  } else if (s.workload.kind == WorkloadKind::WscInference) {
    w["kind"] = "wsc_inference";
    for (const char* key : {"workload.wsc.model", "workload.wsc.tp", "workload.wsc.tokens_per_group",
                            "workload.wsc.gating", "mapping.kind", "network.model"}) {
      const std::string k = key;
      w[k.substr(k.rfind('.') + 1)] = getValue(s, k);
    }
  } else {
    w["kind"] = "traffic";
    w["pattern"] = getValue(s, "workload.traffic.pattern");
    w["load"] = finite(s.workload.traffic.load);
  }
  return w;
}

Json pipelineJson(const PipelineResults& p, bool tp) {
  Json o;
  o["fusion"] = p.fusion;
  Json groups = Json::array();
  for (std::size_t i = 0; i < p.groups.size(); ++i)
    groups.push_back(Json{{"name", p.groups[i]}, {"sms", i < p.group_sms.size() ? p.group_sms[i] : 0}});
  o["sm_groups"] = std::move(groups);
  o["sms"] = p.sms;
  o["sm_utilization"] = finite(p.sm_utilization);
  o["kernel_launches"] = p.kernel_launches;
  o["launch_overhead_ns"] = toNs(p.launch_overhead);
  Json phases;
  // An MoE pipeline's four phases; a TP layer's task kinds (gemm .. sync_wait) instead.
  if (tp)
    for (const auto& [kind, busy] : tpPhaseBusy(p)) phases[pipelineTaskKindName(kind)] = toNs(busy);
  else
    for (int k = 0; k < 4; ++k) phases[pipelineTaskKindName(static_cast<PipelineTaskKind>(k))] = toNs(p.phase_busy[k]);
  o["phase_ns"] = std::move(phases);
  if (p.overlap_efficiency) o["overlap_efficiency"] = finite(*p.overlap_efficiency);
  o["throughput_tokens_per_s"] = finite(p.throughput_tokens_per_s);
  o["straggler_delay_p95_ns"] = toNs(p.straggler_delay_p95);
  Json delays = Json::array();
  for (Time d : p.step_delays) delays.push_back(toNs(d));
  o["step_delays_ns"] = std::move(delays);
  o["tasks"] = static_cast<std::int64_t>(p.tasks.size());
  o["token_tracker"] = Json{{"ts_peak_entries", p.ts_peak}, {"or_peak_entries", p.or_peak},
                            {"ts_overflows", p.ts_overflows}, {"or_overflows", p.or_overflows}};
  return o;
}

}  // namespace

Json resultsToJson(const Results& r, const Scenario& scenario) {
  Json j;
  j["fabriclab_version"] = FABRICLAB_VERSION;
  j["scenario"] = r.scenario.empty() ? scenario.name : r.scenario;
  j["seed"] = r.seed;
  j["cancelled"] = r.cancelled;
  j["time_limit_reached"] = r.time_limit_reached;
  j["workload"] = workloadJson(scenario);

  Json e;
  e["events"] = r.events;
  e["packets"] = r.packets;
  e["packet_hops"] = r.packet_hops;
  e["wall_seconds"] = finite(r.wall_seconds);
  e["sim_time_ns"] = toNs(r.sim_time);
  // No thread count here: results are identical for any, so it is not a result.
  e["partitions"] = r.partitions;
  e["peak_live_packets"] = r.peak_live_packets;

  j["engine"] = std::move(e);

  Json s;
  s["makespan_ns"] = toNs(r.makespan);
  s["phases"] = Json::array();
  for (const PhaseMark& p : r.phases)
    s["phases"].push_back(Json{{"name", p.name}, {"start_ns", toNs(p.start)}, {"end_ns", toNs(p.end)}});

  j["summary"] = std::move(s);

  Json t;
  t["payload_bytes"] = r.payload_bytes;
  t["wire_bytes"] = r.wire_bytes;
  t["payload_efficiency"] = finite(r.payload_efficiency());
  t["uplink_bytes"] = r.uplink_bytes;
  t["downlink_bytes"] = r.downlink_bytes;
  t["uplink_payload_bytes"] = r.uplink_payload_bytes;
  t["downlink_payload_bytes"] = r.downlink_payload_bytes;
  t["direction_balance"] = finite(r.direction_balance);
  if (r.nic_incast) {
    // Fabrics with NICs: the most payload one NIC received in one traffic phase.
    t["max_nic_incast_bytes"] = r.nic_incast->max_bytes;
    t["max_nic_incast_phase"] = r.nic_incast->phase;
    t["max_nic_incast_nic"] = r.nic_incast->nic;
    t["nics"] = r.nic_incast->nics;
  }
  if (!r.breakdown.empty()) {
    // MoE layers: payload by what it achieves (useful / redundant / useless) plus framing.
    Json rows = Json::array();
    std::int64_t useful = 0, redundant = 0, useless = 0, overhead = 0;
    for (const TrafficBreakdownRow& b : r.breakdown) {
      rows.push_back(Json{{"phase", b.phase}, {"direction", b.direction}, {"useful_bytes", b.useful},
                          {"redundant_bytes", b.redundant}, {"useless_bytes", b.useless},
                          {"overhead_bytes", b.overhead}});
      if (b.phase != "all") continue;
      useful += b.useful;
      redundant += b.redundant;
      useless += b.useless;
      overhead += b.overhead;
    }
    t["breakdown"] = std::move(rows);
    t["useful_bytes"] = useful;
    t["redundant_bytes"] = redundant;
    t["useless_bytes"] = useless;
    t["overhead_bytes"] = overhead;
  }

  j["traffic"] = std::move(t);

  Json links = Json::array();
  for (const LinkDirectionResult& l : r.links) {
    Json o;
    o["id"] = l.id;
    o["link"] = l.link;
    o["direction"] = l.direction;
    o["from"] = l.from;
    o["to"] = l.to;
    o["kind"] = l.kind;
    o["uplink"] = l.uplink;
    o["downlink"] = l.downlink;
    o["bytes"] = l.bytes;
    o["payload_bytes"] = l.payload_bytes;
    o["packets"] = l.packets;
    o["busy_ns"] = toNs(l.busy);
    o["utilization"] = finite(l.utilization);
    if (!l.ftd.empty()) o["ftd"] = l.ftd;
    if (!l.phases.empty()) {
      Json ph;
      for (const LinkPhaseResult& p : l.phases)
        ph[p.phase] = Json{{"bytes", p.bytes}, {"busy_ns", toNs(p.busy)}, {"utilization", finite(p.utilization)},
                           {"class", p.cls}};
      o["phases"] = std::move(ph);
    }
    links.push_back(std::move(o));
  }
  j["links"] = std::move(links);

  Json switches = Json::array();
  for (const SwitchResult& w : r.switches) {
    Json o;
    o["id"] = w.id;
    o["packets_forwarded"] = w.packets_forwarded;
    o["multicast_replicas"] = w.multicast_replicas;
    o["reductions"] = w.reductions;
    o["reduction_contributions"] = w.reduction_contributions;
    o["evictions"] = w.evictions;
    o["peak_reduction_entries"] = w.peak_reduction_entries;
    o["peak_reduction_bytes"] = w.peak_reduction_bytes;
    o["reduction_buffer_hit_rate"] = finite(w.reduction_buffer_hit_rate);
    if (!w.reduction_ports.empty()) {
      Json ports = Json::array();
      for (const ReductionPortResult& p : w.reduction_ports)
        ports.push_back(Json{{"port", p.port}, {"peer", p.peer}, {"peak_entries", p.peak_entries},
                             {"evictions", p.evictions_total}});
      o["reduction_ports"] = std::move(ports);
    }
    o["max_buffer_flits"] = w.max_buffer_flits;
    if (!w.merge_ports.empty()) {
      Json ports = Json::array();
      for (const MergePortResult& p : w.merge_ports)
        ports.push_back(Json{{"port", p.port}, {"peer", p.peer}, {"peak_entries", p.peak_entries},
                             {"loads", p.loads}, {"reductions", p.reductions}, {"hits", p.hits},
                             {"bypasses", p.bypasses}, {"evictions", p.evictions}, {"timeouts", p.timeouts},
                             {"partial_flushes", p.partial_flushes}});
      o["merge_ports"] = std::move(ports);
    }
    switches.push_back(std::move(o));
  }
  j["switches"] = std::move(switches);
  j["switch_totals"] = Json{{"reduction_hits", r.reduction_hits}, {"reduction_lookups", r.reduction_lookups}};

  if (scenario.workload.kind == WorkloadKind::Collective || r.algbw_GBps || r.busbw_GBps ||
      r.collective_size_bytes > 0) {
    Json c;
    c["size_bytes"] = r.collective_size_bytes;
    if (r.algbw_GBps) c["algbw_GBps"] = finite(*r.algbw_GBps);
    if (r.busbw_GBps) c["busbw_GBps"] = finite(*r.busbw_GBps);
    j["collective"] = std::move(c);
  }

  if (!r.endpoints.empty()) {
    Json eps = Json::array();
    for (const EndpointResult& e : r.endpoints)
      eps.push_back(Json{{"id", e.id}, {"al_tlb_hits", e.al_tlb_hits}, {"al_tlb_misses", e.al_tlb_misses},
                         {"al_blocks_allocated", e.al_blocks_allocated}});
    j["endpoints"] = std::move(eps);
  }
  if (r.moe) {
    const MoeResults& m = *r.moe;
    j["moe"] = Json{{"communication", m.communication},
                    {"fusion", m.fusion},
                    {"distinct_remote_gpus_per_token", finite(m.distinct_remote_gpus_per_token)},
                    {"ideal_comm_ns", toNs(m.ideal_comm)},
                    {"al_tlb_hits", m.al_tlb_hits},
                    {"al_tlb_misses", m.al_tlb_misses},
                    {"al_tlb_hit_rate", finite(m.al_tlb_hit_rate())}};
    if (m.miv_bytes) {
      j["moe"]["miv_bytes"] = *m.miv_bytes;
      j["moe"]["miv_remote_peers"] = m.miv_remote_peers;
    }
  }
  if (r.pipeline) j["pipeline"] = pipelineJson(*r.pipeline, r.tp.has_value());
  if (r.hybridep) j["hybridep"] = hybridEpJson(*r.hybridep);
  if (r.tp) {
    const TpResults& t = *r.tp;
    Json sub;
    for (std::size_t i = 0; i < t.sublayer.size(); ++i) sub[sublayerKey(i)] = toNs(t.sublayer[i]);
    j["tp"] = Json{{"scheme", t.scheme}, {"model", t.model}, {"layer_ns", toNs(t.layer)}, {"sublayer_ns", sub}};
    // Per sub-layer span (seed 002 Fig. 15) and their mean over the sub-layers run, the
    // paper's 62.4 / 84.7 / 90.2 % figure.
    Json subUtil;
    double utilSum = 0;
    int utilCount = 0;
    for (std::size_t i = 0; i < t.sublayer_utilization.size(); ++i) {
      subUtil[sublayerKey(i)] = finite(t.sublayer_utilization[i]);
      if (t.sublayer[i] > 0) utilSum += t.sublayer_utilization[i], ++utilCount;
    }
    j["tp"]["sublayer_utilization"] = subUtil;
    j["tp"]["sublayer_utilization_mean"] = utilCount > 0 ? finite(utilSum / utilCount) : 0.0;
    // Busy fraction over all links and both directions (seed 002 §V-B2), over the run.
    double busy = 0;
    for (const LinkDirectionResult& l : r.links) busy += l.utilization;
    j["traffic"]["bandwidth_utilization"] = r.links.empty() ? 0.0 : finite(busy / static_cast<double>(r.links.size()));
  }
  if (r.follow) {  // run.follow: the hops of the packets it names
    Json hops = Json::array();
    for (const NamedHop& n : namedHops(r)) {
      const FollowedHop& h = *n.hop;
      hops.push_back(Json{{"start_ns", toNs(h.start)}, {"end_ns", toNs(h.end)}, {"arrive_ns", toNs(h.arrive)},
                          {"from", n.from}, {"to", n.to}, {"link", h.link}, {"direction", h.direction},
                          {"op", n.op}, {"piece", h.piece}, {"tag", h.tag}, {"contributions", h.contributions}});
      if (!r.follow->parts.empty()) hops.back()["selector"] = r.follow->selectorOf(h);  // run.follow as a list
    }
    j["follow"] = Json{{"what", r.follow->what}, {"truncated", r.follow->truncated}, {"hops", std::move(hops)}};
    if (!r.follow->parts.empty()) {  // one entry per selector of the list: what it names, its hop count
      Json selectors = Json::array();
      std::vector<std::int64_t> count(r.follow->parts.size(), 0);
      for (const FollowedHop& h : r.follow->hops) ++count[std::min(count.size() - 1, std::size_t(r.follow->selectorOf(h)))];
      for (std::size_t i = 0; i < count.size(); ++i)
        selectors.push_back(Json{{"selector", i}, {"what", r.follow->parts[i]}, {"hops", count[i]}});
      j["follow"]["selectors"] = std::move(selectors);
    }
  }
  if (r.cais) {
    const CaisResults& c = *r.cais;
    j["cais"] = Json{{"merge_success_rate", finite(c.merge_success_rate)},
                     {"requests", c.requests},
                     {"hits", c.hits},
                     {"bypasses", c.bypasses},
                     {"evictions", c.evictions},
                     {"timeouts", c.timeouts},
                     {"partial_flushes", c.partial_flushes},
                     {"arrival_skew_ns_mean", finite(c.arrival_skew_ns_mean)},
                     {"peak_table_bytes_per_port", c.peak_table_bytes_per_port},
                     {"blocks", c.blocks},
                     {"blocks_complete", c.blocks_complete},
                     {"blocks_overfilled", c.blocks_overfilled},
                     {"load_requests", c.load_requests},
                     {"load_responses", c.load_responses},
                     {"duplicate_responses", c.duplicate_responses},
                     {"sync_packets", c.sync_packets},
                     {"sync_wait_ns", finite(c.sync_wait_ns)},
                     {"throttle_events", c.throttle_events},
                     {"required_table_bytes_per_port", c.required_table_bytes_per_port}};
  }
  if (r.wsc) j["wsc"] = wscJson(*r.wsc);
  if (r.memory) {
    const MemoryResults& m = *r.memory;
    j["memory"] = Json{{"symmetric_layout_bytes", m.symmetric_layout_bytes},
                       {"bookkeeping_bytes", m.bookkeeping_bytes},
                       {"token_buffer_bytes", m.token_buffer_bytes},
                       {"expert_capacity", m.expert_capacity}};
  }
  if (r.latency) {
    const LatencyStats& l = *r.latency;
    Json o;
    o["mean_ns"] = finite(l.mean_ns);
    o["p50_ns"] = finite(l.p50_ns);
    o["p99_ns"] = finite(l.p99_ns);
    o["max_ns"] = finite(l.max_ns);
    o["samples"] = l.samples;
    Json edges = Json::array(), counts = Json::array();
    for (double v : l.histogram_edges_ns) edges.push_back(finite(v));
    for (std::int64_t v : l.histogram_counts) counts.push_back(v);
    o["histogram"] = Json{{"edges_ns", std::move(edges)}, {"counts", std::move(counts)}};
    j["latency"] = std::move(o);
  }

  if (r.accepted_fraction || r.offered_GBps || r.accepted_GBps) {
    Json o;
    if (r.accepted_fraction) o["accepted_fraction"] = finite(*r.accepted_fraction);
    if (r.offered_GBps) o["offered_GBps"] = finite(*r.offered_GBps);
    if (r.accepted_GBps) o["accepted_GBps"] = finite(*r.accepted_GBps);
    j["throughput"] = std::move(o);
  }

  Json inv;
  inv["packets_injected"] = r.packets_injected;
  inv["packets_consumed"] = r.packets_consumed;
  inv["packets_created_in_switches"] = r.packets_created_in_switches;
  inv["packets_consumed_in_switches"] = r.packets_consumed_in_switches;
  inv["packets_in_flight"] = r.packets_in_flight;
  inv["buffer_overflows"] = r.buffer_overflows;
  inv["agents_unfinished"] = r.agents_unfinished;

  j["invariants"] = std::move(inv);

  Json series;
  series["bin_ns"] = toNs(r.bin);
  series["bins"] = r.bins;
  Json sl = Json::array();
  for (const LinkDirectionResult& l : r.links) {
    Json bins = Json::array();
    for (std::int64_t b : l.bin_bytes.dense(r.bins)) bins.push_back(b);
    sl.push_back(Json{{"id", l.id}, {"bin_bytes", std::move(bins)}});
  }
  series["links"] = std::move(sl);
  j["series"] = std::move(series);
  return j;
}

Json sweepToJson(const std::vector<SweepPoint>& points, const Scenario& scenario) {
  if (points.size() == 1 && points.front().settings.empty())
    return resultsToJson(points.front().results, scenario);
  Json j;
  j["fabriclab_version"] = FABRICLAB_VERSION;
  j["scenario"] = scenario.name;
  Json arr = Json::array();
  for (const SweepPoint& p : points) {
    // `settings` as the file wrote them; `setting_values` as data: sizes, times and rates
    // as numbers under unit-suffixed keys, other numbers as numbers, names as the schema
    // writes them (results/setting_values.h).
    Json settings = Json::object(), values = Json::object();
    for (const auto& [key, value] : p.settings) {
      settings[key] = value;
      const SettingValue v = settingValue(key, value);
      if (v.number) values[v.column] = *v.number;
      else values[v.column] = v.text;
    }
    arr.push_back(Json{{"settings", std::move(settings)},
                       {"setting_values", std::move(values)},
                       {"results", resultsToJson(p.results, scenario)}});
  }
  j["sweep"] = std::move(arr);
  return j;
}

std::string jsonText(const Json& json) { return json.dump(2) + "\n"; }

Json stripWallTime(Json json) {
  auto strip = [](Json& results) {
    if (results.is_object() && results.contains("engine") && results["engine"].is_object())
      results["engine"].erase("wall_seconds");
  };
  strip(json);
  if (json.is_object() && json.contains("sweep") && json["sweep"].is_array())
    for (Json& p : json["sweep"])
      if (p.is_object() && p.contains("results")) strip(p["results"]);
  return json;
}

}  // namespace fl
