#include "report/report_story.h"

#include <fstream>
#include <sstream>

#include "report/html_util.h"
#include "report/metric_format.h"
#include "report/report_format.h"
#include "report/report_text.h"
#include "results/sweep_metrics.h"
#include "scenario/quantity.h"
#include "scenario/story.h"

namespace fl::report {

namespace {

// The headline figure the summary ranks points by: bus bandwidth for collectives,
// accepted throughput for synthetic traffic, else the makespan (lower is better).
const SweepMetric* headline(const std::vector<SweepPoint>& points) {
  const auto available = metricsOfSweep(points);
  for (const char* id : {"busbw_GBps", "accepted_GBps"})
    for (const SweepMetric* m : available)
      if (std::string(m->id) == id) return m;
  return findSweepMetric("makespan");
}

}  // namespace

std::string summarySection(const Scenario& s, const std::vector<SweepPoint>& points, const topo::Topology& t) {
  std::vector<std::pair<std::string, std::string>> rows = {{"fabric", htmlEscape(topologyOneLine(t))},
                                                           {"workload", htmlEscape(workloadOneLine(s))}};
  if (points.size() > 1) rows.push_back({"sweep points", htmlEscape(std::to_string(points.size()))});
  std::string body = keyValueTable(rows, htmlAttr("class", "kv"));
  const SweepMetric* m = headline(points);
  const SweepMetric* makespan = findSweepMetric("makespan");
  if (!points.empty() && m) {
    const std::vector<std::string> labels = sweepPointLabels(s);
    HtmlTable table(htmlAttr("id", "summary-points"));
    std::vector<Cell> head = {{"point"}};
    if (m != makespan) head.push_back({m->column});
    head.push_back({makespan ? makespan->column : "makespan"});
    table.header(head);
    int best = -1;
    double bestValue = 0;
    const bool lowerIsBetter = m->kind == MetricKind::Time;
    for (std::size_t i = 0; i < points.size() && i < 24; ++i) {
      const Results& r = points[i].results;
      const std::string label = i < labels.size() && points.size() == labels.size() ? labels[i]
                                : points[i].settings.empty()                    ? "single run"
                                                                                : settingsText(points[i].settings);
      std::vector<Cell> row = {{std::to_string(i + 1) + ". " + label}};
      const auto v = m->value(r);
      if (m != makespan) row.push_back(numCell(v ? formatMetric(*m, *v) : "n/a"));
      row.push_back(numCell(formatDuration(r.makespan)));
      table.row(row);
      if (v && (best < 0 || (lowerIsBetter ? *v < bestValue : *v > bestValue))) {
        best = static_cast<int>(i);
        bestValue = *v;
      }
    }
    body += table.html();
    if (points.size() > 1 && best >= 0)
      body += "<p>" + htmlEscape("Best by " + std::string(m->name) + ": point " + std::to_string(best + 1) +
                                 " (" + formatMetric(*m, bestValue) + ").") +
              "</p>\n";
  }
  return htmlSection("summary", "Summary", body);
}

std::string storySection(const Scenario& s) {
  if (s.story.empty()) return {};
  const std::vector<std::string> labels = sweepPointLabels(s);
  std::string items;
  for (const StoryStep& step : s.story) {
    std::vector<std::string> shows;
    if (!step.point.empty()) {
      const int i = storyPointIndex(s, step.point);
      shows.push_back("point " + (i >= 0 ? std::to_string(i + 1) + " (" + labels[static_cast<std::size_t>(i)] + ")" : step.point));
    }
    if (!step.phase.empty()) shows.push_back("phase " + step.phase);
    if (step.at >= 0) shows.push_back("at " + formatDuration(step.at));
    if (!step.dock.empty()) shows.push_back(step.dock);
    if (!step.direction.empty() && step.direction != "both")
      shows.push_back(step.direction == "up" ? "uplinks only" : "downlinks only");
    if (!step.follow.empty()) shows.push_back("follow " + step.follow);
    std::string what;
    for (const auto& x : shows) what += (what.empty() ? "" : ", ") + x;
    items += "<li>" + htmlEscape(step.text) + (what.empty() ? "" : " <span class=\"note\">[" + htmlEscape(what) + "]</span>") +
             "</li>\n";
  }
  return htmlSection("story", "Story",
                     "<p class=\"note\">The scenario's guided tour, as the desktop app's Story dock plays it.</p>\n"
                     "<ol class=\"story\">\n" + items + "</ol>\n");
}

std::string scenarioComments(const std::string& file) {
  if (file.empty()) return {};
  std::ifstream in(file);
  if (!in) return {};
  std::string out, line;
  bool blank = false;
  while (std::getline(in, line)) {
    const auto b = line.find_first_not_of(" \t");
    if (b == std::string::npos || line[b] != '#') {
      blank = !out.empty();  // code between comment blocks: a paragraph break
      continue;
    }
    std::string text = line.substr(b + 1);
    if (!text.empty() && text[0] == ' ') text.erase(0, 1);
    if (blank) out += "\n";
    blank = false;
    out += text + "\n";
  }
  return out;
}

std::string commentsSection(const std::string& comments) {
  if (comments.find_first_not_of(" \n\t") == std::string::npos) return {};
  return htmlSection("comments", "Notes from the scenario file",
                     "<pre class=\"comments\">" + htmlEscape(comments) + "</pre>\n");
}

}  // namespace fl::report
