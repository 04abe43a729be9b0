// fabriclab-cli end to end (QProcess on the built executable) plus the result writers it
// uses: exit statuses, error messages naming the key path or option, determinism of the
// JSON, the public JSON contract, CSV tables, listing, Ctrl-C.
#include <signal.h>
#include <sys/types.h>

#include <map>

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "results/atomic_file.h"
#include "results/csv_writer.h"
#include "results/json_writer.h"
#include "scenario/input_error.h"

using Json = nlohmann::ordered_json;

namespace {

struct CliRun {
  int exitCode = -1;
  bool finished = false;
  QByteArray out, err;
};

const char* const kSmallScenario = R"(fabriclab: 1
name: small
description: |
  Small ring all-reduce on a DGX-H100.
  Second line of the description.
topology:
  kind: nvswitch
  preset: dgx-h100
workload:
  kind: collective
  collective:
    op: all_reduce
    algorithm: ring
    size: 256 KiB
)";

const char* const kMeshTrafficScenario = R"(fabriclab: 1
name: mesh-traffic
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
  seed: 7
)";

const char* const kSweepScenario = R"(fabriclab: 1
name: sweep
topology:
  kind: nvswitch
  preset: dgx-h100
workload:
  kind: collective
  collective:
    op: all_reduce
    algorithm: ring
    size: 64 KiB
sweep:
  - key: workload.collective.size
    values: [64 KiB, 128 KiB]
  - key: workload.collective.algorithm
    values: [ring, nvls]
)";

// Long enough (seconds) to be interrupted.
const char* const kLongScenario = R"(fabriclab: 1
name: long
topology:
  kind: nvswitch
  preset: dgx-h100
workload:
  kind: collective
  collective:
    op: all_reduce
    algorithm: ring
    size: 256 MiB
)";

Json parseJson(const QByteArray& text) { return Json::parse(text.constData(), text.constData() + text.size()); }

QByteArray readAll(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll();
}

// "a.b.c" -> "/a/b/c"
bool hasPath(const Json& j, const std::string& dotted) {
  std::string pointer = "/" + dotted;
  for (char& c : pointer)
    if (c == '.') c = '/';
  return j.contains(Json::json_pointer(pointer));
}

// A Results with every optional part set, for the writer tests.
fl::Results sampleResults() {
  fl::Results r;
  r.scenario = "sample";
  r.seed = 42;
  r.threads = 2;
  r.partitions = 2;
  r.events = 1000;
  r.packets = 10;
  r.packet_hops = 30;
  r.wall_seconds = 0.25;
  r.sim_time = 5 * fl::kMicrosecond;
  r.makespan = 4 * fl::kMicrosecond + 500;
  r.phases = {{"reduce_scatter", 0, 2 * fl::kMicrosecond}, {"all, \"gather\"", 2 * fl::kMicrosecond, r.makespan}};
  r.payload_bytes = 2560;
  r.wire_bytes = 3040;
  r.uplink_bytes = 1520;
  r.downlink_bytes = 1520;
  r.uplink_payload_bytes = 1280;
  r.downlink_payload_bytes = 1280;
  for (int i = 0; i < 2; ++i) {
    fl::LinkDirectionResult l;
    l.id = "0:" + std::to_string(i);
    l.link = 0;
    l.direction = i;
    l.from = i ? "sw0" : "gpu0";
    l.to = i ? "gpu0" : "sw0";
    l.kind = "access";
    l.uplink = i == 0;
    l.downlink = i == 1;
    l.bytes = 1520;
    l.payload_bytes = 1280;
    l.packets = 5;
    l.busy = 60800;
    l.utilization = 60800.0 / static_cast<double>(r.makespan);
    l.bin_bytes.add(0, 1000);
    l.bin_bytes.add(2, 520);
    r.links.push_back(l);
  }
  fl::SwitchResult s;
  s.id = "sw0";
  s.node = 1;
  s.packets_forwarded = 10;
  r.switches.push_back(s);
  r.bin = fl::kMicrosecond;
  r.bins = 5;
  r.algbw_GBps = 1.0 / 3.0;
  r.busbw_GBps = 0.5;
  r.collective_size_bytes = 1280;
  fl::LatencyStats lat;
  lat.samples = 10;
  lat.mean_ns = 123.456;
  lat.p50_ns = 120;
  lat.p99_ns = 200;
  lat.max_ns = 210.5;
  lat.histogram_edges_ns = {0, 100, 200, 300};
  lat.histogram_counts = {0, 9, 1};
  r.latency = lat;
  r.accepted_fraction = 0.9;
  r.offered_GBps = 10;
  r.accepted_GBps = 9;
  r.packets_injected = 10;
  r.packets_consumed = 10;
  return r;
}

// The public JSON contract of one run (json_writer.h).
const std::vector<std::string> kContractKeys = {
    "fabriclab_version", "scenario", "seed",
    "engine.events", "engine.packets", "engine.packet_hops", "engine.wall_seconds",
    "engine.sim_time_ns", "engine.partitions",
    "summary.makespan_ns", "summary.phases",
    "traffic.payload_bytes", "traffic.wire_bytes", "traffic.payload_efficiency",
    "traffic.uplink_bytes", "traffic.downlink_bytes", "traffic.uplink_payload_bytes",
    "traffic.downlink_payload_bytes",
    "links", "switches",
    "invariants.packets_injected", "invariants.packets_consumed", "invariants.buffer_overflows",
    "series.bin_ns", "series.links"};
const std::vector<std::string> kLinkKeys = {"id", "from", "to", "kind", "bytes", "payload_bytes",
                                            "packets", "busy_ns", "utilization"};
const std::vector<std::string> kSwitchKeys = {"id", "packets_forwarded", "multicast_replicas", "reductions",
                                              "evictions", "peak_reduction_entries", "peak_reduction_bytes"};
const std::vector<std::string> kCollectiveKeys = {"collective.size_bytes", "collective.algbw_GBps",
                                                  "collective.busbw_GBps"};
const std::vector<std::string> kTrafficKeys = {
    "latency.mean_ns", "latency.p50_ns", "latency.p99_ns", "latency.max_ns", "latency.samples",
    "latency.histogram.edges_ns", "latency.histogram.counts", "throughput.accepted_fraction",
    "throughput.offered_GBps", "throughput.accepted_GBps"};

// `exclusive`: the other workload kind's sections must be absent.
void checkContract(const Json& j, bool collective, bool exclusive = true) {
  for (const std::string& k : kContractKeys) QVERIFY2(hasPath(j, k), k.c_str());
  QVERIFY(j["links"].is_array() && !j["links"].empty());
  for (const std::string& k : kLinkKeys) QVERIFY2(j["links"][0].contains(k), ("links[]." + k).c_str());
  QVERIFY(j["switches"].is_array());
  if (!j["switches"].empty())
    for (const std::string& k : kSwitchKeys) QVERIFY2(j["switches"][0].contains(k), ("switches[]." + k).c_str());
  for (const Json& p : j["summary"]["phases"])
    for (const char* k : {"name", "start_ns", "end_ns"}) QVERIFY2(p.contains(k), k);
  QCOMPARE(j["series"]["links"].size(), j["links"].size());
  QVERIFY(j["series"]["links"][0].contains("id"));
  QVERIFY(j["series"]["links"][0]["bin_bytes"].is_array());
  for (const std::string& k : collective ? kCollectiveKeys : kTrafficKeys) QVERIFY2(hasPath(j, k), k.c_str());
  if (exclusive)
    for (const std::string& k : collective ? kTrafficKeys : kCollectiveKeys)
      QVERIFY2(!hasPath(j, k), ("unexpected " + k).c_str());
  QCOMPARE(j["invariants"]["buffer_overflows"].get<std::int64_t>(), std::int64_t{0});
}

}  // namespace

class TestCli : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir tmp_;
  QString small_, mesh_, sweep_, long_;

  QString cliPath() const { return QStringLiteral(FABRICLAB_CLI); }
  QString tmpPath(const QString& name) const { return tmp_.filePath(name); }

  QString writeFile(const QString& name, const char* text) {
    const QString path = tmpPath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
    f.write(text);
    return path;
  }

  CliRun cli(const QStringList& args, int timeoutMs = 300000) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("FABRICLAB_SCENARIOS_DIR");
    p.setProcessEnvironment(env);
    p.start(cliPath(), args);
    CliRun r;
    if (!p.waitForStarted(30000)) return r;
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished) {
      p.kill();
      p.waitForFinished();
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
  }

  // Replaces @SMALL@, @MESH@ and @TMP@ in arguments.
  QStringList expand(QStringList args) const {
    for (QString& a : args) {
      a.replace("@SMALL@", small_);
      a.replace("@MESH@", mesh_);
      a.replace("@TMP@", tmp_.path());
    }
    return args;
  }

 private slots:
  void initTestCase() {
    QVERIFY2(QFileInfo(cliPath()).isExecutable(), qPrintable("not built: " + cliPath()));
    QVERIFY(tmp_.isValid());
    small_ = writeFile("small.yaml", kSmallScenario);
    mesh_ = writeFile("mesh.yaml", kMeshTrafficScenario);
    sweep_ = writeFile("sweep.yaml", kSweepScenario);
    long_ = writeFile("long.yaml", kLongScenario);
    QVERIFY(!small_.isEmpty() && !mesh_.isEmpty() && !sweep_.isEmpty() && !long_.isEmpty());
  }

  // (a) Every bad scenario file: validate and run exit 2 and name the key path and line.
  void badFiles_data() {
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("keyPath");
    QTest::addColumn<int>("line");
    const QDir dir(QStringLiteral(FABRICLAB_TEST_DATA "/bad"));
    const QStringList files = dir.entryList({"*.yaml", "*.yml"}, QDir::Files, QDir::Name);
    if (files.isEmpty()) QSKIP("no files in tests/data/bad");
    static const QRegularExpression expect(R"(^#\s*expect:\s*(\S+)\s+line\s+(\d+))");
    for (const QString& name : files) {
      const QString path = dir.filePath(name);
      QFile f(path);
      QVERIFY(f.open(QIODevice::ReadOnly));
      const QString first = QString::fromUtf8(f.readLine()).trimmed();
      const auto m = expect.match(first);
      QVERIFY2(m.hasMatch(), qPrintable(name + ": first line is not '# expect: <key path> line <N>'"));
      for (const char* command : {"validate", "run"})
        QTest::addRow("%s %s", command, qPrintable(name))
            << QString(command) << path << m.captured(1) << m.captured(2).toInt();
    }
  }

  void badFiles() {
    QFETCH(QString, command);
    QFETCH(QString, file);
    QFETCH(QString, keyPath);
    QFETCH(int, line);
    const CliRun r = cli({command, file, "--quiet"});
    QVERIFY(r.finished);
    QVERIFY2(r.exitCode == 2, qPrintable(QString("exit %1, stderr: %2").arg(r.exitCode).arg(QString(r.err))));
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.startsWith("fabriclab-cli: error: "), qPrintable(err));
    if (keyPath != "-") QVERIFY2(err.contains(keyPath), qPrintable(err));
    if (line > 0) QVERIFY2(err.contains(QString(":%1:").arg(line)), qPrintable(err));
    QVERIFY(r.out.isEmpty());
  }

  // (b) Bad overrides and usage: exit 2, the key path or option in stderr, nothing written.
  void badUsage_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("expected");  // substrings of stderr
    QTest::addColumn<QString>("mustNotExist");

    QTest::newRow("unknown --set key, did you mean")
        << QStringList{"run", "@SMALL@", "--set", "network.virtual_channel=4"}
        << QStringList{"network.virtual_channel", "did you mean", "network.virtual_channels"} << QString();
    QTest::newRow("--set value of the wrong type")
        << QStringList{"run", "@SMALL@", "--set", "network.virtual_channels=two"}
        << QStringList{"--set", "network.virtual_channels", "two"} << QString();
    QTest::newRow("--set bare number where a unit is needed")
        << QStringList{"run", "@SMALL@", "--set", "topology.link.latency=250"}
        << QStringList{"topology.link.latency", "250"} << QString();
    QTest::newRow("--set bare bandwidth")
        << QStringList{"validate", "@SMALL@", "--set", "topology.link.bandwidth=25"}
        << QStringList{"topology.link.bandwidth"} << QString();
    QTest::newRow("--set impossible combination")
        << QStringList{"run", "@SMALL@", "--set", "topology.links_per_gpu=3"}
        << QStringList{"topology.links_per_gpu"} << QString();
    QTest::newRow("--set without '='")
        << QStringList{"run", "@SMALL@", "--set", "run.seed"} << QStringList{"--set", "key.path=value"} << QString();
    QTest::newRow("--set negative seed")
        << QStringList{"run", "@SMALL@", "--set", "run.seed=-1"} << QStringList{"run.seed"} << QString();
    QTest::newRow("unknown subcommand")
        << QStringList{"frobnicate", "@SMALL@"} << QStringList{"frobnicate"} << QString();
    QTest::newRow("no subcommand") << QStringList{} << QStringList{"subcommand"} << QString();
    QTest::newRow("unknown option")
        << QStringList{"run", "@SMALL@", "--frobnicate"} << QStringList{"--frobnicate"} << QString();
    QTest::newRow("missing SCENARIO argument") << QStringList{"run"} << QStringList{"SCENARIO"} << QString();
    QTest::newRow("missing scenario file")
        << QStringList{"run", "@TMP@/missing.yaml"} << QStringList{"missing.yaml"} << QString();
    QTest::newRow("validate missing scenario file")
        << QStringList{"validate", "@TMP@/missing.yaml"} << QStringList{"missing.yaml"} << QString();
    QTest::newRow("--json into a missing directory")
        << QStringList{"run", "@SMALL@", "--json", "@TMP@/nodir/out.json"} << QStringList{"--json", "out.json"}
        << QString("@TMP@/nodir");
    QTest::newRow("--json unwritable path")
        << QStringList{"run", "@SMALL@", "--json", "/proc/fabriclab-x.json"} << QStringList{"--json"}
        << QString("/proc/fabriclab-x.json");
    QTest::newRow("--json onto a directory")
        << QStringList{"run", "@SMALL@", "--json", "@TMP@"} << QStringList{"--json"} << QString();
    QTest::newRow("--csv onto a file")
        << QStringList{"run", "@SMALL@", "--csv", "@SMALL@"} << QStringList{"--csv"} << QString();
    QTest::newRow("--csv unwritable")
        << QStringList{"run", "@SMALL@", "--csv", "/proc/fabriclab-x"} << QStringList{"--csv"}
        << QString("/proc/fabriclab-x");
    QTest::newRow("--report into a missing directory")
        << QStringList{"run", "@SMALL@", "--report", "@TMP@/nodir/out.html"} << QStringList{"--report", "out.html"}
        << QString("@TMP@/nodir");
    QTest::newRow("--report onto a directory")
        << QStringList{"run", "@SMALL@", "--report", "@TMP@"} << QStringList{"--report"} << QString();
    QTest::newRow("--report unwritable path")
        << QStringList{"run", "@SMALL@", "--report", "/proc/fabriclab-x.html"} << QStringList{"--report"}
        << QString("/proc/fabriclab-x.html");
    QTest::newRow("--trace into a missing directory")
        << QStringList{"run", "@SMALL@", "--trace", "@TMP@/nodir/t.json"} << QStringList{"--trace", "t.json"}
        << QString("@TMP@/nodir");
    QTest::newRow("--trace unwritable path")
        << QStringList{"run", "@SMALL@", "--trace", "/proc/fabriclab-x.json"} << QStringList{"--trace"}
        << QString("/proc/fabriclab-x.json");
    QTest::newRow("--trace onto a directory")
        << QStringList{"run", "@SMALL@", "--trace", "@TMP@"} << QStringList{"--trace"} << QString();
    QTest::newRow("--threads 0")
        << QStringList{"run", "@SMALL@", "--threads", "0"} << QStringList{"--threads", "run.threads"} << QString();
    QTest::newRow("--threads not a number")
        << QStringList{"run", "@SMALL@", "--threads", "two"} << QStringList{"--threads"} << QString();
    QTest::newRow("--threads above the maximum")
        << QStringList{"run", "@SMALL@", "--threads", "100000"} << QStringList{"--threads", "run.threads"}
        << QString();
    QTest::newRow("--seed -1")
        << QStringList{"run", "@SMALL@", "--seed", "-1"} << QStringList{"--seed", "run.seed"} << QString();
    QTest::newRow("--seed=-1")
        << QStringList{"run", "@SMALL@", "--seed=-1"} << QStringList{"--seed"} << QString();
    QTest::newRow("--seed too large")
        << QStringList{"run", "@SMALL@", "--seed", "99999999999999999999"} << QStringList{"--seed"} << QString();
    QTest::newRow("--seed on validate")
        << QStringList{"validate", "@SMALL@", "--seed", "3"} << QStringList{"--seed"} << QString();
  }

  void badUsage() {
    QFETCH(QStringList, args);
    QFETCH(QStringList, expected);
    QFETCH(QString, mustNotExist);
    const QStringList before = QDir(tmp_.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    const CliRun r = cli(expand(args));
    QVERIFY(r.finished);
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(r.exitCode == 2, qPrintable(QString("exit %1, stderr: %2").arg(r.exitCode).arg(err)));
    QVERIFY2(err.contains("fabriclab-cli: error: "), qPrintable(err));
    for (const QString& e : expected) QVERIFY2(err.contains(e), qPrintable("'" + e + "' not in: " + err));
    if (!mustNotExist.isEmpty()) {
      const QString p = expand({mustNotExist}).front();
      QVERIFY2(!QFileInfo::exists(p), qPrintable(p + " was created"));
    }
    // Nothing created next to the scenarios either (no temporary files left behind).
    const QStringList after = QDir(tmp_.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    QCOMPARE(after, before);
  }

  void validateOk() {
    const CliRun r = cli({"validate", small_});
    QCOMPARE(r.exitCode, 0);
    const QString out = QString::fromUtf8(r.out).trimmed();
    QVERIFY2(out.startsWith(small_ + ": ok ("), qPrintable(out));
    QVERIFY2(out.contains("all_reduce"), qPrintable(out));
    QVERIFY2(out.endsWith(")"), qPrintable(out));
    QVERIFY(r.err.isEmpty());

    const CliRun s = cli({"validate", sweep_, "--set", "workload.collective.size=1 MiB"});
    QCOMPARE(s.exitCode, 0);
    QVERIFY2(QString::fromUtf8(s.out).contains("sweep of 4 points"), s.out.constData());
  }

  void helpAndVersion_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::newRow("--help") << QStringList{"--help"} << "validate";
    QTest::newRow("run --help") << QStringList{"run", "--help"} << "--json";
    QTest::newRow("validate --help") << QStringList{"validate", "--help"} << "--set";
    QTest::newRow("list --help") << QStringList{"list", "--help"} << "list";
    QTest::newRow("--version") << QStringList{"--version"} << FABRICLAB_VERSION;
  }

  void helpAndVersion() {
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    const CliRun r = cli(args);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(QString::fromUtf8(r.out).contains(expected), r.out.constData());
  }

  // (c) The same inputs give the same bytes; threads change wall time only.
  void determinism_data() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QStringList>("argsA");
    QTest::addColumn<QStringList>("argsB");
    QTest::addColumn<QStringList>("ignore");  // engine keys allowed to differ
    QTest::newRow("collective twice") << "@SMALL@" << QStringList{} << QStringList{} << QStringList{};
    QTest::newRow("traffic twice") << "@MESH@" << QStringList{} << QStringList{} << QStringList{};
    QTest::newRow("collective, 1 vs 2 threads, 2 partitions")
        << "@SMALL@" << QStringList{"--set", "run.partitions=2", "--threads", "1"}
        << QStringList{"--set", "run.partitions=2", "--threads", "2"} << QStringList{};
    QTest::newRow("traffic, 1 vs 2 threads, 3 partitions")
        << "@MESH@" << QStringList{"--set", "run.partitions=3", "--threads", "1"}
        << QStringList{"--set", "run.partitions=3", "--threads", "2"} << QStringList{};
    // Automatic partitioning depends on the topology only: nothing may differ.
    QTest::newRow("collective, 1 vs 2 threads, automatic partitions")
        << "@SMALL@" << QStringList{"--threads", "1"} << QStringList{"--threads", "2"} << QStringList{};
  }

  void determinism() {
    QFETCH(QString, scenario);
    QFETCH(QStringList, argsA);
    QFETCH(QStringList, argsB);
    QFETCH(QStringList, ignore);
    const QString a = tmpPath("det-a.json"), b = tmpPath("det-b.json");
    const CliRun ra = cli(expand(QStringList{"run", scenario, "--quiet", "--json", a} + argsA));
    QVERIFY2(ra.exitCode == 0, ra.err.constData());
    const CliRun rb = cli(expand(QStringList{"run", scenario, "--quiet", "--json", b} + argsB));
    QVERIFY2(rb.exitCode == 0, rb.err.constData());
    Json ja = fl::stripWallTime(parseJson(readAll(a)));
    Json jb = fl::stripWallTime(parseJson(readAll(b)));
    for (const QString& k : ignore) {
      ja["engine"].erase(k.toStdString());
      jb["engine"].erase(k.toStdString());
    }
    const std::string ta = fl::jsonText(ja), tb = fl::jsonText(jb);
    if (ta != tb) {
      for (auto it = ja.begin(); it != ja.end(); ++it)
        if (!jb.contains(it.key()) || jb[it.key()] != it.value()) qWarning("differs: %s", it.key().c_str());
    }
    QVERIFY(ta == tb);
    QVERIFY(ja["engine"]["events"].get<std::int64_t>() > 0);
    QFile::remove(a);
    QFile::remove(b);
  }

  // (d) list names every bundled scenario with its description.
  void listBundled_data() {
    QTest::addColumn<QString>("file");
    const QStringList files =
        QDir(QStringLiteral(FABRICLAB_SCENARIOS)).entryList({"*.yaml", "*.yml"}, QDir::Files, QDir::Name);
    if (files.isEmpty()) QSKIP("no bundled scenarios yet");
    for (const QString& f : files) QTest::newRow(qPrintable(f)) << f;
  }

  void listBundled() {
    QFETCH(QString, file);
    const CliRun r = cli({"list"});
    QCOMPARE(r.exitCode, 0);
    const QStringList lines = QString::fromUtf8(r.out).split('\n');
    bool found = false;
    for (const QString& line : lines) {
      if (!line.startsWith(file + " ")) continue;
      found = true;
      QVERIFY2(!line.contains("(invalid"), qPrintable(line));
      QVERIFY2(!line.mid(file.size()).trimmed().isEmpty(), qPrintable("no description: " + line));
    }
    QVERIFY2(found, qPrintable(file + " not listed in:\n" + QString::fromUtf8(r.out)));
  }

  void listDirectory() {
    const CliRun r = cli({"list", "--dir", tmp_.path()});
    QCOMPARE(r.exitCode, 0);
    const QString out = QString::fromUtf8(r.out);
    // Aligned: descriptions start in the same column.
    QVERIFY2(out.contains(QRegularExpression("^mesh\\.yaml  +Uniform random traffic on a 4x4 mesh$",
                                             QRegularExpression::MultilineOption)),
             qPrintable(out));
    const int a = out.indexOf("Small ring") - out.lastIndexOf('\n', out.indexOf("Small ring"));
    const int b = out.indexOf("Uniform random") - out.lastIndexOf('\n', out.indexOf("Uniform random"));
    QCOMPARE(a, b);
    QVERIFY(!out.contains("Second line"));
    QCOMPARE(cli({"list", "--dir", tmpPath("nowhere")}).exitCode, 2);
  }

  // (e) A run writes valid JSON with the contract keys; stdout has the summary, stderr is
  // clean when it is not a terminal (no progress bar).
  void jsonContract_data() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<bool>("collective");
    QTest::newRow("collective") << "@SMALL@" << true;
    QTest::newRow("traffic") << "@MESH@" << false;
  }

  void jsonContract() {
    QFETCH(QString, scenario);
    QFETCH(bool, collective);
    const QString path = tmpPath("contract.json");
    const CliRun r = cli(expand({"run", scenario, "--json", path, "--seed", "5"}));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    const QString out = QString::fromUtf8(r.out);
    for (const char* s : {"makespan", "events/s", "payload efficiency", "uplink", "downlink", "busiest link"})
      QVERIFY2(out.contains(s), qPrintable(QString(s) + " not in:\n" + out));
    QVERIFY2(out.contains(collective ? "busbw" : "p99"), qPrintable(out));

    const QByteArray text = readAll(path);
    QVERIFY(text.endsWith("\n"));
    Json j;
    try {
      j = parseJson(text);
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
    checkContract(j, collective);
    QCOMPARE(j["seed"].get<std::uint64_t>(), std::uint64_t{5});
    QCOMPARE(j["fabriclab_version"].get<std::string>(), std::string(FABRICLAB_VERSION));
    QVERIFY(j["engine"]["events"].get<std::int64_t>() > 0);
    QVERIFY(j["summary"]["makespan_ns"].get<double>() > 0);
    QVERIFY(j["invariants"]["packets_injected"] == j["invariants"]["packets_consumed"]);
    // Uplink/downlink split the endpoint links' bytes.
    std::int64_t up = 0, down = 0;
    for (const Json& l : j["links"]) {
      if (l["uplink"].get<bool>()) up += l["bytes"].get<std::int64_t>();
      if (l["downlink"].get<bool>()) down += l["bytes"].get<std::int64_t>();
    }
    QCOMPARE(j["traffic"]["uplink_bytes"].get<std::int64_t>(), up);
    QCOMPARE(j["traffic"]["downlink_bytes"].get<std::int64_t>(), down);
    QFile::remove(path);
  }

  void jsonToStdout() {
    const CliRun r = cli({"run", small_, "--json", "-"});
    QCOMPARE(r.exitCode, 0);
    checkContract(parseJson(r.out), true);
  }

  void csvOutput() {
    const QString dir = tmpPath("csv/nested");
    const CliRun r = cli({"run", small_, "--quiet", "--csv", dir});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(r.out.isEmpty());
    const QStringList files = QDir(dir).entryList(QDir::Files | QDir::Hidden, QDir::Name);
    QCOMPARE(files, (QStringList{"link_bins.csv", "links.csv", "phases.csv", "switches.csv"}));
    const QList<QByteArray> links = readAll(dir + "/links.csv").split('\n');
    QVERIFY(links.front().startsWith("id,link,direction,from,to,kind,"));
    QVERIFY(links.size() > 2);
    const QList<QByteArray> bins = readAll(dir + "/link_bins.csv").split('\n');
    QCOMPARE(bins.front(), QByteArray("link_id,from,to,bin,start_ns,bytes"));
    for (int i = 1; i < bins.size(); ++i)
      if (!bins[i].isEmpty()) QVERIFY2(!bins[i].endsWith(",0"), bins[i].constData());
    QVERIFY(readAll(dir + "/phases.csv").startsWith("name,start_ns,end_ns\n"));
    QVERIFY(readAll(dir + "/switches.csv").startsWith("id,packets_forwarded,"));
    QDir(tmpPath("csv")).removeRecursively();
  }

  void sweepOutputs() {
    const QString json = tmpPath("sweep.json"), dir = tmpPath("sweep-csv");
    const CliRun r = cli({"run", sweep_, "--json", json, "--csv", dir});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString out = QString::fromUtf8(r.out);
    QVERIFY2(out.contains("workload.collective.size") && out.contains("busbw"), qPrintable(out));
    QVERIFY2(out.contains("nvls") && out.contains("128 KiB"), qPrintable(out));
    const Json j = parseJson(readAll(json));
    QVERIFY(j.contains("sweep"));
    QCOMPARE(j["sweep"].size(), std::size_t{4});
    QCOMPARE(j["sweep"][1]["settings"]["workload.collective.algorithm"].get<std::string>(), std::string("nvls"));
    checkContract(j["sweep"][1]["results"], true);
    QVERIFY(j["sweep"][1]["results"]["collective"]["size_bytes"].get<std::int64_t>() == 64 * 1024);
    for (int i = 0; i < 4; ++i) QVERIFY(QFileInfo::exists(dir + QString("/point-%1/links.csv").arg(i, 3, 10, QChar('0'))));
    QVERIFY(readAll(dir + "/points.csv").startsWith("point,directory,settings,"));
    QFile::remove(json);
    QDir(dir).removeRecursively();
  }

  // --report writes one self-contained HTML file (core/report checks its contents).
  void reportOutput_data() {
    QTest::addColumn<QString>("scenario");  // small | mesh | sweep
    QTest::addColumn<QStringList>("sections");
    QTest::newRow("collective") << "small" << QStringList{"provenance", "scenario", "topology", "plots", "results"};
    QTest::newRow("traffic") << "mesh" << QStringList{"topology", "plots", "results"};
    QTest::newRow("sweep") << "sweep" << QStringList{"sweep", "point-1-topology", "point-4-results"};
  }

  void reportOutput() {
    QFETCH(QString, scenario);
    QFETCH(QStringList, sections);
    const QString file = scenario == "small" ? small_ : scenario == "mesh" ? mesh_ : sweep_;
    const QString dir = tmpPath("report-" + scenario);
    QVERIFY(QDir().mkpath(dir));
    const QString path = dir + "/out.html";
    const CliRun r = cli({"run", file, "--quiet", "--report", path});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(r.out.isEmpty());
    const QByteArray html = readAll(path);
    QVERIFY2(html.startsWith("<!DOCTYPE html>"), html.left(80).constData());
    QVERIFY(html.endsWith("</html>\n"));
    for (const QString& id : sections)
      QVERIFY2(html.contains(("id=\"" + id + "\"").toUtf8()), qPrintable(id));
    QVERIFY(html.contains("fabriclab-cli run "));  // the command line, for provenance
    QVERIFY(html.contains(FABRICLAB_VERSION));
    QVERIFY(!html.contains("<script"));
    // Written atomically: nothing else left in the directory.
    QCOMPARE(QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList{"out.html"});
    QDir(dir).removeRecursively();
  }

  // --trace writes Chrome trace JSON (core/test_chrome_trace checks its events); a sweep
  // writes one file per point.
  void traceOutput_data() {
    QTest::addColumn<QString>("scenario");  // bundled file name | sweep
    QTest::addColumn<QStringList>("files");
    QTest::newRow("bundled p2p") << "dgx-h100-p2p.yaml" << QStringList{"t.json"};
    QTest::newRow("sweep") << "sweep"
                           << QStringList{"t-point-000.json", "t-point-001.json", "t-point-002.json", "t-point-003.json"};
  }

  void traceOutput() {
    QFETCH(QString, scenario);
    QFETCH(QStringList, files);
    const QString dir = tmpPath("trace-" + scenario);
    QVERIFY(QDir().mkpath(dir));
    QStringList args{"run", scenario == "sweep" ? sweep_ : QString(FABRICLAB_SCENARIOS) + "/" + scenario, "--quiet",
                     "--trace", dir + "/t.json"};
    if (scenario != "sweep") args << "--set" << "workload.collective.size=16 MiB";  // seconds, not minutes
    const CliRun r = cli(args);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden, QDir::Name), files);
    for (const QString& f : files) {
      const Json j = parseJson(readAll(dir + "/" + f));
      QCOMPARE(j["displayTimeUnit"].get<std::string>(), std::string("ns"));
      QVERIFY(!j["otherData"]["scenario"].get<std::string>().empty());
      // A collective has no GPU tasks: the run's phases and the uplink/downlink counters.
      std::map<std::string, int> byPhase;
      for (const Json& e : j["traceEvents"]) ++byPhase[e["ph"].get<std::string>()];
      QVERIFY2(byPhase["X"] >= 1, readAll(dir + "/" + f).left(400).constData());
      QVERIFY(byPhase["C"] >= 4);
      QCOMPARE(byPhase["C"] % 2, 0);  // uplink and downlink, bin by bin
    }
    QDir(dir).removeRecursively();
  }

  // Ctrl-C stops the run cooperatively: exit 130, a partial summary, no output file.
  void interrupt() {
    const QString json = tmpPath("interrupted.json");
    QProcess p;
    p.start(cliPath(), {"run", long_, "--json", json});
    QVERIFY(p.waitForStarted());
    QTest::qWait(700);
    if (p.state() != QProcess::Running) QSKIP("the run finished before it could be interrupted");
    ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(60000));
    if (p.exitCode() == 0) QSKIP("the run finished before the signal arrived");
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 130);
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(out.contains("INTERRUPTED"), qPrintable(out));
    QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains("interrupted"));
    QVERIFY(!QFileInfo::exists(json));
  }

  // The writers on a hand-made Results (no simulation).
  void writersDeterministic() {
    fl::Results r = sampleResults();
    fl::Scenario s;
    s.name = "sample";
    const std::string a = fl::jsonText(fl::resultsToJson(r, s));
    QCOMPARE(fl::jsonText(fl::resultsToJson(r, s)), a);
    r.wall_seconds = 99.5;
    const std::string b = fl::jsonText(fl::resultsToJson(r, s));
    QVERIFY(a != b);
    QCOMPARE(fl::jsonText(fl::stripWallTime(Json::parse(a))), fl::jsonText(fl::stripWallTime(Json::parse(b))));
    // Wall time appears once, as engine.wall_seconds.
    QCOMPARE(QByteArray::fromStdString(b).count("99.5"), 1);

    const Json j = Json::parse(a);
    checkContract(j, true, false);
    for (const std::string& k : kTrafficKeys) QVERIFY2(hasPath(j, k), k.c_str());
    QCOMPARE(j["summary"]["makespan_ns"].get<double>(), 4000.5);
    QVERIFY(j["series"]["links"][0]["bin_bytes"] == Json({1000, 0, 520, 0, 0}));  // dense over r.bins = 5
    QVERIFY(j["latency"]["histogram"]["counts"] == Json({0, 9, 1}));

    // A single point without settings is the plain object; otherwise a sweep.
    fl::SweepPoint p{{}, r};
    QVERIFY(fl::sweepToJson({p}, s) == fl::resultsToJson(r, s));
    p.settings = {{"workload.collective.size", "1 MiB"}};
    const Json sw = fl::sweepToJson({p, p}, s);
    QCOMPARE(sw["sweep"].size(), std::size_t{2});
    QCOMPARE(sw["sweep"][0]["settings"]["workload.collective.size"].get<std::string>(), std::string("1 MiB"));
    const Json stripped = fl::stripWallTime(sw);
    QVERIFY(!stripped["sweep"][1]["results"]["engine"].contains("wall_seconds"));

    // Optional parts are absent when not set.
    fl::Results bare;
    fl::Scenario traffic;
    traffic.workload.kind = fl::WorkloadKind::Traffic;
    const Json jb = fl::resultsToJson(bare, traffic);
    QVERIFY(!jb.contains("latency") && !jb.contains("throughput") && !jb.contains("collective"));
  }

  void csvTables() {
    const fl::Results r = sampleResults();
    QCOMPARE(QByteArray::fromStdString(fl::linkBinsCsv(r)),
             QByteArray("link_id,from,to,bin,start_ns,bytes\n"
                        "0:0,gpu0,sw0,0,0,1000\n0:0,gpu0,sw0,2,2000,520\n"
                        "0:1,sw0,gpu0,0,0,1000\n0:1,sw0,gpu0,2,2000,520\n"));
    QCOMPARE(QByteArray::fromStdString(fl::phasesCsv(r)),
             QByteArray("name,start_ns,end_ns\nreduce_scatter,0,2000\n\"all, \"\"gather\"\"\",2000,4000.5\n"));
    QVERIFY(fl::linksCsv(r).find("\n0:0,0,0,gpu0,sw0,access,1,0,1520,1280,5,60.8,") != std::string::npos);
  }

  void atomicFile() {
    const QString path = tmpPath("atomic/out.txt");
    QVERIFY(QDir().mkpath(tmpPath("atomic")));
    fl::writeFileAtomically(path.toStdString(), "first", "--json");
    QCOMPARE(readAll(path), QByteArray("first"));
    fl::writeFileAtomically(path.toStdString(), "second", "--json");
    QCOMPARE(readAll(path), QByteArray("second"));
    try {
      fl::writeFileAtomically(tmpPath("atomic/missing/out.txt").toStdString(), "x", "--json");
      QFAIL("no error for a missing directory");
    } catch (const fl::InputError& e) {
      QCOMPARE(e.keyPath(), std::string("--json"));
      QCOMPARE(e.expected(), std::string("a writable file path"));
      QVERIFY(QString(e.what()).contains("missing/out.txt"));
    }
    try {
      fl::writeFileAtomically(tmpPath("atomic").toStdString(), "x", "--csv");
      QFAIL("no error for a directory");
    } catch (const fl::InputError& e) {
      QCOMPARE(e.keyPath(), std::string("--csv"));
    }
    // No temporary file left behind.
    QCOMPARE(QDir(tmpPath("atomic")).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
             QStringList{"out.txt"});
    QDir(tmpPath("atomic")).removeRecursively();
  }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
