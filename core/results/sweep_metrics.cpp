#include "results/sweep_metrics.h"

#include <algorithm>
#include <cmath>

namespace fl {
namespace {

using Value = std::optional<double>;

Value some(double v) { return v; }
template <class T>
Value maybe(const std::optional<T>& v) {
  return v ? Value(static_cast<double>(*v)) : std::nullopt;
}

// Share of MoE payload (useful + redundant + useless, both directions) that ideal
// in-switch multicast and reduction would not move: (d - 1) / (2d) for DeepEP.
Value removableShare(const Results& r) {
  std::int64_t payload = 0, removable = 0;
  for (const TrafficBreakdownRow& b : r.breakdown) {
    if (b.phase != "all") continue;
    payload += b.useful + b.redundant + b.useless;
    removable += b.redundant + b.useless;
  }
  if (payload == 0) return std::nullopt;
  return static_cast<double>(removable) / static_cast<double>(payload);
}

Value pipeline(const Results& r, double PipelineResults::*field) {
  return r.pipeline ? Value(r.pipeline.value().*field) : std::nullopt;
}

Value evictions(const Results& r) {
  if (r.reduction_lookups == 0) return std::nullopt;
  std::int64_t n = 0;
  for (const SwitchResult& s : r.switches) n += s.evictions;
  return static_cast<double>(n);
}

Value straggler(const Results& r) {  // zero without jitter: shown only when some point has stragglers
  if (!r.pipeline || r.pipeline->straggler_delay_p95 <= 0) return std::nullopt;
  return static_cast<double>(r.pipeline->straggler_delay_p95);
}

Value alTlbHitRate(const Results& r) {
  if (!r.moe || r.moe->al_tlb_hits + r.moe->al_tlb_misses == 0) return std::nullopt;
  return r.moe->al_tlb_hit_rate();
}

Value reductionHitRate(const Results& r) {
  if (r.reduction_lookups == 0) return std::nullopt;
  return static_cast<double>(r.reduction_hits) / static_cast<double>(r.reduction_lookups);
}

// id, column, chart title, kind, decimals; the value; the sweep keys it answers.
const std::vector<SweepMetric> kMetrics = {
    {"makespan", "makespan", "Makespan", MetricKind::Time, 0,
     [](const Results& r) { return some(static_cast<double>(r.makespan)); }, {}},
    {"payload_efficiency", "payload efficiency", "Payload efficiency", MetricKind::Fraction, 0,
     [](const Results& r) { return some(r.payload_efficiency()); }, {"packet", "flit"}},
    {"algbw_GBps", "algbw (GB/s)", "Algorithm bandwidth", MetricKind::Number, 2,
     [](const Results& r) { return r.algbw_GBps; }, {}},
    {"busbw_GBps", "busbw (GB/s)", "Bus bandwidth", MetricKind::Number, 2,
     [](const Results& r) { return r.busbw_GBps; }, {}},
    {"latency_mean_ns", "mean latency (ns)", "Mean packet latency", MetricKind::Number, 1,
     [](const Results& r) { return r.latency ? some(r.latency->mean_ns) : std::nullopt; }, {}},
    {"latency_p99_ns", "p99 latency (ns)", "p99 packet latency", MetricKind::Number, 1,
     [](const Results& r) { return r.latency ? some(r.latency->p99_ns) : std::nullopt; }, {}},
    {"offered_GBps", "offered (GB/s)", "Offered load per endpoint", MetricKind::Number, 2,
     [](const Results& r) { return r.offered_GBps; }, {}},
    {"accepted_GBps", "accepted (GB/s)", "Accepted throughput per endpoint", MetricKind::Number, 2,
     [](const Results& r) { return r.accepted_GBps; }, {}},
    {"accepted_fraction", "accepted", "Accepted share of offered load", MetricKind::Fraction, 0,
     [](const Results& r) { return r.accepted_fraction; }, {}},
    {"redundant_useless_share", "redundant + useless", "Redundant and useless share of MoE payload",
     MetricKind::Fraction, 0, removableShare, {"communication"}},
    {"direction_balance", "uplink/downlink balance", "Uplink/downlink balance", MetricKind::Number, 2,
     [](const Results& r) { return r.breakdown.empty() ? std::nullopt : some(r.direction_balance); },
     {"communication", "fusion"}},
    {"sm_utilization", "SM utilisation", "SM utilisation", MetricKind::Fraction, 0,
     [](const Results& r) { return pipeline(r, &PipelineResults::sm_utilization); }, {"fusion", "sm_groups"}},
    {"throughput_tokens_per_s", "throughput (tokens/s)", "Token throughput", MetricKind::Number, 0,
     [](const Results& r) { return pipeline(r, &PipelineResults::throughput_tokens_per_s); }, {"gpus"}},
    {"overlap_efficiency", "overlap efficiency", "Overlap efficiency T(2)/T(N)", MetricKind::Number, 3,
     [](const Results& r) { return r.pipeline ? maybe(r.pipeline->overlap_efficiency) : std::nullopt; }, {"gpus"}},
    {"straggler_delay_p95", "straggler delay P95", "Straggler delay (P95 over steps)", MetricKind::Time, 0,
     straggler, {"stragglers"}},
    {"al_tlb_hit_rate", "AL TLB hit rate", "AL TLB hit rate", MetricKind::Fraction, 0, alTlbHitRate, {"al_tlb"}},
    {"reduction_buffer_hit_rate", "reduction buffer hit rate", "Reduction buffer hit rate", MetricKind::Fraction, 0,
     reductionHitRate, {"reduction_buffer"}},
    {"evictions", "evictions", "Reduction buffer evictions", MetricKind::Number, 0, evictions, {"reduction_buffer"}},
    {"symmetric_layout_bytes", "symmetric layout per GPU", "Symmetric layout size per GPU", MetricKind::Bytes, 0,
     [](const Results& r) { return r.memory ? some(double(r.memory->symmetric_layout_bytes)) : std::nullopt; },
     {"tokens_per_gpu", "experts"}},
    {"miv_bytes", "MIV (both rounds)", "Maximal incast volume", MetricKind::Bytes, 0,
     [](const Results& r) { return r.moe ? maybe(r.moe->miv_bytes) : std::nullopt; }, {"tokens_per_gpu"}},
    {"nic_incast_bytes", "NIC incast (one phase)", "Heaviest NIC incast of one phase", MetricKind::Bytes, 0,
     [](const Results& r) { return r.nic_incast ? some(static_cast<double>(r.nic_incast->max_bytes)) : std::nullopt; },
     {}},
    // Wafer-scale inference (seed 003): per layer pass, Eq. 1 or packet.
    {"wsc_comm", "communication (AR+A2A)", "All-reduce + dispatch + combine", MetricKind::Time, 0,
     [](const Results& r) { return r.wsc ? some(static_cast<double>(r.wsc->comm)) : std::nullopt; },
     {"mapping", "tokens_per_group", "wsc.tp", "wsc.model", "network.model"}},
    {"wsc_allreduce", "all-reduce", "All-reduce", MetricKind::Time, 0,
     [](const Results& r) { return r.wsc ? some(static_cast<double>(r.wsc->allreduce)) : std::nullopt; },
     {"mapping", "wsc.tp"}},
    {"wsc_dispatch", "dispatch", "Dispatch all-to-all", MetricKind::Time, 0,
     [](const Results& r) { return r.wsc ? some(static_cast<double>(r.wsc->dispatch)) : std::nullopt; },
     {"mapping", "wsc.tp"}},
    {"wsc_moe_compute", "MoE compute", "Expert compute (slowest die)", MetricKind::Time, 0,
     [](const Results& r) { return r.wsc ? some(static_cast<double>(r.wsc->moe_compute)) : std::nullopt; },
     {"balancer"}},
    {"wsc_migration_stall", "migration stall", "Migration stall (all iterations)", MetricKind::Time, 0,
     [](const Results& r) { return r.wsc ? some(static_cast<double>(r.wsc->migration_stall)) : std::nullopt; },
     {"balancer"}},
    {"wsc_tokens_per_s_per_device", "tokens/s per die", "MoE tokens per second per die", MetricKind::Number, 0,
     [](const Results& r) { return r.wsc ? some(r.wsc->tokens_per_s_per_device) : std::nullopt; }, {"balancer"}},
};

}  // namespace

const std::vector<SweepMetric>& sweepMetrics() { return kMetrics; }

const SweepMetric* findSweepMetric(const std::string& id) {
  for (const SweepMetric& m : kMetrics)
    if (id == m.id) return &m;
  return nullptr;
}

std::vector<const SweepMetric*> metricsWithValues(const std::vector<const Results*>& points) {
  std::vector<const SweepMetric*> out;
  for (const SweepMetric& m : kMetrics)
    if (std::any_of(points.begin(), points.end(), [&](const Results* r) { return r && m.value(*r).has_value(); }))
      out.push_back(&m);
  return out;
}

std::vector<const SweepMetric*> metricsOfSweep(const std::vector<SweepPoint>& points) {
  std::vector<const Results*> results;
  for (const SweepPoint& p : points) results.push_back(&p.results);
  return metricsWithValues(results);
}

std::vector<const SweepMetric*> chartedMetrics(const std::string& key,
                                               const std::vector<const SweepMetric*>& available) {
  auto has = [&](const char* id) {
    return std::any_of(available.begin(), available.end(),
                       [&](const SweepMetric* m) { return std::string(m->id) == id; });
  };
  std::vector<const SweepMetric*> out;
  for (const SweepMetric* m : available)
    if (std::any_of(m->answers.begin(), m->answers.end(),
                    [&](const std::string& a) { return key.find(a) != std::string::npos; }))
      out.push_back(m);
  std::vector<const char*> headline;
  if (has("busbw_GBps")) headline = {"busbw_GBps"};
  else if (has("accepted_GBps") || has("latency_p99_ns")) headline = {"accepted_GBps", "latency_p99_ns"};
  else headline = {"makespan"};
  for (const char* id : headline) {
    const SweepMetric* m = findSweepMetric(id);
    if (has(id) && std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  }
  return out;
}

}  // namespace fl
