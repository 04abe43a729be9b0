// MainWindow's token-pipeline parts: the Pipeline dock (views::PipelineGantt on the
// shown run), Run > Compare Pipelines, and File > Export Trace (Chrome trace JSON).
#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>

#include "gui/main_window.h"
#include "gui/pipeline_compare_dialog.h"
#include "gui/run_controller.h"
#include "gui/status_panel.h"
#include "gui/sweep_results.h"
#include "results/chrome_trace.h"
#include "scenario/input_error.h"
#include "scenario/sweep.h"
#include "views/chart_menu.h"
#include "views/pipeline_gantt.h"
#include "views/run_model.h"

namespace fl::gui {

namespace {

// The scenario of the sweep point on screen (its settings applied, no sweep).
Scenario shownScenario(const RunController* controller, const SweepResults* sweep) {
  const auto& settings = controller->lastPointSettings();
  const int point = sweep->selectedPoint();
  if (point < 0 || point >= static_cast<int>(settings.size())) return controller->lastScenario();
  return sweepPointScenario(controller->lastScenario(), settings[static_cast<size_t>(point)]);
}

}  // namespace

QDockWidget* MainWindow::buildPipelineDock() {
  auto* dock = new QDockWidget(tr("Pipeline"), this);
  dock->setObjectName(QStringLiteral("PipelineDock"));
  dock->setWidget(new views::PipelineGantt(model_, dock));
  auto enable = [this] {
    const Results* r = model_->results();
    const bool done = r && model_->isFinal();
    actions_.exportTrace->setEnabled(done);
    actions_.comparePipelines->setEnabled(done && r->moe.has_value());  // fusion schemes are MoE-layer settings
  };
  connect(model_, &views::RunModel::resultsChanged, this, enable);
  enable();
  return dock;
}

void MainWindow::showPipelineCompare() {
  if (!pipelineCompare_) {
    pipelineCompare_ = new PipelineCompareDialog(this);
    views::installChartMenus(pipelineCompare_);
  }
  try {
    pipelineCompare_->setCurrent(model_->resultsShared(), shownScenario(controller_, sweep_),
                                 sweep_->labels().value(sweep_->selectedPoint(), tr("single run")));
  } catch (const InputError& e) {
    status_->showError(QString::fromStdString(e.what()));
    return;
  }
  pipelineCompare_->show();
  pipelineCompare_->raise();
  pipelineCompare_->activateWindow();
}

QString MainWindow::exportTraceTo(const QString& path) {
  const auto results = model_->resultsShared();
  QString error;
  if (!results || !model_->isFinal()) {
    error = tr("No finished results yet: run the scenario first.");
  } else {
    try {
      writeChromeTrace(path.toStdString(), *results, shownScenario(controller_, sweep_), "export");
    } catch (const InputError& e) {
      error = QString::fromStdString(e.what());
    }
  }
  if (error.isEmpty()) status_->showInfo(tr("Exported %1").arg(path));
  else status_->showError(error);
  return error;
}

void MainWindow::exportTrace() {
  QString path = QFileDialog::getSaveFileName(this, tr("Export Trace"), QString(),
                                              tr("Chrome trace, for Perfetto or chrome://tracing (*.json)"));
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".json");
  const QString error = exportTraceTo(path);
  if (!error.isEmpty()) QMessageBox::warning(this, tr("Cannot export trace"), error);
}

}  // namespace fl::gui
