// resultsSection (declared in report_sections.h): the results tables of one run,
// with an MoE layer's traffic breakdown and token pipeline.
#include <algorithm>

#include "report/html_util.h"
#include "report/report_data.h"
#include "report/report_format.h"
#include "report/report_sections.h"
#include "report/svg_moe_charts.h"

namespace fl::report {
namespace {

constexpr std::size_t kLinkRows = 20, kSwitchRows = 32;

// A time cell: readable text, exact nanoseconds in data-ns for tools and tests.
Cell timeCell(Time t) { return numCell(formatDuration(t), htmlAttr("data-ns", formatFixed(toNs(t), 3))); }
Cell bytesCell(std::int64_t b) {
  return numCell(formatBytes(static_cast<double>(b)), htmlAttr("data-bytes", std::to_string(b)));
}

std::string heading(const RunView& v, const std::string& text) {
  const std::string h = "h" + std::to_string(v.headingLevel + 1);
  return "<" + h + ">" + htmlEscape(text) + "</" + h + ">\n";
}

std::string phasesTable(const RunView& v) {
  const Results& r = v.results;
  if (r.phases.empty()) return "<p class=\"note\">No phases were marked.</p>\n";
  HtmlTable t(htmlAttr("id", v.idPrefix + "phases"));
  t.header({{"phase"}, numCell("start"), numCell("end"), numCell("duration")});
  for (const PhaseMark& p : r.phases) t.row({{p.name}, timeCell(p.start), timeCell(p.end), timeCell(p.end - p.start)});
  return t.html();
}

std::string linksTable(const RunView& v) {
  const Results& r = v.results;
  const auto links = busiestLinks(r, v.brief ? 8 : kLinkRows);
  if (links.empty()) return "<p class=\"note\">No link carried traffic.</p>\n";
  HtmlTable t(htmlAttr("id", v.idPrefix + "links"));
  t.header({numCell("#"), {"link"}, {"from → to"}, {"kind"}, numCell("wire bytes"), numCell("payload"),
            numCell("packets"), numCell("utilisation")});
  int rank = 0;
  for (const LinkDirectionResult* l : links)
    t.row({numCell(std::to_string(++rank)), {l->id}, {l->from + " → " + l->to}, {l->kind}, bytesCell(l->bytes),
           bytesCell(l->payload_bytes), numCell(formatCount(l->packets)), numCell(formatPercent(l->utilization))});
  std::size_t used = 0;
  for (const LinkDirectionResult& l : r.links) used += l.bytes > 0;
  return t.html() + "<p class=\"note\">" +
         htmlEscape("Showing " + std::to_string(links.size()) + " of the " + std::to_string(used) +
                    " link directions that carried traffic (" + std::to_string(r.links.size()) +
                    " in all), by utilisation over the run = busy time / makespan.") +
         "</p>\n";
}

std::string switchesTable(const RunView& v) {
  const Results& r = v.results;
  if (r.switches.empty()) return "<p class=\"note\">This fabric has no switches.</p>\n";
  std::vector<const SwitchResult*> sw;
  for (const SwitchResult& s : r.switches) sw.push_back(&s);
  std::stable_sort(sw.begin(), sw.end(),
                   [](const auto* a, const auto* b) { return a->packets_forwarded > b->packets_forwarded; });
  const std::size_t shown = std::min(sw.size(), v.brief ? std::size_t(12) : kSwitchRows);
  HtmlTable t(htmlAttr("id", v.idPrefix + "switches"));
  t.header({{"switch"}, numCell("forwarded"), numCell("multicast replicas"), numCell("reductions"),
            numCell("evictions"), numCell("peak reduction entries")});
  for (std::size_t i = 0; i < shown; ++i) {
    const SwitchResult& s = *sw[i];
    t.row({{s.id}, numCell(formatCount(s.packets_forwarded)), numCell(formatCount(s.multicast_replicas)),
           numCell(formatCount(s.reductions)), numCell(formatCount(s.evictions)),
           numCell(formatCount(s.peak_reduction_entries))});
  }
  std::string out = t.html();
  if (shown < sw.size())
    out += "<p class=\"note\">" +
           htmlEscape("Showing the " + std::to_string(shown) + " of " + std::to_string(sw.size()) +
                      " switches that forwarded the most packets.") +
           "</p>\n";
  return out;
}

std::string totalsTable(const RunView& v) {
  const Results& r = v.results;
  auto bytes = [](std::int64_t b) { return htmlEscape(formatBytes(static_cast<double>(b))); };
  std::vector<std::pair<std::string, std::string>> rows = {
      {"makespan", htmlEscape(formatDuration(r.makespan))},
      {"payload bytes", bytes(r.payload_bytes)},
      {"wire bytes", bytes(r.wire_bytes)},
      {"payload efficiency", htmlEscape(formatPercent(r.payload_efficiency()))},
      {"uplink (endpoint → fabric)", bytes(r.uplink_bytes) + " wire, " + bytes(r.uplink_payload_bytes) + " payload"},
      {"downlink (fabric → endpoint)",
       bytes(r.downlink_bytes) + " wire, " + bytes(r.downlink_payload_bytes) + " payload"},
      {"packets delivered", htmlEscape(formatCount(r.packets) + " (" + formatCount(r.packet_hops) + " link traversals)")}};
  if (r.algbw_GBps || r.busbw_GBps) {
    std::string bw;
    if (r.algbw_GBps) bw += "algbw " + formatFixed(*r.algbw_GBps, 2) + " GB/s";
    if (r.busbw_GBps) bw += std::string(bw.empty() ? "" : ", ") + "busbw " + formatFixed(*r.busbw_GBps, 2) + " GB/s";
    rows.push_back({"collective bandwidth",
                    htmlEscape(bw + " (size " + formatBytes(static_cast<double>(r.collective_size_bytes)) + " per GPU)")});
  }
  if (r.offered_GBps || r.accepted_GBps || r.accepted_fraction) {
    std::string t;
    if (r.offered_GBps) t += "offered " + formatFixed(*r.offered_GBps, 2) + " GB/s";
    if (r.accepted_GBps) t += std::string(t.empty() ? "" : ", ") + "accepted " + formatFixed(*r.accepted_GBps, 2) + " GB/s";
    if (r.accepted_fraction) t += " (" + formatPercent(*r.accepted_fraction) + " accepted)";
    rows.push_back({"throughput per endpoint", htmlEscape(t)});
  }
  if (r.latency)
    rows.push_back({"packet latency", htmlEscape("mean " + formatFixed(r.latency->mean_ns, 1) + " ns, p50 " +
                                                 formatFixed(r.latency->p50_ns, 1) + " ns, p99 " +
                                                 formatFixed(r.latency->p99_ns, 1) + " ns, max " +
                                                 formatFixed(r.latency->max_ns, 1) + " ns (" +
                                                 formatCount(r.latency->samples) + " packets)")});
  if (r.moe) {
    const MoeResults& m = *r.moe;
    rows.push_back({"MoE layer", htmlEscape(m.communication + " + " + m.fusion + ", " +
                                            formatFixed(m.distinct_remote_gpus_per_token, 2) +
                                            " distinct remote GPUs per token, ideal communication " +
                                            formatDuration(m.ideal_comm))});
    if (m.miv_bytes)
      rows.push_back({"maximal incast volume (MIV)",
                      bytes(*m.miv_bytes) + htmlEscape(" over both rounds (seed 001 §6.7, n_rg = " +
                                                       std::to_string(m.miv_remote_peers) + "); one round " +
                                                       formatBytes(static_cast<double>(*m.miv_bytes) / 2))});
  }
  if (r.nic_incast)
    rows.push_back({"NIC incast (measured)",
                    bytes(r.nic_incast->max_bytes) +
                        htmlEscape(" most payload into one NIC in one phase (" + r.nic_incast->phase + ", into " +
                                   r.nic_incast->nic + "; " + std::to_string(r.nic_incast->nics) + " NICs)")});
  if (r.reduction_lookups > 0)
    rows.push_back({"in-switch reduction hits",
                    htmlEscape(formatCount(r.reduction_hits) + " of " + formatCount(r.reduction_lookups) + " lookups")});
  if (r.buffer_overflows != 0)
    rows.push_back({"WARNING", htmlEscape(formatCount(r.buffer_overflows) + " buffer overflows (a simulator bug)")});
  if (r.cancelled) rows.push_back({"WARNING", "the run was stopped early: partial results"});
  return keyValueTable(rows, htmlAttr("id", v.idPrefix + "totals"));
}

std::string breakdownTable(const RunView& v) {
  const Results& r = v.results;
  HtmlTable t(htmlAttr("id", v.idPrefix + "breakdown"));
  t.header({{"phase"}, {"direction"}, numCell("useful"), numCell("redundant"), numCell("useless"),
            numCell("overhead"), numCell("redundant + useless")});
  for (const TrafficBreakdownRow& b : r.breakdown) {
    const std::int64_t payload = b.useful + b.redundant + b.useless;
    const double removable = payload > 0 ? static_cast<double>(b.redundant + b.useless) / static_cast<double>(payload) : 0;
    t.row({{b.phase}, {b.direction}, bytesCell(b.useful), bytesCell(b.redundant), bytesCell(b.useless),
           bytesCell(b.overhead), numCell(formatPercent(removable))});
  }
  return t.html() +
         "<p class=\"note\">Useful: each needed token once up its source's link and once down each distinct "
         "destination's link (Dispatch; the mirror in Combine), what ideal in-switch multicast and reduction "
         "move. Redundant: further copies of needed data. Useless: data for GPUs that did not need it. "
         "Overhead: headers, byte-enables, address and target flits. The last column is the share of payload "
         "(useful + redundant + useless) that in-switch computing removes.</p>\n";
}

std::string pipelineTable(const RunView& v) {
  const PipelineResults& p = *v.results.pipeline;
  std::string busy;  // phase_busy is in task-kind order: dispatch, gemm1, gemm2, combine
  for (int k = 0; k < 4; ++k)
    busy += std::string(k ? ", " : "") + pipelineTaskKindName(static_cast<PipelineTaskKind>(k)) + " " +
            formatDuration(p.phase_busy[k]);
  // An ld_reduce combine keeps its SMs only while it issues the requests (many warps keep
  // many reductions outstanding); the switches do the reducing.
  const std::string& comm = v.results.moe ? v.results.moe->communication : std::string();
  if (comm == "dysharp" || comm == "nvls_static") busy += " (combine: issuing ld_reduce requests; the switches reduce)";
  std::string groups;
  for (std::size_t i = 0; i < p.groups.size(); ++i)
    groups += (i ? ", " : "") + p.groups[i] + " " + std::to_string(i < p.group_sms.size() ? p.group_sms[i] : 0);
  std::vector<std::pair<std::string, std::string>> rows = {
      {"fusion scheme", htmlEscape(p.fusion)},
      {"SM groups (SMs)", htmlEscape(groups + " of " + std::to_string(p.sms))},
      {"SM utilisation", htmlEscape(formatPercent(p.sm_utilization) + " of SM-time with a task in flight")},
      {"kernel launches", htmlEscape(formatCount(p.kernel_launches) + " per GPU, waiting " +
                                     formatDuration(p.launch_overhead) + " for them")},
      {"SM-busy time per phase", htmlEscape(busy)},
      {"throughput", htmlEscape(formatFixed(p.throughput_tokens_per_s / 1e6, 2) + " M tokens/s")},
      {"uplink/downlink balance",
       htmlEscape(formatFixed(v.results.direction_balance, 2) + " (lower ÷ higher direction per time bin; 1: even)")}};
  if (p.step_delays.size() > 1)
    rows.push_back({"straggler delay", htmlEscape("P95 " + formatDuration(p.straggler_delay_p95) + " over " +
                                                  std::to_string(p.step_delays.size()) + " steps")});
  if (p.overlap_efficiency) rows.push_back({"overlap efficiency", htmlEscape(formatFixed(*p.overlap_efficiency, 3))});
  if (p.ts_peak > 0 || p.or_peak > 0)
    rows.push_back({"token tracker", htmlEscape("peak " + formatCount(p.ts_peak) + " tile-status and " +
                                                formatCount(p.or_peak) + " output-readiness entries; " +
                                                formatCount(p.ts_overflows + p.or_overflows) + " spilled to DRAM")});
  return keyValueTable(rows, htmlAttr("id", v.idPrefix + "pipeline"));
}

}  // namespace

std::string breakdownTitle(const Results& r) {
  if (!r.moe) return "Traffic breakdown";
  return r.moe->communication + " + " + r.moe->fusion + " — d = " +
         formatFixed(r.moe->distinct_remote_gpus_per_token, 2) + " distinct remote GPUs per token";
}

std::string breakdownFigure(const Results& r, double valueTop, double width) {
  const std::string svg = renderBreakdownChart(r.breakdown, breakdownTitle(r), valueTop, width, width * 0.42);
  if (svg.empty()) return {};
  return "<figure class=\"breakdown\">\n" + svg +
         "<figcaption>Payload and overhead bytes on the endpoint links by what they achieve, per phase and "
         "direction (the Traffic Breakdown dock).</figcaption>\n</figure>\n";
}

std::string pipelineFigure(const Results& r, Time timeEnd, double rowsHeight) {
  if (!r.pipeline) return {};
  GanttChartOptions o;
  o.timeEnd = timeEnd;
  o.rowsHeight = rowsHeight;
  const GanttPicture g = renderPipelineGantt(*r.pipeline, o);
  if (g.svg.empty()) return {};
  return "<figure class=\"gantt\"" + htmlAttr("data-rows", std::to_string(g.rows)) + ">\n" + g.svg +
         "<figcaption>The token pipeline's tasks over time (the Pipeline dock): dispatch, GEMM-1, GEMM-2 and "
         "combine, coloured by kind; tasks of one kind less than half a pixel apart are drawn as one bar.</figcaption>\n</figure>\n";
}

namespace {

// What an MoE layer adds: the traffic breakdown (what in-switch multicast and reduction
// remove), the token pipeline (what fusion changes), the AL TLB and memory figures.
std::string moeTables(const RunView& v) {
  const Results& r = v.results;
  std::string out;
  // The charts as the app's docks draw them, unless a comparison of the sweep points
  // above already shows them on shared scales.
  if (!r.breakdown.empty()) {
    out += heading(v, "MoE traffic breakdown");
    if (!v.inComparison) out += breakdownFigure(r);
    out += breakdownTable(v);
  }
  if (r.pipeline) {
    out += heading(v, "Token pipeline");
    out += v.inComparison ? pipelineFigure(r, v.sharedEnd, 160) : pipelineFigure(r);
    out += pipelineTable(v);
  }
  std::vector<std::pair<std::string, std::string>> more;
  if (r.moe && r.moe->al_tlb_hits + r.moe->al_tlb_misses > 0)
    more.push_back({"AL TLB", htmlEscape(formatPercent(r.moe->al_tlb_hit_rate()) + " hits (" +
                                         formatCount(r.moe->al_tlb_hits) + " hits, " +
                                         formatCount(r.moe->al_tlb_misses) + " misses)")});
  if (r.memory)
    more.push_back({"memory per GPU", htmlEscape("symmetric layout " +
                                                 formatBytes(static_cast<double>(r.memory->symmetric_layout_bytes)) +
                                                 ", bookkeeping " +
                                                 formatBytes(static_cast<double>(r.memory->bookkeeping_bytes)))});
  if (!more.empty()) out += keyValueTable(more, htmlAttr("id", v.idPrefix + "moe-memory"));
  return out;
}

}  // namespace

std::string resultsSection(const RunView& v) {
  std::string body = heading(v, "Traffic totals") + totalsTable(v);
  body += moeTables(v);
  body += heading(v, "Phases") + phasesTable(v);
  body += heading(v, "Busiest link directions") + linksTable(v);
  body += heading(v, "Switches") + switchesTable(v);
  return htmlSection(v.idPrefix + "results", "Results", body, v.headingLevel);
}

}  // namespace fl::report
