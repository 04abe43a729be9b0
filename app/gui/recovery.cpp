#include "gui/recovery.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUuid>

#include "gui/scenario_document.h"
#include "scenario/input_error.h"
#include "scenario/scenario_io.h"

namespace fl::gui {

namespace {
QString appData() { return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation); }
// <name>.yaml's companions: <name>.path and <name>.lock.
QString companion(const QString& file, const char* suffix) { return file.chopped(5) + QLatin1String(suffix); }
QString legacyFile() { return appData() + QStringLiteral("/recovery.yaml"); }
}  // namespace

Recovery::Recovery(ScenarioDocument* doc, QObject* parent)
    : QObject(parent), doc_(doc), id_(QUuid::createUuid().toString(QUuid::WithoutBraces)) {
  timer_.setInterval(10'000);
  connect(&timer_, &QTimer::timeout, this, &Recovery::writeNow);
  // Set on every change; whether it is unsaved is asked when writing (during an undo
  // command's redo the stack has not yet moved, so isModified() would lag here).
  connect(doc_, &ScenarioDocument::changed, this, [this] { unwritten_ = true; });
  connect(doc_, &ScenarioDocument::modifiedChanged, this, [this](bool modified) {
    if (!modified) discard();  // saved, or undone back to the saved state
  });
}

Recovery::~Recovery() = default;

QString Recovery::directory() { return appData() + QStringLiteral("/recovery"); }

QString Recovery::file() const { return directory() + QLatin1Char('/') + id_ + QStringLiteral(".yaml"); }

QStringList Recovery::orphans() {
  QStringList found;
  const QFileInfoList files =
      QDir(directory()).entryInfoList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Time);  // newest first
  for (const QFileInfo& f : files)
    if (claim(f.absoluteFilePath())) found << f.absoluteFilePath();  // the claim ends here
  if (QFile::exists(legacyFile())) found << legacyFile();
  return found;
}

std::unique_ptr<QLockFile> Recovery::claim(const QString& file) {
  auto lock = std::make_unique<QLockFile>(companion(file, ".lock"));
  lock->setStaleLockTime(0);  // held for a window's life: only a dead owner makes it stale
  if (!lock->tryLock(0)) return nullptr;
  return lock;
}

Scenario Recovery::load(const QString& file, QString& originalPath) {
  QFile path(companion(file, ".path"));
  originalPath.clear();
  if (path.open(QIODevice::ReadOnly)) originalPath = QString::fromUtf8(path.readAll()).trimmed();
  return loadScenario(file.toStdString());
}

void Recovery::remove(const QString& file, std::unique_ptr<QLockFile> claim) {
  QFile::remove(file);
  QFile::remove(companion(file, ".path"));
  if (claim) claim.reset();  // unlocking deletes the lock file
  else QFile::remove(companion(file, ".lock"));
}

void Recovery::setEnabled(bool on) {
  if (on) timer_.start();
  else timer_.stop();
}

bool Recovery::writeNow() {
  if (!unwritten_ || !doc_->isModified()) return false;
  try {
    const std::string target = file().toStdString();
    if (!QDir().mkpath(directory()))
      throw InputError({target}, "", "a writable recovery directory", "mkdir failed for " + directory().toStdString());
    if (!lock_) {
      lock_ = claim(file());
      if (!lock_) throw InputError({target}, "", "a lock of this window's own", "it is held by another process");
    }
    saveScenario(doc_->scenario(), target);  // temp file + rename
    QSaveFile path(companion(file(), ".path"));
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
  QFile::remove(file());
  QFile::remove(companion(file(), ".path"));  // the lock stays until the window closes
}

}  // namespace fl::gui
