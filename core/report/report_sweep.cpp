#include "report/report_sweep.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

#include "report/html_util.h"
#include "report/report_format.h"
#include "report/report_text.h"
#include "report/svg_charts.h"
#include "scenario/schema.h"

namespace fl::report {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Figure {
  std::string title, axis;
  std::function<std::optional<double>(const Results&)> get;
};

std::vector<std::string> axisKeys(const Scenario& s, const std::vector<SweepPoint>& points) {
  std::vector<std::string> keys;
  for (const SweepAxis& a : s.sweep) keys.push_back(a.key);
  if (keys.empty() && !points.empty())
    for (const auto& kv : points.front().settings) keys.push_back(kv.first);
  return keys;
}

std::string settingOf(const SweepPoint& p, const std::string& key) {
  for (const auto& [k, v] : p.settings)
    if (k == key) return v;
  return {};
}

// The value of a setting as a number, through the schema's own parser (so "64 KiB",
// "30 %" and "4 TB/s" all work); nullopt for names such as "ring".
std::optional<double> numericValue(const std::string& key, const std::string& text) {
  const ParamSpec* spec = findParam(key);
  const std::string field = key.substr(key.rfind('.') + 1);
  bool quantity = spec && spec->quantity.has_value();
  QuantityKind kind = quantity ? *spec->quantity : QuantityKind::Count;
  if (!spec && (field == "bandwidth" || field == "latency")) {  // topology.levels[i].bandwidth
    quantity = true;
    kind = field == "bandwidth" ? QuantityKind::Bandwidth : QuantityKind::Time;
  }
  try {
    if (quantity) return parseQuantity(text, kind, key);
    if ((spec && (spec->type == "int" || spec->type == "float")) || (!spec && field == "count")) {
      std::size_t used = 0;
      const double v = std::stod(text, &used);
      if (used == text.size()) return v;
    }
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::vector<Figure> figuresFor(const std::vector<SweepPoint>& points) {
  bool bw = false, traffic = false;
  Time longest = 0;
  for (const SweepPoint& p : points) {
    bw |= p.results.busbw_GBps.has_value();
    traffic |= p.results.accepted_GBps.has_value() || p.results.latency.has_value();
    longest = std::max(longest, p.results.makespan);
  }
  if (bw) return {{"Bus bandwidth", "busbw (GB/s)", [](const Results& r) { return r.busbw_GBps; }}};
  if (traffic)
    return {{"Accepted throughput per endpoint", "throughput (GB/s)", [](const Results& r) { return r.accepted_GBps; }},
            {"p99 packet latency", "p99 latency (ns)", [](const Results& r) {
               return r.latency ? std::optional<double>(r.latency->p99_ns) : std::nullopt;
             }}};
  const TimeUnit u = timeUnitFor(std::max<Time>(longest, 1));
  return {{"Makespan", std::string("makespan (") + u.name + ")", [u](const Results& r) {
             return std::optional<double>(static_cast<double>(r.makespan) / u.picoseconds);
           }}};
}

std::string pointsTable(const std::vector<SweepPoint>& points, const std::vector<std::string>& keys) {
  bool bw = false, lat = false, thr = false, incast = false;
  for (const SweepPoint& p : points) {
    incast |= p.results.nic_incast || (p.results.moe && p.results.moe->miv_bytes);
    bw |= p.results.algbw_GBps || p.results.busbw_GBps;
    lat |= p.results.latency.has_value();
    thr |= p.results.accepted_GBps || p.results.accepted_fraction;
  }
  HtmlTable t(htmlAttr("id", "sweep-points"));
  std::vector<Cell> head = {numCell("#")};
  for (const std::string& k : keys) head.push_back(htmlCell("<code>" + htmlEscape(k) + "</code>"));
  head.push_back(numCell("makespan"));
  if (bw) head.insert(head.end(), {numCell("algbw GB/s"), numCell("busbw GB/s")});
  head.push_back(numCell("payload efficiency"));
  if (lat) head.insert(head.end(), {numCell("mean latency"), numCell("p99 latency")});
  if (thr) head.insert(head.end(), {numCell("offered GB/s"), numCell("accepted GB/s"), numCell("accepted")});
  if (incast) head.insert(head.end(), {numCell("MIV (both rounds)"), numCell("NIC incast (one phase)")});
  t.header(head);
  auto bytes = [](std::optional<std::int64_t> b) {
    return b ? numCell(formatBytes(static_cast<double>(*b)), htmlAttr("data-bytes", std::to_string(*b))) : numCell("–");
  };
  auto opt = [](const std::optional<double>& v, int decimals) {
    return numCell(v ? formatFixed(*v, decimals) : "–");
  };
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Results& r = points[i].results;
    std::vector<Cell> row = {numCell(std::to_string(i + 1))};
    for (const std::string& k : keys) row.push_back({settingOf(points[i], k)});
    row.push_back(numCell(formatDuration(r.makespan) + (r.cancelled ? " (stopped)" : ""),
                          htmlAttr("data-ns", formatFixed(toNs(r.makespan), 3))));
    if (bw) row.insert(row.end(), {opt(r.algbw_GBps, 2), opt(r.busbw_GBps, 2)});
    row.push_back(numCell(formatPercent(r.payload_efficiency())));
    if (lat) {
      row.push_back(numCell(r.latency ? formatFixed(r.latency->mean_ns, 1) + " ns" : "–"));
      row.push_back(numCell(r.latency ? formatFixed(r.latency->p99_ns, 1) + " ns" : "–"));
    }
    if (thr) {
      row.insert(row.end(), {opt(r.offered_GBps, 2), opt(r.accepted_GBps, 2)});
      row.push_back(numCell(r.accepted_fraction ? formatPercent(*r.accepted_fraction) : "–"));
    }
    if (incast) {
      row.push_back(bytes(r.moe ? r.moe->miv_bytes : std::nullopt));
      row.push_back(bytes(r.nic_incast ? std::optional<std::int64_t>(r.nic_incast->max_bytes) : std::nullopt));
    }
    t.row(row, htmlAttr("data-point", std::to_string(i)));
  }
  return t.html();
}

// Points grouped by the values of every axis but the first, in order of appearance.
std::vector<std::pair<std::string, std::vector<std::size_t>>> seriesGroups(const std::vector<SweepPoint>& points,
                                                                           const std::vector<std::string>& keys) {
  std::vector<std::pair<std::string, std::vector<std::size_t>>> groups;
  for (std::size_t i = 0; i < points.size(); ++i) {
    std::string name;
    for (std::size_t k = 1; k < keys.size(); ++k)  // "size = 1 MiB": the key's last part names it
      name += (name.empty() ? "" : ", ") + keys[k].substr(keys[k].rfind('.') + 1) + " = " +
              settingOf(points[i], keys[k]);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == name; });
    if (it == groups.end()) groups.push_back({name, {i}});
    else it->second.push_back(i);
  }
  return groups;
}

std::string figureChart(const Figure& f, const std::vector<SweepPoint>& points, const std::vector<std::string>& keys) {
  const std::string& key = keys.front();
  const auto groups = seriesGroups(points, keys);
  std::vector<std::string> categories;
  std::vector<std::optional<double>> xs;
  bool numeric = true;
  for (const SweepPoint& p : points) {
    const std::string v = settingOf(p, key);
    xs.push_back(numericValue(key, v));
    numeric = numeric && xs.back().has_value();
    if (std::find(categories.begin(), categories.end(), v) == categories.end()) categories.push_back(v);
  }
  const std::string title = f.title + " vs " + key;
  auto seriesName = [&](const std::string& g) { return g.empty() ? f.title : g; };
  if (!numeric) {
    BarChart c;
    c.title = title;
    c.xLabel = key;
    c.categories = categories;
    c.y.label = f.axis;
    for (const auto& [name, members] : groups) {
      ChartSeries s{seriesName(name), {}, std::vector<double>(categories.size(), kNaN)};
      for (std::size_t i : members) {
        const auto cat = std::find(categories.begin(), categories.end(), settingOf(points[i], key)) - categories.begin();
        s.y[static_cast<std::size_t>(cat)] = f.get(points[i].results).value_or(kNaN);
      }
      c.series.push_back(std::move(s));
    }
    return renderBarChart(c);
  }
  LineChart c;
  c.title = title;
  c.x.label = key;
  c.y.label = f.axis;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double x = *xs[i];
    lo = std::min(lo, x), hi = std::max(hi, x);
    if (std::none_of(c.x.ticks.begin(), c.x.ticks.end(), [&](const auto& t) { return t.first == x; }))
      c.x.ticks.push_back({x, settingOf(points[i], key)});
  }
  std::sort(c.x.ticks.begin(), c.x.ticks.end());
  c.x.log = lo > 0 && hi / lo >= 16;  // sizes in powers of two read best on a log axis
  // One series of throughput: the offered load as a dashed reference shows saturation.
  const bool withOffered = groups.size() == 1 && f.axis == "throughput (GB/s)";
  for (const auto& [name, members] : groups) {
    std::vector<std::size_t> order = members;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return *xs[a] < *xs[b]; });
    ChartSeries s{withOffered ? "accepted" : seriesName(name), {}, {}, true};
    ChartSeries offered{"offered", {}, {}, false, true};
    for (std::size_t i : order) {
      s.x.push_back(*xs[i]);
      s.y.push_back(f.get(points[i].results).value_or(kNaN));
      offered.x.push_back(*xs[i]);
      offered.y.push_back(points[i].results.offered_GBps.value_or(kNaN));
    }
    c.series.push_back(std::move(s));
    if (withOffered) c.series.push_back(std::move(offered));
  }
  return renderLineChart(c);
}

}  // namespace

std::string sweepSection(const Scenario& s, const std::vector<SweepPoint>& points) {
  if (points.empty() || (points.size() == 1 && points.front().settings.empty())) return {};
  const std::vector<std::string> keys = axisKeys(s, points);
  std::string body = "<p>" + htmlEscape(std::to_string(points.size()) + " points, the cartesian product of " +
                                        std::to_string(keys.size()) + (keys.size() == 1 ? " axis" : " axes") +
                                        " (first axis outermost).") +
                     "</p>\n";
  body += pointsTable(points, keys);
  if (!keys.empty())
    for (const Figure& f : figuresFor(points))
      body += "<figure>\n" + figureChart(f, points, keys) + "<figcaption>" +
              htmlEscape(f.title + " of each point against " + keys.front() +
                         (keys.size() > 1 ? "; one series per value of the other axes." : ".")) +
              "</figcaption>\n</figure>\n";
  return "<section id=\"sweep\">\n<h2>Sweep</h2>\n" + body + "</section>\n";
}

}  // namespace fl::report
