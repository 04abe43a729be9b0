#include "views/migration_panel.h"

#include <QHBoxLayout>
#include <QSplitter>

#include "views/migration_animation.h"
#include "views/migration_load_plot.h"
#include "views/run_model.h"

namespace fl::views {

MigrationPanel::MigrationPanel(RunModel* model, QWidget* parent)
    : QWidget(parent), model_(model), animation_(new MigrationAnimation), plot_(new MigrationLoadPlot) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(animation_);
  split->addWidget(plot_);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  split->setSizes({500, 500});  // half each (the plot's own hint would leave it a sliver)
  layout->addWidget(split);
  connect(model_, &RunModel::topologyChanged, this, [this] { animation_->setTopology(model_->topologyShared()); });
  connect(model_, &RunModel::resultsChanged, this, [this] {
    animation_->setResults(model_->resultsShared());
    plot_->setResults(model_->resultsShared());
    followTimeline();
  });
  connect(model_, &RunModel::currentBinChanged, this, &MigrationPanel::followTimeline);
  animation_->setTopology(model_->topologyShared());
  animation_->setResults(model_->resultsShared());
  plot_->setResults(model_->resultsShared());
}

// The middle of the timeline's bin.
void MigrationPanel::followTimeline() {
  animation_->setTime(model_->currentBin() * model_->binWidth() + model_->binWidth() / 2);
  plot_->setIteration(animation_->iteration());
}

}  // namespace fl::views
