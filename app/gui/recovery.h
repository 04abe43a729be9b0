// Crash recovery: while the document has unsaved changes, the scenario is written every
// ~10 s (atomically) to this window's own recovery file, AppDataLocation/recovery/<id>.yaml,
// with the path of the file it came from beside it (<id>.path) and a lock (<id>.lock)
// held while the window lives. The files are removed when the document is saved or
// becomes clean again and on a normal exit. So a recovery file whose lock no running
// FabricLab holds was left by a session that ended without saving: at start-up the
// window offers to restore it. Windows open at once keep a file each, so one closing
// never removes another's.
#pragma once
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <memory>

#include "scenario/scenario.h"

class QLockFile;

namespace fl::gui {

class ScenarioDocument;

class Recovery : public QObject {
  Q_OBJECT
 public:
  explicit Recovery(ScenarioDocument* doc, QObject* parent = nullptr);
  ~Recovery() override;  // releases the lock; the files stay unless discarded

  static QString directory();  // .../recovery
  QString file() const;        // this window's recovery file

  // Recovery files left by sessions that ended without saving, newest first (those of
  // running windows are not: their locks are held). Includes the single
  // AppDataLocation/recovery.yaml that versions before per-window files wrote.
  static QStringList orphans();
  // Takes an orphan's lock, so that no other window offers it meanwhile; null when a
  // running window holds it.
  static std::unique_ptr<QLockFile> claim(const QString& file);
  // Reads a recovery file; `originalPath` is "" for an untitled document. Throws
  // fl::InputError when the file is unreadable or invalid.
  static Scenario load(const QString& file, QString& originalPath);
  // Removes a recovery file with its path sidecar, then its lock (released through
  // `claim` when the caller holds it).
  static void remove(const QString& file, std::unique_ptr<QLockFile> claim = nullptr);

  void setEnabled(bool on);  // autosave timer on/off
  void setIntervalMs(int ms) { timer_.setInterval(ms); }
  bool writeNow();           // writes if there are unwritten changes
  void discard();            // removes this window's recovery files

 signals:
  void writeFailed(const QString& message);

 private:
  ScenarioDocument* doc_;
  QTimer timer_;
  bool unwritten_ = false;
  QString id_;
  std::unique_ptr<QLockFile> lock_;  // taken before the first write
};

}  // namespace fl::gui
