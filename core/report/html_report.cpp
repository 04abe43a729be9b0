#include "report/html_report.h"

#include <algorithm>
#include <memory>

#include "report/html_util.h"
#include "report/report_compare.h"
#include "report/report_data.h"
#include "report/report_follow.h"
#include "report/report_format.h"
#include "report/report_sections.h"
#include "report/report_story.h"
#include "report/report_style.h"
#include "report/report_sweep.h"
#include "report/report_text.h"
#include "scenario/friendly_names.h"
#include "scenario/scenario_io.h"
#include "scenario/sweep.h"

namespace fl::report {
namespace {

std::string code(const std::string& text) { return "<code>" + htmlEscape(text) + "</code>"; }

std::string provenanceSection(const Scenario& s, const std::vector<SweepPoint>& points, const ReportOptions& o) {
  std::vector<std::pair<std::string, std::string>> rows = {{"FabricLab version", htmlEscape(o.version)}};
  if (!o.date.empty()) rows.push_back({"date", htmlEscape(o.date)});
  if (!o.commandLine.empty()) rows.push_back({"command", code(o.commandLine)});
  if (!o.scenarioFile.empty()) rows.push_back({"scenario file", code(o.scenarioFile)});
  std::int64_t events = 0;
  double wall = 0;
  Time simulated = 0;
  for (const SweepPoint& p : points) {
    events += p.results.events;
    wall += p.results.wall_seconds;
    simulated += p.results.sim_time;
  }
  const Results* first = points.empty() ? nullptr : &points.front().results;
  rows.push_back({"seed", htmlEscape(std::to_string(first ? first->seed : s.run.seed))});
  if (first)
    rows.push_back({"threads", htmlEscape(std::to_string(first->threads) + " (" + std::to_string(first->partitions) +
                                          (first->partitions == 1 ? " partition" : " partitions") +
                                          "; results do not depend on either)")});
  const std::string over = points.size() > 1 ? " over " + std::to_string(points.size()) + " points" : "";
  // The analytical wafer model has no events: "0 events/s" would read as a stalled engine.
  const std::string rate =
      events == 0 ? " (closed form)"
      : wall > 0  ? " (" + formatCount(static_cast<std::int64_t>(static_cast<double>(events) / wall)) + " events/s)"
                  : "";
  rows.push_back({"engine events", htmlEscape(formatCount(events) + over + rate)});
  rows.push_back({"wall time", htmlEscape(formatSeconds(wall) + over)});
  rows.push_back({"simulated time", htmlEscape(formatDuration(simulated) + over)});
  for (const SweepPoint& p : points)
    if (p.results.cancelled) {
      rows.push_back({"WARNING", "<span class=\"warning\">stopped early: partial results</span>"});
      break;
    }
  return htmlSection("provenance", "Provenance", keyValueTable(rows));
}

// Key network parameters, by the schema's own key names and value texts.
std::vector<std::pair<std::string, std::string>> keyParameters(const Scenario& s) {
  std::vector<std::pair<std::string, std::string>> keys;  // label, key
  switch (s.topology.kind) {
    case TopologyKind::NvSwitch:
      keys = {{"GPUs", "topology.gpus"}, {"NVSwitch chips", "topology.switches"},
              {"links per GPU", "topology.links_per_gpu"}};
      break;
    case TopologyKind::Mesh:
      keys = {{"dies per wafer (rows)", "topology.rows"}, {"dies per wafer (columns)", "topology.cols"},
              {"wafers (rows)", "topology.wafers.rows"}, {"wafers (columns)", "topology.wafers.cols"},
              {"border link bandwidth", "topology.wafers.border_bandwidth"},
              {"die injection bandwidth", "topology.die_injection_bandwidth"}};
      break;
    case TopologyKind::Hierarchy:
      keys = {{"levels", "topology.levels"}};
      break;
  }
  if (s.topology.kind != TopologyKind::Hierarchy)
    keys.insert(keys.end(), {{"link bandwidth (per direction)", "topology.link.bandwidth"},
                             {"link latency", "topology.link.latency"},
                             {"link efficiency", "topology.link.efficiency"}});
  keys.insert(keys.end(), {{"flit", "network.flit"},
                           {"packet payload (simulated)", "network.packet_payload"},
                           {"max packet payload (framing)", "network.max_packet_payload"},
                           {"virtual channels", "network.virtual_channels"},
                           {"VC depth (flits)", "network.vc_depth_flits"},
                           {"switch latency", "network.switch.latency"},
                           {"reduction buffer per port", "network.switch.reduction_buffer"},
                           {"time bin", "run.bin"}});
  return keys;
}

std::string scenarioSection(const Scenario& s, const topo::Topology& t) {
  std::vector<std::pair<std::string, std::string>> rows = {
      {"name", htmlEscape(s.name)},
      {"topology", htmlEscape(topologyOneLine(t))},
      {"workload", htmlEscape(workloadOneLine(s))}};
  for (const SweepAxis& a : s.sweep) {
    std::string values;
    for (const std::string& v : a.values) values += (values.empty() ? "" : ", ") + canonicalValueText(a.key, v);
    rows.push_back({"sweep axis", code(a.key) + " ∈ {" + htmlEscape(values) + "}"});
  }
  std::string body = keyValueTable(rows);
  HtmlTable params(htmlAttr("id", "parameters"));
  params.header({{"parameter"}, {"key"}, {"value"}});
  for (const auto& [label, key] : keyParameters(s)) {
    const std::string v = valueText(s, key);
    if (!v.empty()) params.row({{label}, htmlCell(code(key)), {v}});
  }
  body += "<h3>Key parameters</h3>\n" + params.html();
  std::string yaml;
  try {
    yaml = saveScenarioText(s);
  } catch (const std::exception& e) {
    yaml = std::string("# could not write the scenario: ") + e.what() + "\n";
  }
  body += "<h3>Scenario file</h3>\n<p class=\"note\">Exactly what ran (defaults omitted): save it as a .yaml "
          "file to run it again.</p>\n<pre class=\"yaml\" id=\"scenario-yaml\">" +
          htmlEscape(yaml) + "</pre>\n";
  return htmlSection("scenario", "Scenario", body);
}

std::vector<int> detailIndices(const std::vector<SweepPoint>& points, const ReportOptions& o) {
  std::vector<int> out;
  for (int i : o.detailPoints)
    if (i >= 0 && i < static_cast<int>(points.size())) out.push_back(i);
  if (out.empty() && !o.detailPoints.empty()) out.push_back(0);
  if (o.detailPoints.empty())
    for (int i = 0; i < static_cast<int>(points.size()) && (points.size() <= 4 || i < 1); ++i) out.push_back(i);
  return out;
}

bool changesTopology(const SweepPoint& p) {
  for (const auto& kv : p.settings)
    if (kv.first.rfind("topology.", 0) == 0) return true;
  return false;
}

std::string imagesSection(const ReportOptions& o) {
  if (o.images.empty()) return {};
  std::string body;
  for (const ReportImage& img : o.images) {
    std::string data;  // base64 alphabet only: nothing else may reach the attribute
    for (char c : img.base64)
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/' || c == '=') data += c;
    body += "<figure>\n<h3>" + htmlEscape(img.title) + "</h3>\n<img" + htmlAttr("alt", img.title) +
            htmlAttr("src", "data:" + img.mimeType + ";base64," + data) + ">\n<figcaption>" +
            htmlEscape(img.caption) + "</figcaption>\n</figure>\n";
  }
  return htmlSection("images", "Images", body);
}

}  // namespace

std::string renderHtmlReport(const Scenario& s, const std::vector<SweepPoint>& points, const topo::Topology& topology,
                             const ReportOptions& o) {
  const std::string name = s.name.empty() ? "Unnamed scenario" : s.name;
  const std::vector<int> detail = detailIndices(points, o);
  const bool wrapped = detail.size() > 1;

  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                     "<meta name=\"generator\"" + htmlAttr("content", "FabricLab " + o.version) + ">\n"
                     "<title>" + htmlEscape(name + " – FabricLab report") + "</title>\n"
                     "<style>" + kReportCss + "</style>\n</head>\n<body>\n<main>\n";

  html += "<header id=\"title\">\n<h1>" + htmlEscape(name) + "</h1>\n<p class=\"subtitle\">" +
          htmlEscape("FabricLab " + o.version + " report" + (o.date.empty() ? "" : " · " + o.date)) + "</p>\n";
  if (!s.description.empty()) html += "<p class=\"description\">" + htmlEscape(s.description) + "</p>\n";
  const std::string comments = scenarioComments(o.scenarioFile);
  html += "<nav class=\"toc\"><a href=\"#summary\">Summary</a>";
  if (!s.story.empty()) html += "<a href=\"#story\">Story</a>";
  html += "<a href=\"#provenance\">Provenance</a><a href=\"#scenario\">Scenario</a>";
  if (!commentsSection(comments).empty()) html += "<a href=\"#comments\">Notes</a>";
  if (points.size() > 1 || (!points.empty() && !points.front().settings.empty()))
    html += "<a href=\"#sweep\">Sweep</a>";
  const std::string compare = compareSection(s, points, detail);
  if (!compare.empty()) html += "<a href=\"#compare\">Compare</a>";
  for (int i : detail) {
    const std::string p = wrapped ? "point-" + std::to_string(i + 1) + "-" : "";
    const std::string suffix = wrapped ? " (point " + std::to_string(i + 1) + ")" : "";
    html += "<a href=\"#" + p + "topology\">" + htmlEscape("Topology" + suffix) + "</a><a href=\"#" + p +
            "plots\">" + htmlEscape("Plots" + suffix) + "</a><a href=\"#" + p + "results\">" +
            htmlEscape("Results" + suffix) + "</a>";
  }
  if (!o.images.empty()) html += "<a href=\"#images\">Images</a>";
  html += "</nav>\n</header>\n";

  // The one-page summary and the story first; then where it came from and what ran.
  html += summarySection(s, points, topology);
  html += storySection(s);
  html += provenanceSection(s, points, o);
  html += scenarioSection(s, topology);
  html += commentsSection(comments);
  html += sweepSection(s, points);
  html += compare;

  for (int i : detail) {
    const SweepPoint& p = points[static_cast<std::size_t>(i)];
    std::unique_ptr<topo::Topology> own;  // the point's own fabric when a sweep changes it
    if (changesTopology(p)) {
      try {
        own = topo::buildTopology(sweepPointScenario(s, p.settings).topology);
      } catch (const std::exception&) {
      }
    }
    RunView v{p.results, own ? own.get() : (changesTopology(p) ? nullptr : &topology), o.layout, o.fitLayout, {}, 2};
    v.inComparison = !compare.empty();
    for (int j : detail) v.sharedEnd = std::max(v.sharedEnd, runEnd(points[static_cast<std::size_t>(j)].results));
    v.brief = wrapped;
    std::string body;
    if (wrapped) {
      v.idPrefix = "point-" + std::to_string(i + 1) + "-";
      v.headingLevel = 3;
    } else if (!p.settings.empty()) {
      body += "<p class=\"note\">" +
              htmlEscape("The sections below show point " + std::to_string(i + 1) + " of " +
                         std::to_string(points.size()) + ": " + settingsText(p.settings) + ".") +
              "</p>\n";
    }
    body += topologySection(v) + plotsSection(v) + resultsSection(v) + followSection(p.results, v.idPrefix, v.headingLevel);
    if (wrapped)
      html += htmlSection("point-" + std::to_string(i + 1),
                          "Point " + std::to_string(i + 1) + ": " + settingsText(p.settings), body);
    else
      html += body;
  }
  if (points.empty()) html += "<p class=\"note\">No results: the run produced no points.</p>\n";

  html += imagesSection(o);
  html += "<footer>" +
          htmlEscape("Generated by FabricLab " + o.version + "." +
                     (o.forPdf ? "" : " A self-contained file: inline SVG and CSS, no scripts, no external resources.")) +
          "</footer>\n</main>\n</body>\n</html>\n";
  return html;
}

}  // namespace fl::report
