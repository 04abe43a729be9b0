// fabriclab-cli's sweeps end to end: the sweep table, sweeps changed on the command line
// (--set on a swept key, --sweep, --point), points run concurrently (--jobs) and the
// per-point outputs. The shared runner and scenarios are tests/common/cli_fixture.h.
#include <QDir>
#include <QMap>
#include <QRegularExpression>
#include <QtTest>

#include "../common/cli_fixture.h"
#include "results/json_writer.h"

using namespace fl::test;

class TestCliSweeps : public QObject, private CliFixture {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY2(writeScenarios(), qPrintable("CLI not built or no temporary directory: " + cliPath())); }

  void sweepTableAligned() {
    const QString yaml = writeFile("micro.yaml",
                                   "fabriclab: 1\nname: mu\ntopology: {preset: dgx-h100}\nworkload:\n"
                                   "  kind: collective\n  collective: {op: all_reduce, algorithm: ring, size: 64 KiB}\n"
                                   "sweep:\n  - key: topology.link.latency\n    values: [250 ns, 1 \xc2\xb5s]\n");
    const CliRun r = cli({"run", yaml});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QStringList lines = QString::fromUtf8(r.out).split('\n');
    const int head = static_cast<int>(lines.indexOf(QRegularExpression("^ +topology.link.latency +makespan.*")));
    QVERIFY2(head >= 0, r.out.constData());
    // The file's "1 µs" as the schema writes it (formatQuantity's "us"), like every view.
    QVERIFY2(lines.value(head + 3).trimmed().startsWith("1 us"), qPrintable(lines.value(head + 3)));
    for (int i = head + 1; i <= head + 3; ++i) QCOMPARE(lines[i].size(), lines[head].size());
  }

  // Sweeps changed on the command line give the JSON of the file that says the same
  // thing (written out by hand here), apart from wall times.
  void commandLineSweeps_data() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("sameAs");  // the equivalent scenario file's text
    QTest::addColumn<QString>("note");    // expected on stderr ("" for none)
    const QString seedThree = QString(kSeedSweepScenario).replace(QRegularExpression("sweep:[\\s\\S]*"), "run: {seed: 3}\n");
    QTest::newRow("--set on the swept key") << "@SEEDSWEEP@" << QStringList{"--set", "run.seed=3"} << seedThree
                                            << "note: --set run.seed replaces the sweep over run.seed (2 values: 1, 2)";
    QTest::newRow("--seed on the swept key") << "@SEEDSWEEP@" << QStringList{"--seed", "3"} << seedThree
                                             << "with the one value 3";
    QTest::newRow("--sweep adds an axis")
        << "@SMALL@" << QStringList{"--sweep", "workload.collective.size=64 KiB, 1 MiB"}
        << QString(kSmallScenario) + "sweep: [{key: workload.collective.size, values: [64 KiB, 1 MiB]}]\n" << "";
    QTest::newRow("--sweep replaces an axis")
        << "@SWEEP@" << QStringList{"--sweep", "workload.collective.size=32 KiB,256 KiB,1 MiB"}
        << QString(kSweepScenario).replace("[64 KiB, 128 KiB]", "[32 KiB, 256 KiB, 1 MiB]")
        << "--sweep workload.collective.size replaces the sweep's values (64 KiB, 128 KiB) with 32 KiB, 256 KiB, 1 MiB";
    QTest::newRow("--sweep of lists")
        << "@SMALL@" << QStringList{"--set", "topology.kind=hierarchy", "--set",
                                    "topology.levels=[{count: 2, bandwidth: 1 GB/s, latency: 0 ns}]", "--sweep",
                                    "topology.levels=[{count: 2, bandwidth: 1 GB/s, latency: 0 ns}], "
                                    "[{count: 4, bandwidth: 1 GB/s, latency: 0 ns}]"}
        << QString(kSmallScenario).replace("kind: nvswitch", "kind: hierarchy\n  levels: [{count: 2, bandwidth: 1 GB/s, latency: 0 ns}]") +
               "sweep:\n  - key: topology.levels\n    values: [[{count: 2, bandwidth: 1 GB/s, latency: 0 ns}], "
               "[{count: 4, bandwidth: 1 GB/s, latency: 0 ns}]]\n"
        << "";
    // Point 3 of 2 sizes x 2 algorithms, the last axis fastest: 128 KiB, nvls.
    QTest::newRow("--point 3")
        << "@SWEEP@" << QStringList{"--point", "3"}
        << QString(kSweepScenario).replace(QRegularExpression("size: 64 KiB\\nsweep:[\\s\\S]*"), "size: 128 KiB\n")
                                  .replace("algorithm: ring", "algorithm: nvls") << "";
    QTest::newRow("--point 0 of a single run") << "@SMALL@" << QStringList{"--point", "0"} << QString(kSmallScenario) << "";
  }

  void commandLineSweeps() {
    QFETCH(QString, scenario);
    QFETCH(QStringList, args);
    QFETCH(QString, sameAs);
    QFETCH(QString, note);
    const QString a = tmpPath("cl-a.json"), b = tmpPath("cl-b.json");
    const QString file = writeFile("same-as.yaml", sameAs.toUtf8().constData());
    const CliRun ra = cli(expand(QStringList{"run", scenario, "--quiet", "--json", a} + args));
    QVERIFY2(ra.exitCode == 0, ra.err.constData());
    if (note.isEmpty())
      QVERIFY2(ra.err.isEmpty(), ra.err.constData());
    else
      QVERIFY2(QString::fromUtf8(ra.err).contains(note), ra.err.constData());
    const CliRun rb = cli({"run", file, "--quiet", "--json", b});
    QVERIFY2(rb.exitCode == 0, rb.err.constData());
    const std::string ta = fl::jsonText(fl::stripWallTime(parseJson(readAll(a))));
    const std::string tb = fl::jsonText(fl::stripWallTime(parseJson(readAll(b))));
    QVERIFY(ta.size() > 100);
    QVERIFY(ta == tb);
    QFile::remove(a);
    QFile::remove(b);
    QFile::remove(file);
  }

  // Sweep points run concurrently give the same bytes, in point order, as one at a time.
  void jobsGiveIdenticalOutputs() {
    QMap<int, QByteArray> json;
    QMap<int, QStringList> csv;
    for (int jobs : {1, 2, 3}) {
      const QString tag = QString::number(jobs);
      const QString j = tmpPath("jobs-" + tag + ".json"), dir = tmpPath("jobs-csv-" + tag);
      const CliRun r = cli({"run", sweep_, "--quiet", "--jobs", tag, "--json", j, "--csv", dir, "--trace",
                            tmpPath("jobs-trace-" + tag + ".json")});
      QVERIFY2(r.exitCode == 0, r.err.constData());
      json[jobs] = QByteArray::fromStdString(fl::jsonText(fl::stripWallTime(parseJson(readAll(j)))));
      for (int i = 0; i < 4; ++i) {
        const QString point = QString("/point-%1/").arg(i, 3, 10, QChar('0'));
        for (const char* table : {"links.csv", "link_bins.csv", "switches.csv"})
          csv[jobs] << QString::fromUtf8(readAll(dir + point + table));
        csv[jobs] << QString::fromUtf8(readAll(tmpPath(QString("jobs-trace-%1-point-%2.json").arg(tag).arg(i, 3, 10, QChar('0')))));
      }
      QDir(dir).removeRecursively();
    }
    const Json first = parseJson(json[1]);
    QCOMPARE(first["sweep"].size(), std::size_t{4});
    // Point order: the size axis outermost, as the file lists it.
    QCOMPARE(first["sweep"][2]["settings"]["workload.collective.size"].get<std::string>(), std::string("128 KiB"));
    QVERIFY(json[1] == json[2]);
    QVERIFY(json[1] == json[3]);
    for (const QString& text : csv[1]) QVERIFY(!text.isEmpty());
    QVERIFY(csv[1] == csv[2]);
    QVERIFY(csv[1] == csv[3]);
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

};

QTEST_GUILESS_MAIN(TestCliSweeps)
#include "test_cli_sweeps.moc"
