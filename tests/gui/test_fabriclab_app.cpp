// The fabriclab executable's command line: --screenshot writes a non-blank PNG of the
// window after the run and --report the run's report (HTML or PDF), and both exit 0;
// bad input exits 2 with a message on stderr and writes nothing.
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "gui_test_util.h"

namespace {

QString app() { return QCoreApplication::applicationDirPath() + QStringLiteral("/../app/fabriclab"); }

struct Outcome {
  int exitCode = -1;
  QString err;
};

Outcome run(const QStringList& args) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("QT_QPA_PLATFORM", "offscreen");
  env.insert("XDG_CONFIG_HOME", QDir::tempPath() + "/fabriclab-test-config");  // keep user settings out
  env.insert("XDG_DATA_HOME", QDir::tempPath() + "/fabriclab-test-data");
  p.setProcessEnvironment(env);
  p.start(app(), args);
  if (!p.waitForFinished(120000)) {
    p.kill();
    p.waitForFinished();
  }
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardError())};
}

}  // namespace

class TestFabriclabApp : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (!QFileInfo::exists(app())) QSKIP("the fabriclab executable is not built");
  }

  void screenshot_data() {
    QTest::addColumn<QByteArray>("yaml");
    QTest::newRow("mesh") << fl::gui::test::meshScenario(4, 4);
    QTest::newRow("hierarchy") << fl::gui::test::hierarchyScenario(2, 2, 2);
  }

  void screenshot() {
    QFETCH(QByteArray, yaml);
    QTemporaryDir dir;
    const QString scenario = fl::gui::test::writeFile(dir, "s.yaml", yaml);
    const QString png = dir.filePath("shot.png");
    const Outcome o = run({scenario, "--screenshot", png});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    const QImage image(png);
    QVERIFY(!image.isNull());
    // The window as it opens on the offscreen platform's 800 x 800 screen: within it (its
    // docks no longer force it wider), and a window's size, not a dock's.
    QVERIFY(image.width() >= 600 && image.height() >= 600);
    QVERIFY(image.width() <= 800 && image.height() <= 800);
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 8)
      for (int x = 0; x < image.width(); x += 8) colours.insert(image.pixel(x, y));
    QVERIFY(colours.size() > 50);
    image.save(fl::gui::test::artefactsDir() + "/fabriclab_" + QTest::currentDataTag() + ".png");
  }

  // Headless report export: the PDF the CLI cannot write, and the same HTML as the GUI's.
  void report_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("starts");
    QTest::newRow("pdf") << "report.pdf" << QByteArray("%PDF-");
    QTest::newRow("html") << "report.html" << QByteArray("<!DOCTYPE html>");
  }

  void report() {
    QFETCH(QString, file);
    QFETCH(QByteArray, starts);
    QTemporaryDir dir;
    const QString scenario = fl::gui::test::writeFile(dir, "s.yaml", fl::gui::test::meshScenario(4, 4));
    const QString out = dir.filePath(file);
    const Outcome o = run({scenario, "--report", out});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    QVERIFY2(bytes.startsWith(starts), bytes.left(40).constData());
    QVERIFY2(bytes.size() > 20000, qPrintable(QString::number(bytes.size())));  // plots and tables, not a stub
    if (file.endsWith(".html")) QVERIFY(bytes.contains("mesh"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2);  // no temporary file left
  }

  void badInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing file") << QStringList{"/nonexistent/x.yaml", "--screenshot", "/tmp/x.png"} << "x.yaml";
    QTest::newRow("not png") << QStringList{"--screenshot", "/tmp/x.jpg"} << ".png";
    QTest::newRow("unwritable dir") << QStringList{"--screenshot", "/nonexistent/dir/x.png"} << "cannot write";
    QTest::newRow("two scenarios") << QStringList{"a.yaml", "--open", "b.yaml"} << "one scenario";
    QTest::newRow("unknown option") << QStringList{"--frobnicate"} << "frobnicate";
    QTest::newRow("report not html or pdf") << QStringList{"--report", "/tmp/x.docx"} << ".html or .htm or .pdf";
    QTest::newRow("report unwritable dir") << QStringList{"--report", "/nonexistent/dir/r.pdf"} << "--report: cannot write";
    QTest::newRow("--show unknown dock") << QStringList{"--show", "Nonesuch", "--screenshot", "/tmp/x.png"}
                                         << "--show: expected a dock title";
    QTest::newRow("--at not a time") << QStringList{"--at", "5 parsecs", "--screenshot", "/tmp/x.png"} << "--at";
  }

  void badInput() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Outcome o = run(args);
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains(message), qPrintable(o.err));
  }

  void invalidScenarioNamesKey() {
    QTemporaryDir dir;
    const QString scenario = fl::gui::test::writeFile(
        dir, "bad.yaml", fl::gui::test::meshScenario(4, 4).replace("4 TB/s", "4"));
    const Outcome o = run({"--open", scenario, "--screenshot", dir.filePath("x.png"), "--report", dir.filePath("r.pdf")});
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains("topology.link.bandwidth") && o.err.contains("bad.yaml:"), qPrintable(o.err));
    QVERIFY(!QFileInfo::exists(dir.filePath("x.png")));
    QVERIFY(!QFileInfo::exists(dir.filePath("r.pdf")));
  }
};

QTEST_MAIN(TestFabriclabApp)
#include "test_fabriclab_app.moc"
