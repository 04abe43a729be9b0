#include "gui/recovery.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

#include "gui/scenario_document.h"
#include "scenario/input_error.h"
#include "scenario/scenario_io.h"

namespace fl::gui {

namespace {
QString sidecar() { return Recovery::recoveryFile().chopped(5) + QStringLiteral(".path"); }
}  // namespace

Recovery::Recovery(ScenarioDocument* doc, QObject* parent) : QObject(parent), doc_(doc) {
  timer_.setInterval(10'000);
  connect(&timer_, &QTimer::timeout, this, &Recovery::writeNow);
  // Set on every change; whether it is unsaved is asked when writing (during an undo
  // command's redo the stack has not yet moved, so isModified() would lag here).
  connect(doc_, &ScenarioDocument::changed, this, [this] { unwritten_ = true; });
  connect(doc_, &ScenarioDocument::modifiedChanged, this, [this](bool modified) {
    if (!modified) discard();  // saved, or undone back to the saved state
  });
}

QString Recovery::recoveryFile() {
  return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/recovery.yaml");
}

bool Recovery::exists() { return QFile::exists(recoveryFile()); }

Scenario Recovery::load(QString& originalPath) {
  QFile path(sidecar());
  originalPath.clear();
  if (path.open(QIODevice::ReadOnly)) originalPath = QString::fromUtf8(path.readAll()).trimmed();
  return loadScenario(recoveryFile().toStdString());
}

void Recovery::setEnabled(bool on) {
  if (on) timer_.start();
  else timer_.stop();
}

bool Recovery::writeNow() {
  if (!unwritten_ || !doc_->isModified()) return false;
  try {
    QDir().mkpath(QFileInfo(recoveryFile()).absolutePath());
    saveScenario(doc_->scenario(), recoveryFile().toStdString());  // temp file + rename
    QSaveFile path(sidecar());
    if (path.open(QIODevice::WriteOnly)) {
      path.write(doc_->filePath().toUtf8());
      path.commit();
    }
    unwritten_ = false;
    return true;
  } catch (const InputError& e) {
    emit writeFailed(QString::fromStdString(e.what()));
    return false;
  }
}

void Recovery::discard() {
  QFile::remove(recoveryFile());
  QFile::remove(sidecar());
}

}  // namespace fl::gui
