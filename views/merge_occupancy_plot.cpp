#include "views/merge_occupancy_plot.h"

#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

namespace fl::views {

MergeOccupancyPlot::MergeOccupancyPlot(QWidget* parent) : QWidget(parent) {
  plot_ = new QCustomPlot(this);
  plot_->setMinimumSize(220, 100);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->axisRect()->setRangeDrag(Qt::Horizontal);
  plot_->axisRect()->setRangeZoom(Qt::Horizontal);
  plot_->yAxis->setLabel(tr("entries"));
  const QColor blue(0x0072b2);
  QCPGraph* g = plot_->addGraph();
  g->setPen(QPen(blue, 2));
  g->setBrush(QColor(blue.red(), blue.green(), blue.blue(), 40));
  g->setLineStyle(QCPGraph::lsStepLeft);
  g->setName(tr("entries held"));
  capacity_ = new QCPItemStraightLine(plot_);
  capacity_->setPen(QPen(QColor(0xd5, 0x5e, 0x00), 1.5, Qt::DashLine));
  capacity_->setVisible(false);
  capacityLabel_ = new QCPItemText(plot_);
  capacityLabel_->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
  capacityLabel_->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
  capacityLabel_->position->setTypeY(QCPItemPosition::ptPlotCoords);
  capacityLabel_->setColor(QColor(0xd5, 0x5e, 0x00));
  capacityLabel_->setVisible(false);
  cursor_ = new QCPItemStraightLine(plot_);
  cursor_->setPen(QPen(QColor(200, 30, 30, 200), 1.5, Qt::DashLine));
  cursor_->setVisible(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
}

double MergeOccupancyPlot::binKey(int bin) const { return double(Time(bin) * binWidth_) / unit_.ps; }

void MergeOccupancyPlot::setPort(const MergePortResult* port, int bins, Time binWidth) {
  bins_ = bins;
  binWidth_ = std::max<Time>(binWidth, 1);
  unit_ = timeUnitFor(Time(std::max(bins, 1)) * binWidth_);
  plot_->xAxis->setLabel(tr("simulated time (%1)").arg(unit_.name));
  QVector<double> keys, values;
  double top = 1;
  if (port && bins > 0) {
    const auto dense = port->entries.dense(bins);
    for (int b = 0; b <= bins; ++b) {  // one more point: the last bin's step has a width
      keys << binKey(b);
      values << double(dense[std::size_t(std::min(b, bins - 1))]);
      top = std::max(top, values.back());
    }
  }
  plot_->graph(0)->setData(keys, values, true);
  const bool bounded = port && port->capacity > 0;
  capacity_->setVisible(bounded);
  capacityLabel_->setVisible(bounded);
  if (bounded) {
    capacity_->point1->setCoords(0, double(port->capacity));
    capacity_->point2->setCoords(1, double(port->capacity));
    capacityLabel_->position->setCoords(0.99, double(port->capacity));
    capacityLabel_->setText(tr("capacity %1").arg(port->capacity));
    top = std::max(top, double(port->capacity));
  }
  plot_->yAxis->setLabel(port && !bounded ? tr("entries (unbounded)") : tr("entries"));
  double from = 0, to = std::max(binKey(bins), 1e-9);
  if (port && !port->entries.bins.empty()) {  // open on the part with traffic, padded
    const double a = binKey(port->entries.bins.front()), b = binKey(port->entries.bins.back() + 1);
    from = std::max(from, a - 0.05 * (b - a));
    to = std::min(to, b + 0.05 * (b - a));
  }
  plot_->xAxis->setRange(from, to);
  plot_->yAxis->setRange(0, top * 1.25);  // room for the capacity label
  setCurrentBin(bin_);
}

void MergeOccupancyPlot::setCurrentBin(int bin) {
  bin_ = bin;
  const bool have = bins_ > 0 && plot_->graph(0)->dataCount() > 0;
  const double x = binKey(bin + 1);  // the inspector shows the table at the bin's end
  cursor_->setVisible(have);
  cursor_->point1->setCoords(x, 0);
  cursor_->point2->setCoords(x, 1);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace fl::views
