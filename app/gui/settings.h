// What the app remembers between sessions (QSettings, organisation "FabricLab"): window
// geometry and dock layout, recent files (most recent first, at most 8), the colour
// thresholds, and the playback speed.
#pragma once
#include <QByteArray>
#include <QString>
#include <QStringList>

namespace fl::gui {

class Settings {
 public:
  static constexpr int kMaxRecentFiles = 8;

  static QStringList recentFiles();
  // Moves `path` to the front (absolute path), dropping duplicates and the oldest.
  static void addRecentFile(const QString& path);
  static void removeRecentFile(const QString& path);

  static QByteArray windowGeometry();
  static QByteArray windowState();
  static void setWindow(const QByteArray& geometry, const QByteArray& state);

  // Cold/hot utilisation thresholds, fractions; defaults are the run model's.
  static void thresholds(double& cold, double& hot);
  static void setThresholds(double cold, double hot);

  // Whether the welcome page has been shown once (it opens by itself on the first start).
  static bool welcomeShown();
  static void setWelcomeShown();

  static double playbackSpeed();
  static void setPlaybackSpeed(double speed);
};

}  // namespace fl::gui
