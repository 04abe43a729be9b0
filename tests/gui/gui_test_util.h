// Shared by the GUI tests: small scenarios written to a temporary directory, and the
// folder where tests leave artefacts (screenshots) for CI: <build dir>/artefacts.
#pragma once
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSize>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>

namespace fl::gui::test {

// Settings and the recovery file go to a throw-away location, never the user's, and one
// of each test program's own: ctest runs programs in parallel, and a window closing in one
// removed the recovery file another had just written (test_persistence failed in CI).
inline void isolateSettings() {
  QStandardPaths::setTestModeEnabled(true);
  QCoreApplication::setOrganizationName(QStringLiteral("FabricLab"));
  QCoreApplication::setApplicationName(QStringLiteral("fabriclab-test-") +
                                       QFileInfo(QCoreApplication::applicationFilePath()).completeBaseName());
}

inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
  const QString path = dir.filePath(name);
  QFile f(path);
  if (!f.open(QIODevice::WriteOnly)) return {};
  f.write(text);
  return path;
}

// One offscreen screen of `size` for the program, before QApplication starts: the
// window then opens as on such a laptop (95 % of it). The file lives in `dir`.
inline bool useOffscreenScreen(const QTemporaryDir& dir, QSize size) {
  const QString config = writeFile(dir, QStringLiteral("screen.json"),
                                   QStringLiteral(R"({"screens": [{"name": "small", "x": 0, "y": 0, "width": %1, "height": %2}]})")
                                       .arg(size.width()).arg(size.height()).toUtf8());
  if (config.isEmpty()) return false;
  qputenv("QT_QPA_PLATFORM", ("offscreen:configfile=" + config).toUtf8());
  return true;
}

inline QString artefactsDir() {
  const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/../artefacts");
  QDir().mkpath(dir);
  return QDir(dir).absolutePath();
}

// A short all-to-all on a mesh: runs in well under a second.
inline QByteArray meshScenario(int rows, int cols, const char* size = "64 KiB") {
  return QByteArray("fabriclab: 1\nname: mesh test\ntopology:\n  kind: mesh\n  rows: ") +
         QByteArray::number(rows) + "\n  cols: " + QByteArray::number(cols) +
         "\n  link: {bandwidth: 4 TB/s, latency: 5 ns}\nnetwork:\n  packet_payload: 4 KiB\n"
         "  vc_depth_flits: 1024\nworkload:\n  kind: collective\n  collective: {op: all_to_all, "
         "algorithm: direct, size: " + size + "}\nrun:\n  bin: 200 ns\n";
}

inline QByteArray hierarchyScenario(int a, int b, int c) {
  return QByteArray("fabriclab: 1\nname: hierarchy test\ntopology:\n  kind: hierarchy\n  levels:\n") +
         "    - {name: dc, count: " + QByteArray::number(a) + ", bandwidth: 10 GB/s, latency: 1 us}\n" +
         "    - {name: node, count: " + QByteArray::number(b) + ", bandwidth: 50 GB/s, latency: 500 ns}\n" +
         "    - {name: gpu, count: " + QByteArray::number(c) + ", bandwidth: 25 GB/s, latency: 250 ns}\n" +
         "network:\n  packet_payload: 4 KiB\n  vc_depth_flits: 1024\nworkload:\n  kind: collective\n"
         "  collective: {op: all_to_all, algorithm: direct, size: 64 KiB}\nrun:\n  bin: 1 us\n";
}

inline QByteArray nvswitchScenario(const char* preset, const char* size = "1 MiB") {
  return QByteArray("fabriclab: 1\nname: nvswitch test\ntopology:\n  preset: ") + preset +
         "\nnetwork:\n  packet_payload: 4 KiB\n  vc_depth_flits: 1024\nworkload:\n  kind: collective\n"
         "  collective: {op: all_reduce, algorithm: ring, size: " + size + "}\nrun:\n  bin: 1 us\n";
}

}  // namespace fl::gui::test
