// Crash recovery: while the document has unsaved changes, the scenario is written every
// ~10 s to AppDataLocation/recovery.yaml (atomically), with the path of the file it came
// from beside it (recovery.path). The files are removed when the document is saved or
// becomes clean again and on a normal exit, so finding them at start-up means the last
// session ended without saving: the window offers to restore them.
#pragma once
#include <QObject>
#include <QString>
#include <QTimer>

#include "scenario/scenario.h"

namespace fl::gui {

class ScenarioDocument;

class Recovery : public QObject {
  Q_OBJECT
 public:
  explicit Recovery(ScenarioDocument* doc, QObject* parent = nullptr);

  static QString recoveryFile();   // .../recovery.yaml
  static bool exists();
  // Reads the recovery file; `originalPath` is "" for an untitled document. Throws
  // fl::InputError when the file is unreadable or invalid.
  static Scenario load(QString& originalPath);

  void setEnabled(bool on);             // autosave timer on/off
  void setIntervalMs(int ms) { timer_.setInterval(ms); }
  bool writeNow();                      // writes if there are unwritten changes
  void discard();                       // removes the recovery files

 signals:
  void writeFailed(const QString& message);

 private:
  ScenarioDocument* doc_;
  QTimer timer_;
  bool unwritten_ = false;
};

}  // namespace fl::gui
