// The report's pictures of what the app shows: the fabric drawn with bundles (one item
// per pair of nodes, as the canvas and the welcome gallery draw it), an MoE layer's
// Traffic Breakdown chart and pipeline Gantt, and the comparison of sweep points on
// shared scales; and the seeds' names for sweep values. Expected counts come from the
// results and the topology, read here independently of the report code.
#include <QRegularExpression>
#include <QtTest>
#include <map>
#include <set>

#include "../common/report_cases.h"
#include "report/svg_moe_charts.h"
#include "scenario/scenario_io.h"
#include "scenario/story.h"
#include "sim/run.h"

using namespace fl;
using namespace fl::test::report_cases;

namespace {

// Node pairs joined by the drawn (non-local) links, and how many links each has.
std::map<std::pair<int, int>, int> linkPairs(const topo::Topology& t) {
  std::map<std::pair<int, int>, int> pairs;
  for (const topo::Link& k : t.links())
    if (k.kind != topo::LinkKind::Local) ++pairs[{std::min(k.a, k.b), std::max(k.a, k.b)}];
  return pairs;
}

// The y (or x) axis group's tick labels of an SVG chart.
QStringList axisLabels(const QString& svg, const QString& axis) {
  const int start = svg.indexOf("<g class=\"axis " + axis + "\"");
  const int end = svg.indexOf("</g>", start);
  QStringList out;
  QRegularExpression re("<text[^>]*>([^<]*)</text>");
  for (auto it = re.globalMatch(svg.mid(start, end - start)); it.hasNext();) out << it.next().captured(1);
  return out;
}

// The report cases' MoE layer swept over the communication scheme.
std::string moeSweep() {
  return std::string(kMoe) + "sweep:\n  - key: scheme.communication\n    values: [deepep, dysharp]\n";
}

PipelineTask task(int gpu, int group, PipelineTaskKind kind, Time start, Time end) {
  PipelineTask t;
  t.gpu = gpu;
  t.group = static_cast<std::uint8_t>(group);
  t.kind = kind;
  t.start = start;
  t.end = end;
  return t;
}

}  // namespace

class TestReportFigures : public QObject {
  Q_OBJECT
 private slots:
  // One item per node pair: parallel links as one bundle with two lanes; hot lanes are
  // the bundle directions whose summed bytes in the busiest bin reach 70 % of their
  // summed capacity.
  void topologyBundles_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("bundles");  // node pairs with more than one link
    QTest::newRow("DGX-H100 p2p") << "p2p 16 MiB" << 32;  // 8 GPUs x 4 NVSwitch chips
    QTest::newRow("DGX-H100 MoE") << "moe layer" << 32;
    QTest::newRow("4x4 mesh") << "mesh traffic" << 0;
  }
  void topologyBundles() {
    QFETCH(QString, name);
    QFETCH(int, bundles);
    const Case& c = *makeCase(name);
    const auto pairs = linkPairs(*c.topology);
    int multi = 0;
    for (const auto& [pair, n] : pairs) multi += n > 1;
    QCOMPARE(multi, bundles);
    const QStringList svgs = svgsWithClass(html(c), "topology");
    QCOMPARE(svgs.size(), 1);
    const QString& svg = svgs.front();
    QCOMPARE(count(svg, "<polyline class=\"lane( hot)?\""), 2 * int(pairs.size()));
    QCOMPARE(count(svg, "data-links=\""), 2 * bundles);
    // Every bundle lane lists all its links.
    for (auto it = QRegularExpression("data-links=\"([0-9 ]+)\"").globalMatch(svg); it.hasNext();) {
      const QStringList ids = it.next().captured(1).split(' ');
      std::set<std::pair<int, int>> ends;
      for (const QString& id : ids) {
        const topo::Link& k = c.topology->link(id.toInt());
        ends.insert({std::min(k.a, k.b), std::max(k.a, k.b)});
      }
      QCOMPARE(int(ends.size()), 1);
      QCOMPARE(ids.size(), pairs.at(*ends.begin()));
    }
    const Results& r = c.points.front().results;
    const int bin = independentBusiestBin(r);
    const double seconds = toSeconds(std::min(r.bin, std::max(r.makespan, r.sim_time) - static_cast<Time>(bin) * r.bin));
    std::map<std::pair<std::string, std::string>, std::pair<double, double>> directions;  // from,to -> bytes, capacity
    for (const LinkDirectionResult& l : r.links) {
      if (l.kind == "local") continue;
      std::int64_t bytes = 0;
      for (std::size_t i = 0; i < l.bin_bytes.bins.size(); ++i)
        if (l.bin_bytes.bins[i] == bin) bytes += l.bin_bytes.bytes[i];
      auto& d = directions[{l.from, l.to}];
      d.first += double(bytes);
      d.second += l.capacity_Bps * seconds;
    }
    int hot = 0;
    for (const auto& [ends, d] : directions) hot += d.first > 0 && d.first / d.second >= 0.7;
    QCOMPARE(count(svg, "<polyline class=\"lane hot\""), hot);
    QVERIFY(html(c).contains("drawn as one bundle") == (bundles > 0));
  }

  // The Traffic Breakdown chart: one rectangle per non-zero class of each plotted row,
  // a total over each bar; the Gantt: a row per SM group per GPU on 8 GPUs.
  void moeFigures() {
    const Case& c = *makeCase("moe layer");
    const Results& r = c.points.front().results;
    QVERIFY(!r.breakdown.empty() && r.pipeline);
    const QStringList breakdown = svgsWithClass(html(c), "chart breakdown");
    QCOMPARE(breakdown.size(), 1);
    int parts = 0, rows = 0;
    const std::set<std::string> phases = {"dispatch", "combine", "all"}, dirs = {"uplink", "downlink"};
    for (const TrafficBreakdownRow& b : r.breakdown) {
      if (!phases.count(b.phase) || !dirs.count(b.direction)) continue;
      ++rows;
      parts += (b.useful > 0) + (b.redundant > 0) + (b.useless > 0) + (b.overhead > 0);
    }
    QCOMPARE(count(breakdown.front(), "<rect class=\"bar\""), parts);
    QCOMPARE(count(breakdown.front(), "class=\"total\""), rows);
    for (const char* legend : {"useful", "redundant (extra copies)", "useless (not needed)", "overhead"})
      QVERIFY2(breakdown.front().contains(legend), legend);
    const QStringList gantt = svgsWithClass(html(c), "chart gantt");
    QCOMPARE(gantt.size(), 1);
    int gpus = 0;
    for (const PipelineTask& t : r.pipeline->tasks) gpus = std::max(gpus, t.gpu + 1);
    QCOMPARE(gpus, 8);
    const int expectedRows = gpus * int(r.pipeline->groups.size());
    QVERIFY(html(c).contains(QString("data-rows=\"%1\"").arg(expectedRows)));
    QVERIFY(gantt.front().contains("gpu7 · " + QString::fromStdString(r.pipeline->groups.back())));
  }

  // Row layout and merging: a row per GPU beyond 8 GPUs; tasks of a kind less than
  // half a pixel apart in one rectangle, further apart in two.
  void ganttRows_data() {
    QTest::addColumn<int>("gpus");
    QTest::addColumn<int>("rows");
    QTest::newRow("4 GPUs, 4 groups") << 4 << 16;
    QTest::newRow("32 GPUs") << 32 << 32;
    QTest::newRow("72 GPUs") << 72 << 72;
  }
  void ganttRows() {
    QFETCH(int, gpus);
    QFETCH(int, rows);
    PipelineResults p;
    p.fusion = "token_centric";
    p.groups = {"dispatch", "gemm1", "gemm2", "combine"};
    const Time us = 1000000;  // ps
    for (int g = 0; g < gpus; ++g) {
      // 0-10 us and 10-20 us touch: one bar; 60-70 us apart: a second one.
      p.tasks.push_back(task(g, 1, PipelineTaskKind::Gemm1, 0, 10 * us));
      p.tasks.push_back(task(g, 1, PipelineTaskKind::Gemm1, 10 * us, 20 * us));
      p.tasks.push_back(task(g, 1, PipelineTaskKind::Gemm1, 60 * us, 70 * us));
    }
    report::GanttChartOptions o;
    o.timeEnd = 100 * us;
    const report::GanttPicture pic = report::renderPipelineGantt(p, o);
    QCOMPARE(pic.rows, rows);
    QCOMPARE(pic.bars, 2 * gpus);
    QCOMPARE(count(QString::fromStdString(pic.svg), "<rect x="), 2 * gpus + 1);  // + the legend's key
    QVERIFY(axisLabels(QString::fromStdString(pic.svg), "x").contains("100"));  // the fixed end
  }

  // The comparison: every point's chart of a kind on one scale (the same tick labels),
  // and what it shows not repeated in the points' own sections.
  void compareSharedScales() {
    const Case& c = *makeCase("sweep");
    const QString h = html(c);
    QVERIFY(h.contains("id=\"compare\"") && h.contains("href=\"#compare\""));
    const QString compare = h.mid(h.indexOf("id=\"compare\""), h.indexOf("id=\"point-1\"") - h.indexOf("id=\"compare\""));
    // One figure for the bandwidth: every point's uplink and downlink on one scale.
    const QStringList charts = svgsWithClass(compare, "chart");
    QCOMPARE(charts.size(), 1);
    QCOMPARE(count(charts.front(), "<g class=\"series\""), 2 * 4);
    for (int p = 1; p <= 4; ++p)
      for (const char* direction : {" up<", " down<"})  // their legend entries
        QVERIFY(charts.front().contains(QRegularExpression(">" + QString::number(p) + ": [^<]*" + direction)));
    // And one table: a row per point.
    const QString table = compare.mid(compare.indexOf("<table class=\"compare\""));
    QCOMPARE(count(table.left(table.indexOf("</table>")), "<tr>"), 1 + 4);
    // The per-point plots keep the busiest links, not the bandwidth shown above.
    QCOMPARE(count(elementById(h, "section", "point-1"), "Aggregate endpoint bandwidth"), 0);
  }

  void compareMoe() {
    Scenario s = parseScenario(moeSweep(), "moe.yaml");
    const auto topology = topo::buildTopology(s.topology);
    const std::vector<SweepPoint> points = runSweep(s);
    QCOMPARE(points.size(), size_t(2));
    report::ReportOptions o;
    o.date = "2025-01-01";
    const QString h = QString::fromStdString(report::renderHtmlReport(s, points, *topology, o));
    QCOMPARE(svgsWithClass(h, "chart breakdown").size(), 0);  // not per point: compared in one figure
    const QStringList breakdowns = svgsWithClass(h, "chart breakdown-compare");
    QCOMPARE(breakdowns.size(), 1);
    // Both points' uplink and downlink bars (both phases), stacked by class.
    QCOMPARE(count(breakdowns[0], "<text [^>]*class=\"total\""), 4);
    // The byte scale reaches the taller point's tallest both-phases stack.
    double top = 0;
    for (const SweepPoint& p : points)
      for (const TrafficBreakdownRow& b : p.results.breakdown)
        if (b.phase == "all") top = std::max(top, double(b.useful + b.redundant + b.useless + b.overhead));
    const QStringList ticks = axisLabels(breakdowns[0], "y");
    const QString unit = top >= 2.0 * (1 << 30) ? "GiB" : top >= 2.0 * (1 << 20) ? "MiB" : "KiB";
    const double scale = unit == "GiB" ? double(1 << 30) : unit == "MiB" ? double(1 << 20) : 1024.0;
    QVERIFY2(ticks.size() > 2 && QString(ticks[ticks.size() - 2]).remove(',').toDouble() * scale >= top,
             qPrintable(ticks.join(' ')));
    QVERIFY(breakdowns[0].contains("bytes (" + unit + ")"));
    const QStringList gantts = svgsWithClass(h, "chart gantt");
    QCOMPARE(gantts.size(), 2);
    QCOMPARE(axisLabels(gantts[0], "x"), axisLabels(gantts[1], "x"));
    QVERIFY(h.contains("2: Full DySHARP"));  // dysharp x token_centric: the seeds' name
  }

  // Sweep values the seeds name read by those names (seed 003's mappings and balancers,
  // seed 002's tensor-parallel schemes); others keep "key = value".
  void seedNames_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("labels");
    QTest::newRow("wsc mappings") << "wsc-4wafers-her.yaml"
                                  << QStringList{"Baseline mapping", "ER-Mapping", "HER-Mapping"};
    QTest::newRow("wsc balancers") << "wsc-balancer-single.yaml"
                                   << QStringList{"No balancer", "Greedy balancer", "Topology-aware balancer",
                                                  "Non-invasive balancer"};
    QTest::newRow("cais schemes") << "cais-4gpu.yaml"
                                  << QStringList{"TP-NVLS", "SP-NVLS", "CAIS-Base", "CAIS-Coord", "CAIS-Partial", "CAIS"};
    QTest::newRow("xdc clusters") << "xdc-ablation-24-8.yaml"
                                  << QStringList{"Cluster-S, Compression 1×", "Cluster-S, Compression 50×",
                                                 "Cluster-M, Compression 1×", "Cluster-M, Compression 50×",
                                                 "Cluster-L, Compression 1×", "Cluster-L, Compression 50×"};
    QTest::newRow("al tlb sizes") << "nvl32-moe-al-tlb-sweep.yaml"
                                  << QStringList{"AL TLB 64 entries", "AL TLB 128 entries", "AL TLB 256 entries",
                                                 "AL TLB 512 entries", "AL TLB 1024 entries"};
    // Quantities in the schema's canonical text, whatever the file wrote.
    QTest::newRow("table sizes") << "cais-table-size-sweep.yaml"
                                 << QStringList{"CAIS-Base, Table 4 KiB",  "CAIS-Base, Table 8 KiB",  "CAIS-Base, Table 16 KiB",
                                                "CAIS-Base, Table 24 KiB", "CAIS-Base, Table 32 KiB", "CAIS-Base, Table 40 KiB",
                                                "CAIS, Table 4 KiB",       "CAIS, Table 8 KiB",       "CAIS, Table 16 KiB",
                                                "CAIS, Table 24 KiB",      "CAIS, Table 32 KiB",      "CAIS, Table 40 KiB"};
    // Hierarchy levels by their names (the xdc preset's "dc" level), not "Level 1 count";
    // 1, 10 and 100 Gb/s in the schema's bytes per second (÷ 8).
    QStringList levels;
    for (const char* count : {"10", "100", "1000"})
      for (const char* bandwidth : {"125 MB/s", "1.25 GB/s", "12.5 GB/s"})
        for (const char* ep : {"EP", "HybridEP"})
          levels << QString("%1 datacenters, Datacenter links %2, %3").arg(count, bandwidth, ep);
    QTest::newRow("xdc levels") << "xdc-1000-fixed-domain.yaml" << levels;
    QTest::newRow("xdc gpus") << "xdc-1000x8-auto.yaml"
                              << QStringList{"H100, Datacenter links 1.25 GB/s, EP", "H100, Datacenter links 1.25 GB/s, HybridEP",
                                             "H100, Datacenter links 12.5 GB/s, EP", "H100, Datacenter links 12.5 GB/s, HybridEP",
                                             "A100, Datacenter links 1.25 GB/s, EP", "A100, Datacenter links 1.25 GB/s, HybridEP",
                                             "A100, Datacenter links 12.5 GB/s, EP", "A100, Datacenter links 12.5 GB/s, HybridEP"};
    // The seeds' names of scheme combinations (seed 000 §VI): the app and the reports alike.
    QTest::newRow("fusion demo") << "nvl32-moe-fusion-demo.yaml"
                                 << QStringList{"DeepEP", "Fusion only", "DySHARP-Basic", "Full DySHARP"};
  }
  void seedNames() {
    QFETCH(QString, file);
    QFETCH(QStringList, labels);
    const Scenario s = loadScenario((QStringLiteral(FABRICLAB_SCENARIOS "/") + file).toStdString());
    QStringList got;
    for (const std::string& l : sweepPointLabels(s)) got << QString::fromStdString(l);
    QCOMPARE(got, labels);
  }
};

QTEST_GUILESS_MAIN(TestReportFigures)
#include "test_report_figures.moc"
