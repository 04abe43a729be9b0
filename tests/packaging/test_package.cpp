// The Debian package and its desktop integration, checked with Debian's own tools: the
// .desktop file and the AppStream metainfo validate, the MIME type installs and claims
// scenario files (and only them), `cpack` builds a .deb whose fields and file list are
// what a user expects, lintian finds no error in it, and the package unpacked into a
// scratch root (`dpkg -x`) runs its CLI and GUI from another directory on the scenarios
// it installed. Slow-ish (cpack, lintian): CTest label `package` as well as `packaging`.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMimeDatabase>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kAppId = QStringLiteral(FABRICLAB_APP_ID);
const QString kPackaging = QStringLiteral(FABRICLAB_SOURCE_DIR "/packaging");
// The metainfo and the copyright file as CMake writes them (their URLs from FABRICLAB_HOMEPAGE).
const QString kGenerated = QStringLiteral(FABRICLAB_BUILD_DIR "/packaging");
const QString kScenarioMime = QStringLiteral("application/x-fabriclab-scenario");

struct Run {
  int exitCode = -1;
  QByteArray out, err;
  QString all() const { return QString::fromUtf8(out + err); }
};

// Runs a program to its end (10 minutes at most); FABRICLAB_DATA_DIR removed so that the
// programs look for their data the way an installed copy does.
Run run(const QString& program, const QStringList& args, const QString& cwd = {},
        const QStringList& extraEnv = {}) {
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.remove(QStringLiteral("FABRICLAB_DATA_DIR"));
  for (const QString& kv : extraEnv) env.insert(kv.section('=', 0, 0), kv.section('=', 1));
  p.setProcessEnvironment(env);
  if (!cwd.isEmpty()) p.setWorkingDirectory(cwd);
  p.start(program, args);
  Run r;
  if (!p.waitForStarted(30000)) {
    r.err = "cannot start " + program.toUtf8();
    return r;
  }
  if (!p.waitForFinished(600000)) {
    p.kill();
    p.waitForFinished();
  }
  r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.out = p.readAllStandardOutput();
  r.err = p.readAllStandardError();
  return r;
}

QString tool(const char* name, const char* debianPackage) {
  const QString path = QStandardPaths::findExecutable(QString::fromLatin1(name));
  if (path.isEmpty())
    qWarning("%s not found: install the Debian package %s (packaging/setup.sh does)", name, debianPackage);
  return path;
}

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The bundled scenarios, counted in the source tree.
QStringList sourceScenarios() {
  return QDir(QStringLiteral(FABRICLAB_SCENARIOS)).entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name);
}

}  // namespace

class TestPackage : public QObject {
  Q_OBJECT

  QTemporaryDir tmp_;
  QString deb_;   // the .deb cpack built
  QString root_;  // where dpkg -x unpacked it

  bool write(const QString& name, const QByteArray& text) {
    QFile f(tmp_.filePath(name));
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
  }

 private slots:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    // The MIME test below reads the database from here first; set before any lookup.
    qputenv("XDG_DATA_DIRS", (tmp_.filePath("xdg") + ":/usr/local/share:/usr/share").toUtf8());
  }

  void desktopFileValidates() {
    const QString validate = tool("desktop-file-validate", "desktop-file-utils");
    QVERIFY(!validate.isEmpty());
    const QString desktop = kPackaging + "/" + kAppId + ".desktop";
    const Run r = run(validate, {desktop});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    // Hints are advice; errors and warnings are not allowed.
    QVERIFY2(!r.all().contains(QStringLiteral("error:")) && !r.all().contains(QStringLiteral("warning:")),
             qPrintable(r.all()));
    const QString text = QString::fromUtf8(readAll(desktop));
    QVERIFY(text.contains(QStringLiteral("\nIcon=") + kAppId + "\n"));
    QVERIFY(text.contains(QStringLiteral("\nMimeType=") + kScenarioMime + ";\n"));
    QVERIFY(text.contains(QStringLiteral("\nExec=fabriclab %f\n")));
  }

  void metainfoValidates() {
    const QString appstream = tool("appstreamcli", "appstream");
    QVERIFY(!appstream.isEmpty());
    const QString metainfo = kGenerated + "/" + kAppId + ".metainfo.xml";
    const Run r = run(appstream, {QStringLiteral("validate"), QStringLiteral("--no-net"), metainfo});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QString text = QString::fromUtf8(readAll(metainfo));
    QVERIFY(text.contains(QStringLiteral("<id>") + kAppId + "</id>"));
    QVERIFY(text.contains(QStringLiteral("<launchable type=\"desktop-id\">") + kAppId + ".desktop</launchable>"));
    QVERIFY(text.contains(QStringLiteral("<content_rating type=\"oars-1.1\"")));
    QVERIFY(text.contains(QStringLiteral("<release version=\"" FABRICLAB_VERSION "\"")));
  }

  // Every screenshot the metainfo names (an https URL into the repository) is a picture in
  // packaging/screenshots/ of the size it declares, with a caption.
  void metainfoScreenshotsExist() {
    const QString text = QString::fromUtf8(readAll(kGenerated + "/" + kAppId + ".metainfo.xml"));
    const QRegularExpression shot(QStringLiteral(
        "<screenshot[^>]*>\\s*<caption>([^<]+)</caption>\\s*<image type=\"source\" width=\"(\\d+)\" "
        "height=\"(\\d+)\">https://[^<]+/packaging/screenshots/([^</]+\\.png)</image>"));
    int count = 0;
    for (const QRegularExpressionMatch& m : shot.globalMatch(text)) {
      ++count;
      const QByteArray png = readAll(kPackaging + "/screenshots/" + m.captured(4));
      QVERIFY2(png.startsWith("\x89PNG\r\n\x1a\n"), qPrintable(m.captured(4) + " is not a PNG in packaging/screenshots"));
      const auto be32 = [&](int at) {
        return (uchar(png[at]) << 24) | (uchar(png[at + 1]) << 16) | (uchar(png[at + 2]) << 8) | uchar(png[at + 3]);
      };
      QCOMPARE(int(be32(16)), m.captured(2).toInt());
      QCOMPARE(int(be32(20)), m.captured(3).toInt());
    }
    QCOMPARE(count, int(text.count(QStringLiteral("<screenshot"))) - 1);  // "<screenshots>" counted too
    QVERIFY(count >= 2);
  }

  // GPL-3.0-or-later (QCustomPlot is GPL-3.0): the licence text at the top of the tree, the
  // metainfo's project_license, and a machine-readable Debian copyright file whose licence
  // paragraph points to Debian's copy of the text.
  void licenceIsGpl3OrLater() {
    QVERIFY(readAll(QStringLiteral(FABRICLAB_SOURCE_DIR "/LICENSE")).contains("GNU GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007"));
    QVERIFY(readAll(kGenerated + "/" + kAppId + ".metainfo.xml").contains("<project_license>GPL-3.0-or-later</project_license>"));
    const QByteArray copyright = readAll(kGenerated + "/copyright");
    QVERIFY(copyright.startsWith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"));
    QVERIFY(copyright.contains("\nFiles: *\n"));
    QCOMPARE(copyright.count("\nLicense: GPL-3+\n"), 2);  // the Files paragraph and the stand-alone one
    QVERIFY(copyright.contains("/usr/share/common-licenses/GPL-3"));
  }

  // The MIME type compiled with update-mime-database into a scratch XDG data dir, then
  // asked of Qt's MIME database (which reads that dir first): scenario names and contents
  // are claimed, other YAML is left alone.
  void mimeType_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected");
    const QByteArray scenario = "# a comment\nfabriclab: 1\nname: x\n";
    QTest::newRow("*.fabriclab.yaml") << "ring.fabriclab.yaml" << QByteArray("name: x\n") << kScenarioMime;
    QTest::newRow("*.fabriclab.yml") << "ring.fabriclab.yml" << QByteArray("name: x\n") << kScenarioMime;
    QTest::newRow("no suffix, key first") << "scenario-a" << QByteArray("fabriclab: 1\n") << kScenarioMime;
    QTest::newRow("no suffix, key after comments") << "scenario-b" << scenario << kScenarioMime;
    QTest::newRow("no suffix, key in a comment") << "notes" << QByteArray("# fabriclab: notes\nname: x\n")
                                                 << QStringLiteral("text/plain");
    QTest::newRow("other YAML") << "config.yaml" << QByteArray("name: x\n") << QStringLiteral("application/x-yaml");
  }
  void mimeType() {
    QFETCH(QString, name);
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    const QString mimeDir = tmp_.filePath("xdg/mime");
    if (!QFile::exists(mimeDir + "/mime.cache")) {
      const QString update = tool("update-mime-database", "shared-mime-info");
      QVERIFY(!update.isEmpty());
      QVERIFY(QDir().mkpath(mimeDir + "/packages"));
      QVERIFY(QFile::copy(kPackaging + "/" + kAppId + ".mime.xml", mimeDir + "/packages/" + kAppId + ".xml"));
      const Run r = run(update, {mimeDir});
      QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(r.all()));  // it warns on stderr
      QVERIFY(QFile::exists(mimeDir + "/mime.cache"));
    }
    QVERIFY(write(name, content));
    const QMimeType type = QMimeDatabase().mimeTypeForFile(tmp_.filePath(name));
    QCOMPARE(type.name(), expected);
    if (expected == kScenarioMime) {
      QCOMPARE(type.comment(), QStringLiteral("FabricLab scenario"));
      QVERIFY(type.inherits(QStringLiteral("application/x-yaml")));
    }
  }

  void packageBuilds() {
    const QString cpack = tool("cpack", "cmake");
    QVERIFY(!cpack.isEmpty());
    QVERIFY(!tool("dpkg-shlibdeps", "dpkg-dev").isEmpty());
    // Into a scratch directory, so that build/'s own package is left alone.
    const QString out = tmp_.filePath("cpack");
    const Run r = run(cpack, {QStringLiteral("-G"), QStringLiteral("DEB"), QStringLiteral("-B"), out},
                      QStringLiteral(FABRICLAB_BUILD_DIR));
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QStringList debs = QDir(out).entryList({QStringLiteral("fabriclab_*.deb")}, QDir::Files);
    QCOMPARE(debs.size(), 1);
    deb_ = out + "/" + debs.first();
    QVERIFY(debs.first().startsWith(QStringLiteral("fabriclab_" FABRICLAB_VERSION "_")));

    const Run f = run(QStringLiteral("dpkg-deb"), {QStringLiteral("--field"), deb_});
    QCOMPARE(f.exitCode, 0);
    const QString fields = QString::fromUtf8(f.out);
    qInfo().noquote() << "control fields:\n" << fields;
    QVERIFY(fields.contains(QStringLiteral("\nSection: science\n")));
    QVERIFY(fields.contains(QStringLiteral("\nVersion: " FABRICLAB_VERSION "\n")));
    // One home page (CMake's FABRICLAB_HOMEPAGE) in the control fields, the metainfo and the copyright file.
    const QString metainfo = QString::fromUtf8(readAll(kGenerated + "/" + kAppId + ".metainfo.xml"));
    const QString homepage = QRegularExpression(QStringLiteral("<url type=\"homepage\">(https://[^<]+)</url>")).match(metainfo).captured(1);
    QVERIFY2(!homepage.isEmpty(), "no homepage URL in the metainfo");
    QVERIFY(fields.contains("\nHomepage: " + homepage + "\n"));
    QVERIFY(readAll(kGenerated + "/copyright").contains(("\nSource: " + homepage + "\n").toUtf8()));
    // Depends from dpkg-shlibdeps: Debian's package names with versions.
    const QString depends = QRegularExpression(QStringLiteral("\nDepends: ([^\n]*)")).match(fields).captured(1);
    for (const char* lib : {"libc6 (>=", "libqt6widgets6 (>=", "libqt6svg6 (>=", "libyaml-cpp0.7 (>=", "libtbb12 (>="})
      QVERIFY2(depends.contains(QString::fromLatin1(lib)), qPrintable(lib + QStringLiteral(" not in: ") + depends));
  }

  void packageContents_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("kind");  // elf, gzip, png, text
    for (const char* p : {"/usr/bin/fabriclab", "/usr/bin/fabriclab-cli"}) QTest::newRow(p) << p << "elf";
    for (const char* p : {"/usr/share/man/man1/fabriclab.1.gz", "/usr/share/man/man1/fabriclab-cli.1.gz",
                          "/usr/share/doc/fabriclab/changelog.gz"})
      QTest::newRow(p) << p << "gzip";
    for (const char* p : {"/usr/share/doc/fabriclab/copyright", "/usr/share/doc/fabriclab/README.md",
                          "/usr/share/doc/fabriclab/scenario.md", "/usr/share/fabriclab/scenarios/default.yaml"})
      QTest::newRow(p) << p << "text";
    const QString share = QStringLiteral("/usr/share/");
    for (const QString& p : {share + "applications/" + kAppId + ".desktop", share + "metainfo/" + kAppId + ".metainfo.xml",
                             share + "mime/packages/" + kAppId + ".xml",
                             share + "icons/hicolor/scalable/apps/" + kAppId + ".svg"})
      QTest::newRow(qPrintable(p)) << p << "text";
    for (int size : {16, 22, 24, 32, 48, 64, 128, 256}) {
      const QString p = share + QStringLiteral("icons/hicolor/%1x%1/apps/").arg(size) + kAppId + ".png";
      QTest::newRow(qPrintable(p)) << p << QStringLiteral("png%1").arg(size);
    }
  }
  void packageContents() {
    QFETCH(QString, path);
    QFETCH(QString, kind);
    QVERIFY2(!deb_.isEmpty(), "no package (packageBuilds failed)");
    if (root_.isEmpty()) {
      const QString root = tmp_.filePath("root");
      const Run r = run(QStringLiteral("dpkg"), {QStringLiteral("-x"), deb_, root});
      QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
      root_ = root;
    }
    const QFileInfo info(root_ + path);
    QVERIFY2(info.isFile(), qPrintable(path + " not in the package"));
    const QByteArray bytes = readAll(info.filePath());
    QVERIFY(!bytes.isEmpty());
    if (kind == "elf") {
      QVERIFY(bytes.startsWith("\x7f" "ELF"));
      QVERIFY(info.permissions() & QFile::ExeOther);
    } else if (kind == "gzip") {
      // gzip -9n, as Debian policy asks: maximum compression (XFL 2), no time stamp.
      QVERIFY(bytes.startsWith("\x1f\x8b"));
      QCOMPARE(int(bytes.at(8)), 2);
      QCOMPARE(bytes.mid(4, 4), QByteArray(4, '\0'));
    } else if (kind.startsWith("png")) {
      // Signature, then the IHDR chunk's big-endian width and height at bytes 16 and 20.
      QVERIFY(bytes.startsWith("\x89PNG\r\n\x1a\n"));
      const auto be32 = [&](int at) {
        return (uchar(bytes[at]) << 24) | (uchar(bytes[at + 1]) << 16) | (uchar(bytes[at + 2]) << 8) | uchar(bytes[at + 3]);
      };
      QCOMPARE(be32(16), kind.mid(3).toInt());
      QCOMPARE(be32(20), kind.mid(3).toInt());
    }
    QVERIFY(info.permissions() & QFile::ReadOther);
  }

  void packageHasEveryScenario() {
    QVERIFY2(!root_.isEmpty(), "not unpacked (packageContents failed)");
    const QStringList installed = QDir(root_ + "/usr/share/fabriclab/scenarios")
                                      .entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name);
    QCOMPARE(installed, sourceScenarios());
  }

  // No lintian error; its warnings and infos are printed for the log.
  void lintianFindsNoError() {
    QVERIFY2(!deb_.isEmpty(), "no package (packageBuilds failed)");
    const QString lintian = tool("lintian", "lintian");
    QVERIFY(!lintian.isEmpty());
    const Run r = run(lintian, {QStringLiteral("--fail-on"), QStringLiteral("error"), QStringLiteral("--display-info"), deb_});
    qInfo().noquote() << "lintian:\n" << r.all();
    const QStringList errors = r.all().split('\n').filter(QRegularExpression(QStringLiteral("^E: ")));
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
  }

  // The unpacked CLI, started from a directory without scenarios, finds those it installed.
  void installedCliRuns() {
    QVERIFY2(!root_.isEmpty(), "not unpacked (packageContents failed)");
    const QString cli = root_ + "/usr/bin/fabriclab-cli";
    const QString elsewhere = tmp_.filePath("elsewhere");
    QVERIFY(QDir().mkpath(elsewhere));
    const QString scenarios = QDir(root_ + "/usr/share/fabriclab/scenarios").canonicalPath();

    const Run list = run(cli, {QStringLiteral("list")}, elsewhere);
    QVERIFY2(list.exitCode == 0, qPrintable(list.all()));
    const QString listed = QString::fromUtf8(list.out);
    for (const QString& s : sourceScenarios()) QVERIFY2(listed.contains(s + "  "), qPrintable(s + " not listed"));
    QVERIFY2(listed.contains(QStringLiteral("(%1 scenarios in %2)").arg(sourceScenarios().size()).arg(scenarios)),
             qPrintable(listed));

    // A name as `list` shows it, with or without .yaml.
    for (const QString& name : {QStringLiteral("default"), QStringLiteral("dgx-h100-p2p.yaml")}) {
      const Run v = run(cli, {QStringLiteral("validate"), name}, elsewhere);
      QVERIFY2(v.exitCode == 0, qPrintable(v.all()));
      QVERIFY2(v.out.startsWith(scenarios.toUtf8() + "/"), v.out.constData());
    }
    const Run bad = run(cli, {QStringLiteral("run"), QStringLiteral("no-such-scenario")}, elsewhere);
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.all().contains(QStringLiteral("fabriclab-cli list")), qPrintable(bad.all()));

    // A small run: a 64 KiB GPU-to-GPU copy on the installed DGX-H100 scenario.
    const Run r = run(cli, {QStringLiteral("run"), QStringLiteral("dgx-h100-p2p"), QStringLiteral("--json"),
                            QStringLiteral("-"), QStringLiteral("--set"), QStringLiteral("workload.collective.size=64 KiB")},
                      elsewhere);
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QJsonDocument json = QJsonDocument::fromJson(r.out);
    QVERIFY2(json.isObject(), r.out.left(400).constData());
  }

  // The unpacked GUI, offscreen, opens the installed default scenario, runs it and saves a
  // screenshot (copied to <build>/artefacts/packaged-gui.png for people to look at).
  void installedGuiScreenshot() {
    QVERIFY2(!root_.isEmpty(), "not unpacked (packageContents failed)");
    const QString shot = tmp_.filePath("elsewhere/shot.png");
    QVERIFY(QDir().mkpath(tmp_.filePath("elsewhere")));
    const Run r = run(root_ + "/usr/bin/fabriclab", {QStringLiteral("--screenshot"), shot}, tmp_.filePath("elsewhere"),
                      {QStringLiteral("QT_QPA_PLATFORM=offscreen"), "XDG_CONFIG_HOME=" + tmp_.filePath("config"),
                       "XDG_DATA_HOME=" + tmp_.filePath("data")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const QByteArray png = readAll(shot);
    QVERIFY(png.startsWith("\x89PNG\r\n\x1a\n"));
    QVERIFY2(png.size() > 20000, qPrintable(QString::number(png.size())));  // a window, not a blank
    const QString artefacts = QStringLiteral(FABRICLAB_BUILD_DIR "/artefacts");
    QDir().mkpath(artefacts);
    QFile::remove(artefacts + "/packaged-gui.png");
    QVERIFY(QFile::copy(shot, artefacts + "/packaged-gui.png"));
  }
};

QTEST_GUILESS_MAIN(TestPackage)
#include "test_package.moc"
