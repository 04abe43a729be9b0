#include "views/arrival_skew_histogram.h"

#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

#include "views/format_units.h"
#include "views/legend_under_plot.h"

namespace fl::views {

namespace {
const QColor kSeries[] = {QColor(0x0072b2), QColor(0xd55e00), QColor(0x009e73), QColor(0xcc79a7),
                          QColor(0xe69f00), QColor(0x56b4e9)};
}  // namespace

// Short, so that many fit under the bars: "0", "512 ns", "65.5 µs", "1.05 ms".
QString ArrivalSkewHistogram::binLabel(int k) {
  if (k <= 0) return QStringLiteral("0");
  const double ns = double(std::uint64_t(1) << (k - 1));
  if (ns < 1e3) return QStringLiteral("%1 ns").arg(ns);
  if (ns < 1e6) return QStringLiteral("%1 µs").arg(ns / 1e3, 0, 'g', 3);
  if (ns < 1e9) return QStringLiteral("%1 ms").arg(ns / 1e6, 0, 'g', 3);
  return QStringLiteral("%1 s").arg(ns / 1e9, 0, 'g', 3);
}

ArrivalSkewHistogram::ArrivalSkewHistogram(QWidget* parent) : QWidget(parent) {
  plot_ = new QCustomPlot(this);
  plot_->setMinimumSize(240, 120);
  plot_->xAxis->setLabel(tr("arrival skew per request set (bins from their lower edge)"));
  plot_->yAxis->setLabel(tr("request sets (%)"));
  legendUnderPlot(plot_, 2);  // never over the data
  note_ = new QLabel(this);
  note_->setWordWrap(true);
  note_->setEnabled(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_, 1);
  layout->addWidget(note_);
}

void ArrivalSkewHistogram::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  setPoints(std::vector<LabelledResults>(points_));  // tick labels for the new width
}

void ArrivalSkewHistogram::setPoints(const std::vector<LabelledResults>& points) {
  points_ = points;
  plot_->clearPlottables();
  plotted_.clear();
  QStringList without;
  std::vector<std::pair<LabelledResults, std::vector<std::int64_t>>> with;
  int lo = kSkewHistogramBins, hi = -1;
  for (const LabelledResults& p : points) {
    std::vector<std::int64_t> h(kSkewHistogramBins, 0);
    std::int64_t total = 0;
    if (p.results)
      for (const SwitchResult& s : p.results->switches)
        for (const MergePortResult& port : s.merge_ports)
          for (std::size_t k = 0; k < port.skew_histogram.size() && k < h.size(); ++k) {
            h[k] += port.skew_histogram[k];
            total += port.skew_histogram[k];
          }
    if (total == 0) {
      without << p.label;
      continue;
    }
    for (int k = 0; k < kSkewHistogramBins; ++k)
      if (h[std::size_t(k)] > 0) {
        lo = std::min(lo, k);
        hi = std::max(hi, k);
      }
    with.emplace_back(p, std::move(h));
  }
  auto* group = new QCPBarsGroup(plot_);
  const double width = 0.8 / std::max<std::size_t>(1, with.size());
  double top = 1;
  for (std::size_t i = 0; i < with.size(); ++i) {
    const auto& [p, h] = with[i];
    std::int64_t total = 0;
    for (auto c : h) total += c;
    auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
    const QColor c = kSeries[i % std::size(kSeries)];
    bars->setPen(QPen(c.darker(120)));
    bars->setBrush(c);
    bars->setWidth(width);
    bars->setBarsGroup(group);
    QVector<double> keys, values;
    for (int k = lo; k <= hi; ++k) {
      keys << binKey(k);
      values << 100.0 * double(h[std::size_t(k)]) / double(total);
      top = std::max(top, values.back());
    }
    bars->setData(keys, values, true);
    const double mean = p.results->cais ? p.results->cais->arrival_skew_ns_mean : 0;
    bars->setName(tr("%1: mean %2, %3 sets").arg(p.label, formatTime(Time(mean * kNanosecond)), formatCount(total)));
    plotted_ << p.label;
  }
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  if (hi >= lo) {
    const int fit = std::max(2, plot_->width() / 75);  // labels that fit side by side
    const int step = std::max(1, (hi - lo + fit) / fit);
    for (int k = lo; k <= hi; k += step) ticker->addTick(binKey(k), binLabel(k));
    plot_->xAxis->setRange(binKey(lo) - 0.6, binKey(hi) + 0.6);
  } else {
    plot_->xAxis->setRange(0, 1);
  }
  plot_->xAxis->setTicker(ticker);
  plot_->yAxis->setRange(0, top * 1.15);
  fitLegendColumns(plot_, 2);
  note_->setText(without.isEmpty() ? QString()
                                   : tr("No merge units (nothing to skew) in: %1").arg(without.join(QStringLiteral(", "))));
  note_->setVisible(!without.isEmpty());
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace fl::views
