// The result writers on a hand-made Results (no simulation): JSON determinism and its
// public contract, the wall-time strip, sweeps, CSV tables, atomic writes that name the
// option on failure and leave no temporary file behind.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "../common/json_contract.h"
#include "results/atomic_file.h"
#include "results/csv_writer.h"
#include "results/json_writer.h"
#include "scenario/input_error.h"

using namespace fl::test;

namespace {

QByteArray readAll(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return f.readAll();
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

}  // namespace

class TestResultWriters : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir tmp_;
  QString tmpPath(const QString& name) const { return tmp_.filePath(name); }

 private slots:
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

  // The sweep's points.csv: the settings parted by "; " (values hold spaces), one column
  // per swept key in the schema's canonical text and, for a size, time or rate, its
  // number with the unit as the suffix; worked out by hand from the values written.
  void sweepIndexColumns_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QStringList>("written");
    QTest::addColumn<QString>("header");   // the swept key's columns
    QTest::addColumn<QStringList>("cells");  // per point: settings, then the key's columns
    QTest::addColumn<QString>("jsonKey");     // the sweep JSON's setting_values key
    QTest::addColumn<QStringList>("jsonValues");  // its values as JSON text
    QTest::newRow("bytes") << "workload.collective.size" << QStringList{"131072 B", "1 MiB"}
                           << "workload.collective.size,workload.collective.size_bytes"
                           << QStringList{"workload.collective.size=128 KiB,128 KiB,131072",
                                          "workload.collective.size=1 MiB,1 MiB,1048576"}
                           << "workload.collective.size_bytes" << QStringList{"131072.0", "1048576.0"};
    QTest::newRow("rate") << "topology.link.bandwidth" << QStringList{"1 Gb/s", "25 GB/s"}
                          << "topology.link.bandwidth,topology.link.bandwidth_GBps"
                          << QStringList{"topology.link.bandwidth=125 MB/s,125 MB/s,0.125",
                                         "topology.link.bandwidth=25 GB/s,25 GB/s,25"}
                          << "topology.link.bandwidth_GBps" << QStringList{"0.125", "25.0"};
    QTest::newRow("time") << "topology.link.latency" << QStringList{"1000 ns", "250 ns"}
                          << "topology.link.latency,topology.link.latency_ns"
                          << QStringList{"topology.link.latency=1 us,1 us,1000", "topology.link.latency=250 ns,250 ns,250"}
                          << "topology.link.latency_ns" << QStringList{"1000.0", "250.0"};
    QTest::newRow("name") << "scheme.tp" << QStringList{"cais", "tp_nvls"} << "scheme.tp"
                          << QStringList{"scheme.tp=cais,cais", "scheme.tp=tp_nvls,tp_nvls"}
                          << "scheme.tp" << QStringList{"\"cais\"", "\"tp_nvls\""};
  }
  void sweepIndexColumns() {
    QFETCH(QString, key);
    QFETCH(QStringList, written);
    QFETCH(QString, header);
    QFETCH(QStringList, cells);
    QFETCH(QString, jsonKey);
    QFETCH(QStringList, jsonValues);
    std::vector<fl::SweepPoint> points;
    for (const QString& w : written)  // a second axis, so the settings hold two parts
      points.push_back({{{key.toStdString(), w.toStdString()}, {"run.seed", "7"}}, sampleResults()});
    const QString dir = tmpPath("sweep-" + QString(QTest::currentDataTag()));
    fl::writeCsvSweep(dir.toStdString(), points);
    const QStringList lines = QString::fromUtf8(readAll(dir + "/points.csv")).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1 + written.size());
    QVERIFY2(lines[0].startsWith("point,directory,settings," + header + ",run.seed,makespan_ns,"), qPrintable(lines[0]));
    for (int i = 0; i < written.size(); ++i) {
      const QStringList parts = cells[i].split(',');
      const QString expected = QString("%1,point-%2,%3; run.seed=7,%4,7,")
                                   .arg(i)
                                   .arg(i, 3, 10, QChar('0'))
                                   .arg(parts[0], QStringList(parts.mid(1)).join(','));
      QVERIFY2(lines[i + 1].startsWith(expected), qPrintable(lines[i + 1] + "\nexpected " + expected));
    }
    // The JSON keeps the settings as written and adds them as data; run.seed an integer.
    const Json j = fl::sweepToJson(points, fl::Scenario{});
    for (int i = 0; i < written.size(); ++i) {
      const Json& p = j["sweep"][static_cast<std::size_t>(i)];
      QCOMPARE(QString::fromStdString(p["settings"][key.toStdString()].get<std::string>()), written[i]);
      QCOMPARE(QString::fromStdString(p["setting_values"][jsonKey.toStdString()].dump()), jsonValues[i]);
      QCOMPARE(p["setting_values"]["run.seed"].dump(), std::string("7.0"));
      QCOMPARE(p["setting_values"].size(), std::size_t{2});
    }
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

  // A set of outputs: nothing is replaced until every one is written; an uncommitted
  // set leaves no temporary file; a symbolic link keeps pointing at the file it names.
  void outputFilesAllOrNothing() {
    QVERIFY(QDir().mkpath(tmpPath("set")));
    const QString a = tmpPath("set/a.json"), b = tmpPath("set/b.html");
    fl::writeFileAtomically(a.toStdString(), "old a", "--json");
    {
      fl::OutputFiles files;
      files.stage(a.toStdString(), "new a", "--json");
      try {
        files.stage(tmpPath("set/missing/b.html").toStdString(), "new b", "--report");
        QFAIL("no error for a missing directory");
      } catch (const fl::InputError& e) {
        QCOMPARE(e.keyPath(), std::string("--report"));
      }
    }  // not committed
    QCOMPARE(readAll(a), QByteArray("old a"));
    QCOMPARE(QDir(tmpPath("set")).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
             QStringList{"a.json"});
    {
      fl::OutputFiles files;
      files.stage(a.toStdString(), "new a", "--json");
      files.stage(b.toStdString(), "new b", "--report");
      QCOMPARE(readAll(a), QByteArray("old a"));  // staged, not yet in place
      files.commit();
    }
    QCOMPARE(readAll(a), QByteArray("new a"));
    QCOMPARE(readAll(b), QByteArray("new b"));

    const QString link = tmpPath("set/link.json");
    QVERIFY(QFile::link(tmpPath("set/a.json"), link));
    fl::writeFileAtomically(link.toStdString(), "through the link", "--json");
    QVERIFY(QFileInfo(link).isSymLink());
    QCOMPARE(readAll(a), QByteArray("through the link"));
    QDir(tmpPath("set")).removeRecursively();
  }
};

QTEST_GUILESS_MAIN(TestResultWriters)
#include "test_result_writers.moc"
