// fabriclab-cli under mpirun (built with FABRICLAB_MPI): three ranks on this machine give
// the JSON and CSV tables of a local run, byte for byte apart from wall times; a point
// that fails on a rank stops the sweep with its error, naming the point, and writes
// nothing. Registered only when MPI is built.
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include "results/json_writer.h"

namespace {

// 3 sizes x 2 algorithms: points of different lengths, so ranks finish out of order.
const char* const kSixPoints = R"(fabriclab: 1
name: six-points
topology: {kind: nvswitch, preset: dgx-h100}
workload:
  kind: collective
  collective: {op: all_reduce, algorithm: ring, size: 64 KiB}
sweep:
  - key: workload.collective.size
    values: [256 KiB, 64 KiB, 1 MiB]
  - key: workload.collective.algorithm
    values: [ring, nvls]
)";

// Point 4 records a bin per picosecond: more bins than its share of run.memory_limit
// holds, found while it runs (on whichever rank gets it).
const char* const kOneFails = R"(fabriclab: 1
name: one-fails
topology: {kind: nvswitch, preset: dgx-h100}
workload:
  kind: collective
  collective: {op: all_reduce, algorithm: ring, size: 256 KiB}
sweep:
  - key: run.bin
    values: [1 us, 2 us, 500 ns, 3 us, 1 ps, 4 us]
)";

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TestMpiSweep : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;

  QString write(const QString& name, const char* text) {
    QFile f(tmp_.filePath(name));
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(text);
    return f.fileName();
  }

  // Exit code, stderr.
  std::pair<int, QString> run(const QStringList& args, bool mpi, const QString& extraEnv = {}) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!extraEnv.isEmpty()) env.insert(extraEnv.section('=', 0, 0), extraEnv.section('=', 1));
    // Containers: no shared-memory single-copy (CMA) between ranks, local transports only.
    env.insert("OMPI_MCA_btl_vader_single_copy_mechanism", "none");
    env.insert("OMPI_MCA_btl", "self,vader");
    p.setProcessEnvironment(env);
    if (mpi) {
      QStringList launcher = {"-n", "3", "--oversubscribe"};
      if (::geteuid() == 0) launcher << "--allow-run-as-root";
      p.start(QStringLiteral(FABRICLAB_MPIEXEC), launcher + QStringList{QStringLiteral(FABRICLAB_CLI)} + args);
    } else {
      p.start(QStringLiteral(FABRICLAB_CLI), args);
    }
    if (!p.waitForFinished(300000)) {
      p.kill();
      p.waitForFinished();
      return {-1, "timed out"};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardError())};
  }

 private slots:
  void sameFilesAsLocal() {
    const QString s = write("six.yaml", kSixPoints);
    const QString a = tmp_.filePath("local.json"), b = tmp_.filePath("mpi.json");
    const auto [ca, ea] = run({"run", s, "--quiet", "--jobs", "1", "--json", a, "--csv", tmp_.filePath("csv-local")}, false);
    QVERIFY2(ca == 0, qPrintable(ea));
    const auto [cb, eb] = run({"run", s, "--quiet", "--json", b, "--csv", tmp_.filePath("csv-mpi")}, true);
    QVERIFY2(cb == 0, qPrintable(eb));
    const auto ja = fl::stripWallTime(nlohmann::json::parse(readAll(a).toStdString()));
    const auto jb = fl::stripWallTime(nlohmann::json::parse(readAll(b).toStdString()));
    QCOMPARE(jb["sweep"].size(), std::size_t{6});
    QVERIFY(fl::jsonText(ja) == fl::jsonText(jb));
    // Every per-point table, byte for byte (points.csv holds wall times).
    for (int i = 0; i < 6; ++i)
      for (const char* table : {"links.csv", "link_bins.csv", "switches.csv"}) {
        const QString rel = QString("/point-%1/%2").arg(i, 3, 10, QChar('0')).arg(table);
        const QByteArray x = readAll(tmp_.filePath("csv-local") + rel), y = readAll(tmp_.filePath("csv-mpi") + rel);
        QVERIFY2(!x.isEmpty() && x == y, qPrintable(rel));
      }
  }

  // FABRICLAB_MPI_TRACE=1: one line per point on rank 0's stderr, each point once, with
  // its rank and times that add up (returned no earlier than handed out plus its run).
  void traceLogsEveryPoint() {
    const QString s = write("six-traced.yaml", kSixPoints);
    const auto [code, err] = run({"run", s, "--quiet", "--json", tmp_.filePath("traced.json")}, true,
                                 "FABRICLAB_MPI_TRACE=1");
    QVERIFY2(code == 0, qPrintable(err));
    const QRegularExpression line(
        "^mpi: point (\\d+) rank ([0-2]) out ([0-9.]+) back ([0-9.]+) run ([0-9.]+) overhead (-?[0-9.]+) s, (\\d+) bytes$",
        QRegularExpression::MultilineOption);
    QSet<int> points, ranks;
    for (auto it = line.globalMatch(err); it.hasNext();) {
      const QRegularExpressionMatch m = it.next();
      QVERIFY2(!points.contains(m.captured(1).toInt()), qPrintable(err));
      points.insert(m.captured(1).toInt());
      ranks.insert(m.captured(2).toInt());
      // Printed with 3 decimals: back >= out + run within the rounding.
      QVERIFY2(m.captured(4).toDouble() + 0.002 >= m.captured(3).toDouble() + m.captured(5).toDouble(), qPrintable(err));
      // Results come over MPI from the other ranks only.
      QCOMPARE(m.captured(7).toLongLong() > 0, m.captured(2) != "0");
    }
    QCOMPARE(points, (QSet<int>{0, 1, 2, 3, 4, 5}));
    QVERIFY(!ranks.isEmpty());
  }

  void failingPointIsReported() {
    const QString s = write("fails.yaml", kOneFails);
    const QString out = tmp_.filePath("fails.json");
    const auto [code, err] = run({"run", s, "--quiet", "--json", out}, true);
    QVERIFY2(code == 2, qPrintable(QString("exit %1: %2").arg(code).arg(err)));
    QVERIFY2(err.contains("fabriclab-cli: error: ") && err.contains("run.bin: expected at most") &&
                 err.contains("at sweep point 4 (run.bin=1 ps)"),
             qPrintable(err));
    QVERIFY(!QFileInfo::exists(out));
  }
};

QTEST_GUILESS_MAIN(TestMpiSweep)
#include "test_mpi_sweep.moc"
