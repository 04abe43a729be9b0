// fabriclab-cli run --follow (and run.follow): the hops of the named packets in the JSON
// (follow.hops), the CSV (follow.csv) and the HTML report, and bad selectors refused with
// exit status 2 naming the option. Expected hop counts are worked by hand: an NVLS
// all-reduce on the DGX-H100 (N = 8 GPUs) moves one piece of a GPU's chunk in
// 1 ld_reduce + N reads + N contributions + 1 result + 1 multimem.st + N copies = 3 N + 3.
#include <QDir>
#include <QtTest>

#include "../common/cli_fixture.h"

using namespace fl::test;

namespace {

const char* const kNvls = R"(fabriclab: 1
name: nvls-follow
topology: {preset: dgx-h100}
network: {packet_payload: 4 KiB, vc_depth_flits: 1024}
workload:
  kind: collective
  collective: {op: all_reduce, algorithm: nvls, size: 256 KiB}
)";

}  // namespace

class TestCliFollow : public QObject, private CliFixture {
  Q_OBJECT

 private slots:
  void initTestCase() { QVERIFY2(writeScenarios(), qPrintable("CLI not built or no temporary directory: " + cliPath())); }

  void followWritesHops() {
    const QString yaml = writeFile("nvls.yaml", kNvls);
    const QString csv = tmpPath("csv"), report = tmpPath("r.html");
    const CliRun r = cli({"run", yaml, "--follow", "gpu 2, piece 1", "--json", "-", "--csv", csv, "--report", report});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const Json j = Json::parse(r.out.toStdString());
    QVERIFY(j.contains("follow"));
    QCOMPARE(j["follow"]["what"].get<std::string>(), std::string("the chunk of GPU 2, piece 1"));
    const Json& hops = j["follow"]["hops"];
    QCOMPARE(int(hops.size()), 3 * 8 + 3);
    int down = 0;
    for (const Json& h : hops) {
      QCOMPARE(h["piece"].get<int>(), 1);
      QVERIFY(h["start_ns"].get<double>() <= h["arrive_ns"].get<double>());
      if (h["to"].get<std::string>() == "gpu2") ++down;
    }
    QCOMPARE(down, 3);  // the switch's read of GPU 2, the reduced result and GPU 2's copy
    QFile f(QDir(csv).filePath("follow.csv"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + 3 * 8 + 3);
    QVERIFY(lines.front().startsWith("start_ns,end_ns,arrive_ns,from,to,link,direction,op"));
    QVERIFY(lines.front().endsWith(",contributions,selector"));
    for (qsizetype i = 1; i < lines.size(); ++i) QVERIFY(lines[i].endsWith(",0"));  // one selector: the first
    QFile html(report);
    QVERIFY(html.open(QIODevice::ReadOnly));
    const QByteArray h = html.readAll();
    QVERIFY(h.contains("id=\"follow\"") && h.contains("the chunk of GPU 2, piece 1"));
    // Without --follow: no follow key and no follow.csv.
    const CliRun plain = cli({"run", yaml, "--json", "-", "--csv", tmpPath("plain")});
    QVERIFY(!Json::parse(plain.out.toStdString()).contains("follow"));
    QVERIFY(!QFile::exists(QDir(tmpPath("plain")).filePath("follow.csv")));
  }

  // --follow twice: run.follow's list. Each selector's 3 N + 3 hops, numbered by the hop's
  // "selector" and counted in follow.selectors; the same as the scenario's YAML list.
  void followTwoSelectors() {
    const QString yaml = writeFile("nvls2.yaml", kNvls);
    const QString csv = tmpPath("csv2");
    const CliRun r = cli({"run", "--follow", "gpu 2, piece 1", "--follow", "gpu 5", "--json", "-", "--csv", csv, yaml});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const Json j = Json::parse(r.out.toStdString());
    const int n = 8;
    QCOMPARE(int(j["follow"]["hops"].size()), 2 * (3 * n + 3));
    const Json& sel = j["follow"]["selectors"];
    QCOMPARE(int(sel.size()), 2);
    QCOMPARE(sel[0]["what"].get<std::string>(), std::string("the chunk of GPU 2, piece 1"));
    QCOMPARE(sel[1]["what"].get<std::string>(), std::string("the chunk of GPU 5, piece 0"));
    QCOMPARE(sel[0]["hops"].get<int>(), 3 * n + 3);
    QCOMPARE(sel[1]["hops"].get<int>(), 3 * n + 3);
    int down[2] = {};
    for (const Json& h : j["follow"]["hops"]) {
      const int k = h["selector"].get<int>();
      QVERIFY(k == 0 || k == 1);
      QCOMPARE(h["piece"].get<int>(), k == 0 ? 1 : 0);
      if (h["to"].get<std::string>() == (k == 0 ? "gpu2" : "gpu5")) ++down[k];
    }
    QCOMPARE(down[0], 3);
    QCOMPARE(down[1], 3);
    // follow.csv's last column numbers the selector too: 3 N + 3 rows each.
    QFile f(QDir(csv).filePath("follow.csv"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
    QVERIFY(lines.front().endsWith(",selector"));
    int rows[2] = {};
    for (qsizetype i = 1; i < lines.size(); ++i) {
      const QByteArray k = lines[i].split(',').back();
      QVERIFY2(k == "0" || k == "1", lines[i].constData());
      ++rows[k.toInt()];
    }
    QCOMPARE(rows[0], 3 * n + 3);
    QCOMPARE(rows[1], 3 * n + 3);
    QByteArray listed = kNvls;
    listed += "run:\n  follow:\n    - gpu 2, piece 1\n    - gpu 5\n";
    const CliRun file = cli({"run", writeFile("nvls-list.yaml", listed), "--json", "-"});
    QVERIFY2(file.exitCode == 0, file.err.constData());
    QVERIFY(Json::parse(file.out.toStdString())["follow"] == j["follow"]);
    // One --follow writes no selector numbers (the JSON of a single selector is unchanged).
    const CliRun one = cli({"run", yaml, "--follow", "gpu 5", "--json", "-"});
    const Json single = Json::parse(one.out.toStdString());
    QVERIFY(!single["follow"].contains("selectors"));
    QVERIFY(!single["follow"]["hops"][0].contains("selector"));
  }

  void badSelector_data() {
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QString>("expected");  // on stderr
    QTest::newRow("misspelt") << "gpu 1, pice 2" << "--follow: run.follow: expected none, or what to follow";
    QTest::newRow("MoE words on NVLS") << "gpu 1, token 2" << "--follow: run.follow: expected 'gpu G' for an NVLS";
    QTest::newRow("GPU out of range") << "gpu 9" << "--follow: run.follow: expected a GPU from 0 to 7";
    QTest::newRow("none in a list") << "gpu 1; none" << "--follow: run.follow: expected a selector in each place of the list";
    QTest::newRow("second misfits") << "gpu 1; gpu 8" << "found gpu 8 (selector 2, 'gpu 8')";
  }
  void badSelector() {
    QFETCH(QString, selector);
    QFETCH(QString, expected);
    const CliRun r = cli({"run", writeFile("bad.yaml", kNvls), "--follow", selector});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(expected), r.err.constData());
  }
};

QTEST_GUILESS_MAIN(TestCliFollow)
#include "test_cli_follow.moc"
