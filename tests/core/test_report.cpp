// The HTML report (core/report): structure, sections, the topology picture, the busiest
// bin, tables and sweeps, on hand-made Results and on real small runs. Expected values
// come from independent counts over the Results and the topology (never from the report
// code's own helpers), and the HTML is checked by scanning its text.
#include <QRegularExpression>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
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

using namespace fl;

namespace {

const char* const kMeshTraffic = R"(fabriclab: 1
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

const char* const kP2p = R"(fabriclab: 1
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
const char* const kMoe = R"(fabriclab: 1
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

const char* const kSweep = R"(fabriclab: 1
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
std::unique_ptr<topo::Topology> tinyFabric() {
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
Results handMadeResults(const topo::Topology& t) {
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
  int expectedLanes = 0;  // from the topology: links a layout draws, two directions each
};

report::ReportOptions fixedOptions() {
  report::ReportOptions o;
  o.date = "2025-01-01 00:00 UTC";
  o.commandLine = "fabriclab-cli run test.yaml --report out.html";
  return o;
}

// Links drawn: all of them, except the die <-> router links inside a mesh die.
int visibleLanes(const topo::Topology& t) {
  int n = 0;
  for (const topo::Link& k : t.links()) n += k.kind != topo::LinkKind::Local ? 2 : 0;
  return n;
}

std::shared_ptr<Case> makeCase(const QString& name) {
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

QString html(const Case& c) { return QString::fromStdString(c.html); }

// The text of the first element `<tag ... id="id"` up to its matching close (no nesting
// of the same tag inside, which holds for the report's tables, pre and svg).
QString elementById(const QString& text, const QString& tag, const QString& id) {
  const int start = text.indexOf(QRegularExpression("<" + tag + "[^>]*\\bid=\"" + QRegularExpression::escape(id) + "\""));
  if (start < 0) return {};
  const int end = text.indexOf("</" + tag + ">", start);
  return end < 0 ? QString() : text.mid(start, end - start + tag.size() + 3);
}

// The one element with `class="cls"` (svg) or a figure's attribute.
QStringList svgsWithClass(const QString& text, const QString& cls) {
  QStringList out;
  QRegularExpression re("<svg [^>]*class=\"" + cls + "\"[^>]*>.*?</svg>", QRegularExpression::DotMatchesEverythingOption);
  for (auto it = re.globalMatch(text); it.hasNext();) out << it.next().captured(0);
  return out;
}

int count(const QString& text, const QString& pattern) {
  int n = 0;
  for (auto it = QRegularExpression(pattern).globalMatch(text); it.hasNext(); it.next()) ++n;
  return n;
}

// The busiest bin by brute force over the sparse series.
int independentBusiestBin(const Results& r) {
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
double parseDurationNs(QString text) {
  text = text.trimmed();
  static const std::map<QString, double> unit = {{"ps", 1e-3}, {"ns", 1}, {"µs", 1e3}, {"ms", 1e6}, {"s", 1e9}};
  const QStringList parts = text.split(' ');
  if (parts.size() != 2 || !unit.count(parts[1])) return std::nan("");
  return parts[0].toDouble() * unit.at(parts[1]);
}

// Every opened html/head/body/table/svg/section/figure/pre/thead/tbody/tr is closed, in order.
bool nestedProperly(const QString& h, QString* why) {
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

const QStringList kCases = {"hand-made", "p2p 16 MiB", "mesh traffic", "moe layer"};

}  // namespace

class TestReport : public QObject {
  Q_OBJECT

 private:
  void addCases() {
    QTest::addColumn<QString>("name");
    for (const QString& c : kCases) QTest::newRow(qPrintable(c)) << c;
  }

 private slots:
  // Every opened html/head/body/table/svg/section/figure/pre is closed, properly nested.
  void wellFormed_data() {
    addCases();
    QTest::newRow("sweep") << QString("sweep");
  }
  void wellFormed() {
    QFETCH(QString, name);
    const QString h = html(*makeCase(name));
    QVERIFY(h.startsWith("<!DOCTYPE html>\n<html lang=\"en\">"));
    QVERIFY(h.endsWith("</html>\n"));
    QString why;
    QVERIFY2(nestedProperly(h, &why), qPrintable(why));
    for (const char* tag : {"html", "head", "body", "table", "svg"})
      QCOMPARE(count(h, QString("<%1[\\s>]").arg(tag)), count(h, QString("</%1>").arg(tag)));
    QCOMPARE(count(h, "<html[\\s>]"), 1);
    QCOMPARE(count(h, "<body[\\s>]"), 1);
    // Self-contained: no scripts, no external resources.
    QVERIFY(!h.contains("<script", Qt::CaseInsensitive));
    QCOMPARE(count(h, "(src|href)=\"(https?:)?//"), 0);
    QVERIFY(!h.contains("url("));
    // Ids are unique.
    QStringList ids;
    for (auto it = QRegularExpression(" id=\"([^\"]+)\"").globalMatch(h); it.hasNext();) ids << it.next().captured(1);
    QCOMPARE(ids.removeDuplicates(), qsizetype(0));
  }

  // The scenario section's one-line workload names what runs, for every workload kind
  // (an MoE layer once read as "uniform traffic at 0.3 load").
  void workloadLine_data() {
    QTest::addColumn<QString>("workload");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("moe_layer") << "{kind: moe_layer, moe: {model: dysharp-small, tokens_per_gpu: 512}}"
                               << QStringList{"MoE layer dysharp-small (64 experts, top-8, 512 tokens per GPU)",
                                              "dysharp + token_centric"};
    QTest::newRow("traffic") << "{kind: traffic, traffic: {pattern: uniform, load: 0.4, duration: 3 us}}"
                             << QStringList{"uniform traffic at 0.4 load for 3 us"};
    QTest::newRow("all_reduce") << "{kind: collective, collective: {op: all_reduce, size: 2 MiB}}"
                                << QStringList{"all_reduce ring, 2 MiB per GPU"};
    QTest::newRow("p2p") << "{kind: collective, collective: {op: p2p, algorithm: direct, size: 1 GiB}}"
                         << QStringList{"p2p gpu0 → gpu1, 1 GiB"};
  }
  void workloadLine() {
    QFETCH(QString, workload);
    QFETCH(QStringList, expected);
    const Scenario s = parseScenario("fabriclab: 1\nname: w\nworkload: " + workload.toStdString() +
                                         "\nscheme: {communication: dysharp, fusion: token_centric}\n",
                                     "w.yaml");
    const QString line = QString::fromStdString(report::workloadOneLine(s));
    for (const QString& e : expected) QVERIFY2(line.contains(e), qPrintable(line));
    if (workload.contains("moe_layer")) QVERIFY2(!line.contains("traffic"), qPrintable(line));
  }

  void sections_data() { addCases(); }
  void sections() {
    QFETCH(QString, name);
    const QString h = html(*makeCase(name));
    for (const char* id : {"title", "provenance", "scenario", "topology", "plots", "results"})
      QVERIFY2(h.contains(QString("id=\"%1\"").arg(id)), id);
    QVERIFY(!h.contains("id=\"sweep\""));  // a single run
    for (const char* text : {"FabricLab version", FABRICLAB_VERSION, "2025-01-01 00:00 UTC", "--report out.html",
                             "engine events", "wall time", "threads"})
      QVERIFY2(h.contains(text), text);
    // Plots: bandwidth and busiest links over time, plus the histogram when measured.
    const Case& c = *makeCase(name);
    const QString plots = elementById(h, "section", "plots");
    const int expected = 2 + (c.points.front().results.latency ? 1 : 0);
    QCOMPARE(count(plots, "<svg [^>]*class=\"chart\""), expected);
    if (c.points.front().results.latency) QVERIFY(plots.contains("Packet latency"));
    QVERIFY(plots.contains("bandwidth (GB/s)") || plots.contains("bandwidth (TB/s)"));
    QVERIFY(plots.contains("uplink") && plots.contains("downlink") && plots.contains("utilisation (%)"));
  }

  // One topology picture, one lane per visible link direction, hot lanes as counted.
  void topologyLanes_data() { addCases(); }
  void topologyLanes() {
    QFETCH(QString, name);
    const Case& c = *makeCase(name);
    const QStringList svgs = svgsWithClass(html(c), "topology");
    QCOMPARE(svgs.size(), 1);
    const QString& svg = svgs.front();
    QCOMPARE(count(svg, "<polyline class=\"lane( hot)?\""), c.expectedLanes);
    // The layout agrees with the independent count.
    const layout::TopologyLayout l = layout::layoutTopology(*c.topology);
    int drawn = 0;
    for (const layout::LinkPath& p : l.links) drawn += p.visible && p.points.size() >= 2 ? 2 : 0;
    QCOMPARE(drawn, c.expectedLanes);
    // Every lane names its link and direction once.
    QStringList keys;
    for (auto it = QRegularExpression("data-link=\"(\\d+)\" data-dir=\"(\\d)\"").globalMatch(svg); it.hasNext();) {
      const auto m = it.next();
      keys << m.captured(1) + ":" + m.captured(2);
    }
    QCOMPARE(keys.size(), c.expectedLanes);
    QCOMPARE(keys.removeDuplicates(), qsizetype(0));

    const Results& r = c.points.front().results;
    const int bin = independentBusiestBin(r);
    const Time start = static_cast<Time>(bin) * r.bin;
    const double seconds = toSeconds(std::min(r.bin, std::max(r.makespan, r.sim_time) - start));
    int hot = 0;
    for (const LinkDirectionResult& l2 : r.links) {
      if (l2.kind == "local") continue;  // inside a die: not drawn
      std::int64_t bytes = 0;
      for (std::size_t i = 0; i < l2.bin_bytes.bins.size(); ++i)
        if (l2.bin_bytes.bins[i] == bin) bytes += l2.bin_bytes.bytes[i];
      hot += bytes > 0 && static_cast<double>(bytes) / (l2.capacity_Bps * seconds) >= 0.7;
    }
    QCOMPARE(count(svg, "<polyline class=\"lane hot\""), hot);
    if (name == "hand-made") QCOMPARE(hot, 1);
    // Legend: the viridis ends and the idle/hot keys.
    QVERIFY(svg.contains(QString::fromStdString(report::viridis(0.5 / 64))));
    QVERIFY(svg.contains("idle") && svg.contains("hot (≥ 70%)") && svg.contains("utilisation"));
  }

  void busiestBin_data() { addCases(); }
  void busiestBin() {
    QFETCH(QString, name);
    const Case& c = *makeCase(name);
    const int bin = independentBusiestBin(c.points.front().results);
    QVERIFY(bin >= 0);
    if (name == "hand-made") QCOMPARE(bin, 2);
    const QString h = html(c);
    QVERIFY2(h.contains(QString("data-busiest-bin=\"%1\"").arg(bin)), qPrintable(QString::number(bin)));
    QVERIFY(h.contains(QString("<strong>bin %1 of ").arg(bin)));
  }

  void yamlBlock_data() { addCases(); }
  void yamlBlock() {
    QFETCH(QString, name);
    const Case& c = *makeCase(name);
    const QString pre = elementById(html(c), "pre", "scenario-yaml");
    QVERIFY(!pre.isEmpty());
    const QString escaped = QString::fromStdString(report::xmlEscape(c.scenario.name));
    QVERIFY2(pre.contains(escaped), qPrintable(pre.left(400)));
    // The block is the saved scenario, escaped: unescaping it gives the text back.
    QString text = pre.mid(pre.indexOf('>') + 1);
    text.chop(QString("</pre>").size());
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&");
    QCOMPARE(text.toStdString(), saveScenarioText(c.scenario));
  }

  void escaping() {
    const QString h = html(*makeCase("hand-made"));
    QVERIFY(!h.contains("<test>"));
    QVERIFY(!h.contains("phase <one>"));
    QVERIFY(h.contains("<h1>Hand &amp; &quot;made&quot; &lt;test&gt;</h1>"));
    QVERIFY(h.contains("<title>Hand &amp; &quot;made&quot; &lt;test&gt; – FabricLab report</title>"));
    QVERIFY(h.contains("phase &lt;one&gt;"));
    QVERIFY(h.contains("A &#39;tiny&#39; fabric\nsecond line"));
  }

  // Phase rows: names, exact ns in data-ns, and displayed values within rounding.
  void phasesTable_data() { addCases(); }
  void phasesTable() {
    QFETCH(QString, name);
    const Case& c = *makeCase(name);
    const Results& r = c.points.front().results;
    const QString table = elementById(html(c), "table", "phases");
    if (r.phases.empty()) {
      QVERIFY(table.isEmpty());
      return;
    }
    QRegularExpression rowRe("<tr><td>([^<]*)</td>((?:<td class=\"num\" data-ns=\"[^\"]+\">[^<]*</td>){3})</tr>");
    QRegularExpression cellRe("data-ns=\"([^\"]+)\">([^<]*)<");
    int i = 0;
    for (auto it = rowRe.globalMatch(table); it.hasNext(); ++i) {
      const auto m = it.next();
      QVERIFY(i < static_cast<int>(r.phases.size()));
      const PhaseMark& p = r.phases[static_cast<std::size_t>(i)];
      QCOMPARE(m.captured(1), QString::fromStdString(report::xmlEscape(p.name)));
      const double expected[3] = {toNs(p.start), toNs(p.end), toNs(p.end - p.start)};
      int k = 0;
      for (auto cit = cellRe.globalMatch(m.captured(2)); cit.hasNext(); ++k) {
        const auto cm = cit.next();
        QCOMPARE(cm.captured(1).toDouble(), std::round(expected[k] * 1000) / 1000);
        const double shown = parseDurationNs(cm.captured(2));
        QVERIFY2(std::fabs(shown - expected[k]) <= 0.006 * expected[k] + 0.001,
                 qPrintable(cm.captured(2) + " vs " + QString::number(expected[k])));
      }
      QCOMPARE(k, 3);
    }
    QCOMPARE(i, static_cast<int>(r.phases.size()));
  }

  // An MoE layer's breakdown table: one row per results row, bytes exact in data-bytes,
  // the last column (redundant + useless) / (useful + redundant + useless); and the token
  // pipeline's launches. Absent from other runs.
  void moeTables_data() { addCases(); }
  void moeTables() {
    QFETCH(QString, name);
    const Case& c = *makeCase(name);
    const Results& r = c.points.front().results;
    const QString table = elementById(html(c), "table", "breakdown");
    QCOMPARE(table.isEmpty(), r.breakdown.empty());
    QCOMPARE(elementById(html(c), "table", "pipeline").isEmpty(), !r.pipeline.has_value());
    if (r.breakdown.empty()) return;
    QRegularExpression rowRe("<tr><td>(\\w+)</td><td>(\\w+)</td>((?:<td class=\"num\" data-bytes=\"\\d+\">[^<]*</td>){4})"
                             "<td class=\"num\">([0-9.]+)%</td></tr>");
    QRegularExpression cellRe("data-bytes=\"(\\d+)\"");
    std::size_t i = 0;
    bool sawRedundant = false;
    for (auto it = rowRe.globalMatch(table); it.hasNext(); ++i) {
      const auto m = it.next();
      QVERIFY(i < r.breakdown.size());
      const TrafficBreakdownRow& b = r.breakdown[i];
      QCOMPARE(m.captured(1), QString::fromStdString(b.phase));
      QCOMPARE(m.captured(2), QString::fromStdString(b.direction));
      std::vector<qint64> cells;
      for (auto cit = cellRe.globalMatch(m.captured(3)); cit.hasNext();) cells.push_back(cit.next().captured(1).toLongLong());
      QCOMPARE(cells, (std::vector<qint64>{b.useful, b.redundant, b.useless, b.overhead}));
      const double payload = double(cells[0] + cells[1] + cells[2]);
      QCOMPARE(m.captured(4).toDouble(), std::round(1000.0 * double(cells[1] + cells[2]) / payload) / 10);
      sawRedundant |= cells[1] > 0;
    }
    QCOMPARE(i, r.breakdown.size());
    QVERIFY(sawRedundant);  // DeepEP sends a token once per destination GPU
    QVERIFY(elementById(html(c), "table", "pipeline")
                .contains(QString::fromStdString(report::formatCount(r.pipeline->kernel_launches) + " per GPU")));
  }

  // The busiest-links table: at most 20 rows, the first the most utilised direction.
  void linksTable_data() { addCases(); }
  void linksTable() {
    QFETCH(QString, name);
    const Case& c = *makeCase(name);
    const Results& r = c.points.front().results;
    const QString table = elementById(html(c), "table", "links");
    int busy = 0;
    double top = -1;
    for (const LinkDirectionResult& l : r.links) {
      busy += l.bytes > 0;
      top = std::max(top, l.bytes > 0 ? l.utilization : -1);
    }
    QCOMPARE(count(table, "<tr><td class=\"num\">\\d+</td>"), std::min(busy, 20));
    const auto first = QRegularExpression("<tr><td class=\"num\">1</td><td>([^<]+)</td>").match(table);
    QVERIFY(first.hasMatch());
    const auto it = std::find_if(r.links.begin(), r.links.end(),
                                 [&](const auto& l) { return QString::fromStdString(l.id) == first.captured(1); });
    QVERIFY(it != r.links.end());
    QCOMPARE(it->utilization, top);
  }

  // One table row per sweep point, with its settings, and a chart of the main figure.
  void sweepRows_data() {
    QTest::addColumn<int>("sizes");
    QTest::addColumn<int>("algorithms");
    QTest::newRow("1 axis, 1 point") << 1 << 0;
    QTest::newRow("1 axis, 5 points") << 5 << 0;
    QTest::newRow("2 axes, 3 x 2 points") << 3 << 2;
  }
  void sweepRows() {
    QFETCH(int, sizes);
    QFETCH(int, algorithms);
    auto t = tinyFabric();
    Scenario s;
    s.name = "hand sweep";
    s.sweep.push_back({"workload.collective.size", {}});
    if (algorithms) s.sweep.push_back({"workload.collective.algorithm", {"ring", "nvls"}});
    std::vector<SweepPoint> points;
    for (int i = 0; i < sizes; ++i) {
      const std::string size = std::to_string(64 << i) + " KiB";
      s.sweep[0].values.push_back(size);
      for (int a = 0; a < std::max(1, algorithms); ++a) {
        SweepPoint p;
        p.settings = {{"workload.collective.size", size}};
        if (algorithms) p.settings.push_back({"workload.collective.algorithm", a ? "nvls" : "ring"});
        p.results = handMadeResults(*t);
        p.results.busbw_GBps = 100.0 + i * 10 + a;
        p.results.makespan += i * kMicrosecond;
        points.push_back(p);
      }
    }
    report::ReportOptions o = fixedOptions();
    const QString h = QString::fromStdString(report::renderHtmlReport(s, points, *t, o));
    const QString table = elementById(h, "table", "sweep-points");
    QCOMPARE(count(table, "<tr data-point="), static_cast<int>(points.size()));
    QCOMPARE(count(table, "<td>128 KiB</td>"), sizes >= 2 ? std::max(1, algorithms) : 0);
    if (algorithms) QCOMPARE(count(table, "<td>nvls</td>"), sizes);
    QVERIFY(table.contains("data-value=\"100.000000\">100.00</td>"));  // busbw of the first point
    const QString sweep = h.mid(h.indexOf("<section id=\"sweep\">"));
    QVERIFY(sweep.contains("Bus bandwidth vs workload.collective.size"));
    if (algorithms) QVERIFY(sweep.contains(">algorithm = ring</text>") && sweep.contains(">algorithm = nvls</text>"));
    // Detail sections: every point when at most 4, else the first.
    const int detailed = points.size() <= 4 ? static_cast<int>(points.size()) : 1;
    QCOMPARE(count(h, "<svg [^>]*class=\"topology\""), detailed);
  }

  // A real sweep: rows, charts and detail sections for each of the four points.
  void realSweep() {
    const Case& c = *makeCase("sweep");
    const QString h = html(c);
    QCOMPARE(c.points.size(), std::size_t{4});
    QCOMPARE(count(elementById(h, "table", "sweep-points"), "<tr data-point="), 4);
    for (int i = 1; i <= 4; ++i)
      for (const char* part : {"topology", "plots", "results"})
        QVERIFY2(h.contains(QString("id=\"point-%1-%2\"").arg(i).arg(part)), part);
    QCOMPARE(count(h, "<svg [^>]*class=\"topology\""), 4);
    QVERIFY(h.contains("busbw (GB/s)"));
  }

  // A sweep over the fabric's size: each point is drawn on its own fabric.
  void sweepChangingFabric() {
    const Scenario s = parseScenario(R"(fabriclab: 1
name: mesh sizes
topology: {kind: mesh, rows: 2, cols: 2}
workload:
  kind: traffic
  traffic: {pattern: uniform, load: 0.2, duration: 400 ns, warmup: 100 ns}
run: {bin: 100 ns}
sweep:
  - key: topology.rows
    values: [2, 3]
)",
                                     "sizes.yaml");
    const auto base = topo::buildTopology(s.topology);
    const auto points = runSweep(s);
    const QString h = QString::fromStdString(report::renderHtmlReport(s, points, *base, fixedOptions()));
    const QStringList svgs = svgsWithClass(h, "topology");
    QCOMPARE(svgs.size(), 2);
    for (int i = 0; i < 2; ++i) {
      const auto t = topo::buildTopology(sweepPointScenario(s, points[static_cast<std::size_t>(i)].settings).topology);
      QCOMPARE(count(svgs[i], "<polyline class=\"lane( hot)?\""), visibleLanes(*t));
    }
    QVERIFY(visibleLanes(*base) != count(svgs[1], "<polyline class=\"lane( hot)?\""));
    QVERIFY(h.contains("Accepted throughput per endpoint vs topology.rows"));
    QVERIFY(h.contains("p99 packet latency vs topology.rows"));
  }

  // No points (a run that produced nothing): still a complete page.
  void noPoints() {
    const Case& c = *makeCase("hand-made");
    const QString h = QString::fromStdString(report::renderHtmlReport(c.scenario, {}, *c.topology, fixedOptions()));
    QString why;
    QVERIFY2(nestedProperly(h, &why), qPrintable(why));
    QVERIFY(h.contains("No results") && h.contains("id=\"scenario\"") && !h.contains("id=\"topology\""));
  }

  void deterministic() {
    const Case& c = *makeCase("p2p 16 MiB");
    QCOMPARE(report::renderHtmlReport(c.scenario, c.points, *c.topology, fixedOptions()), c.html);
  }

  void extraImages() {
    const Case& c = *makeCase("hand-made");
    report::ReportOptions o = fixedOptions();
    o.images.push_back({"Canvas <screenshot>", "The GUI canvas", "image/png", "iVBORw0KGgo=\"><script>"});
    const QString h = QString::fromStdString(report::renderHtmlReport(c.scenario, c.points, *c.topology, o));
    QVERIFY(h.contains("id=\"images\""));
    QVERIFY(h.contains("src=\"data:image/png;base64,iVBORw0KGgo=script\""));  // only base64 characters kept
    QVERIFY(h.contains("Canvas &lt;screenshot&gt;"));
    QVERIFY(!h.contains("<script"));
  }

  // Helpers with known answers.
  void formatting_data() {
    QTest::addColumn<QString>("actual");
    QTest::addColumn<QString>("expected");
    QTest::newRow("svgNumber 1.005") << QString::fromStdString(report::svgNumber(12.5)) << "12.5";
    QTest::newRow("svgNumber -0") << QString::fromStdString(report::svgNumber(-0.001)) << "0";
    QTest::newRow("svgNumber int") << QString::fromStdString(report::svgNumber(3.0)) << "3";
    QTest::newRow("xmlEscape") << QString::fromStdString(report::xmlEscape("a<b>&\"'")) << "a&lt;b&gt;&amp;&quot;&#39;";
    QTest::newRow("viridis 0") << QString::fromStdString(report::viridis(0)) << "#440154";
    QTest::newRow("viridis 1") << QString::fromStdString(report::viridis(1)) << "#fde725";
    QTest::newRow("viridis clamp") << QString::fromStdString(report::viridis(7)) << "#fde725";
    QTest::newRow("duration 0") << QString::fromStdString(report::formatDuration(0)) << "0 s";
    QTest::newRow("duration µs") << QString::fromStdString(report::formatDuration(43806364)) << "43.81 µs";
    QTest::newRow("duration ns") << QString::fromStdString(report::formatDuration(250000)) << "250.0 ns";
    QTest::newRow("bytes") << QString::fromStdString(report::formatBytes(1.5 * 1024 * 1024)) << "1.50 MiB";
    QTest::newRow("rate") << QString::fromStdString(report::formatRate(371.2e9)) << "371.2 GB/s";
    QTest::newRow("count") << QString::fromStdString(report::formatCount(1234567)) << "1,234,567";
  }
  void formatting() {
    QFETCH(QString, actual);
    QFETCH(QString, expected);
    QCOMPARE(actual, expected);
  }
};

QTEST_GUILESS_MAIN(TestReport)
#include "test_report.moc"
