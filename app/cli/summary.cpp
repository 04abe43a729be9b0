#include "cli/summary.h"

#include "report/metric_format.h"
#include "report/sweep_axes.h"
#include "results/sweep_metrics.h"
#include "scenario/schema.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace fl::cli {
namespace {

std::string printf1(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// Terminal columns a UTF-8 string takes: its code points ("–", "µs" are two bytes each).
std::size_t columns(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string pad(const std::string& s, std::size_t w, bool right) {
  const std::size_t n = columns(s);
  if (n >= w) return s;
  return right ? std::string(w - n, ' ') + s : s + std::string(w - n, ' ');
}

void line(std::ostream& out, const std::string& label, const std::string& value) {
  out << "  " << pad(label + ":", 20, false) << value << '\n';
}

double eventsPerSecond(const Results& r) {
  return r.wall_seconds > 0 ? static_cast<double>(r.events) / r.wall_seconds : 0;
}

}  // namespace



std::string formatTime(Time t) {
  const double ps = static_cast<double>(t);
  const double a = std::fabs(ps);
  if (a < 1e3) return printf1("%.0f ps", ps);
  if (a < 1e6) return printf1("%.2f ns", ps / 1e3);
  if (a < 1e9) return printf1("%.2f us", ps / 1e6);
  if (a < 1e12) return printf1("%.2f ms", ps / 1e9);
  return printf1("%.3f s", ps / 1e12);
}


void printRunSummary(std::ostream& out, const Scenario& s, const std::string& topology,
                     const Results& r) {
  out << "scenario " << (r.scenario.empty() ? s.name : r.scenario)
      << (r.cancelled ? "  (INTERRUPTED: partial results)" : "") << '\n';
  line(out, "topology", topology);
  line(out, "workload", workloadOneLine(s));
  line(out, "seed", std::to_string(r.seed));
  line(out, "makespan", formatTime(r.makespan));
  // A closed-form run (the analytical wafer model) computes its phases without events:
  // a rate of 0 events/s would read as a stalled engine.
  const std::string rate = r.events > 0 ? printf1("%.3g", eventsPerSecond(r)) + " events/s, " : "closed form, ";
  line(out, "events", formatCount(r.events) + " in " + printf1("%.3f s", r.wall_seconds) + " (" + rate +
                          std::to_string(r.threads) + (r.threads == 1 ? " thread, " : " threads, ") +
                          std::to_string(r.partitions) +
                          (r.partitions == 1 ? " partition)" : " partitions)"));
  line(out, "packets", formatCount(r.packets) + " delivered, " + formatCount(r.packet_hops) + " hops");
  line(out, "payload efficiency",
       printf1("%.1f%%", r.payload_efficiency() * 100) + " (" +
           formatBytes(static_cast<double>(r.payload_bytes)) + " payload in " +
           formatBytes(static_cast<double>(r.wire_bytes)) + " on the wire)");
  line(out, "uplink", formatBytes(static_cast<double>(r.uplink_bytes)) + " (" +
                          formatBytes(static_cast<double>(r.uplink_payload_bytes)) + " payload)");
  line(out, "downlink", formatBytes(static_cast<double>(r.downlink_bytes)) + " (" +
                            formatBytes(static_cast<double>(r.downlink_payload_bytes)) + " payload)");
  if (r.follow)  // run.follow / --follow: where its hops went
    line(out, "followed", r.follow->what + ": " + std::to_string(r.follow->hops.size()) + " hops" +
                              (r.follow->truncated ? " (cut at the bound per node)" : "") +
                              " (--json follow.hops, --csv follow.csv, --report)");
  if (r.algbw_GBps || r.busbw_GBps) {
    std::string v;
    if (r.algbw_GBps) v += "algbw " + printf1("%.2f GB/s", *r.algbw_GBps);
    if (r.busbw_GBps) v += std::string(v.empty() ? "" : ", ") + "busbw " + printf1("%.2f GB/s", *r.busbw_GBps);
    v += " (size " + formatBytes(static_cast<double>(r.collective_size_bytes)) + ")";
    line(out, "bandwidth", v);
  }
  if (r.moe) {
    const MoeResults& m = *r.moe;
    line(out, "MoE", printf1("%.2f distinct remote GPUs per token", m.distinct_remote_gpus_per_token) +
                         ", ideal communication " + formatTime(m.ideal_comm) +
                         printf1(" (%.0f%% of the makespan)", r.makespan ? 100.0 * double(m.ideal_comm) / double(r.makespan) : 0.0) +
                         printf1(", AL TLB hit rate %.1f%%", 100 * m.al_tlb_hit_rate()));
    if (m.miv_bytes)
      line(out, "MIV", formatBytes(double(*m.miv_bytes)) + " (seed 001 §6.7, both rounds, n_rg " +
                           std::to_string(m.miv_remote_peers) + "; one round " +
                           formatBytes(double(*m.miv_bytes) / 2) + ")");
    for (const TrafficBreakdownRow& b : r.breakdown) {
      if (b.phase != "all") continue;
      line(out, "traffic " + b.direction,
           "useful " + formatBytes(double(b.useful)) + ", redundant " + formatBytes(double(b.redundant)) +
               ", useless " + formatBytes(double(b.useless)) + ", overhead " + formatBytes(double(b.overhead)));
    }
  }
  if (r.wsc) {
    const WscResults& w = *r.wsc;
    line(out, "WSC", w.mapping + " mapping, " + w.model + " model: all-reduce " + formatTime(w.allreduce) +
                         ", dispatch " + formatTime(w.dispatch) + ", combine " + formatTime(w.combine) +
                         " (communication " + formatTime(w.comm) + "), MoE compute " + formatTime(w.moe_compute) +
                         printf1(", FTD mean hops %.3f", w.ftd_avg_hops));
    if (!w.migrations.empty() || w.migration_stall > 0)
      line(out, "balancing", std::to_string(w.migrations.size()) + " expert copies, stall " +
                                 formatTime(w.migration_stall));
  }
  if (r.nic_incast)
    line(out, "NIC incast", formatBytes(double(r.nic_incast->max_bytes)) + " most into one NIC in one phase (" +
                                r.nic_incast->phase + ", into " + r.nic_incast->nic + "; " +
                                std::to_string(r.nic_incast->nics) + " NICs)");
  if (r.latency) {
    const LatencyStats& l = *r.latency;
    line(out, "latency", printf1("mean %.1f ns", l.mean_ns) + printf1(", p50 %.1f ns", l.p50_ns) +
                             printf1(", p99 %.1f ns", l.p99_ns) + printf1(", max %.1f ns", l.max_ns) +
                             " (" + formatCount(l.samples) + " samples)");
  }
  if (r.accepted_fraction || r.offered_GBps || r.accepted_GBps) {
    std::string v;
    if (r.offered_GBps) v += printf1("offered %.2f GB/s", *r.offered_GBps);
    if (r.accepted_GBps) {
      if (!v.empty()) v += ", ";
      v += printf1("accepted %.2f GB/s", *r.accepted_GBps);
    }
    if (r.accepted_fraction) {
      if (!v.empty()) v += ' ';
      v += printf1("(%.1f%% accepted)", *r.accepted_fraction * 100);
    }
    line(out, "throughput", v + " per endpoint");
  }
  if (r.agents_unfinished != 0 && r.time_limit_reached)
    line(out, "WARNING", "stopped at run.time_limit with " + formatCount(r.agents_unfinished) +
                             " GPUs' work unfinished (raise run.time_limit)");
  else if (r.agents_unfinished != 0)
    line(out, "WARNING", formatCount(r.agents_unfinished) + " GPUs never finished their work (simulator stall)");
  if (r.buffer_overflows != 0)
    line(out, "WARNING", formatCount(r.buffer_overflows) + " buffer overflows (simulator bug)");

  // The busiest link directions: by utilisation, then bytes, then id for stable output.
  std::vector<const LinkDirectionResult*> links;
  for (const LinkDirectionResult& l : r.links) links.push_back(&l);
  std::stable_sort(links.begin(), links.end(), [](auto* a, auto* b) {
    if (a->utilization != b->utilization) return a->utilization > b->utilization;
    if (a->bytes != b->bytes) return a->bytes > b->bytes;
    return false;
  });
  if (links.size() > 5) links.resize(5);
  if (!links.empty() && links.front()->bytes > 0) {
    out << "  busiest link directions:\n";
    std::size_t w = 0;
    for (auto* l : links) w = std::max(w, l->from.size() + l->to.size() + 4);
    for (auto* l : links) {
      if (l->bytes == 0) break;
      out << "    " << pad(l->id, 8, false) << pad(l->from + " -> " + l->to, w + 2, false)
          << pad(l->kind, 8, false) << pad(printf1("%.1f%%", l->utilization * 100), 7, true) << "  "
          << formatBytes(static_cast<double>(l->bytes)) << '\n';
    }
  }
}

void printSweepTable(std::ostream& out, const Scenario& s, const std::string& topology,
                     const std::vector<SweepPoint>& points) {
  out << "scenario " << s.name << ": sweep of " << points.size() << " points\n";
  line(out, "topology", topology);
  line(out, "workload", workloadOneLine(s));

  std::vector<std::string> header;
  for (const SweepAxis& a : s.sweep) header.push_back(a.key);
  if (header.empty() && !points.empty())
    for (const auto& kv : points.front().settings) header.push_back(kv.first);
  const std::size_t settingColumns = header.size();

  // The figures every sweep view shows (results/sweep_metrics.h), with the event count
  // after the makespan: what the run cost the simulator.
  const auto metrics = fl::metricsOfSweep(points);
  for (const fl::SweepMetric* m : metrics) {
    header.push_back(m->column);
    if (std::string(m->id) == "makespan") header.push_back("events");
  }

  std::vector<std::vector<std::string>> rows;
  for (const SweepPoint& p : points) {
    const Results& r = p.results;
    std::vector<std::string> row;
    for (std::size_t i = 0; i < settingColumns; ++i) row.push_back(report::settingOf(p.settings, header[i]));
    for (const fl::SweepMetric* m : metrics) {
      if (std::string(m->id) == "makespan") {
        row.push_back(formatTime(r.makespan) + (r.cancelled ? " (stopped)" : ""));
        row.push_back(formatCount(r.events));
        continue;
      }
      const std::optional<double> v = m->value(r);
      if (!v) {
        row.push_back("-");
      } else if (m->kind == fl::MetricKind::Time) {
        row.push_back(formatTime(static_cast<Time>(std::llround(*v))));
      } else {
        row.push_back(report::formatMetric(*m, *v));
      }
    }
    rows.push_back(std::move(row));
  }

  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    width[c] = columns(header[c]);
    for (const auto& row : rows) width[c] = std::max(width[c], columns(row[c]));
  }
  auto printRow = [&](const std::vector<std::string>& cells) {
    out << ' ';
    for (std::size_t c = 0; c < cells.size(); ++c)
      out << ' ' << pad(cells[c], width[c], c >= settingColumns) << (c + 1 < cells.size() ? " " : "");
    out << '\n';
  };
  printRow(header);
  std::vector<std::string> rule;
  for (std::size_t w : width) rule.push_back(std::string(w, '-'));
  printRow(rule);
  for (const auto& row : rows) printRow(row);
}

}  // namespace fl::cli
