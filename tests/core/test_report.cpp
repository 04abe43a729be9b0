// The HTML report (core/report): structure, sections, the topology picture, the busiest
// bin and tables, on hand-made Results and on real small runs (sweep sections:
// test_sweep_metrics). Expected values
// come from independent counts over the Results and the topology (never from the report
// code's own helpers), and the HTML is checked by scanning its text.
#include <QtTest>
#include <map>
#include <set>

#include "../common/report_cases.h"

using namespace fl;
using namespace fl::test::report_cases;

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
    QTest::newRow("wsc_inference")
        << "{kind: wsc_inference, wsc: {model: qwen3-235b, tp: 8, tokens_per_group: 128, stage: decode}}"
        << QStringList{"MoE inference on the wafer qwen3-235b (128 experts, top-8, TP 8, 128 tokens per group, decode)",
                       "baseline mapping", "auto model"};
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
    if (!workload.contains("kind: traffic")) QVERIFY2(!line.contains("traffic"), qPrintable(line));
  }

  // The analytical wafer model computes its phases without events: the provenance
  // says "closed form" rather than a rate of 0 events/s.
  void closedFormProvenance() {
    const Scenario s = loadScenario(FABRICLAB_SCENARIOS "/wsc-4x4-paper.yaml");
    const auto topology = topo::buildTopology(s.topology);
    const std::vector<SweepPoint> points = runSweep(s);
    QCOMPARE(points.size(), std::size_t{2});  // baseline, er
    for (const SweepPoint& p : points) QCOMPARE(p.results.events, std::int64_t{0});
    const QString h = QString::fromStdString(report::renderHtmlReport(s, points, *topology, fixedOptions()));
    const QString provenance = elementById(h, "section", "provenance");
    QVERIFY2(provenance.contains("0 over 2 points (closed form)"), qPrintable(provenance));
    QVERIFY2(!provenance.contains("events/s"), qPrintable(provenance));
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
    // The layout agrees with the independent count (a bundle per pair of nodes).
    const layout::TopologyLayout l = layout::layoutTopology(*c.topology);
    std::set<std::pair<int, int>> drawnPairs;
    for (const layout::LinkPath& p : l.links)
      if (p.visible && p.points.size() >= 2) {
        const topo::Link& k = c.topology->link(p.link);
        drawnPairs.insert({std::min(k.a, k.b), std::max(k.a, k.b)});
      }
    QCOMPARE(2 * int(drawnPairs.size()), c.expectedLanes);
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
    // Hot: a bundle direction's bytes over its links' capacity together (from, to).
    std::map<std::pair<std::string, std::string>, std::pair<double, double>> directions;
    for (const LinkDirectionResult& l2 : r.links) {
      if (l2.kind == "local") continue;  // inside a die: not drawn
      std::int64_t bytes = 0;
      for (std::size_t i = 0; i < l2.bin_bytes.bins.size(); ++i)
        if (l2.bin_bytes.bins[i] == bin) bytes += l2.bin_bytes.bytes[i];
      auto& d = directions[{l2.from, l2.to}];
      d.first += static_cast<double>(bytes);
      d.second += l2.capacity_Bps * seconds;
    }
    int hot = 0;
    for (const auto& [ends, d] : directions) hot += d.first > 0 && d.first / d.second >= 0.7;
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

  // No points (a run that produced nothing): still a complete page.
  // The report opens on its summary, then the story (each step's text, in order) and,
  // after the scenario, the scenario file's comments.
  void summaryStoryComments() {
    const Case& c = *makeCase(kCases.front());
    const std::string file = FABRICLAB_TEST_DATA "/good/story_and_labels.yaml";
    const Scenario s = loadScenario(file);
    report::ReportOptions o = fixedOptions();
    o.scenarioFile = file;
    const QString h = QString::fromStdString(report::renderHtmlReport(s, c.points, *c.topology, o));
    const qsizetype summary = h.indexOf("id=\"summary\""), story = h.indexOf("id=\"story\""),
                    provenance = h.indexOf("id=\"provenance\""), comments = h.indexOf("id=\"comments\"");
    QVERIFY(summary > 0 && summary < story && story < provenance && provenance < comments);
    const QString steps = elementById(h, "section", "story");
    QCOMPARE(count(steps, "<li>"), int(s.story.size()));
    QVERIFY(steps.indexOf("Ring: every GPU") < steps.indexOf("NVLS: the switches reduce"));
    QVERIFY(steps.contains("uplinks only") && steps.contains("phase all_reduce"));
    QVERIFY(elementById(h, "section", "comments").contains("A sweep with short point names"));
    QVERIFY(elementById(h, "section", "summary").contains("makespan"));
  }

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
