#include "views/direction_utilisation_plot.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

#include "views/legend_under_plot.h"

namespace fl::views {

namespace {
const QColor kColourA(0x0072b2), kColourB(0xd55e00);
}  // namespace

std::vector<double> DirectionUtilisationPlot::utilisation(const Results& r, bool uplink) {
  std::vector<double> bytes(std::size_t(std::max(r.bins, 0)), 0.0);
  double capacity = 0;  // bytes/s of all the chosen directions together
  for (const LinkDirectionResult& l : r.links) {
    if (uplink ? !l.uplink : !l.downlink) continue;
    capacity += l.capacity_Bps;
    for (std::size_t i = 0; i < l.bin_bytes.bins.size(); ++i) {
      const auto b = std::size_t(l.bin_bytes.bins[i]);
      if (b < bytes.size()) bytes[b] += double(l.bin_bytes.bytes[i]);
    }
  }
  const double perBin = capacity * double(r.bin) / double(kSecond);
  for (double& b : bytes) b = perBin > 0 ? b / perBin : 0;
  return bytes;
}

DirectionUtilisationPlot::DirectionUtilisationPlot(QWidget* parent) : QWidget(parent) {
  first_ = new QComboBox(this);
  first_->setObjectName(QStringLiteral("directionFirstPoint"));
  second_ = new QComboBox(this);
  second_->setObjectName(QStringLiteral("directionSecondPoint"));
  for (QComboBox* c : {first_, second_}) {
    c->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    c->setToolTip(tr("Sweep point to plot"));
  }
  auto* pickers = new QHBoxLayout;
  auto swatch = [this](const QColor& c) {
    auto* l = new QLabel(QStringLiteral("<span style=\"color:%1\">&#9632;</span>").arg(c.name()), this);
    l->setTextFormat(Qt::RichText);
    return l;
  };
  pickers->addWidget(swatch(kColourA));
  pickers->addWidget(first_);
  pickers->addSpacing(12);
  pickers->addWidget(swatch(kColourB));
  pickers->addWidget(second_);
  pickers->addStretch(1);
  plot_ = new QCustomPlot(this);
  plot_->setMinimumSize(240, 120);
  plot_->yAxis->setLabel(tr("utilisation (%)"));
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->axisRect()->setRangeDrag(Qt::Horizontal);
  plot_->axisRect()->setRangeZoom(Qt::Horizontal);
  for (const QColor& c : {kColourA, kColourB})
    for (Qt::PenStyle style : {Qt::SolidLine, Qt::DashLine}) {
      QCPGraph* g = plot_->addGraph();
      g->setPen(QPen(c, 1.8, style));
      g->setLineStyle(QCPGraph::lsStepLeft);
    }
  legendUnderPlot(plot_, 2);  // never over the data
  cursor_ = new QCPItemStraightLine(plot_);
  cursor_->setPen(QPen(QColor(200, 30, 30, 200), 1.5, Qt::DashLine));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->addLayout(pickers);
  layout->addWidget(plot_, 1);
  connect(first_, &QComboBox::currentIndexChanged, this, &DirectionUtilisationPlot::rebuild);
  connect(second_, &QComboBox::currentIndexChanged, this, &DirectionUtilisationPlot::rebuild);
  connect(first_, &QComboBox::activated, this, [this] { chosen_ = true; });
  connect(second_, &QComboBox::activated, this, [this] { chosen_ = true; });
}

void DirectionUtilisationPlot::setPoints(const std::vector<LabelledResults>& points) {
  points_ = points;
  const QString a = first_->currentText(), b = second_->currentText();
  {
    const QSignalBlocker ba(first_), bb(second_);
    first_->clear();
    second_->clear();
    for (const auto& p : points_) {
      first_->addItem(p.label);
      second_->addItem(p.label);
    }
    // The user's pair, kept by label; until they pick, the first and the last point (a
    // sweep's extremes: the baseline and the full scheme), whichever finished first.
    const int ia = chosen_ ? first_->findText(a) : -1, ib = chosen_ ? second_->findText(b) : -1;
    first_->setCurrentIndex(ia >= 0 ? ia : 0);
    second_->setCurrentIndex(ib >= 0 ? ib : int(points_.size()) - 1);
  }
  rebuild();
}

void DirectionUtilisationPlot::rebuild() {
  Time span = 1;
  for (const auto& p : points_)
    if (p.results) span = std::max(span, Time(std::max(p.results->bins, 1)) * std::max<Time>(p.results->bin, 1));
  unit_ = timeUnitFor(span);
  plot_->xAxis->setLabel(tr("simulated time (%1)").arg(unit_.name));
  double top = 10, end = 0;
  const QComboBox* combos[2] = {first_, second_};
  for (int c = 0; c < 2; ++c) {
    const int i = combos[c]->currentIndex();
    const LabelledResults* p = i >= 0 && i < int(points_.size()) ? &points_[std::size_t(i)] : nullptr;
    for (int d = 0; d < 2; ++d) {
      QCPGraph* g = plot_->graph(2 * c + d);
      QVector<double> keys, values;
      if (p && p->results && p->results->bins > 0) {
        const auto u = utilisation(*p->results, d == 0);
        const double w = double(p->results->bin) / unit_.ps;
        for (std::size_t b = 0; b <= u.size(); ++b) {
          keys << double(b) * w;
          values << 100.0 * u[std::min(b, u.size() - 1)];
          top = std::max(top, values.back());
        }
        end = std::max(end, keys.back());
      }
      g->setData(keys, values, true);
      g->setName(p ? tr("%1 %2").arg(p->label, d == 0 ? tr("uplink") : tr("downlink")) : QString());
      g->setVisible(p != nullptr && !(c == 1 && first_->currentIndex() == second_->currentIndex()));
      if (g->visible()) g->addToLegend();
      else g->removeFromLegend();
    }
  }
  plot_->xAxis->setRange(0, std::max(end, 1e-9));
  plot_->yAxis->setRange(0, std::min(105.0, top * 1.1));
  fitLegendColumns(plot_, 2);
  setCurrentBin(bin_);
}

void DirectionUtilisationPlot::setCurrentBin(int bin) {
  bin_ = bin;
  const int i = first_->currentIndex();
  const bool have = i >= 0 && i < int(points_.size()) && points_[std::size_t(i)].results;
  cursor_->setVisible(have);
  if (have) {
    const double x = (double(bin) + 0.5) * double(points_[std::size_t(i)].results->bin) / unit_.ps;
    cursor_->point1->setCoords(x, 0);
    cursor_->point2->setCoords(x, 1);
  }
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace fl::views
