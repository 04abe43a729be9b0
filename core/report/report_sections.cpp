#include "report/report_sections.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "report/html_util.h"
#include "report/report_data.h"
#include "report/report_format.h"
#include "report/report_text.h"
#include "report/svg_charts.h"
#include "report/svg_topology.h"

namespace fl::report {
namespace {

constexpr std::size_t kMaxPlotPoints = 1500;  // bins merged beyond this: the SVG stays small

std::string figure(const std::string& svg, const std::string& caption, const std::string& attrs = {}) {
  return "<figure" + attrs + ">\n" + svg + "<figcaption>" + caption + "</figcaption>\n</figure>\n";
}

std::string note(const std::string& text) { return "<p class=\"note\">" + htmlEscape(text) + "</p>\n"; }

// Whether the results were produced on this topology: every direction's endpoints match.
bool resultsMatch(const Results& r, const topo::Topology& t) {
  for (const LinkDirectionResult& l : r.links) {
    if (l.link < 0 || l.link >= static_cast<int>(t.links().size())) return false;
    const topo::Link& k = t.link(l.link);
    const topo::NodeId from = l.direction == 0 ? k.a : k.b, to = l.direction == 0 ? k.b : k.a;
    if (t.node(from).name != l.from || t.node(to).name != l.to) return false;
  }
  return true;
}

// Hierarchies open every group below 200 endpoints, which can give a strip far wider than
// a page. Open groups level by level from the outermost while the picture stays within
// 3:1 (the most detail that is still readable); other fabrics keep their layout.
layout::TopologyLayout fittedLayout(const topo::Topology& t, const layout::LayoutOptions& options, bool fit) {
  constexpr double kMaxAspect = 3;
  auto aspect = [](const layout::TopologyLayout& l) { return l.width / std::max(1.0, l.height); };
  layout::TopologyLayout l = layout::layoutTopology(t, options);
  if (!fit || t.kind != "hierarchy" || aspect(l) <= kMaxAspect) return l;
  layout::LayoutOptions all;
  all.expandAll = true;
  const std::vector<layout::GroupBox> groups = layout::layoutTopology(t, all).groups;
  layout::LayoutOptions o;
  o.autoExpandBelow = 0;
  layout::TopologyLayout best = layout::layoutTopology(t, o);
  for (int level = 0;; ++level) {
    bool any = false;
    for (std::size_t g = 0; g < groups.size(); ++g)
      if (groups[g].level == level) o.expandedGroups.insert(static_cast<int>(g)), any = true;
    if (!any) break;
    layout::TopologyLayout next = layout::layoutTopology(t, o);
    if (aspect(next) > kMaxAspect) break;
    best = std::move(next);
  }
  return best;
}

std::string binRange(const Results& r, int b) {
  const Time start = static_cast<Time>(b) * r.bin;
  return formatDuration(start) + " – " + formatDuration(start + binDuration(r, b));
}

// Bin-centred time axis in a readable unit; consecutive bins merged (averaged) when there
// are more than kMaxPlotPoints.
struct TimeAxis {
  TimeUnit unit;
  std::size_t merge = 1;
};
TimeAxis timeAxisFor(const Results& r) {
  const auto n = static_cast<std::size_t>(binCount(r));
  return {timeUnitFor(std::max<Time>(runEnd(r), r.bin)), std::max<std::size_t>(1, (n + kMaxPlotPoints - 1) / kMaxPlotPoints)};
}

// Averages `values` (one per bin) over groups of `merge` bins, weighted by bin duration.
ChartSeries timeSeries(const std::string& name, const Results& r, const TimeAxis& ax,
                       const std::vector<double>& values) {
  ChartSeries s;
  s.name = name;
  for (std::size_t b0 = 0; b0 < values.size(); b0 += ax.merge) {
    double sum = 0, weight = 0;
    const std::size_t b1 = std::min(values.size(), b0 + ax.merge);
    for (std::size_t b = b0; b < b1; ++b) {
      const double d = static_cast<double>(binDuration(r, static_cast<int>(b)));
      sum += values[b] * d;
      weight += d;
    }
    const double start = static_cast<double>(static_cast<Time>(b0) * r.bin);
    s.x.push_back((start + weight / 2) / ax.unit.picoseconds);
    s.y.push_back(weight > 0 ? sum / weight : 0);
  }
  return s;
}

std::string bandwidthChart(const Results& r, const TimeAxis& ax) {
  const RateSeries rates = uplinkDownlinkRates(r);
  double peak = 0;
  for (std::size_t i = 0; i < rates.start.size(); ++i)
    peak = std::max({peak, rates.uplink_Bps[i], rates.downlink_Bps[i]});
  const bool tera = peak >= 1e13;  // TB/s keeps tick labels short on big fabrics
  const double unit = tera ? 1e12 : 1e9;
  std::vector<double> up, down;
  for (double v : rates.uplink_Bps) up.push_back(v / unit);
  for (double v : rates.downlink_Bps) down.push_back(v / unit);
  LineChart c;
  c.title = "Aggregate endpoint bandwidth over time";
  c.x.label = std::string("time (") + ax.unit.name + ")";
  c.x.min = 0;
  c.x.max = static_cast<double>(std::max<Time>(runEnd(r), r.bin)) / ax.unit.picoseconds;
  c.y.label = tera ? "bandwidth (TB/s)" : "bandwidth (GB/s)";
  c.series = {timeSeries("uplink (endpoint → fabric)", r, ax, up), timeSeries("downlink (fabric → endpoint)", r, ax, down)};
  c.series[1].dashed = true;  // the two often coincide; dashes keep both visible
  return renderLineChart(c);
}

std::string busiestLinksChart(const Results& r, const TimeAxis& ax) {
  LineChart c;
  c.title = "Utilisation over time of the 5 busiest link directions";
  c.x.label = std::string("time (") + ax.unit.name + ")";
  c.x.min = 0;
  c.x.max = static_cast<double>(std::max<Time>(runEnd(r), r.bin)) / ax.unit.picoseconds;
  c.y.label = "utilisation (%)";
  c.y.min = 0;
  c.y.max = 100;
  const int n = binCount(r);
  for (const LinkDirectionResult* l : busiestLinks(r, 5)) {
    std::vector<double> util(static_cast<std::size_t>(n), 0);
    for (std::size_t i = 0; i < l->bin_bytes.bins.size(); ++i)
      util[static_cast<std::size_t>(l->bin_bytes.bins[i])] = 100 * binUtilization(r, *l, l->bin_bytes.bins[i]);
    c.series.push_back(timeSeries(l->from + " → " + l->to + " (" + l->id + ")", r, ax, util));
  }
  return renderLineChart(c);
}

std::string latencyChart(const LatencyStats& lat) {
  HistogramChart c;
  c.title = "Packet latency (" + formatCount(lat.samples) + " packets measured)";
  c.x.label = "latency (ns)";
  c.y.label = "packets";
  c.edges = lat.histogram_edges_ns;
  c.counts = lat.histogram_counts;
  c.markers = {{"p50 " + formatFixed(lat.p50_ns, 1) + " ns", lat.p50_ns},
               {"p99 " + formatFixed(lat.p99_ns, 1) + " ns", lat.p99_ns}};
  return renderHistogram(c);
}

}  // namespace

std::string topologySection(const RunView& v) {
  const Results& r = v.results;
  const std::string title = "Topology and link utilisation";
  if (!v.topology) return htmlSection(v.idPrefix + "topology", title, note("No topology available."), v.headingLevel);
  const topo::Topology& t = *v.topology;
  if (!resultsMatch(r, t))
    return htmlSection(v.idPrefix + "topology", title,
                       note("The results were not produced on this topology; no picture."), v.headingLevel);
  const int bin = busiestBin(r);
  std::vector<LaneValue> lanes(t.links().size() * 2);
  if (bin >= 0)
    for (const LinkDirectionResult& l : r.links) {
      LaneValue& lane = lanes[static_cast<std::size_t>(l.link) * 2 + static_cast<std::size_t>(l.direction & 1)];
      lane.bytes = l.bin_bytes.at(bin);
      lane.utilization = binUtilization(r, l, bin);
    }
  const TopologyPicture pic = renderTopologySvg(t, fittedLayout(t, v.layout, v.fitLayout), lanes);

  std::string caption;
  if (bin < 0) {
    caption = "No link traffic was recorded, so every lane is drawn idle.";
  } else {
    const std::vector<std::int64_t> total = totalBytesPerBin(r);
    std::int64_t all = 0;
    for (std::int64_t b : total) all += b;
    caption = std::string(pic.bundles ? "Parallel links between the same two nodes are drawn as one bundle, as wide as "
                                        "their capacity together. " : "") +
              "Each link is drawn as two lanes, one per direction (traffic keeps right: a lane runs on the "
              "right-hand side of its direction of travel), coloured by its utilisation in the busiest time bin, "
              "<strong>bin " + std::to_string(bin) + " of " + std::to_string(total.size()) + " (" +
              htmlEscape(binRange(r, bin)) + ")</strong>, the bin with the most wire bytes over all link directions: " +
              htmlEscape(formatBytes(static_cast<double>(total[static_cast<std::size_t>(bin)]))) + ", " +
              htmlEscape(formatPercent(all ? static_cast<double>(total[static_cast<std::size_t>(bin)]) / static_cast<double>(all) : 0)) +
              " of the run's wire bytes. Utilisation = wire bytes / (usable capacity × bin duration); " +
              std::to_string(pic.hotLanes) + " lane" + (pic.hotLanes == 1 ? " is" : "s are") +
              " hot (≥ 70%, outlined red).";
  }
  if (!pic.nodeLabels) caption += " Node names are hidden: too many nodes to label (hover a node or lane for its name).";
  return htmlSection(v.idPrefix + "topology", title,
                     "<p>" + htmlEscape(topologyOneLine(t)) + "</p>\n" +
                         figure(pic.svg, caption, " class=\"topology\"" + htmlAttr("data-busiest-bin", std::to_string(bin))),
                     v.headingLevel);
}

std::string plotsSection(const RunView& v) {
  const Results& r = v.results;
  std::string body;
  if (r.bin <= 0 || binCount(r) == 0) {
    body += note("No time-binned link traffic was recorded.");
  } else {
    const TimeAxis ax = timeAxisFor(r);
    std::string binNote = "Time bins of " + formatDuration(r.bin);
    if (ax.merge > 1) binNote += ", averaged over " + std::to_string(ax.merge) + " bins per point";
    if (!v.inComparison)  // else in the comparison, on one scale with the other points
      body += figure(bandwidthChart(r, ax),
                     "Wire bytes per second summed over all endpoint → fabric (uplink) and fabric → endpoint "
                     "(downlink) link directions. " + htmlEscape(binNote) + ".");
    if (!v.brief)  // several points: their tables list the busiest directions
      body += figure(busiestLinksChart(r, ax),
                   "The five link directions with the highest utilisation over the whole run (from → to, link id:direction); "
                   "utilisation per bin = wire bytes / (usable capacity × bin duration).");
  }
  if (r.latency && r.latency->samples > 0)
    body += figure(latencyChart(*r.latency),
                   "Latency from creation to delivery of the packets created after the warm-up; mean " +
                       htmlEscape(formatFixed(r.latency->mean_ns, 1)) + " ns, max " +
                       htmlEscape(formatFixed(r.latency->max_ns, 1)) + " ns.");
  if (body.empty())
    body = note("This point's bandwidth over time is under Compare sweep points, on one scale with the other "
                "points; its busiest link directions are listed under Results.");
  return htmlSection(v.idPrefix + "plots", "Plots", body, v.headingLevel);
}

}  // namespace fl::report
