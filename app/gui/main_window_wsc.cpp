// MainWindow's wafer-scale inference docks (seed 003, issue 20 "Views"): Mapping (the
// mapping editor on the canvas; a die swap or an expert move is one undo step through the
// document; a drag's preview goes to Hot/Cold Links too), Hot/Cold Links (two phases, or
// baseline vs ER on one scale; made taller when a wafer scenario opens) and Migrations
// (the animation and the device-load plot). Hot/Cold's "Two phases" opens on a mapping
// sweep's ER point until the user picks a point. They apply to wsc_inference workloads only:
// the dock applicability table (gui/dock_applicability.cpp) hides them for other workloads.
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QMenu>
#include <QScrollArea>
#include <QTimer>
#include <algorithm>

#include "gui/main_window.h"
#include "gui/points_with.h"
#include "gui/scenario_document.h"
#include "gui/sweep_results.h"
#include "views/hot_cold_panel.h"
#include "views/mapping_panel.h"
#include "views/migration_panel.h"
#include "views/point_links.h"
#include "views/run_model.h"
#include "views/topology_canvas.h"
#include "views/wafer_mapping_overlay.h"

namespace fl::gui {

void MainWindow::buildWscDocks() {
  auto* mapping = new QDockWidget(tr("Mapping"), this);
  mapping->setObjectName(QStringLiteral("MappingDock"));
  // In a scroll area: on a short screen its wrapped texts would otherwise be squeezed
  // on top of each other.
  auto* mappingScroll = new QScrollArea(mapping);
  mappingScroll->setWidgetResizable(true);
  mappingScroll->setFrameShape(QFrame::NoFrame);
  auto* mappingPanel = new views::MappingPanel(model_, canvas_, mappingScroll);
  mappingScroll->setWidget(mappingPanel);
  mapping->setWidget(mappingScroll);
  // A drop is a finished gesture (nothing to debounce): in the analytical model the result
  // follows at once.
  mappingPanel->setApply([this](const views::DieLists& groups, const QString& label) {
    const QString error = doc_->editMapping(groups, label);
    if (error.isEmpty() && doc_->scenario().network.model == NetworkModel::Analytical) runNow();
    return error;
  });
  mappingPanel->setApplyExperts([this](const views::ExpertDies& dies, const QString& label) {
    std::string list = "[";
    for (std::size_t e = 0; e < dies.size(); ++e) list += (e ? ", " : "") + std::to_string(dies[e]);
    const QString error = doc_->editAll(
        {{"workload.wsc.expert_placement", "explicit"}, {"workload.wsc.expert_dies", list + "]"}}, label);
    if (error.isEmpty() && doc_->scenario().network.model == NetworkModel::Analytical) runNow();
    return error;
  });
  addDockWidget(Qt::RightDockWidgetArea, mapping);

  auto* hotCold = new QDockWidget(tr("Hot/Cold Links"), this);
  hotCold->setObjectName(QStringLiteral("HotColdDock"));
  auto* hotColdPanel = new views::HotColdPanel(model_, hotCold);
  hotCold->setWidget(hotColdPanel);
  connect(mappingPanel, &views::MappingPanel::previewResults, hotColdPanel, &views::HotColdPanel::setPreview);
  auto* migrations = new QDockWidget(tr("Migrations"), this);
  migrations->setObjectName(QStringLiteral("MigrationsDock"));
  migrations->setWidget(new views::MigrationPanel(model_, migrations));
  QDockWidget* plots = findChild<QDockWidget*>(QStringLiteral("PlotsDock"));
  QDockWidget* heat = findChild<QDockWidget*>(QStringLiteral("HeatDock"));
  if (heat) {
    tabifyDockWidget(heat, mapping);
    heat->raise();
  }
  for (QDockWidget* d : {hotCold, migrations}) {
    if (plots) tabifyDockWidget(plots, d);
    else addDockWidget(Qt::BottomDockWidgetArea, d);
  }
  const std::vector<QDockWidget*> docks = {mapping, hotCold, migrations};
  for (QDockWidget* d : docks) actions_.viewMenu->addAction(d->toggleViewAction());

  // Finished sweep points for "two runs" (baseline vs ER).
  const auto feedRuns = [this, hotColdPanel] {
    std::vector<std::shared_ptr<const Results>> runs;
    for (int i = 0; i < sweep_->pointCount(); ++i) runs.push_back(sweep_->isFinal(i) ? sweep_->results(i) : nullptr);
    hotColdPanel->setRuns(sweep_->labels(), runs);
  };
  connect(sweep_, &SweepResults::pointFinished, this, feedRuns);
  connect(sweep_, &SweepResults::labelsChanged, this, feedRuns);
  // "Two phases" opens on a mapping sweep's ER point (HotColdPanel::phasesRun) until the
  // user picks a point: every document opens on point 0, so a move off it is a pick, and
  // so is choosing any point (the same one included) in the toolbar's combo.
  connect(sweep_, &SweepResults::selectedPointChanged, hotColdPanel, [hotColdPanel](int point) {
    if (point != 0) hotColdPanel->setFollowShown(true);
  });
  QTimer::singleShot(0, hotColdPanel, [this, hotColdPanel] {  // the combo is built after the docks
    if (auto* combo = findChild<QComboBox*>(QStringLiteral("sweepPointSelector")))
      connect(combo, &QComboBox::activated, hotColdPanel, [hotColdPanel] { hotColdPanel->setFollowShown(true); });
  });

  // Shown for wsc_inference by the applicability table; a wafer scenario opens on its
  // hot/cold links.
  const auto offer = [this, mappingPanel, mapping, hotCold, hotColdPanel](bool reset) {
    const bool wsc = doc_->scenario().workload.kind == WorkloadKind::WscInference;
    mappingPanel->setScenario(doc_->scenario());
    if (reset) hotColdPanel->setFollowShown(false);
    if (wsc && reset) {  // a wafer scenario opens on its own views
      // Queued: docks shown by the table join their tab bar only once the layout has run;
      // raised at once, the last one shown (Migrations) would still end up in front.
      QTimer::singleShot(0, hotCold, [this, hotCold, mapping] {
        hotCold->raise();
        mapping->raise();
        // Room for the two wafers: the bottom docks' default 260 px left them about 70 px
        // tall at 1024 x 768; 45 % of the window (300 to 440 px) gives them 150 px or more
        // (the canvas, shorter, fits its wafer above its legend; its splitter gives it back).
        resizeDocks({hotCold}, {std::clamp(height() * 45 / 100, 300, 440)}, Qt::Vertical);
      });
    }
    if (!wsc) mappingPanel->overlay()->setShown(false);
  };
  // A point without migrations ("No balancer") links to the points with some.
  auto* migrationPanel = static_cast<views::MigrationPanel*>(migrations->widget());
  const auto migrationPoints = [this, migrationPanel] {
    const auto moved = [](const Results& r) { return r.wsc && !r.wsc->migrations.empty(); };
    const Results* shown = model_->results();
    migrationPanel->pointLinks()->setPoints(
        tr("Sweep points with expert migrations (click one to show it):"),
        shown && moved(*shown) ? std::vector<views::PointLinks::Point>{} : pointsWith(*sweep_, moved));
  };
  connect(sweep_, &SweepResults::pointFinished, this, migrationPoints);
  connect(sweep_, &SweepResults::labelsChanged, this, migrationPoints);
  connect(sweep_, &SweepResults::selectedPointChanged, this, migrationPoints);
  connect(model_, &views::RunModel::resultsChanged, this, migrationPoints);
  connect(migrationPanel->pointLinks(), &views::PointLinks::pointRequested, sweep_, &SweepResults::selectPoint);
  connect(doc_, &ScenarioDocument::changed, this, [offer] { offer(false); });
  connect(doc_, &ScenarioDocument::documentReset, this, [offer] { offer(true); });
  offer(true);
}

}  // namespace fl::gui
