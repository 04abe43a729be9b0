// The Sweep dock: one figure of every finished sweep point against the first axis
// (views::SweepChart), fed from SweepResults; clicking a point shows it in the other
// views, as picking it under "Sweep point" does.
#include <QDockWidget>

#include "gui/main_window.h"
#include "gui/sweep_results.h"
#include "views/sweep_chart.h"

namespace fl::gui {

QDockWidget* MainWindow::buildSweepDock() {
  auto* dock = new QDockWidget(tr("Sweep"), this);
  dock->setObjectName(QStringLiteral("SweepDock"));
  auto* chart = new views::SweepChart(dock);
  dock->setWidget(chart);
  // Final results stay on the chart while a re-run of the same points replaces them one
  // by one (SweepResults keeps them until then): an edit does not blank it.
  auto feed = [this, chart] {
    std::vector<std::string> keys;
    for (const SweepAxis& a : sweep_->scenario().sweep) keys.push_back(a.key);
    std::vector<views::SweepChart::Point> points;
    for (int i = 0; i < sweep_->pointCount(); ++i)
      points.push_back({sweep_->settings(i), sweep_->isFinal(i) ? sweep_->results(i) : nullptr});
    chart->setSweep(keys, points);
    chart->setSelectedPoint(sweep_->selectedPoint());
  };
  connect(sweep_, &SweepResults::pointFinished, chart, feed);
  connect(sweep_, &SweepResults::labelsChanged, chart, feed);
  connect(sweep_, &SweepResults::selectedPointChanged, chart, &views::SweepChart::setSelectedPoint);
  connect(chart, &views::SweepChart::pointClicked, sweep_, &SweepResults::selectPoint);
  feed();
  return dock;
}

}  // namespace fl::gui
