// MainWindow's CAIS parts (seed 002): the Merge Table dock (views::MergeTableInspector on
// the shown run), the CAIS Compare dock (arrival skew per scheme and per-direction
// utilisation of two sweep points, over the finished points) and the CAIS controls dock
// beside the scenario tree. The dock applicability table (gui/dock_applicability.cpp)
// shows them for tp_layer scenarios and for runs with merge units only (the controls:
// tp_layer only).
#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QTabWidget>

#include "gui/cais_controls.h"
#include "gui/main_window.h"
#include "gui/points_with.h"
#include "gui/scenario_dock.h"
#include "gui/scenario_document.h"
#include "gui/sweep_results.h"
#include "views/arrival_skew_histogram.h"
#include "views/chart_menu.h"
#include "views/direction_utilisation_plot.h"
#include "views/merge_table_inspector.h"
#include "views/point_links.h"
#include "views/run_model.h"

namespace fl::gui {

namespace {

// The finished points (or the single run), named as the toolbar names them.
std::vector<views::LabelledResults> finishedPoints(const SweepResults& sweep) {
  std::vector<views::LabelledResults> out;
  for (int i = 0; i < sweep.pointCount(); ++i)
    if (const auto r = sweep.results(i); r && sweep.isFinished(i)) {
      QString label = sweep.labels().value(i);
      if (label.isEmpty()) label = r->tp ? QString::fromStdString(r->tp->scheme) : MainWindow::tr("this run");
      out.push_back({label, r});
    }
  return out;
}

}  // namespace

void MainWindow::buildCaisDocks(QDockWidget* tabWith) {
  auto* merge = new QDockWidget(tr("Merge Table"), this);
  merge->setObjectName(QStringLiteral("MergeTableDock"));
  auto* inspector = new views::MergeTableInspector(model_, merge);
  merge->setWidget(inspector);

  auto* compare = new QDockWidget(tr("CAIS Compare"), this);
  compare->setObjectName(QStringLiteral("CaisCompareDock"));
  auto* tabs = new QTabWidget(compare);
  auto* skew = new views::ArrivalSkewHistogram(tabs);
  auto* directions = new views::DirectionUtilisationPlot(tabs);
  // Short tab names: both whole side by side in the ~380 px a 1024 x 768 screen leaves.
  tabs->setTabToolTip(tabs->addTab(skew, tr("Arrival skew")), tr("Arrival skew per request set, one bar series per scheme"));
  tabs->setTabToolTip(tabs->addTab(directions, tr("Up / down utilisation")),
                      tr("Uplink and downlink utilisation over time of two sweep points"));
  compare->setWidget(tabs);
  views::installChartMenus(compare);
  views::installChartMenus(merge);
  tabifyDockWidget(tabWith, merge);
  tabifyDockWidget(tabWith, compare);

  auto* controls = new CaisControls(doc_, this);
  tabifyDockWidget(scenarioDock_, controls);
  scenarioDock_->raise();
  connect(sweep_, &SweepResults::selectedPointChanged, controls, &CaisControls::setSweepPoint);

  const auto points = [this, skew, directions, inspector] {
    const auto finished = finishedPoints(*sweep_);
    skew->setPoints(finished);
    directions->setPoints(finished);
    // A point without merge units (TP-NVLS) links to those with them; a click shows one.
    inspector->setElsewherePoints(tr("merge units"), pointsWith(*sweep_, views::MergeTableInspector::hasMergeUnits));
  };
  connect(sweep_, &SweepResults::pointFinished, this, points);
  connect(sweep_, &SweepResults::labelsChanged, this, points);
  connect(sweep_, &SweepResults::selectedPointChanged, this, points);
  connect(inspector->pointLinks(), &views::PointLinks::pointRequested, sweep_, &SweepResults::selectPoint);
  connect(model_, &views::RunModel::currentBinChanged, directions, &views::DirectionUtilisationPlot::setCurrentBin);

  // A tp_layer document opens on the merge table once a point with merge units has
  // finished (once: the user's tab choice stands). Shown by the applicability table,
  // which follows the results before this.
  auto raise = std::make_shared<bool>(true);
  const auto raiseOnce = [this, merge, raise] {
    const Results* r = model_->results();
    if (*raise && r && views::MergeTableInspector::hasMergeUnits(*r) && !merge->isHidden()) {
      *raise = false;
      merge->raise();
    }
  };
  connect(doc_, &ScenarioDocument::documentReset, this, [raiseOnce, raise] {
    *raise = true;
    raiseOnce();
  });
  connect(model_, &views::RunModel::resultsChanged, this, raiseOnce);

  for (QDockWidget* d : {static_cast<QDockWidget*>(merge), compare, static_cast<QDockWidget*>(controls)})
    actions_.viewMenu->addAction(d->toggleViewAction());
}

}  // namespace fl::gui
