#include "gui/settings.h"

#include <QFileInfo>
#include <QSettings>

namespace fl::gui {

namespace {
// Organisation and application names come from QCoreApplication (main.cpp sets them).
QSettings store() { return QSettings(); }
}  // namespace

QStringList Settings::recentFiles() { return store().value("recentFiles").toStringList(); }

void Settings::addRecentFile(const QString& path) {
  const QString abs = QFileInfo(path).absoluteFilePath();
  QStringList files = recentFiles();
  files.removeAll(abs);
  files.prepend(abs);
  while (files.size() > kMaxRecentFiles) files.removeLast();
  store().setValue("recentFiles", files);
}

void Settings::removeRecentFile(const QString& path) {
  QStringList files = recentFiles();
  files.removeAll(QFileInfo(path).absoluteFilePath());
  store().setValue("recentFiles", files);
}

bool Settings::welcomeShown() { return store().value("welcomeShown", false).toBool(); }
void Settings::setWelcomeShown() { store().setValue("welcomeShown", true); }

QByteArray Settings::windowGeometry() { return store().value("window/geometry").toByteArray(); }
QByteArray Settings::windowState() { return store().value("window/state").toByteArray(); }

void Settings::setWindow(const QByteArray& geometry, const QByteArray& state) {
  QSettings s;
  s.setValue("window/geometry", geometry);
  s.setValue("window/state", state);
}

void Settings::thresholds(double& cold, double& hot) {
  QSettings s;
  cold = s.value("colours/cold", cold).toDouble();
  hot = s.value("colours/hot", hot).toDouble();
}

void Settings::setThresholds(double cold, double hot) {
  QSettings s;
  s.setValue("colours/cold", cold);
  s.setValue("colours/hot", hot);
}

double Settings::playbackSpeed() { return store().value("playback/speed", 1.0).toDouble(); }
void Settings::setPlaybackSpeed(double speed) { store().setValue("playback/speed", speed); }

}  // namespace fl::gui
