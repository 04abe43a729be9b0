// The figures a sweep compares (core/results/sweep_metrics.h), shared by the CLI's sweep
// table, the report and the GUI's Sweep dock: values from hand-set Results fields and
// closed forms, which figures a sweep shows and charts, axis units; and the report's
// sweep section: a row per point, charts, a detail section per point, each point on
// its own fabric, an MoE sweep's hit rates and evictions. Expected values are worked out here from the fields
// they derive from, never with the catalogue's own functions.
#include <QtTest>

#include <algorithm>
#include <cmath>

#include "../common/report_cases.h"
#include "report/metric_format.h"
#include "results/csv_writer.h"
#include "results/sweep_metrics.h"

using namespace fl;
using namespace fl::test::report_cases;

namespace {

std::vector<std::string> ids(const std::vector<const fl::SweepMetric*>& ms) {
  std::vector<std::string> out;
  for (const auto* m : ms) out.push_back(m->id);
  return out;
}

QString joined(const std::vector<std::string>& v) {
  QStringList l;
  for (const auto& s : v) l << QString::fromStdString(s);
  return l.join(',');
}

// An MoE layer's results as the workload fills them: a breakdown, AL TLB counts,
// reduction-buffer counts, a token pipeline.
Results moeResults() {
  Results r;
  r.makespan = 30 * kMicrosecond;
  r.payload_bytes = 800;
  r.wire_bytes = 1000;
  r.breakdown = {{"dispatch", "uplink", 100, 50, 0, 9},  {"dispatch", "downlink", 100, 0, 20, 9},
                 {"all", "uplink", 600, 300, 0, 40},     {"all", "downlink", 600, 0, 100, 40}};
  r.direction_balance = 0.62;
  r.moe = MoeResults{};
  r.moe->al_tlb_hits = 90;
  r.moe->al_tlb_misses = 10;
  r.reduction_hits = 75;
  r.reduction_lookups = 80;
  SwitchResult a, b;
  a.evictions = 3;
  b.evictions = 4;
  r.switches = {a, b};
  r.pipeline = PipelineResults{};
  r.pipeline->sm_utilization = 0.25;
  r.pipeline->throughput_tokens_per_s = 4.5e6;
  return r;
}

Results collectiveResults() {
  Results r;
  r.makespan = 2 * kMicrosecond;
  r.payload_bytes = r.wire_bytes = 10;
  r.algbw_GBps = 105.0;
  r.busbw_GBps = 184.0;
  return r;
}

Results trafficResults() {
  Results r;
  r.makespan = kMicrosecond;
  r.offered_GBps = 40;
  r.accepted_GBps = 38;
  r.accepted_fraction = 0.95;
  r.latency = LatencyStats{};
  r.latency->mean_ns = 300;
  r.latency->p99_ns = 900;
  return r;
}

}  // namespace

class TestSweepMetrics : public QObject {
  Q_OBJECT

 private slots:
  void values_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<double>("expected");
    QTest::addColumn<QString>("text");
    // (300 + 100) / (600 + 300 + 600 + 100): the "all" rows only.
    QTest::newRow("redundant + useless") << "redundant_useless_share" << 400.0 / 1600.0 << "25.0%";
    QTest::newRow("AL TLB") << "al_tlb_hit_rate" << 0.9 << "90.0%";
    QTest::newRow("reduction buffer") << "reduction_buffer_hit_rate" << 75.0 / 80.0 << "93.8%";
    QTest::newRow("evictions, summed over switches") << "evictions" << 7.0 << "7";
    QTest::newRow("makespan") << "makespan" << 30e6 << "30.00 µs";
    QTest::newRow("payload efficiency") << "payload_efficiency" << 0.8 << "80.0%";
    QTest::newRow("balance") << "direction_balance" << 0.62 << "0.62";
    QTest::newRow("SM utilisation") << "sm_utilization" << 0.25 << "25.0%";
    QTest::newRow("throughput") << "throughput_tokens_per_s" << 4.5e6 << "4,500,000";
  }
  void values() {
    QFETCH(QString, id);
    QFETCH(double, expected);
    QFETCH(QString, text);
    const fl::SweepMetric* m = fl::findSweepMetric(id.toStdString());
    QVERIFY(m);
    const auto v = m->value(moeResults());
    QVERIFY(v.has_value());
    QCOMPARE(*v, expected);
    QCOMPARE(QString::fromStdString(report::formatMetric(*m, *v)), text);
  }

  // A figure has a value only where it means something.
  void availability_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("expected");
    QTest::newRow("collective") << 0 << "makespan,payload_efficiency,algbw_GBps,busbw_GBps";
    QTest::newRow("traffic") << 1
                             << "makespan,payload_efficiency,latency_mean_ns,latency_p99_ns,offered_GBps,"
                                "accepted_GBps,accepted_fraction";
    QTest::newRow("moe") << 2
                         << "makespan,payload_efficiency,redundant_useless_share,direction_balance,sm_utilization,"
                            "throughput_tokens_per_s,al_tlb_hit_rate,reduction_buffer_hit_rate,evictions";
  }
  void availability() {
    QFETCH(int, kind);
    QFETCH(QString, expected);
    const Results r = kind == 0 ? collectiveResults() : kind == 1 ? trafficResults() : moeResults();
    QCOMPARE(joined(ids(fl::metricsWithValues({&r}))), expected);
  }

  // Without any AL TLB lookup (DeepEP) the hit rate is absent, not 100 %; stragglers
  // show only when some point has a delay.
  void absentWithoutActivity() {
    Results deepep = moeResults();
    deepep.moe->al_tlb_hits = deepep.moe->al_tlb_misses = 0;
    deepep.reduction_hits = deepep.reduction_lookups = 0;
    const auto without = ids(fl::metricsWithValues({&deepep}));
    for (const char* id : {"al_tlb_hit_rate", "reduction_buffer_hit_rate", "evictions", "straggler_delay_p95"})
      QVERIFY2(std::find(without.begin(), without.end(), id) == without.end(), id);
    Results jittered = deepep;
    jittered.pipeline->straggler_delay_p95 = 5 * kMicrosecond;
    const auto with = ids(fl::metricsWithValues({&deepep, &jittered}));
    QVERIFY(std::find(with.begin(), with.end(), "straggler_delay_p95") != with.end());
  }

  // What a sweep charts: the figures its first axis is about, then its headline.
  void charted_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("expected");
    QTest::newRow("AL TLB size") << 2 << "scheme.dysharp.al_tlb_entries" << "al_tlb_hit_rate,makespan";
    QTest::newRow("reduction buffer") << 2 << "network.switch.reduction_buffer"
                                      << "reduction_buffer_hit_rate,evictions,makespan";
    QTest::newRow("communication") << 2 << "scheme.communication" << "redundant_useless_share,direction_balance,makespan";
    QTest::newRow("fusion") << 2 << "scheme.fusion" << "direction_balance,sm_utilization,makespan";
    QTest::newRow("weak scaling") << 2 << "topology.gpus" << "throughput_tokens_per_s,makespan";
    QTest::newRow("collective size") << 0 << "workload.collective.size" << "busbw_GBps";
    QTest::newRow("traffic load") << 1 << "workload.traffic.load" << "accepted_GBps,latency_p99_ns";
    QTest::newRow("packet size") << 1 << "network.packet_payload" << "payload_efficiency,accepted_GBps,latency_p99_ns";
  }
  void charted() {
    QFETCH(int, kind);
    QFETCH(QString, key);
    QFETCH(QString, expected);
    const Results r = kind == 0 ? collectiveResults() : kind == 1 ? trafficResults() : moeResults();
    QCOMPARE(joined(ids(fl::chartedMetrics(key.toStdString(), fl::metricsWithValues({&r})))), expected);
  }

  void axes_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<double>("largest");
    QTest::addColumn<double>("scale");
    QTest::addColumn<QString>("title");
    QTest::newRow("µs") << "makespan" << 29.86e6 << 1e-6 << "makespan (µs)";
    QTest::newRow("ms") << "makespan" << 3.2e9 << 1e-9 << "makespan (ms)";
    QTest::newRow("percent") << "al_tlb_hit_rate" << 0.98 << 100.0 << "AL TLB hit rate (%)";
    QTest::newRow("GiB") << "symmetric_layout_bytes" << 3.0 * 1024 * 1024 * 1024 << 1.0 / (1024.0 * 1024 * 1024)
                         << "symmetric layout per GPU (GiB)";
    QTest::newRow("KiB") << "miv_bytes" << 2048.0 << 1.0 / 1024 << "MIV (both rounds) (KiB)";
    QTest::newRow("number") << "busbw_GBps" << 184.0 << 1.0 << "busbw (GB/s)";
  }
  void axes() {
    QFETCH(QString, id);
    QFETCH(double, largest);
    QFETCH(double, scale);
    QFETCH(QString, title);
    const report::MetricAxis a = report::metricAxis(*fl::findSweepMetric(id.toStdString()), largest);
    QCOMPARE(a.scale, scale);
    QCOMPARE(QString::fromStdString(a.title), title);
  }

  // points.csv: the fixed columns (after the settings, the swept key's own), then every
  // other figure some point has, by id (times with _ns); empty where a point has no value.
  void pointsCsv() {
    QTemporaryDir dir;
    Results moe = moeResults(), collective = collectiveResults();
    moe.pipeline->straggler_delay_p95 = 2500;  // ps
    const std::vector<SweepPoint> points = {{{{"scheme.communication", "dysharp"}}, moe},
                                            {{{"scheme.communication", "none"}}, collective}};
    writeCsvSweep(dir.path().toStdString(), points);
    QFile f(dir.filePath("points.csv"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    const QStringList head = lines[0].split(',');
    QCOMPARE(head.mid(0, 12).join(','), QString("point,directory,settings,scheme.communication,makespan_ns,events,"
                                                "payload_efficiency,algbw_GBps,busbw_GBps,latency_mean_ns,latency_p99_ns,"
                                                "accepted_fraction"));
    QCOMPARE(head.mid(12).join(','), QString("redundant_useless_share,direction_balance,sm_utilization,"
                                             "throughput_tokens_per_s,straggler_delay_p95_ns,al_tlb_hit_rate,"
                                             "reduction_buffer_hit_rate,evictions"));
    const QStringList first = lines[1].split(','), second = lines[2].split(',');
    auto at = [&](const QStringList& row, const char* column) { return row.value(head.indexOf(column)); };
    QCOMPARE(at(first, "scheme.communication"), QString("dysharp"));
    QCOMPARE(at(second, "scheme.communication"), QString("none"));
    QCOMPARE(at(first, "redundant_useless_share").toDouble(), 0.25);
    QCOMPARE(at(first, "al_tlb_hit_rate").toDouble(), 0.9);
    QCOMPARE(at(first, "reduction_buffer_hit_rate").toDouble(), 75.0 / 80.0);
    QCOMPARE(at(first, "evictions").toDouble(), 7.0);
    QCOMPARE(at(first, "straggler_delay_p95_ns").toDouble(), 2.5);
    QCOMPARE(at(second, "al_tlb_hit_rate"), QString());
    QCOMPARE(at(second, "busbw_GBps").toDouble(), 184.0);
  }

  // Real runs: an NVLS all-reduce on 8 GPUs makes every GPU contribute once to the
  // reduction of each packet of the buffer, so the lookups number G x S / P; with room
  // for every entry none evicts.
  void reductionTotals_data() {
    QTest::addColumn<int>("kib");
    QTest::newRow("64 KiB") << 64;
    QTest::newRow("256 KiB") << 256;
  }
  void reductionTotals() {
    QFETCH(int, kib);
    const Scenario s = parseScenario(
        "fabriclab: 1\nname: nvls\ntopology: {preset: dgx-h100}\nnetwork: {packet_payload: 256 B}\n"
        "workload:\n  kind: collective\n  collective: {op: all_reduce, algorithm: nvls, size: " +
            std::to_string(kib) + " KiB}\nrun: {bin: 1 us}\n",
        "nvls.yaml");
    const auto points = runSweep(s);
    QCOMPARE(points.size(), std::size_t{1});
    const Results& r = points.front().results;
    QCOMPARE(r.reduction_lookups, std::int64_t{8} * kib * 1024 / 256);
    QCOMPARE(r.reduction_hits, r.reduction_lookups);
    QCOMPARE(*fl::findSweepMetric("reduction_buffer_hit_rate")->value(r), 1.0);
    QCOMPARE(*fl::findSweepMetric("evictions")->value(r), 0.0);
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
    QVERIFY(sweep.contains("Bus bandwidth vs Message size per GPU"));  // the key's title
    QVERIFY(sweep.contains("Message size per GPU (workload.collective.size)"));  // the x axis: over its key
    if (algorithms) QVERIFY(sweep.contains(">algorithm = ring</text>") && sweep.contains(">algorithm = nvls</text>"));
    // Detail sections: every point when at most 4, else the first.
    const int detailed = points.size() <= 4 ? static_cast<int>(points.size()) : 1;
    QCOMPARE(count(h, "<svg [^>]*class=\"topology\""), detailed);
  }

  // Swept quantities in the schema's canonical text in the table, the chart's ticks and
  // its series names, whatever the file wrote (issue 21: binary sizes, decimal rates).
  void sweepValuesCanonical_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QStringList>("written");
    QTest::addColumn<QStringList>("shown");
    QTest::addColumn<QString>("named");  // the series' name before the value; "": the seeds' names
    QTest::newRow("sizes in bytes") << "workload.collective.size" << QStringList{"131072 B", "1048576 B"}
                                    << QStringList{"128 KiB", "1 MiB"} << "Size ";  // 128 x 1024, 1024 x 1024
    QTest::newRow("bit rates") << "topology.link.bandwidth" << QStringList{"1 Gb/s", "8000 Mb/s"}
                               << QStringList{"125 MB/s", "1 GB/s"} << "Bandwidth ";  // 1e9 / 8, 8e9 / 8
    QTest::newRow("times") << "topology.link.latency" << QStringList{"1000 ns", "250000 ps"}
                           << QStringList{"1 us", "250 ns"} << "Latency ";
    QTest::newRow("names as written") << "scheme.tp" << QStringList{"tp_nvls", "cais"}
                                      << QStringList{"tp_nvls", "cais"} << "";
  }
  void sweepValuesCanonical() {
    QFETCH(QString, key);
    QFETCH(QStringList, written);
    QFETCH(QStringList, shown);
    QFETCH(QString, named);
    auto t = tinyFabric();
    Scenario s;
    s.name = "written units";
    s.sweep.push_back({"workload.collective.algorithm", {"ring"}});  // x axis: one category
    s.sweep.push_back({key.toStdString(), {}});                      // the series
    std::vector<SweepPoint> points;
    for (const QString& w : written) {
      s.sweep[1].values.push_back(w.toStdString());
      SweepPoint p;
      p.settings = {{"workload.collective.algorithm", "ring"}, {key.toStdString(), w.toStdString()}};
      p.results = handMadeResults(*t);
      points.push_back(p);
    }
    // And with the swept key as the x axis: its ticks.
    Scenario x = s;
    std::swap(x.sweep[0], x.sweep[1]);
    std::vector<SweepPoint> xPoints = points;
    for (SweepPoint& p : xPoints) std::swap(p.settings[0], p.settings[1]);
    // The scenario file stays as written: it is what ran, to run again.
    const QRegularExpression yaml("<pre class=\"yaml\"[^>]*>[^<]*</pre>");
    const QString h = QString::fromStdString(report::renderHtmlReport(s, points, *t, fixedOptions())).remove(yaml);
    const QString hx = QString::fromStdString(report::renderHtmlReport(x, xPoints, *t, fixedOptions())).remove(yaml);
    const QString table = elementById(h, "table", "sweep-points");
    const QStringList seedNames = {"TP-NVLS", "CAIS"};  // seed 002's scheme names
    for (int i = 0; i < shown.size(); ++i) {
      QVERIFY2(table.contains("<td>" + shown[i] + "</td>"), qPrintable(shown[i]));
      const QString legend = named.isEmpty() ? seedNames[i] : named + shown[i];
      QVERIFY2(h.contains(">" + legend + "</text>"), qPrintable(legend));
      QVERIFY2(hx.contains(">" + shown[i] + "</text>"), qPrintable(shown[i]));              // tick or category
      if (shown[i] != written[i]) {
        QVERIFY2(!h.contains(written[i]) && !hx.contains(written[i]), qPrintable(written[i]));
      }
    }
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

  // A DySHARP sweep of the reduction buffer: the smaller buffer evicts, and the report's
  // sweep section tabulates and charts the hit rate and the evictions per point.
  void moeSweepReport() {
    const Scenario s = parseScenario(R"(fabriclab: 1
name: rb sweep
topology: {preset: dgx-h100}
workload:
  kind: moe_layer
  moe: {model: dysharp-small, tokens_per_gpu: 32}
scheme: {communication: dysharp, fusion: comm_only}
run: {bin: 1 us}
sweep:
  - key: network.switch.reduction_buffer
    values: [1 KiB, 64 KiB]
)",
                                     "rb.yaml");
    const auto points = runSweep(s);
    QCOMPARE(points.size(), std::size_t{2});
    std::int64_t evicted[2] = {};
    for (int i = 0; i < 2; ++i)
      for (const SwitchResult& sw : points[std::size_t(i)].results.switches) evicted[i] += sw.evictions;
    QVERIFY(evicted[0] > 0);
    QCOMPARE(evicted[1], std::int64_t{0});
    const Results& small = points[0].results;
    // Each eviction is caused by a contribution that missed.
    QVERIFY(small.reduction_hits + evicted[0] >= small.reduction_lookups);
    QVERIFY(small.reduction_hits < small.reduction_lookups);

    const auto topology = topo::buildTopology(s.topology);
    const report::ReportOptions o = fixedOptions();
    const QString h = QString::fromStdString(report::renderHtmlReport(s, points, *topology, o));
    const QString sweep = h.mid(h.indexOf("<section id=\"sweep\">"));
    QVERIFY(sweep.contains("<th class=\"num\">reduction buffer hit rate</th>"));
    QVERIFY(sweep.contains("<th class=\"num\">evictions</th>"));
    QVERIFY(sweep.contains(QString("data-value=\"%1.000000\"").arg(evicted[0])));
    QVERIFY(sweep.contains("Reduction buffer hit rate vs Reduction buffer size"));
    QVERIFY(sweep.contains("Reduction buffer evictions vs Reduction buffer size"));
    QVERIFY(sweep.contains("reduction buffer hit rate (%)"));
  }
};

QTEST_GUILESS_MAIN(TestSweepMetrics)
#include "test_sweep_metrics.moc"
