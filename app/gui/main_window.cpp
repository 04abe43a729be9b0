#include "gui/main_window.h"

#include <algorithm>

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QScreen>
#include <QStyle>
#include <QMenu>
#include <QStatusBar>
#include <QTabBar>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include "gui/compare_dialog.h"
#include "gui/dock_applicability.h"
#include "gui/dock_tab_labels.h"
#include "gui/points_with.h"
#include "gui/follow_runner.h"
#include "gui/fusion_editor.h"
#include "gui/recovery.h"
#include "gui/run_controller.h"
#include "gui/scenario_dock.h"
#include "gui/scenario_document.h"
#include "gui/scenario_tree_model.h"
#include "gui/settings.h"
#include "gui/status_panel.h"
#include "gui/story_dock.h"
#include "gui/sweep_results.h"
#include "views/al_tlb_panel.h"
#include "views/chart_menu.h"
#include "views/compare_canvases.h"
#include "views/follow_bar.h"
#include "views/heat_controls.h"
#include "views/inspector_panel.h"
#include "views/plots_panel.h"
#include "views/point_links.h"
#include "views/run_model.h"
#include "views/switch_table_panel.h"
#include "views/timeline_bar.h"
#include "views/topology_canvas.h"
#include "views/traffic_breakdown_bars.h"

namespace fl::gui {

MainWindow::MainWindow(const MainWindowOptions& options, QWidget* parent)
    : QMainWindow(parent), options_(options) {
  setObjectName(QStringLiteral("MainWindow"));
  doc_ = new ScenarioDocument(this);
  model_ = new views::RunModel(this);
  controller_ = new RunController(this);
  sweep_ = new SweepResults(controller_, model_, this);
  recovery_ = new Recovery(doc_, this);
  rerun_ = new QTimer(this);
  rerun_->setSingleShot(true);
  rerun_->setInterval(options_.rerunDelayMs);

  double cold = model_->coldThreshold(), hot = model_->hotThreshold();
  Settings::thresholds(cold, hot);
  model_->setThresholds(cold, hot);

  actions_ = createMainActions(this, doc_->undoStack());
  buildCentral();
  buildDocks();
  buildToolBar();
  status_ = new StatusPanel(statusBar(), model_, controller_);
  connectSignals();
  updateRecentMenu();
  updateRunActions();
  updateTitle();

  resize(QSize(1500, 950).boundedTo(screen()->availableGeometry().size() * 0.95));
  // Initial dock sizes (after resize(), or they are scaled down): the scenario tree wide
  // enough for key names and values, the plots readable; on a small screen the canvas
  // keeps about half the width.
  resizeDocks({scenarioDock_}, {std::min(440, width() * 28 / 100)}, Qt::Horizontal);
  // (300 px on a 1024 px screen too: the Heat dock's minimum once set it; the Mapping dock's
  // controls want it.)
  resizeDocks({findChild<QDockWidget*>(QStringLiteral("InspectorDock"))}, {std::min(300, width() * 30 / 100)},
              Qt::Horizontal);
  resizeDocks({findChild<QDockWidget*>(QStringLiteral("PlotsDock"))}, {260}, Qt::Vertical);
  if (options_.restoreLayout) {
    restoreGeometry(Settings::windowGeometry());
    restoreState(Settings::windowState());
  }
  recovery_->setEnabled(options_.autosave);
  views::installChartMenus(this);  // save, copy, CSV and maximise on every chart
  installDockTabLabels(this);  // every dock tab whole, none behind scroll arrows
}

// The document is a child: QWidget's destructor deletes it after ours has run, and its
// undo stack's destructor emits cleanChanged -> modifiedChanged -> updateTitle on a window
// that is only a QWidget by then (UBSan: invalid downcast, test_fusion_editor).
MainWindow::~MainWindow() { doc_->blockSignals(true); }

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (!fittedToScreen_) {
    fittedToScreen_ = true;
    fitToScreen();
  }
}

// The whole frame, title bar included, within the screen's available area (a restored
// geometry may come from a larger screen): the size was capped before showing, but the
// frame's margins are known only now. The window cannot be made smaller than its
// minimum size: that is the docks' business (wrapping rows, eliding texts).
void MainWindow::fitToScreen() {
  const QRect available = screen()->availableGeometry();
  const QSize margins = frameGeometry().size() - size();
  const QSize room = available.size() - margins;
  if (width() > room.width() || height() > room.height()) resize(size().boundedTo(room));
  const QRect frame = frameGeometry();
  const QPoint at(std::clamp(frame.left(), available.left(), std::max(available.left(), available.right() + 1 - frame.width())),
                  std::clamp(frame.top(), available.top(), std::max(available.top(), available.bottom() + 1 - frame.height())));
  if (at != frame.topLeft()) move(at);
}

void MainWindow::buildCentral() {
  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  canvas_ = new views::TopologyCanvas(model_, central);
  canvas_->setObjectName(QStringLiteral("topologyCanvas"));
  timeline_ = new views::TimelineBar(model_, central);
  timeline_->setObjectName(QStringLiteral("timelineBar"));
  layout->addWidget(canvas_, 1);
  layout->addWidget((new FollowRunner(canvas_, model_, sweep_, central))->bar());  // hidden until View > Follow One
  layout->addWidget(timeline_);
  setCentralWidget(central);
  // Space and the arrows drive playback while the canvas or timeline has focus; in the
  // scenario tree they keep their usual meaning (editing, expanding rows).
  for (QAction* a : {actions_.playPause, actions_.stepForward, actions_.stepBack}) {
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    central->addAction(a);
  }
  canvas_->setFocus();
}

void MainWindow::buildDocks() {
  setDockNestingEnabled(true);
  // Side docks run the full height (the scenario tree is long) and the plots sit under
  // the canvas; this also keeps the minimum window height within a laptop screen.
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  scenarioDock_ = new ScenarioDock(doc_, this);
  addDockWidget(Qt::LeftDockWidgetArea, scenarioDock_);
  // The scheme form, tabbed behind the scenario tree (both edit the document).
  auto* fusion = new FusionEditor(doc_, this);
  tabifyDockWidget(scenarioDock_, fusion);
  connect(sweep_, &SweepResults::selectedPointChanged, fusion, &FusionEditor::setSweepPoint);
  scenarioDock_->raise();

  auto* inspector = new QDockWidget(tr("Inspector"), this);
  inspector->setObjectName(QStringLiteral("InspectorDock"));
  inspector->setWidget(new views::InspectorPanel(model_, inspector));
  addDockWidget(Qt::RightDockWidgetArea, inspector);

  // The guided tour, tabbed with the inspector; raised for a scenario that has one.
  storyDock_ = new StoryDock(doc_, sweep_, model_, this);
  addDockWidget(Qt::RightDockWidgetArea, storyDock_);
  tabifyDockWidget(inspector, storyDock_);
  connect(storyDock_, &StoryDock::followRequested, findChild<FollowRunner*>(), &FollowRunner::showAndFollowSelectors);
  inspector->raise();
  connect(doc_, &ScenarioDocument::documentReset, this, [this, inspector] {
    if (!doc_->scenario().story.empty()) storyDock_->raise();
    else inspector->raise();
  });

  auto* heat = new QDockWidget(tr("Heat"), this);
  heat->setObjectName(QStringLiteral("HeatDock"));
  auto* heatBody = new QWidget(heat);
  auto* heatLayout = new QVBoxLayout(heatBody);
  heatLayout->setContentsMargins(4, 4, 4, 4);
  auto* heatControls = new views::HeatControls(model_, heatBody);
  heatLayout->addWidget(heatControls);
  // No legend here: the canvas wears its own in its corner, beside the links it keys (and
  // draws it into exports); a second copy in this dock only repeated it.
  heatLayout->addStretch(1);
  heat->setWidget(heatBody);
  addDockWidget(Qt::RightDockWidgetArea, heat);
  connect(heatControls, &views::HeatControls::sideBySideRequested, canvas_,
          [this](int a, int b) { canvas_->setSideBySidePhases(a, b); });
  connect(heatControls, &views::HeatControls::sideBySideCleared, canvas_,
          [this] { canvas_->clearSideBySide(); });

  auto* plots = new QDockWidget(tr("Plots"), this);
  plots->setObjectName(QStringLiteral("PlotsDock"));
  plots->setWidget(new views::PlotsPanel(model_, plots));
  addDockWidget(Qt::BottomDockWidgetArea, plots);

  // MoE layer views, tabbed behind Plots so the default layout keeps its panes (and its
  // minimum height); each shows a notice for other workloads.
  auto* breakdown = new QDockWidget(tr("Traffic Breakdown"), this);
  breakdown->setObjectName(QStringLiteral("BreakdownDock"));
  breakdown->setWidget(new views::TrafficBreakdownBars(model_, breakdown));
  auto* tables = new QDockWidget(tr("Switch Tables"), this);
  tables->setObjectName(QStringLiteral("SwitchTablesDock"));
  auto* tablePanel = new views::SwitchTablePanel(model_, tables);
  tables->setWidget(tablePanel);
  auto* tlb = new QDockWidget(tr("AL TLB"), this);
  tlb->setObjectName(QStringLiteral("AlTlbDock"));
  auto* tlbPanel = new views::AlTlbPanel(model_, tlb);
  tlb->setWidget(tlbPanel);
  // Panels with nothing to show for the selected point name the points that have it.
  const auto hintElsewhere = [this, tablePanel, tlbPanel] {
    tablePanel->setElsewherePoints(tr("in-switch reductions"), pointsWith(*sweep_, views::SwitchTablePanel::hasReductions));
    tlbPanel->setElsewherePoints(tr("AL TLB lookups"), pointsWith(*sweep_, views::AlTlbPanel::hasLookups));
  };
  connect(sweep_, &SweepResults::pointFinished, this, hintElsewhere);
  connect(sweep_, &SweepResults::selectedPointChanged, this, hintElsewhere);
  connect(sweep_, &SweepResults::labelsChanged, this, hintElsewhere);
  connect(tablePanel->pointLinks(), &views::PointLinks::pointRequested, sweep_, &SweepResults::selectPoint);
  connect(tlbPanel->pointLinks(), &views::PointLinks::pointRequested, sweep_, &SweepResults::selectPoint);
  QDockWidget* pipeline = buildPipelineDock();
  QDockWidget* sweepDock = buildSweepDock();
  for (QDockWidget* d : {breakdown, tables, tlb, pipeline, sweepDock}) tabifyDockWidget(plots, d);
  plots->raise();
  // One scale for every point of the sweep: flipping points never rescales the bars.
  const auto commonTop = [this, breakdownBars = static_cast<views::TrafficBreakdownBars*>(breakdown->widget())] {
    double top = 0;
    for (int i = 0; i < sweep_->pointCount(); ++i)
      if (const auto r = sweep_->results(i); r && sweep_->isFinal(i)) top = std::max(top, views::TrafficBreakdownBars::dataTop(*r));
    breakdownBars->setValueTop(top);
  };
  connect(sweep_, &SweepResults::pointFinished, this, commonTop);
  connect(sweep_, &SweepResults::labelsChanged, this, commonTop);
  // The Plots dock likewise: one time and value scale over the finished points.
  const auto commonPlotScale = [this, plotsPanel = static_cast<views::PlotsPanel*>(plots->widget())] {
    views::PlotScale scale;
    for (int i = 0; i < sweep_->pointCount(); ++i)
      if (const auto r = sweep_->results(i); r && sweep_->isFinal(i)) scale.include(*r);
    plotsPanel->setCommonScale(scale);
  };
  connect(sweep_, &SweepResults::pointFinished, this, commonPlotScale);
  connect(sweep_, &SweepResults::labelsChanged, this, commonPlotScale);
  // The shown point's bars are the previous run's until the re-run publishes it: marked.
  const auto markStale = [this, breakdownBars = static_cast<views::TrafficBreakdownBars*>(breakdown->widget())] {
    const int p = sweep_->selectedPoint();
    breakdownBars->setStale(sweep_->isStale(p) && sweep_->results(p));
  };
  connect(sweep_, &SweepResults::pointStateChanged, this, markStale);
  connect(sweep_, &SweepResults::selectedPointChanged, this, markStale);
  connect(model_, &views::RunModel::resultsChanged, this, markStale);
  // Docks that do not apply to the workload hidden, with the reason (gui/dock_applicability.h).
  // An MoE layer opens on its breakdown when its file opens, never when a run ends: the
  // user's tab choice stands.
  dockGuard_ = new DockApplicabilityGuard(this, doc_, model_);
  connect(doc_, &ScenarioDocument::documentReset, this, [this, breakdown] {
    dockGuard_->update();
    if (doc_->scenario().workload.kind == WorkloadKind::MoeLayer) breakdown->raise();
  });

  for (QDockWidget* d :
       {static_cast<QDockWidget*>(scenarioDock_), inspector, static_cast<QDockWidget*>(storyDock_), heat, plots,
        breakdown, tables, tlb, pipeline, sweepDock})
    actions_.viewMenu->addAction(d->toggleViewAction());
  actions_.viewMenu->addAction(fusion->toggleViewAction());
  buildWscDocks();
  buildCaisDocks(plots);
  buildXdcDocks();
  dockGuard_->update();  // the docks built after the guard: one table decides for all
  actions_.viewMenu->addAction(canvas_->findAction());
  actions_.viewMenu->addAction(findChild<FollowRunner*>()->action());
}

void MainWindow::buildToolBar() {
  QToolBar* bar = addToolBar(tr("Main"));
  bar->setObjectName(QStringLiteral("MainToolBar"));
  bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);  // words, not only glyphs
  bar->addAction(actions_.open);
  bar->addAction(actions_.save);
  bar->addSeparator();
  bar->addAction(actions_.run);
  bar->addAction(actions_.stop);
  bar->addSeparator();
  // Playback has its buttons in the timeline under the canvas; the toolbar stays short.

  auto* pointBox = new QWidget(bar);
  auto* pointLayout = new QHBoxLayout(pointBox);
  pointLayout->setContentsMargins(4, 0, 4, 0);
  pointLayout->addWidget(new QLabel(tr("Sweep point:"), pointBox));
  pointCombo_ = new QComboBox(pointBox);
  pointCombo_->setObjectName(QStringLiteral("sweepPointSelector"));
  pointCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  pointCombo_->setToolTip(tr("The sweep point whose results the views show"));
  pointLayout->addWidget(pointCombo_);
  pointComboAction_ = bar->addWidget(pointBox);
  pointComboAction_->setVisible(false);
  // Comparisons up front: the two views with shared axes, one click away.
  actions_.compare->setIconText(tr("Compare"));
  actions_.comparePipelines->setIconText(tr("Pipelines"));
  bar->addAction(actions_.compare);
  bar->addAction(actions_.comparePipelines);
}

void MainWindow::connectSignals() {
  connect(actions_.open, &QAction::triggered, this, &MainWindow::open);
  connect(actions_.save, &QAction::triggered, this, &MainWindow::save);
  connect(actions_.saveAs, &QAction::triggered, this, &MainWindow::saveAs);
  connect(actions_.exportReport, &QAction::triggered, this, &MainWindow::exportReport);
  connect(actions_.exportImage, &QAction::triggered, this, &MainWindow::exportImage);
  connect(actions_.quit, &QAction::triggered, this, &QWidget::close);
  connect(actions_.run, &QAction::triggered, this, &MainWindow::runNow);
  connect(actions_.stop, &QAction::triggered, this, &MainWindow::stopRun);
  connect(actions_.playPause, &QAction::triggered, timeline_, [this] { timeline_->togglePlay(); });
  connect(actions_.stepForward, &QAction::triggered, timeline_, [this] { timeline_->stepForward(); });
  connect(actions_.stepBack, &QAction::triggered, timeline_, [this] { timeline_->stepBack(); });
  connect(actions_.fit, &QAction::triggered, canvas_, [this] { canvas_->fitToView(); });
  connect(actions_.compare, &QAction::triggered, this, &MainWindow::showCompare);
  connect(actions_.comparePipelines, &QAction::triggered, this, &MainWindow::showPipelineCompare);
  connect(actions_.exportTrace, &QAction::triggered, this, &MainWindow::exportTrace);
  connectHelp();
  auto compareEnabled = [this] { actions_.compare->setEnabled(sweep_->finishedCount() >= 2); };
  connect(sweep_, &SweepResults::pointFinished, this, compareEnabled);
  connect(sweep_, &SweepResults::labelsChanged, this, compareEnabled);
  connect(controller_, &RunController::runStarted, this, compareEnabled);  // points go stale

  const double speed = Settings::playbackSpeed();
  for (QAction* a : actions_.speeds->actions()) a->setChecked(qFuzzyCompare(a->data().toDouble(), speed));
  timeline_->setSpeed(speed);
  connect(actions_.speeds, &QActionGroup::triggered, this, [this](QAction* a) {
    timeline_->setSpeed(a->data().toDouble());
    Settings::setPlaybackSpeed(a->data().toDouble());
  });
  connect(actions_.speedMenu, &QMenu::aboutToShow, this, [this] {  // the timeline has its own box
    for (QAction* a : actions_.speeds->actions())
      a->setChecked(qFuzzyCompare(a->data().toDouble(), timeline_->speed()));
  });
  connect(timeline_, &views::TimelineBar::playingChanged, this, [this](bool playing) {
    actions_.playPause->setText(playing ? tr("&Pause") : tr("&Play"));
    actions_.playPause->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  });

  connect(model_, &views::RunModel::thresholdsChanged, this,
          [this] { Settings::setThresholds(model_->coldThreshold(), model_->hotThreshold()); });

  // Edits: re-run after a pause, keeping the current results on screen meanwhile.
  connect(doc_, &ScenarioDocument::edited, rerun_, qOverload<>(&QTimer::start));
  connect(rerun_, &QTimer::timeout, this, &MainWindow::runNow);
  connect(doc_, &ScenarioDocument::documentReset, this, [this] {
    sweep_->clear();
    runNow();
  });
  connect(doc_, &ScenarioDocument::modifiedChanged, this, &MainWindow::updateTitle);
  connect(doc_, &ScenarioDocument::filePathChanged, this, &MainWindow::updateTitle);
  connect(doc_, &ScenarioDocument::changed, this, &MainWindow::updateTitle);

  connect(scenarioDock_->model(), &ScenarioTreeModel::editRejected, status_, &StatusPanel::showError);
  connect(scenarioDock_->model(), &ScenarioTreeModel::editAccepted, status_, &StatusPanel::clearMessage);
  connect(recovery_, &Recovery::writeFailed, status_, &StatusPanel::showError);

  connect(controller_, &RunController::stateChanged, this, &MainWindow::updateRunActions);
  connect(controller_, &RunController::failed, status_, &StatusPanel::showError);
  connect(controller_, &RunController::runFinished, this, [this](bool cancelled, double) {
    if (cancelled) status_->showInfo(tr("Run stopped; showing what was simulated so far."));
  });
  connect(sweep_, &SweepResults::labelsChanged, this, [this](const QStringList& labels) {
    const QSignalBlocker block(pointCombo_);
    pointCombo_->clear();
    pointCombo_->addItems(labels);
    pointCombo_->setCurrentIndex(sweep_->selectedPoint());
    pointComboAction_->setVisible(labels.size() > 1);
  });
  connect(sweep_, &SweepResults::selectedPointChanged, pointCombo_, &QComboBox::setCurrentIndex);
  connect(pointCombo_, &QComboBox::currentIndexChanged, sweep_, &SweepResults::selectPoint);
}

void MainWindow::updateTitle() {
  const std::string& name = doc_->scenario().name;
  QString title = doc_->displayName() + QStringLiteral("[*]");
  if (!name.empty()) title += QStringLiteral(" — ") + QString::fromStdString(name);
  setWindowTitle(title + QStringLiteral(" — FabricLab"));
  setWindowModified(doc_->isModified());
}

void MainWindow::updateRunActions() {
  const bool busy = controller_->isBusy();
  actions_.stop->setEnabled(busy);
  actions_.run->setText(busy ? tr("&Restart") : tr("&Run"));
}

void MainWindow::runNow() {
  rerun_->stop();
  status_->showInfo(tr("Running %1…").arg(doc_->displayName()), 3000);
  controller_->start(doc_->scenario());
}

void MainWindow::showCompare() {
  if (!compare_) {
    compare_ = new CompareDialog(sweep_, this);
    views::installChartMenus(compare_);
  }
  compare_->canvases()->setThresholds(model_->coldThreshold(), model_->hotThreshold());  // the canvas's
  compare_->refresh();
  compare_->show();
  compare_->raise();
  compare_->activateWindow();
}

void MainWindow::stopRun() {
  rerun_->stop();
  controller_->stop();
}

}  // namespace fl::gui
