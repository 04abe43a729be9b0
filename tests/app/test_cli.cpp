// fabriclab-cli end to end (QProcess on the built executable): exit statuses, error
// messages naming the key path or option, determinism of the JSON, the public JSON
// contract, CSV tables, listing, Ctrl-C. The result writers themselves, without a
// process, are test_result_writers.
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "../common/cli_fixture.h"
#include "results/json_writer.h"

using namespace fl::test;  // Json, checkContract

class TestCli : public QObject, private CliFixture {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY2(writeScenarios(), qPrintable("CLI not built or no temporary directory: " + cliPath())); }

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

  // Inputs the fuzzers found (fuzz/, packaging/setup.sh fuzz) that once crashed, hung or
  // exhausted memory: validate ends with 0 or 2 (bad input), never a crash or an internal
  // error. The time bound only guards against hangs (sanitizer builds are slow).
  void fuzzReproducers_data() {
    QTest::addColumn<QString>("file");
    const QDir dir(QStringLiteral(FABRICLAB_TEST_DATA "/fuzz"));
    QStringList files = dir.entryList(QDir::Files, QDir::Name);
    files.removeAll("README.md");
    if (files.isEmpty()) QSKIP("no files in tests/data/fuzz");
    for (const QString& name : files) QTest::newRow(qPrintable(name)) << dir.filePath(name);
  }

  void fuzzReproducers() {
    QFETCH(QString, file);
    // As fuzz/fuzz_scenario.cpp reads its input: the YAML text, then after each NUL byte
    // one --set override (at most eight).
    QStringList args{"validate", file, "--quiet"};
    QFile in(file);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QList<QByteArray> parts = in.readAll().split('\0');
    if (parts.size() > 1) {
      args[1] = writeFile("fuzz-reproducer.yaml", parts[0].constData());
      for (qsizetype i = 1; i < std::min<qsizetype>(parts.size(), 9); ++i) args << "--set" << QString::fromUtf8(parts[i]);
    }
    const CliRun r = cli(args, 120000);
    QVERIFY2(r.finished, "no end within 120 s");
    QVERIFY2(r.exitCode == 0 || r.exitCode == 2, qPrintable(QString("exit %1, stderr: %2").arg(r.exitCode).arg(QString(r.err))));
    if (r.exitCode == 2) QVERIFY2(r.err.startsWith("fabriclab-cli: error: "), r.err.constData());
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
    QTest::newRow("--report as PDF")
        << QStringList{"run", "@SMALL@", "--report", "@TMP@/out.pdf"} << QStringList{"--report", ".html", "fabriclab --open"}
        << QString("@TMP@/out.pdf");
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
    QTest::newRow("--json onto the scenario file")
        << QStringList{"run", "@SMALL@", "--json", "@SMALL@"} << QStringList{"--json", "the scenario file"}
        << QString();
    QTest::newRow("--report onto --json's file")
        << QStringList{"run", "@SMALL@", "--json", "@TMP@/same.json", "--report", "@TMP@/same.json"}
        << QStringList{"--report", "same path as --json"} << QString("@TMP@/same.json");
    QTest::newRow("--json with an empty path")
        << QStringList{"run", "@SMALL@", "--json", ""} << QStringList{"--json", "an empty path"} << QString();
    QTest::newRow("bins far narrower than the run")  // stops at the recorded-bin budget, not out of memory
        << QStringList{"run", "@SMALL@", "--set", "run.bin=1 ps"}
        << QStringList{"small.yaml: run.bin: expected at most", "time bins of traffic per link"} << QString();
    QTest::newRow("--report to '-'")
        << QStringList{"run", "@SMALL@", "--report", "-"} << QStringList{"--report", "only --json"} << QString();
    QTest::newRow("--set inside a swept list")
        << QStringList{"validate", "@LEVELSWEEP@", "--set", "topology.levels[0].count=4"}
        << QStringList{"--set: topology.levels[0].count: expected a key no sweep axis sets",
                       "change sweep[0].values instead"}
        << QString();
    QTest::newRow("--sweep unknown key, did you mean")
        << QStringList{"validate", "@SMALL@", "--sweep", "workload.collective.sise=1 MiB,2 MiB"}
        << QStringList{"--sweep: workload.collective.sise", "did you mean", "workload.collective.size"} << QString();
    QTest::newRow("--sweep value of the wrong type")
        << QStringList{"run", "@SMALL@", "--sweep", "workload.collective.size=1 MiB,lots"}
        << QStringList{"--sweep: sweep[0].values[1]: expected", "for workload.collective.size", "lots"} << QString();
    QTest::newRow("--sweep without values")
        << QStringList{"run", "@SMALL@", "--sweep", "workload.collective.size="}
        << QStringList{"--sweep: sweep[0].values: expected a non-empty list of values"} << QString();
    QTest::newRow("--sweep without '='")
        << QStringList{"run", "@SMALL@", "--sweep", "run.seed"} << QStringList{"--sweep", "key.path=value"} << QString();
    QTest::newRow("--sweep value making an impossible point")
        << QStringList{"run", "@SMALL@", "--sweep", "topology.links_per_gpu=18,3"}
        << QStringList{"--sweep: sweep[0].values[1]", "topology.links_per_gpu"} << QString();
    QTest::newRow("--sweep a key the topology kind does not read")
        << QStringList{"validate", "@SMALL@", "--sweep", "topology.rows=2,4"}
        << QStringList{"--sweep: sweep[0].key: expected no mesh keys for an nvswitch topology"} << QString();
    QTest::newRow("--point past the last point")
        << QStringList{"run", "@SEEDSWEEP@", "--point", "2", "--json", "@TMP@/point.json"}
        << QStringList{"--point: expected a point index from 0 to 1, found 2", "the sweep has 2 points"}
        << QString("@TMP@/point.json");
    QTest::newRow("--point on a run without a sweep")
        << QStringList{"run", "@SMALL@", "--point", "1"} << QStringList{"--point: expected a point index from 0 to 0"}
        << QString();
    QTest::newRow("run.memory_limit far below the estimate")
        << QStringList{"run", "@SMALL@", "--set", "run.memory_limit=1 MiB", "--json", "@TMP@/mem.json"}
        << QStringList{"small.yaml: run.memory_limit: expected the run to fit in 1 MiB (run.memory_limit), "
                       "found an estimated peak of", "raise run.memory_limit"}
        << QString("@TMP@/mem.json");
    QTest::newRow("a sweep point above run.memory_limit")
        << QStringList{"validate", "@SMALL@", "--sweep", "run.memory_limit=4 GiB, 2 MiB"}
        << QStringList{"run.memory_limit: expected sweep point 1 (run.memory_limit=2 MiB) to fit in 2 MiB"}
        << QString();
    QTest::newRow("--jobs 0")
        << QStringList{"run", "@SMALL@", "--jobs", "0"} << QStringList{"--jobs: run.jobs: expected a job count"}
        << QString();
    QTest::newRow("--point not a number")
        << QStringList{"validate", "@SEEDSWEEP@", "--point", "-1"} << QStringList{"--point", "'-1'"} << QString();
    QTest::newRow("--set per_gpu uplinks on the GPU level")
        << QStringList{"validate", "@SMALL@", "--set", "topology.kind=hierarchy", "--set",
                       "topology.levels=[{count: 2, bandwidth: 1 GB/s, latency: 0 ns}, "
                       "{count: 4, bandwidth: 1 GB/s, latency: 0 ns, uplinks: per_gpu}]"}
        << QStringList{"--set: topology.levels[1].uplinks: expected shared on the GPU level"} << QString();
    QTest::newRow("--set a tiny bandwidth")
        << QStringList{"validate", "@SMALL@", "--set", "topology.link.bandwidth=1 B/s"}
        << QStringList{"--set: topology.link.bandwidth: expected a bandwidth of at least 1 Mb/s, found '1 B/s'"}
        << QString();
    // Hostile YAML (core/scenario/bounded_yaml.h): refused before yaml-cpp reads it.
    QTest::newRow("endless scenario file")
        << QStringList{"validate", "/dev/zero"} << QStringList{"/dev/zero", "expected at most 8 MiB of YAML"}
        << QString();
    QTest::newRow("--set value nested too deep")
        << QStringList{"validate", "@SMALL@", "--set", "topology.levels=" + QString(200, '[')}
        << QStringList{"--set", "topology.levels", "nesting deeper than 64 levels"} << QString();
    QTest::newRow("--set value starting with a comma")
        << QStringList{"validate", "@SMALL@", "--set", "workload.moe.placement=[,]"}
        << QStringList{"--set", "workload.moe.placement"} << QString();
  }

  // A scenario behind a directory the user may not enter: the system's reason, not
  // "no such file" (as nobody when the tests run as root, who passes every check).
  void unreadableScenario() {
    const QString locked = tmpPath("locked");
    QVERIFY(QDir(tmp_.path()).mkdir("locked"));
    QVERIFY(QFile::copy(small_, locked + "/s.yaml"));
    QVERIFY(QFile::setPermissions(locked, QFileDevice::Permissions()));
    QProcess p;
    const QStringList args = {"validate", locked + "/s.yaml"};
    if (::geteuid() == 0)
      p.start("setpriv", QStringList{"--reuid=65534", "--regid=65534", "--clear-groups", cliPath()} + args);
    else
      p.start(cliPath(), args);
    const bool finished = p.waitForFinished(60000);
    QFile::setPermissions(locked, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QFile::remove(locked + "/s.yaml");
    QDir(tmp_.path()).rmdir("locked");
    QVERIFY(finished);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(p.exitCode() == 2, qPrintable(err));
    QVERIFY2(err.contains(locked + "/s.yaml: SCENARIO: expected a readable scenario file, found permission denied"),
             qPrintable(err));
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

    const CliRun s = cli({"validate", sweep_, "--set", "run.seed=3"});
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
    QTest::newRow("traffic, 1 vs 2 threads, automatic partitions")
        << "@MESH@" << QStringList{"--threads", "1"} << QStringList{"--threads", "2"} << QStringList{};
    // Any partition count: only the count differs (peak_live_packets included).
    QTest::newRow("traffic, 1 vs 16 partitions")
        << "@MESH@" << QStringList{"--set", "run.partitions=1"}
        << QStringList{"--set", "run.partitions=16", "--threads", "2"} << QStringList{"partitions"};
    QTest::newRow("collective, 1 vs 5 partitions")
        << "@SMALL@" << QStringList{"--set", "run.partitions=1"}
        << QStringList{"--set", "run.partitions=5", "--threads", "2"} << QStringList{"partitions"};
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

  // A bundled scenario's name as `list` shows it, with or without .yaml, stands for its file
  // (issue 21); a name that is neither a file nor bundled is bad input naming `list`.
  void scenarioByName_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("file");
    QTest::newRow("default") << "default" << "default.yaml";
    QTest::newRow("with .yaml") << "dgx-h100-p2p.yaml" << "dgx-h100-p2p.yaml";
  }
  void scenarioByName() {
    QFETCH(QString, name);
    QFETCH(QString, file);
    const CliRun r = cli({"validate", name});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.out.startsWith(QStringLiteral(FABRICLAB_SCENARIOS "/").toUtf8() + file.toUtf8() + ": ok ("),
             r.out.constData());
    const CliRun bad = cli({"run", name + "-nonesuch"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("no such file here") && bad.err.contains("'fabriclab-cli list'"), bad.err.constData());
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

  // The sweep table's columns line up when cells hold multi-byte UTF-8 ("1 µs"): every
  // row ends in the same terminal column.
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
  // A run cut short by run.time_limit says so (not a stall), on stderr too and in the JSON.
  void timeLimitNamed() {
    const QString json = tmpPath("limited.json");
    const CliRun r = cli({"run", small_, "--set", "run.time_limit=1 ns", "--json", json});
    QCOMPARE(r.exitCode, 0);
    const QString out = QString::fromUtf8(r.out), err = QString::fromUtf8(r.err);
    QVERIFY2(out.contains("stopped at run.time_limit with 8 GPUs' work unfinished"), qPrintable(out));
    QVERIFY2(!out.contains("stall"), qPrintable(out));
    QVERIFY2(err.contains("warning: the run stopped at run.time_limit"), qPrintable(err));
    QVERIFY(readAll(json).contains("\"time_limit_reached\": true"));
  }

  // The analytical wafer model runs without events: the summary names the wafer
  // workload (not a traffic pattern it does not run) and says "closed form", not 0 events/s.
  void closedFormSummary() {
    const CliRun r = cli({"run", QStringLiteral(FABRICLAB_SCENARIOS "/wsc-4x4-paper.yaml"), "--set", "mapping.kind=er"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString out = QString::fromUtf8(r.out);
    QVERIFY2(out.contains(QRegularExpression("workload: +MoE inference on the wafer qwen3-235b \\(128 experts, top-8, "
                                             "TP 4, 256 tokens per group, prefill\\), er mapping, analytical model\n")),
             qPrintable(out));
    QVERIFY2(out.contains(QRegularExpression("events: +0 in [0-9.]+ s \\(closed form, 1 thread")), qPrintable(out));
    QVERIFY2(!out.contains("events/s") && !out.contains("traffic at"), qPrintable(out));
  }

  // Outputs are written as one set: a failure while writing any of them leaves every
  // existing file as it was; devices are written in place, symbolic links keep pointing.
  void outputsKeptOnFailure() {
    const QByteArray scenario = readAll(small_);
    QCOMPARE(cli({"run", small_, "--quiet", "--json", small_}).exitCode, 2);
    QCOMPARE(readAll(small_), scenario);

    // The pre-run check looks at the first point's trace only; the second point's is a
    // directory, so the failure comes while writing, after the JSON was staged.
    const QString keep = writeFile("keep.json", "keep");
    QVERIFY(QDir().mkpath(tmpPath("t-point-001.json")));
    const QStringList before = QDir(tmp_.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    const CliRun r = cli({"run", sweep_, "--quiet", "--json", keep, "--trace", tmpPath("t.json")});
    QVERIFY2(r.exitCode == 2, qPrintable(QString::fromUtf8(r.err)));
    QVERIFY2(QString::fromUtf8(r.err).contains("t-point-001.json: --trace"), qPrintable(QString::fromUtf8(r.err)));
    QCOMPARE(readAll(keep), QByteArray("keep"));
    QCOMPARE(QDir(tmp_.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), before);
    QVERIFY(QDir(tmpPath("t-point-001.json")).removeRecursively());

    struct stat st {};
    QCOMPARE(cli({"run", small_, "--quiet", "--json", "/dev/null"}).exitCode, 0);
    QVERIFY(::stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));

    const QString target = tmpPath("target.json"), link = tmpPath("link.json");
    QVERIFY(QFile::link(target, link));  // dangling until the run writes its target
    QCOMPARE(cli({"run", small_, "--quiet", "--json", link}).exitCode, 0);
    QVERIFY(QFileInfo(link).isSymLink());
    QVERIFY(readAll(target).startsWith("{"));
  }

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

};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
