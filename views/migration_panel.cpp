#include "views/migration_panel.h"

#include <QVBoxLayout>
#include <QSplitter>
#include <QTimer>
#include <algorithm>

#include "views/migration_animation.h"
#include "views/migration_load_plot.h"
#include "views/point_links.h"
#include "views/run_model.h"

namespace fl::views {

MigrationPanel::MigrationPanel(RunModel* model, QWidget* parent)
    : QWidget(parent), model_(model), animation_(new MigrationAnimation), plot_(new MigrationLoadPlot) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  links_ = new PointLinks(this);
  layout->addWidget(links_);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(animation_);
  split->addWidget(plot_);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  split->setChildrenCollapsible(false);
  split->setSizes({500, 500});  // half each (the plot's own hint would leave it a sliver)
  split_ = split;
  connect(split, &QSplitter::splitterMoved, this, [this] { userSized_ = true; });
  layout->addWidget(split, 1);
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

// Half each until the user moves the splitter (sizes set before the dock is laid out
// are not kept, and the plot's own hint would leave the animation a sliver).
void MigrationPanel::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  if (userSized_) return;
  QTimer::singleShot(0, this, [this] {  // after the layout has resized the splitter
    const int w = std::max(2, split_->width());
    split_->setSizes({w / 2, w - w / 2});
  });
}

// The middle of the timeline's bin.
void MigrationPanel::followTimeline() {
  animation_->setTime(model_->currentBin() * model_->binWidth() + model_->binWidth() / 2);
  plot_->setIteration(animation_->iteration());
}

}  // namespace fl::views
