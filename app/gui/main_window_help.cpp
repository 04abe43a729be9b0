// MainWindow: the Help menu (welcome and gallery, documentation, shortcuts, about) and
// presentation mode.
#include <QApplication>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

#include "gui/main_window.h"
#include "gui/status_panel.h"
#include "gui/welcome_dialog.h"
#include "views/topology_canvas.h"

namespace fl::gui {

namespace {
constexpr double kPresentationFont = 1.35;   // type on a projector
constexpr double kPresentationGlyphs = 1.6;  // canvas lanes and glyphs
// Docks for editing: hidden while presenting.
const char* const kEditingDocks[] = {"ScenarioDock", "FusionDock", "HeatDock"};
}  // namespace

void MainWindow::connectHelp() {
  connect(actions_.welcome, &QAction::triggered, this, &MainWindow::showWelcome);
  connect(actions_.docs, &QAction::triggered, this, &MainWindow::showDocs);
  connect(actions_.shortcuts, &QAction::triggered, this, &MainWindow::showShortcuts);
  connect(actions_.about, &QAction::triggered, this, &MainWindow::showAbout);
  connect(actions_.presentation, &QAction::toggled, this, &MainWindow::setPresentationMode);
}

void MainWindow::showWelcome() {
  WelcomeDialog dialog(galleryEntries(bundledScenarioDirectory()), this);
  if (dialog.exec() != QDialog::Accepted || dialog.chosenPath().isEmpty()) return;
  if (maybeSave()) openFile(dialog.chosenPath());
}

void MainWindow::showDocs() {
  for (const char* file : {"/README.md", "/docs/scenario.md"})
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(QStringLiteral(FABRICLAB_SOURCE_DIR) + QLatin1String(file))))
      status_->showError(tr("No application opens %1").arg(QLatin1String(file)));
}

// Every action of the window that has a shortcut, as its menus name it.
void MainWindow::showShortcuts() {
  QDialog dialog(this);
  dialog.setWindowTitle(tr("Keyboard Shortcuts"));
  auto* layout = new QVBoxLayout(&dialog);
  auto* table = new QTableWidget(&dialog);
  table->setObjectName(QStringLiteral("shortcutTable"));
  table->setColumnCount(2);
  table->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut")});
  for (QAction* a : findChildren<QAction*>()) {
    if (a->shortcuts().isEmpty() || a->text().isEmpty()) continue;
    QStringList keys;
    for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
    const int row = table->rowCount();
    table->insertRow(row);
    table->setItem(row, 0, new QTableWidgetItem(a->text().remove('&').remove(QChar(0x2026))));
    table->setItem(row, 1, new QTableWidgetItem(keys.join(QStringLiteral(", "))));
  }
  table->sortItems(0);
  table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  table->verticalHeader()->hide();
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  layout->addWidget(table);
  auto* note = new QLabel(tr("Space and the arrow keys drive playback while the canvas or the timeline has focus."), &dialog);
  note->setWordWrap(true);
  layout->addWidget(note);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  layout->addWidget(buttons);
  dialog.resize(520, 520);
  dialog.exec();
}

void MainWindow::showAbout() {
  QMessageBox::about(this, tr("About FabricLab"),
                     tr("<h3>FabricLab %1</h3><p>An interactive lab for GPU interconnect fabrics: a deterministic, "
                        "packet-level simulator of GPUs, NVSwitch chips with in-switch computing, wafer-scale meshes "
                        "and datacenter hierarchies.</p><p>It reproduces the systems of its seed papers: DySHARP, "
                        "FlashDMoE, CAIS, MoEntwine and HybridEP.</p>")
                         .arg(QApplication::applicationVersion().toHtmlEscaped()));
}

void MainWindow::setPresentationMode(bool on) {
  if (on == presenting_) return;
  presenting_ = on;
  if (actions_.presentation->isChecked() != on) actions_.presentation->setChecked(on);
  if (on) {
    statePresented_ = saveState();
    fontPresented_ = font();
    for (const char* name : kEditingDocks)
      if (auto* d = findChild<QDockWidget*>(QLatin1String(name))) d->hide();
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * kPresentationFont);
    setFont(f);
    canvas_->setGlyphScale(kPresentationGlyphs);
    showFullScreen();
  } else {
    setFont(fontPresented_);
    canvas_->setGlyphScale(1);
    showNormal();
    restoreState(statePresented_);
  }
}

}  // namespace fl::gui
