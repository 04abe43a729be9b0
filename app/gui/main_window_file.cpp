// MainWindow's document handling: open, save, recent files, recovery, the unsaved-changes
// prompt, and exports.
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QRegularExpression>
#include <QLockFile>
#include <QMenu>

#include "gui/main_window.h"
#include "gui/recovery.h"
#include "gui/report_export.h"
#include "gui/run_controller.h"
#include "gui/scenario_document.h"
#include "gui/settings.h"
#include "gui/status_panel.h"
#include "gui/sweep_results.h"
#include "views/timeline_bar.h"
#include "views/topology_canvas.h"
#include "scenario/input_error.h"

namespace fl::gui {

namespace {
const QString kScenarioFilter = QObject::tr("Scenarios (*.yaml *.yml);;All files (*)");
}

QString MainWindow::openFile(const QString& path) {
  try {
    doc_->load(path);  // runs it (documentReset)
  } catch (const InputError& e) {
    const QString msg = QString::fromStdString(e.what());
    status_->showError(msg);
    return msg;
  }
  Settings::addRecentFile(path);
  updateRecentMenu();
  return {};
}

QString MainWindow::startup(const QString& path, bool offerRecovery) {
  if (!offerRecovery) return openFile(path);
  // The newest file a session left: offered once (restored or dropped); any older ones
  // wait for the next start. Claimed first, so that a window starting beside this one
  // does not offer it too.
  for (const QString& file : Recovery::orphans()) {
    auto claim = Recovery::claim(file);
    if (!claim) continue;  // another window took it meanwhile
    const bool restore =
        recoveryPrompt_ ? recoveryPrompt_()
                        : QMessageBox::question(
                              this, tr("Restore unsaved changes?"),
                              tr("FabricLab did not close normally last time. Restore the scenario you "
                                 "were editing?"),
                              QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes) == QMessageBox::Yes;
    if (restore) {
      try {
        QString original;
        const Scenario s = Recovery::load(file, original);
        doc_->reset(s, original, /*modified=*/true);
        recovery_->writeNow();  // this window's own copy, before the old one goes
        Recovery::remove(file, std::move(claim));
        status_->showInfo(tr("Restored unsaved changes; save them to keep them."));
        return {};
      } catch (const InputError& e) {
        status_->showError(tr("Could not restore: %1").arg(QString::fromStdString(e.what())));
      }
    }
    Recovery::remove(file, std::move(claim));
    break;
  }
  return openFile(path);
}

void MainWindow::open() {
  if (!maybeSave()) return;
  const QString dir = doc_->filePath().isEmpty() ? QString() : QFileInfo(doc_->filePath()).absolutePath();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Scenario"), dir, kScenarioFilter);
  if (path.isEmpty()) return;
  const QString error = openFile(path);
  if (!error.isEmpty()) QMessageBox::warning(this, tr("Cannot open scenario"), error);
}

bool MainWindow::saveTo(const QString& path) {
  try {
    doc_->save(path);
  } catch (const InputError& e) {
    const QString msg = QString::fromStdString(e.what());
    status_->showError(msg);
    QMessageBox::warning(this, tr("Cannot save scenario"), msg);
    return false;
  }
  Settings::addRecentFile(path);
  updateRecentMenu();
  status_->showInfo(tr("Saved %1").arg(path));
  return true;
}

bool MainWindow::save() {
  if (doc_->filePath().isEmpty()) return saveAs();
  return saveTo(doc_->filePath());
}

bool MainWindow::saveAs() {
  QString path = QFileDialog::getSaveFileName(this, tr("Save Scenario As"), doc_->filePath(), kScenarioFilter);
  if (path.isEmpty()) return false;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".yaml");
  return saveTo(path);
}

bool MainWindow::maybeSave() {
  if (!doc_->isModified()) return true;
  const auto answer =
      savePrompt_ ? savePrompt_()
                  : QMessageBox::warning(this, tr("Unsaved changes"),
                                         tr("%1 has unsaved changes. Save them?").arg(doc_->displayName()),
                                         QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                         QMessageBox::Save);
  if (answer == QMessageBox::Save) return save();
  return answer == QMessageBox::Discard;
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!maybeSave()) {
    event->ignore();
    return;
  }
  controller_->stop();
  if (options_.restoreLayout) Settings::setWindow(saveGeometry(), saveState());
  Settings::setPlaybackSpeed(timeline_->speed());
  recovery_->discard();  // a normal exit: nothing to recover next time
  event->accept();
}

void MainWindow::updateRecentMenu() {
  QMenu* menu = actions_.recentMenu;
  menu->clear();
  const QStringList files = Settings::recentFiles();
  for (int i = 0; i < files.size(); ++i) {
    const QString path = files[i];
    QAction* a = menu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()));
    a->setToolTip(path);
    a->setStatusTip(path);
    connect(a, &QAction::triggered, this, [this, path] {
      if (!maybeSave()) return;
      if (!QFileInfo::exists(path)) {
        Settings::removeRecentFile(path);
        updateRecentMenu();
      }
      const QString error = openFile(path);
      if (!error.isEmpty()) QMessageBox::warning(this, tr("Cannot open scenario"), error);
    });
  }
  menu->setEnabled(!files.isEmpty());
}

namespace {

// A save dialog offering two file types; a name typed without an extension gets the one
// of the type chosen. "" when cancelled.
QString askExportPath(QWidget* parent, const QString& title, const QString& first, const QString& second) {
  QString filter;
  QString path = QFileDialog::getSaveFileName(parent, title, QString(), first + ";;" + second, &filter);
  if (path.isEmpty() || !QFileInfo(path).suffix().isEmpty()) return path;
  static const QRegularExpression suffix(QStringLiteral("\\*(\\.\\w+)"));
  return path + suffix.match(filter.isEmpty() ? first : filter).captured(1);
}

}  // namespace

void MainWindow::exportImage() {
  const QString path = askExportPath(this, tr("Export Image"), tr("PNG image (*.png)"), tr("SVG image (*.svg)"));
  if (path.isEmpty()) return;
  const QString error = exportCanvasImage(canvas_, path);
  if (error.isEmpty()) status_->showInfo(tr("Exported %1").arg(path));
  else status_->showError(error);
}

QString MainWindow::exportReportTo(const QString& path) {
  ReportInput in;  // writeReport() says when nothing has finished yet
  in.scenario = &sweep_->scenario();
  in.points = sweep_->finishedPoints();
  in.topology = sweep_->finishedTopology();
  in.scenarioFile = doc_->filePath();
  const QString error = writeReport(path, in, canvas_);
  if (error.isEmpty()) status_->showInfo(tr("Exported %1").arg(path));
  else status_->showError(error);
  return error;
}

void MainWindow::exportReport() {
  const QString path = askExportPath(this, tr("Export Report"), tr("HTML report (*.html)"), tr("PDF report (*.pdf)"));
  if (path.isEmpty()) return;
  const QString error = exportReportTo(path);
  if (!error.isEmpty()) QMessageBox::warning(this, tr("Cannot export report"), error);
}

}  // namespace fl::gui
