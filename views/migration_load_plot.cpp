#include "views/migration_load_plot.h"

#include <qcustomplot.h>

#include <QVBoxLayout>
#include <algorithm>

#include "views/migration_animation.h"

namespace fl::views {

MigrationLoadPlot::MigrationLoadPlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  plot_->setObjectName(QStringLiteral("migrationLoadPlot"));
  plot_->setMinimumSize(120, 100);  // its own hint is the key's whole row: the animation would get a sliver
  plot_->xAxis->setLabel(tr("iteration"));
  auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();  // iterations are whole numbers
  ticker->setTickStep(1);
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  plot_->xAxis->setTicker(ticker);
  plot_->yAxis->setLabel(tr("max / mean die load"));
  load_ = plot_->addGraph();
  load_->setName(tr("load max / mean"));
  load_->setPen(QPen(QColor(60, 110, 200), 2));
  starts_ = plot_->addGraph();
  starts_->setName(tr("expert copy starts"));
  starts_->setLineStyle(QCPGraph::lsNone);
  starts_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangle, QPen(globalStageColour().darker(130), 1.5),
                                           globalStageColour(), 9));
  auto* key = plot_->addGraph();  // legend entry for the activation lines (items have none)
  key->setName(tr("replica in place"));
  key->setPen(QPen(localStageColour().darker(120), 1, Qt::DashLine));
  cursorLine_ = new QCPItemStraightLine(plot_);
  cursorLine_->setPen(QPen(QColor(255, 45, 200), 1.5));
  // The key under the axes (inside them it hid the curve in a narrow dock), laid out by
  // resizeEvent.
  plot_->legend->setVisible(true);
  plot_->axisRect()->insetLayout()->take(plot_->legend);
  plot_->plotLayout()->addElement(1, 0, plot_->legend);
  plot_->plotLayout()->setRowStretchFactor(1, 0.001);
  plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  plot_->legend->setBorderPen(Qt::NoPen);
  setToolTip(tr("Blue: max / mean die load per iteration. Triangles: an expert copy starts. Dashed green: "
                "its replica is in place (from that iteration on). Magenta: the timeline."));
  setResults(nullptr);
}

// The key in one row where it fits, else one entry a row when the plot is tall enough
// for that, else hidden (the tooltip says it): never cut at the edge.
void MigrationLoadPlot::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  const bool row = width() >= 420, column = !row && height() >= 240;
  const int wrap = row ? 3 : 1;
  if (plot_->legend->visible() != (row || column) || plot_->legend->wrap() != wrap) {
    plot_->legend->setVisible(row || column);
    plot_->legend->setWrap(wrap);
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // re-places the entries
    plot_->plotLayout()->setRowSpacing(row || column ? 5 : 0);
    plot_->replot(QCustomPlot::rpQueuedReplot);
  }
}

int MigrationLoadPlot::pointCount() const { return load_->dataCount(); }
int MigrationLoadPlot::migrationMarkCount() const { return starts_->dataCount(); }

void MigrationLoadPlot::setResults(std::shared_ptr<const Results> results) {
  for (auto* l : activations_) plot_->removeItem(l);
  activations_.clear();
  QVector<double> x, y, sx, sy;
  double top = 1;
  if (results && results->wsc) {
    const auto& v = results->wsc->load_max_over_mean;
    for (size_t i = 0; i < v.size(); ++i) x << static_cast<double>(i), y << v[i], top = std::max(top, v[i]);
    for (const WscMigration& m : results->wsc->migrations) {
      const auto i = static_cast<size_t>(std::clamp(m.start_iteration, 0, static_cast<int>(std::max<size_t>(1, v.size())) - 1));
      sx << m.start_iteration;
      sy << (i < v.size() ? v[i] : 1.0);
      auto* line = new QCPItemStraightLine(plot_);
      line->setPen(QPen(localStageColour().darker(120), 1, Qt::DashLine));
      line->point1->setCoords(m.end_iteration + 1, 0);
      line->point2->setCoords(m.end_iteration + 1, 1);
      activations_.push_back(line);
    }
  }
  load_->setData(x, y, true);
  starts_->setData(sx, sy);
  plot_->xAxis->setRange(0, std::max(1.0, static_cast<double>(x.size())));
  plot_->yAxis->setRange(0, top * 1.1);
  setIteration(cursor_);
}

void MigrationLoadPlot::setIteration(double iteration) {
  cursor_ = iteration;
  cursorLine_->point1->setCoords(iteration, 0);
  cursorLine_->point2->setCoords(iteration, 1);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace fl::views
