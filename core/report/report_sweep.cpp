#include "report/report_sweep.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "report/html_util.h"
#include "report/metric_format.h"
#include "report/report_format.h"
#include "report/report_text.h"
#include "report/svg_charts.h"
#include "report/sweep_axes.h"
#include "results/sweep_metrics.h"
#include "scenario/schema.h"
#include "scenario/friendly_names.h"

namespace fl::report {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<std::string> axisKeys(const Scenario& s, const std::vector<SweepPoint>& points) {
  std::vector<std::string> keys;
  for (const SweepAxis& a : s.sweep) keys.push_back(a.key);
  if (keys.empty() && !points.empty())
    for (const auto& kv : points.front().settings) keys.push_back(kv.first);
  return keys;
}

std::string settingOf(const SweepPoint& p, const std::string& key) { return report::settingOf(p.settings, key); }

// One column per figure with a value at some point (sweep_metrics.h); raw values ride
// along as data attributes (ps, bytes or the plain figure) for scripts reading the page.
std::string pointsTable(const Scenario& s, const std::vector<SweepPoint>& points, const std::vector<std::string>& keys,
                        const std::vector<const SweepMetric*>& metrics) {
  HtmlTable t(htmlAttr("id", "sweep-points"));
  std::vector<Cell> head = {numCell("#")};
  for (const std::string& k : keys) {  // a hierarchy level by its name, a known key by its title, over the key
    std::string title = friendlyLevelTitle(s, k);
    if (title.empty()) title = friendlyKeyTitle(k);
    head.push_back(htmlCell((title.empty() ? "" : htmlEscape(title) + "<br>") + "<code>" + htmlEscape(k) + "</code>"));
  }
  for (const SweepMetric* m : metrics) head.push_back(numCell(m->column));
  t.header(head);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Results& r = points[i].results;
    std::vector<Cell> row = {numCell(std::to_string(i + 1))};
    for (const std::string& k : keys) row.push_back({settingOf(points[i], k)});
    for (const SweepMetric* m : metrics) {
      const std::optional<double> v = m->value(r);
      if (!v) {
        row.push_back(numCell("–"));
        continue;
      }
      std::string text = formatMetric(*m, *v);
      if (std::string(m->id) == "makespan" && r.cancelled) text += " (stopped)";
      const char* attr = m->kind == MetricKind::Time    ? "data-ns"
                         : m->kind == MetricKind::Bytes ? "data-bytes"
                                                        : "data-value";
      const std::string raw = m->kind == MetricKind::Time ? formatFixed(*v / kNanosecond, 3) : formatFixed(*v, 6);
      row.push_back(numCell(text, htmlAttr(attr, raw)));
    }
    t.row(row, htmlAttr("data-point", std::to_string(i)));
  }
  return t.html();
}

std::string figureChart(const SweepMetric& m, const std::vector<SweepPoint>& points,
                        const std::vector<std::string>& keys, const std::string& xTitle,
                        const std::map<std::string, std::string>& titles) {
  const std::string& key = keys.front();
  double largest = 0;
  for (const SweepPoint& p : points) largest = std::max(largest, std::fabs(m.value(p.results).value_or(0)));
  const MetricAxis axis = metricAxis(m, largest);
  auto valueOf = [&](const Results& r) {
    const std::optional<double> v = m.value(r);
    return v ? *v * axis.scale : kNaN;
  };
  std::vector<PointSettings> settings;
  for (const SweepPoint& p : points) settings.push_back(p.settings);
  const auto groups = seriesByOtherAxes(settings, keys, titles);
  std::vector<std::string> categories;
  std::vector<std::optional<double>> xs;
  bool numeric = true;
  for (const SweepPoint& p : points) {
    const std::string v = settingOf(p, key);
    xs.push_back(settingNumber(key, v));
    numeric = numeric && xs.back().has_value();
    if (std::find(categories.begin(), categories.end(), v) == categories.end()) categories.push_back(v);
  }
  const std::string title = std::string(m.name) + " vs " + axisName(key, titles);
  auto seriesName = [&](const std::string& g) { return g.empty() ? std::string(m.name) : g; };
  if (!numeric) {
    BarChart c;
    c.title = title;
    c.xLabel = xTitle;
    c.categories = categories;
    c.y.label = axis.title;
    for (const auto& [name, members] : groups) {
      ChartSeries s{seriesName(name), {}, std::vector<double>(categories.size(), kNaN)};
      for (std::size_t i : members) {
        const std::string value = settingOf(points[i], key);
        const auto cat = std::find(categories.begin(), categories.end(), value) - categories.begin();
        s.y[static_cast<std::size_t>(cat)] = valueOf(points[i].results);
      }
      c.series.push_back(std::move(s));
    }
    return renderBarChart(c);
  }
  LineChart c;
  c.title = title;
  c.x.label = xTitle;
  c.y.label = axis.title;
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
  const bool withOffered = groups.size() == 1 && std::string(m.id) == "accepted_GBps";
  for (const auto& [name, members] : groups) {
    std::vector<std::size_t> order = members;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return *xs[a] < *xs[b]; });
    ChartSeries s{withOffered ? "accepted" : seriesName(name), {}, {}, true};
    ChartSeries offered{"offered", {}, {}, false, true};
    for (std::size_t i : order) {
      s.x.push_back(*xs[i]);
      s.y.push_back(valueOf(points[i].results));
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
  const std::vector<const SweepMetric*> metrics = metricsOfSweep(points);
  body += pointsTable(s, points, keys, metrics);
  std::map<std::string, std::string> titles;  // hierarchy levels by their names
  for (const std::string& k : keys)
    if (std::string t = friendlyLevelTitle(s, k); !t.empty()) titles[k] = t;
  const std::string xTitle = keys.empty() ? std::string() : axisTitle(keys.front(), titles);
  if (!keys.empty())
    for (const SweepMetric* m : chartedMetrics(keys.front(), metrics))
      body += "<figure>\n" + figureChart(*m, points, keys, xTitle, titles) + "<figcaption>" +
              htmlEscape(std::string(m->name) + " of each point against " + xTitle +
                         (keys.size() > 1 ? "; one series per value of the other axes." : ".")) +
              "</figcaption>\n</figure>\n";
  return "<section id=\"sweep\">\n<h2>Sweep</h2>\n" + body + "</section>\n";
}

}  // namespace fl::report
