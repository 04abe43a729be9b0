// What the report tests share (test_report, test_sweep_metrics): small scenarios of each
// workload kind run once and rendered (Case, makeCase), hand-made Results on a tiny
// fabric, and readers of the HTML text (elements by id, SVGs by class, counts, nesting).
// Expected values in the tests come from these independent readings, never from the
// report code's own helpers.
#pragma once
#include <QRegularExpression>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <memory>

#include "layout/topology_layout.h"
#include "report/colormap.h"
#include "report/html_report.h"
#include "report/report_format.h"
#include "report/report_text.h"
#include "report/svg_document.h"
#include "scenario/scenario_io.h"
#include "scenario/sweep.h"
#include "sim/run.h"
#include "topology/topology.h"

namespace fl::test::report_cases {

using namespace fl;

inline const char* const kMeshTraffic = R"(fabriclab: 1
name: mesh traffic
description: Uniform random traffic on a 4x4 mesh
topology:
  kind: mesh
  rows: 4
  cols: 4
workload:
  kind: traffic
  traffic:
    pattern: uniform
    load: 0.3
    duration: 2 us
    warmup: 500 ns
run:
  bin: 100 ns
  seed: 7
)";

inline const char* const kP2p = R"(fabriclab: 1
name: p2p copy
topology:
  preset: dgx-h100
network:
  packet_payload: 4 KiB
  vc_depth_flits: 1024
workload:
  kind: collective
  collective:
    op: p2p
    algorithm: direct
    size: 16 MiB
run:
  bin: 2 us
)";

// DeepEP on 8 GPUs: redundant bytes in the breakdown; token-centric fusion: a pipeline.
inline const char* const kMoe = R"(fabriclab: 1
name: moe layer
topology:
  preset: dgx-h100
network:
  packet_payload: 4 KiB
  vc_depth_flits: 4096
workload:
  kind: moe_layer
  moe:
    model: dysharp-small
    tokens_per_gpu: 128
scheme:
  communication: deepep
  fusion: token_centric
run:
  bin: 2 us
)";

inline const char* const kSweep = R"(fabriclab: 1
name: small sweep
topology:
  preset: dgx-h100
workload:
  kind: collective
  collective:
    op: all_reduce
    size: 64 KiB
sweep:
  - key: workload.collective.size
    values: [64 KiB, 128 KiB]
  - key: workload.collective.algorithm
    values: [ring, nvls]
)";

class Direct : public topo::Routing {
 public:
  void candidates(const topo::Topology& t, topo::NodeId at, topo::NodeId dst, std::vector<int>& ports) const override {
    ports.clear();
    if (at == dst) return;
    const auto& p = t.ports(at);
    for (int i = 0; i < static_cast<int>(p.size()); ++i)
      if (p[static_cast<std::size_t>(i)].peer == dst || t.node(at).kind != topo::NodeKind::Switch) ports.push_back(i);
  }
  const char* name() const override { return "direct"; }
};

// gpu0 - sw0 - gpu1, drawn with the generic layout.
inline std::unique_ptr<topo::Topology> tinyFabric() {
  auto t = std::make_unique<topo::Topology>();
  const auto g0 = t->addNode(topo::NodeKind::Gpu, "gpu0");
  const auto sw = t->addNode(topo::NodeKind::Switch, "sw0");
  const auto g1 = t->addNode(topo::NodeKind::Gpu, "gpu1");
  t->addLink(topo::LinkKind::Access, g0, sw, 2e9, 100);
  t->addLink(topo::LinkKind::Access, g1, sw, 2e9, 100);
  t->setRouting(std::make_unique<Direct>());
  t->kind = "custom";
  return t;
}

// Results on tinyFabric: bin 0 carries 2000 wire bytes, bin 1 1500 (the largest single
// value), bin 2 2500 over four directions (the busiest bin, one lane at 80 %: hot).
inline Results handMadeResults(const topo::Topology& t) {
  Results r;
  r.scenario = "hand";
  r.seed = 3;
  r.events = 1234;
  r.wall_seconds = 0.5;
  r.bin = kMicrosecond;
  r.bins = 3;
  r.makespan = r.sim_time = 3 * kMicrosecond;
  r.phases = {{"phase <one>", 0, 1500 * kNanosecond + 250}, {"two", 1500 * kNanosecond + 250, r.makespan}};
  const std::vector<std::vector<std::pair<int, std::int64_t>>> bins = {
      {{0, 1000}, {1, 1500}, {2, 1600}}, {{2, 300}}, {{2, 300}}, {{0, 1000}, {2, 300}}};
  for (int i = 0; i < 4; ++i) {
    LinkDirectionResult l;
    l.link = i / 2;
    l.direction = i % 2;
    l.id = std::to_string(l.link) + ":" + std::to_string(l.direction);
    const topo::Link& k = t.link(l.link);
    l.from = t.node(l.direction ? k.b : k.a).name;
    l.to = t.node(l.direction ? k.a : k.b).name;
    l.kind = "access";
    l.uplink = l.direction == 0;
    l.downlink = l.direction == 1;
    l.capacity_Bps = 2e9;
    for (const auto& [b, bytes] : bins[static_cast<std::size_t>(i)]) {
      l.bin_bytes.add(b, bytes);
      l.bytes += bytes;
    }
    l.payload_bytes = l.bytes * 8 / 10;
    l.busy = transferTime(static_cast<double>(l.bytes), l.capacity_Bps);
    l.utilization = static_cast<double>(l.busy) / static_cast<double>(r.makespan);
    r.wire_bytes += l.bytes;
    r.payload_bytes += l.payload_bytes;
    r.links.push_back(l);
  }
  SwitchResult s;
  s.id = "sw0";
  s.node = 1;
  s.packets_forwarded = 12;
  r.switches.push_back(s);
  LatencyStats lat;
  lat.samples = 10;
  lat.mean_ns = 150;
  lat.p50_ns = 140;
  lat.p99_ns = 290;
  lat.max_ns = 300;
  lat.histogram_edges_ns = {100, 200, 300};
  lat.histogram_counts = {7, 3};
  r.latency = lat;
  return r;
}

struct Case {
  Scenario scenario;
  std::unique_ptr<topo::Topology> topology;
  std::vector<SweepPoint> points;
  std::string html;
  int expectedLanes = 0;  // from the topology: node pairs a layout joins, two directions each
};

inline report::ReportOptions fixedOptions() {
  report::ReportOptions o;
  o.date = "2025-01-01 00:00 UTC";
  o.commandLine = "fabriclab-cli run test.yaml --report out.html";
  return o;
}

// Lanes drawn: two per pair of nodes joined by links (parallel links are one bundle),
// except the die <-> router links inside a mesh die.
inline int visibleLanes(const topo::Topology& t) {
  std::set<std::pair<int, int>> pairs;
  for (const topo::Link& k : t.links())
    if (k.kind != topo::LinkKind::Local) pairs.insert({std::min(k.a, k.b), std::max(k.a, k.b)});
  return 2 * static_cast<int>(pairs.size());
}

inline std::shared_ptr<Case> makeCase(const QString& name) {
  static std::map<QString, std::shared_ptr<Case>> cache;  // runs are reused across tests
  if (auto it = cache.find(name); it != cache.end()) return it->second;
  auto c = std::make_shared<Case>();
  if (name == "hand-made") {
    c->scenario.name = "Hand & \"made\" <test>";
    c->scenario.description = "A 'tiny' fabric\nsecond line";
    c->topology = tinyFabric();
    c->points = {SweepPoint{{}, handMadeResults(*c->topology)}};
  } else {
    c->scenario = parseScenario(name == "mesh traffic" ? kMeshTraffic
                                : name == "sweep"      ? kSweep
                                : name == "moe layer"  ? kMoe
                                                       : kP2p,
                                "test.yaml");
    c->topology = topo::buildTopology(c->scenario.topology);
    c->points = runSweep(c->scenario);
  }
  c->expectedLanes = visibleLanes(*c->topology);
  c->html = report::renderHtmlReport(c->scenario, c->points, *c->topology, fixedOptions());
  cache[name] = c;
  return c;
}

inline QString html(const Case& c) { return QString::fromStdString(c.html); }

// The text of the first element `<tag ... id="id"` up to its matching close (no nesting
// of the same tag inside, which holds for the report's tables, pre and svg).
inline QString elementById(const QString& text, const QString& tag, const QString& id) {
  const int start = text.indexOf(QRegularExpression("<" + tag + "[^>]*\\bid=\"" + QRegularExpression::escape(id) + "\""));
  if (start < 0) return {};
  const int end = text.indexOf("</" + tag + ">", start);
  return end < 0 ? QString() : text.mid(start, end - start + tag.size() + 3);
}

// The one element with `class="cls"` (svg) or a figure's attribute.
inline QStringList svgsWithClass(const QString& text, const QString& cls) {
  QStringList out;
  QRegularExpression re("<svg [^>]*class=\"" + cls + "\"[^>]*>.*?</svg>", QRegularExpression::DotMatchesEverythingOption);
  for (auto it = re.globalMatch(text); it.hasNext();) out << it.next().captured(0);
  return out;
}

inline int count(const QString& text, const QString& pattern) {
  int n = 0;
  for (auto it = QRegularExpression(pattern).globalMatch(text); it.hasNext(); it.next()) ++n;
  return n;
}

// The busiest bin by brute force over the sparse series.
inline int independentBusiestBin(const Results& r) {
  std::map<int, std::int64_t> total;
  for (const LinkDirectionResult& l : r.links)
    for (std::size_t i = 0; i < l.bin_bytes.bins.size(); ++i) total[l.bin_bytes.bins[i]] += l.bin_bytes.bytes[i];
  int best = -1;
  std::int64_t most = 0;
  for (const auto& [b, bytes] : total)
    if (bytes > most) best = b, most = bytes;
  return best;
}

// "43.81 µs" -> nanoseconds.
inline double parseDurationNs(QString text) {
  text = text.trimmed();
  static const std::map<QString, double> unit = {{"ps", 1e-3}, {"ns", 1}, {"µs", 1e3}, {"ms", 1e6}, {"s", 1e9}};
  const QStringList parts = text.split(' ');
  if (parts.size() != 2 || !unit.count(parts[1])) return std::nan("");
  return parts[0].toDouble() * unit.at(parts[1]);
}

// Every opened html/head/body/table/svg/section/figure/pre/thead/tbody/tr is closed, in order.
inline bool nestedProperly(const QString& h, QString* why) {
  QStringList stack;
  QRegularExpression tagRe("<(/?)(html|head|body|table|svg|section|figure|pre|thead|tbody|tr)[\\s>/]");
  for (auto it = tagRe.globalMatch(h); it.hasNext();) {
    const auto m = it.next();
    if (m.captured(1).isEmpty()) {
      stack << m.captured(2);
    } else if (stack.isEmpty() || stack.last() != m.captured(2)) {
      *why = "</" + m.captured(2) + "> closes " + (stack.isEmpty() ? "nothing" : stack.last());
      return false;
    } else {
      stack.removeLast();
    }
  }
  *why = "left open: " + stack.join(", ");
  return stack.isEmpty();
}

inline const QStringList kCases = {"hand-made", "p2p 16 MiB", "mesh traffic", "moe layer"};

}  // namespace fl::test::report_cases
