// The FabricLab main window: the topology canvas with the timeline under it, docks for
// the scenario (editable tree), inspector, plots and heat colouring, a toolbar with the
// sweep-point selector, and a status bar. It owns the document (scenario + undo stack),
// the run controller (simulations in a worker thread) and the RunModel all views watch.
// Edits re-run the scenario in the background after a short pause (debounced).
#pragma once
#include <QFont>
#include <QMainWindow>
#include <QMessageBox>
#include <functional>

#include "gui/main_actions.h"

class QComboBox;
class QDockWidget;
class QTimer;

namespace fl::views {
class RunModel;
class TopologyCanvas;
class TimelineBar;
}

namespace fl::gui {

class CompareDialog;
class DockApplicabilityGuard;
class StoryDock;
class PipelineCompareDialog;
class RunController;
class ScenarioDocument;
class ScenarioDock;
class StatusPanel;
class SweepResults;
class Recovery;

struct MainWindowOptions {
  bool autosave = true;       // write the recovery file while there are unsaved changes
  bool restoreLayout = true;  // geometry and docks from QSettings
  int rerunDelayMs = 400;     // pause after an edit before re-running
};

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(const MainWindowOptions& options = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens `path` and runs it. Returns "" or the error (also shown in the status bar).
  QString openFile(const QString& path);
  // Start-up: offers to restore a recovery file left by a session that did not end
  // cleanly (when `offerRecovery`), else opens `path`.
  QString startup(const QString& path, bool offerRecovery);
  bool saveTo(const QString& path);  // errors go to a message box and the status bar

  ScenarioDocument* document() const { return doc_; }
  RunController* controller() const { return controller_; }
  views::RunModel* runModel() const { return model_; }
  views::TopologyCanvas* canvas() const { return canvas_; }
  views::TimelineBar* timeline() const { return timeline_; }
  ScenarioDock* scenarioDock() const { return scenarioDock_; }
  SweepResults* sweepResults() const { return sweep_; }
  StatusPanel* statusPanel() const { return status_; }
  QComboBox* pointSelector() const { return pointCombo_; }
  CompareDialog* compareDialog() const { return compare_; }  // null until first shown
  PipelineCompareDialog* pipelineCompareDialog() const { return pipelineCompare_; }  // null until first shown
  // Writes the report of the finished run (HTML or PDF by extension). Returns "" or the
  // error (also in the status bar).
  QString exportReportTo(const QString& path);
  // Writes the shown run's Chrome trace. Returns "" or the error (also in the status bar).
  QString exportTraceTo(const QString& path);
  const MainActions& actions() const { return actions_; }
  StoryDock* storyDock() const { return storyDock_; }
  // Presentation mode (F11): full screen, the editing docks hidden, type and canvas
  // glyphs larger; off restores the layout as it was (main_window_help.cpp).
  void setPresentationMode(bool on);
  bool presentationMode() const { return presenting_; }

  // Tests answer the unsaved-changes question instead of a modal box.
  void setSavePrompt(std::function<QMessageBox::StandardButton()> prompt) { savePrompt_ = std::move(prompt); }
  // ... and the restore-recovery question (true = restore).
  void setRecoveryPrompt(std::function<bool()> prompt) { recoveryPrompt_ = std::move(prompt); }

 public slots:
  void runNow();
  void stopRun();
  void open();
  bool save();
  bool saveAs();
  void exportReport();
  void exportImage();
  void showCompare();  // the "Compare sweep points" window
  void showPipelineCompare();
  void exportTrace();
  void showWelcome();    // the scenario gallery; opens the chosen one
  void showShortcuts();
  void showAbout();
  void showDocs();

 protected:
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  void fitToScreen();
  void buildCentral();
  void buildDocks();
  QDockWidget* buildPipelineDock();  // main_window_pipeline.cpp
  QDockWidget* buildSweepDock();     // main_window_sweep.cpp
  void buildWscDocks();              // main_window_wsc.cpp
  void buildCaisDocks(QDockWidget* tabWith);  // main_window_cais.cpp
  void buildXdcDocks();              // main_window_xdc.cpp: HybridEP docks (cross_dc_moe only)
  void buildToolBar();
  void connectHelp();  // main_window_help.cpp
  void connectSignals();
  void updateTitle();
  void updateRecentMenu();
  void updateRunActions();
  bool maybeSave();

  MainWindowOptions options_;
  ScenarioDocument* doc_;
  views::RunModel* model_;
  RunController* controller_;
  SweepResults* sweep_;
  Recovery* recovery_;
  MainActions actions_;
  views::TopologyCanvas* canvas_ = nullptr;
  views::TimelineBar* timeline_ = nullptr;
  ScenarioDock* scenarioDock_ = nullptr;
  StatusPanel* status_ = nullptr;
  QComboBox* pointCombo_ = nullptr;
  QAction* pointComboAction_ = nullptr;
  QTimer* rerun_ = nullptr;
  CompareDialog* compare_ = nullptr;
  PipelineCompareDialog* pipelineCompare_ = nullptr;
  StoryDock* storyDock_ = nullptr;
  bool presenting_ = false;
  QByteArray statePresented_;  // the dock layout before presentation mode
  QFont fontPresented_;
  bool fittedToScreen_ = false;
  DockApplicabilityGuard* dockGuard_ = nullptr;  // hides docks that do not apply
  std::function<QMessageBox::StandardButton()> savePrompt_;
  std::function<bool()> recoveryPrompt_;
};

}  // namespace fl::gui
