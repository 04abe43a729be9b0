#include "views/scheme_compare_view.h"

#include <QGridLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

#include "views/traffic_breakdown_bars.h"

namespace fl::views {

namespace {
const QColor kUp(0x0072b2), kDown(0xd55e00);  // as the Plots dock
}

UpDownBandwidth upDownBandwidth(const Results& r) {
  UpDownBandwidth out;
  const auto bins = static_cast<size_t>(std::max(r.bins, 0));
  out.up.assign(bins, 0);
  out.down.assign(bins, 0);
  if (bins == 0 || r.bin <= 0) return out;
  const double perGBps = 1.0 / (toSeconds(r.bin) * 1e9);  // bytes in a bin -> GB/s
  for (const auto& l : r.links) {
    if (!l.uplink && !l.downlink) continue;
    for (size_t i = 0; i < l.bin_bytes.bins.size(); ++i) {
      const auto b = static_cast<size_t>(l.bin_bytes.bins[i]);
      if (b >= bins) continue;
      const double v = double(l.bin_bytes.bytes[i]) * perGBps;
      if (l.uplink) out.up[b] += v;
      if (l.downlink) out.down[b] += v;
    }
  }
  return out;
}

SchemeCompareView::SchemeCompareView(QWidget* parent) : QWidget(parent) {
  auto* top = new QWidget(this);
  auto* grid = new QGridLayout(top);
  grid->setContentsMargins(0, 0, 0, 0);
  for (int side = 0; side < 2; ++side) {
    headers_[side] = new QLabel(top);
    QFont f = headers_[side]->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    headers_[side]->setFont(f);
    headers_[side]->setAlignment(Qt::AlignCenter);
    bars_[side] = new TrafficBreakdownBars(nullptr, top);
    grid->addWidget(headers_[side], 0, side);
    grid->addWidget(bars_[side], 1, side);
  }
  grid->setRowStretch(1, 1);  // the bars take the height, not the headers

  plot_ = new QCustomPlot(this);
  plot_->setMinimumSize(400, 280);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  // Rows: title A, axes A, title B, axes B, legend. The default axis rect is A's.
  QCPLayoutGrid* layout = plot_->plotLayout();
  rects_[0] = plot_->axisRect();
  layout->insertRow(0);
  rects_[1] = new QCPAxisRect(plot_);
  auto* margins = new QCPMarginGroup(plot_);  // left axes aligned, so the times line up
  for (int side = 0; side < 2; ++side) {
    titles_[side] = new QCPTextElement(plot_, QString(), QFont(font().family(), font().pointSize(), QFont::Bold));
    layout->addElement(2 * side, 0, titles_[side]);
    if (side == 1) layout->addElement(3, 0, rects_[1]);
    QCPAxisRect* rect = rects_[side];
    rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    rect->setRangeDrag(Qt::Horizontal);
    rect->setRangeZoom(Qt::Horizontal);
    rect->axis(QCPAxis::atLeft)->setLabel(tr("GB/s"));
    rect->axis(QCPAxis::atLeft)->ticker()->setTickCount(3);  // short axes: few labels
    for (int g = 0; g < 2; ++g) {
      QCPGraph* graph = graphs_[side][g] =
          plot_->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
      const QColor c = g == 0 ? kUp : kDown;
      graph->setPen(QPen(c, 1.8));
      graph->setLineStyle(QCPGraph::lsStepLeft);
      if (g == 0) graph->setBrush(QColor(c.red(), c.green(), c.blue(), 40));
      graph->setName(g == 0 ? tr("uplink (GPU → switch)") : tr("downlink (switch → GPU)"));
      if (side == 1) graph->removeFromLegend();  // same colours in both: one legend
    }
  }
  // One time axis: dragging or zooming either run moves both.
  QCPAxis* xa = rects_[0]->axis(QCPAxis::atBottom);
  QCPAxis* xb = rects_[1]->axis(QCPAxis::atBottom);
  connect(xa, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), xb, qOverload<const QCPRange&>(&QCPAxis::setRange));
  connect(xb, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), xa, qOverload<const QCPRange&>(&QCPAxis::setRange));
  rects_[0]->insetLayout()->take(plot_->legend);
  layout->addElement(4, 0, plot_->legend);
  for (int row : {0, 2, 4}) layout->setRowStretchFactor(row, 0.001);
  plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  plot_->legend->setWrap(2);
  plot_->legend->setBorderPen(Qt::NoPen);
  plot_->legend->setVisible(true);

  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(top);
  split->addWidget(plot_);
  split->setChildrenCollapsible(false);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(4, 4, 4, 4);
  outer->addWidget(split);
}

QString SchemeCompareView::bandwidthTitle(int side) const { return titles_[side]->text(); }

void SchemeCompareView::setResults(const QString& labelA, const Results& a, const QString& labelB, const Results& b) {
  const Results* runs[2] = {&a, &b};
  labels_[0] = labelA;
  labels_[1] = labelB;
  // The same byte scale on both breakdowns, or a taller bar could read as a smaller one.
  double top = 0;
  for (int side = 0; side < 2; ++side) {
    headers_[side]->setText(labels_[side]);
    bars_[side]->setResults(runs[side]);
    top = std::max(top, bars_[side]->dataTop());
  }
  for (auto* bars : bars_) bars->setValueTop(top);

  Time span = 1;
  for (const Results* r : runs) span = std::max(span, Time(std::max(r->bins, 1)) * std::max<Time>(r->bin, 1));
  unit_ = timeUnitFor(span);
  double peak = 1;
  for (int side = 0; side < 2; ++side) {
    const Results& r = *runs[side];
    const UpDownBandwidth bw = upDownBandwidth(r);
    for (int g = 0; g < 2; ++g) {
      const auto& values = g == 0 ? bw.up : bw.down;
      QVector<double> k, v;
      for (size_t i = 0; i <= values.size() && !values.empty(); ++i) {  // + the last step's end
        k << double(Time(i) * r.bin) / unit_.ps;
        v << values[std::min(i, values.size() - 1)];
        peak = std::max(peak, v.back());
      }
      graphs_[side][g]->setData(k, v, true);
    }
    titles_[side]->setText(tr("%1 — makespan %2, %3 up, %4 down (wire bytes)")
                               .arg(labels_[side], formatTime(r.makespan), formatBytes(double(r.uplink_bytes)),
                                    formatBytes(double(r.downlink_bytes))));
    rects_[side]->axis(QCPAxis::atBottom)->setLabel(tr("simulated time (%1)").arg(unit_.name));
  }
  for (QCPAxisRect* rect : rects_) rect->axis(QCPAxis::atLeft)->setRange(0, peak * 1.1);
  rects_[0]->axis(QCPAxis::atBottom)->setRange(0, double(span) / unit_.ps);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace fl::views
