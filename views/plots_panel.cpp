#include "views/plots_panel.h"

#include <QActionGroup>
#include <QEvent>
#include <QMenu>
#include <QToolButton>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <numeric>
#include <qcustomplot.h>

#include "views/run_model.h"
#include "views/scheme_compare_view.h"

namespace fl::views {

namespace {

// Okabe-Ito (colour-blind safe), the palette core/report uses for series.
const QColor kSeries[] = {QColor(0x0072b2), QColor(0xd55e00), QColor(0x009e73), QColor(0xcc79a7),
                          QColor(0xe69f00), QColor(0x56b4e9)};

QString q(const std::string& s) { return QString::fromStdString(s); }

// A step curve: one point per bin start plus the end of the last bin. Values below
// `floor` are drawn at it (a log axis has no zero).
void setSteps(QCPGraph* g, const std::vector<double>& keys, const std::vector<double>& values, double floor = 0) {
  QVector<double> k(keys.begin(), keys.end()), v;
  for (double x : values) v << std::max(x, floor);
  if (!v.isEmpty()) {
    k << keys.back() + (keys.size() > 1 ? keys[1] - keys[0] : 1);
    v << values.back();
  }
  g->setData(k, v, true);
  g->setLineStyle(QCPGraph::lsStepLeft);
}

QCPItemStraightLine* makeCursor(QCustomPlot* plot) {
  auto* line = new QCPItemStraightLine(plot);
  line->setPen(QPen(QColor(200, 30, 30, 200), 1.5, Qt::DashLine));
  line->setVisible(false);
  return line;
}

}  // namespace

PlotsPanel::PlotsPanel(RunModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  tabs_ = new QTabWidget(this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(tabs_);

  bandwidth_ = makePlot(tr("time"), tr("bandwidth (GB/s)"));
  bandwidth_->addGraph()->setName(tr("uplink (endpoint → fabric)"));
  bandwidth_->addGraph()->setName(tr("downlink (fabric → endpoint)"));
  for (int i = 0; i < 2; ++i) bandwidth_->graph(i)->setPen(QPen(kSeries[i], 2));
  bandwidth_->graph(0)->setBrush(QColor(kSeries[0].red(), kSeries[0].green(), kSeries[0].blue(), 40));
  legendBelow(bandwidth_);
  bandwidthCursor_ = makeCursor(bandwidth_);
  tabs_->addTab(bandwidth_, tr("Uplink / downlink"));

  links_ = makePlot(tr("time"), tr("utilisation (%)"));
  links_->plotLayout()->insertRow(0);
  linksTitle_ = new QCPTextElement(links_, QString(), QFont(font().family(), font().pointSize(), QFont::Bold));
  links_->plotLayout()->addElement(0, 0, linksTitle_);
  legendBelow(links_);
  // Compact: up to five entries in two short rows, in a smaller font, so the plot keeps
  // its height.
  links_->legend->setWrap(3);
  links_->legend->setRowSpacing(0);
  links_->legend->setIconSize(22, 10);
  QFont small = font();
  small.setPointSizeF(std::max(6.0, small.pointSizeF() - 1));
  links_->legend->setFont(small);
  linksCursor_ = makeCursor(links_);
  tabs_->addTab(links_, tr("Link utilisation"));

  latency_ = makePlot(tr("packet latency (ns)"), tr("packets"));
  tabs_->addTab(latency_, tr("Latency"));
  for (QCustomPlot* p : {bandwidth_, links_}) p->installEventFilter(this);

  auto* options = new QToolButton(tabs_);
  options->setObjectName(QStringLiteral("plotsAxesButton"));
  options->setText(tr("Axes"));
  options->setToolTip(tr("Log value axis; the link plot as utilisation or as a rate"));
  options->setPopupMode(QToolButton::InstantPopup);
  options->setAutoRaise(true);
  auto* menu = new QMenu(options);
  logAction_ = menu->addAction(tr("Log scale (time plots)"));
  logAction_->setCheckable(true);
  logAction_->setToolTip(tr("Logarithmic value axis on the time plots: small flows stay visible next to the peak"));
  menu->addSeparator();
  auto* linkValues = new QActionGroup(menu);
  QAction* utilisation = utilisationAction_ = menu->addAction(tr("Link plot: utilisation %"));
  linkRateAction_ = menu->addAction(tr("Link plot: rate GB/s"));
  for (QAction* a : {utilisation, linkRateAction_}) {
    a->setCheckable(true);
    linkValues->addAction(a);
  }
  utilisation->setChecked(true);
  options->setMenu(menu);
  tabs_->setCornerWidget(options, Qt::TopRightCorner);
  connect(logAction_, &QAction::toggled, this, &PlotsPanel::setLogScale);
  connect(linkRateAction_, &QAction::toggled, this,
          [this](bool rate) { setLinkValue(rate ? LinkValue::Rate : LinkValue::Utilisation); });

  auto all = [this] {
    rebuildBandwidth();
    rebuildLinks();
    rebuildLatency();
  };
  connect(model_, &RunModel::resultsChanged, this, all);
  connect(model_, &RunModel::topologyChanged, this, all);
  connect(model_, &RunModel::selectionChanged, this, &PlotsPanel::rebuildLinks);
  connect(model_, &RunModel::currentBinChanged, this, &PlotsPanel::moveCursors);
  all();
}

QCustomPlot* PlotsPanel::makePlot(const QString& xLabel, const QString& yLabel) {
  auto* plot = new QCustomPlot(this);
  plot->xAxis->setLabel(xLabel);
  plot->yAxis->setLabel(yLabel);
  plot->setMinimumSize(280, 170);
  plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot->axisRect()->setRangeDrag(Qt::Horizontal);
  plot->axisRect()->setRangeZoom(Qt::Horizontal);
  plot->legend->setVisible(false);
  return plot;
}

// The legend in its own row under the axes, so curves never hide behind it.
void PlotsPanel::legendBelow(QCustomPlot* plot) {
  plot->axisRect()->insetLayout()->take(plot->legend);
  plot->axisRect()->insetLayout()->simplify();
  plot->plotLayout()->addElement(plot->plotLayout()->rowCount(), 0, plot->legend);
  plot->plotLayout()->setRowStretchFactor(plot->plotLayout()->rowCount() - 1, 0.001);
  plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  plot->legend->setWrap(2);
  plot->legend->setBorderPen(Qt::NoPen);
  plot->legend->setVisible(true);
}

bool PlotsPanel::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::Resize && (watched == bandwidth_ || watched == links_)) fitLegends();
  return QWidget::eventFilter(watched, event);
}

void PlotsPanel::fitLegends() {
  // The long names when they fit one a row, else the short ones. A plot not shown has
  // no width of its own yet: long names, and its columns as they are until it is shown.
  const int room = bandwidth_->isVisible() ? bandwidth_->width() - 16 : 1 << 20;
  const QFontMetrics fm(bandwidth_->legend->font());
  const int icon = bandwidth_->legend->iconSize().width() + bandwidth_->legend->iconTextPadding() + 16;
  const bool longNames = std::max(fm.horizontalAdvance(upName_[0]), fm.horizontalAdvance(downName_[0])) + icon <= room;
  if (!upName_[0].isEmpty()) {
    bandwidth_->graph(0)->setName(upName_[longNames ? 0 : 1]);
    bandwidth_->graph(1)->setName(downName_[longNames ? 0 : 1]);
  }
  fitLegendColumns(bandwidth_, 2);
  fitLegendColumns(links_, 3);
  bandwidth_->replot(QCustomPlot::rpQueuedReplot);
  links_->replot(QCustomPlot::rpQueuedReplot);
}

// The most columns (up to `columns`) whose widest entries, side by side, fit the plot.
void PlotsPanel::fitLegendColumns(QCustomPlot* plot, int columns) {
  if (!plot->isVisible()) return;
  QCPLegend* legend = plot->legend;
  std::vector<int> widths;
  for (int i = 0; i < legend->itemCount(); ++i)  // cells of removed graphs may be empty
    if (QCPAbstractLegendItem* item = legend->item(i)) widths.push_back(item->minimumOuterSizeHint().width());
  const int room = plot->width() - legend->margins().left() - legend->margins().right() - 8;
  int wrap = std::max(1, columns);
  for (; wrap > 1; --wrap) {
    int total = (wrap - 1) * legend->columnSpacing();
    for (int c = 0; c < wrap; ++c) {
      int widest = 0;
      for (std::size_t i = std::size_t(c); i < widths.size(); i += std::size_t(wrap)) widest = std::max(widest, widths[i]);
      total += widest;
    }
    if (total <= room) break;
  }
  if (legend->wrap() != wrap) {
    legend->setWrap(wrap);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // re-flow the entries
  }
}

bool PlotsPanel::hasLatencyData() const {
  const Results* r = model_->results();
  return r && r->latency && r->latency->samples > 0 && !r->latency->histogram_counts.empty();
}

double PlotsPanel::binKey(int bin) const {
  return static_cast<double>(Time(bin) * model_->binWidth()) / unit_.ps;
}

void PlotsPanel::rebuildBandwidth() {
  const Results* r = model_->results();
  const int bins = model_->binCount();
  const Time span = std::max(Time(std::max(bins, 1)) * std::max<Time>(model_->binWidth(), 1), common_.duration);
  unit_ = timeUnitFor(span);
  const QString xLabel = tr("simulated time (%1)").arg(unit_.name);
  bandwidth_->xAxis->setLabel(xLabel);
  links_->xAxis->setLabel(xLabel);
  std::vector<double> keys(static_cast<size_t>(bins)), up(keys.size(), 0), down(keys.size(), 0);
  for (int b = 0; b < bins; ++b) keys[static_cast<size_t>(b)] = binKey(b);
  std::int64_t upTotal = 0, downTotal = 0;
  if (r && bins > 0) {
    UpDownBandwidth bw = upDownBandwidth(*r);
    up = std::move(bw.up), down = std::move(bw.down);
    up.resize(keys.size()), down.resize(keys.size());
    for (const auto& l : r->links)
      for (std::int64_t b : l.bin_bytes.bytes) upTotal += l.uplink ? b : 0, downTotal += l.downlink ? b : 0;
  }
  double top = common_.upDownPeakGBps;
  for (const auto* series : {&up, &down})
    for (double v : *series) top = std::max(top, v);
  top = std::max(top, 1.0) * 1.12;
  setSteps(bandwidth_->graph(0), keys, up, valueFloor(top));
  setSteps(bandwidth_->graph(1), keys, down, valueFloor(top));
  upName_[0] = tr("uplink (endpoint → fabric), %1 in all").arg(formatBytes(double(upTotal)));
  upName_[1] = tr("uplink, %1").arg(formatBytes(double(upTotal)));
  downName_[0] = tr("downlink (fabric → endpoint), %1 in all").arg(formatBytes(double(downTotal)));
  downName_[1] = tr("downlink, %1").arg(formatBytes(double(downTotal)));
  fitLegends();
  bandwidth_->xAxis->setRange(0, double(span) / unit_.ps);
  setValueAxis(bandwidth_, top);
  moveCursors();
}

double PlotsPanel::valueFloor(double top) const { return log_ ? top * 1e-4 : 0; }

void PlotsPanel::setValueAxis(QCustomPlot* plot, double top) {
  QCPAxis* y = plot->yAxis;
  if (log_) {
    if (y->scaleType() != QCPAxis::stLogarithmic) {
      y->setScaleType(QCPAxis::stLogarithmic);
      y->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    }
    y->setRange(valueFloor(top), top * 1.5);
  } else {
    if (y->scaleType() != QCPAxis::stLinear) {
      y->setScaleType(QCPAxis::stLinear);
      y->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    }
    y->setRange(0, top);
  }
}

void PlotsPanel::setLogScale(bool on) {
  if (on == log_) return;
  log_ = on;
  const QSignalBlocker block(logAction_);
  logAction_->setChecked(on);
  rebuildBandwidth();
  rebuildLinks();
}

void PlotsPanel::setLinkValue(LinkValue v) {
  if (v == linkValue_) return;
  linkValue_ = v;
  const QSignalBlocker block(linkRateAction_), blockOther(utilisationAction_);
  linkRateAction_->setChecked(v == LinkValue::Rate);  // signals blocked: the group cannot, so both
  utilisationAction_->setChecked(v != LinkValue::Rate);
  rebuildLinks();
}

void PlotsPanel::setCommonScale(const PlotScale& scale) {
  common_ = scale;
  rebuildBandwidth();
  rebuildLinks();
}

void PlotsPanel::rebuildLinks() {
  links_->clearGraphs();
  plotted_.clear();
  const Results* r = model_->results();
  const topo::Topology* t = model_->topology();
  const int bins = model_->binCount();
  QString title;
  double top = linkValue_ == LinkValue::Rate ? std::max(1.0, common_.linkPeakGBps * 1.12) : 105;
  if (r && t && bins > 0) {
    const int id = model_->selectedId();
    if (model_->selectionKind() == SelectionKind::Link) {
      for (int d = 0; d < 2; ++d)
        if (model_->linkDirectionIndex(id, d) >= 0) plotted_.push_back(model_->linkDirectionIndex(id, d));
      const auto& k = t->link(id);
      title = tr("link %1: %2 ↔ %3, both directions").arg(id).arg(q(t->node(k.a).name), q(t->node(k.b).name));
    } else {
      // The busiest directions (by bytes), in the fabric or at the selected node.
      std::vector<int> candidates;
      const bool node = model_->selectionKind() == SelectionKind::Node;
      for (int i = 0; i < static_cast<int>(r->links.size()); ++i) {
        const auto& l = r->links[static_cast<size_t>(i)];
        const auto& k = t->link(l.link);
        if (l.bytes > 0 && (!node || k.a == id || k.b == id)) candidates.push_back(i);
      }
      const size_t n = std::min<size_t>(5, candidates.size());
      std::partial_sort(candidates.begin(), candidates.begin() + static_cast<long>(n), candidates.end(), [&](int a, int b) {
        return r->links[static_cast<size_t>(a)].bytes > r->links[static_cast<size_t>(b)].bytes;
      });
      plotted_.assign(candidates.begin(), candidates.begin() + static_cast<long>(n));
      title = node ? tr("busiest link directions at %1").arg(q(t->node(id).name))
                   : tr("the %1 busiest link directions (select a link to see it)").arg(n);
    }
    std::vector<double> keys(static_cast<size_t>(bins)), values(keys.size());
    for (int b = 0; b < bins; ++b) keys[static_cast<size_t>(b)] = binKey(b);
    const bool rate = linkValue_ == LinkValue::Rate;
    const double perGBps = 1.0 / (toSeconds(r->bin) * 1e9);  // bytes in a bin -> GB/s
    top = rate ? common_.linkPeakGBps : 100;
    for (int d : plotted_)
      for (std::int64_t b : r->links[static_cast<size_t>(d)].bin_bytes.bytes) top = std::max(top, rate ? double(b) * perGBps : 0);
    top = rate ? std::max(top, 1.0) * 1.12 : 105;
    for (size_t g = 0; g < plotted_.size(); ++g) {
      const auto& l = r->links[static_cast<size_t>(plotted_[g])];
      for (int b = 0; b < bins; ++b)
        values[static_cast<size_t>(b)] = rate ? double(l.bin_bytes.at(b)) * perGBps : 100 * model_->utilisation(plotted_[g], b);
      QCPGraph* graph = links_->addGraph();
      graph->setName(QString("%1 → %2").arg(q(l.from), q(l.to)));
      // Stacked widths: busy links often share a value (all at 100 %), and equal
      // lines would hide each other. Each is drawn over the one before, 2 px thinner,
      // so where they coincide they show as a band of nested stripes, every colour visible.
      const double width = 2.0 + 2.0 * double(plotted_.size() - 1 - g);
      graph->setPen(QPen(kSeries[g % 6], width, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
      setSteps(graph, keys, values, valueFloor(top));
    }
    links_->xAxis->setRange(0, std::max(binKey(bins), double(common_.duration) / unit_.ps));
  }
  links_->yAxis->setLabel(linkValue_ == LinkValue::Rate ? tr("rate (GB/s)") : tr("utilisation (%)"));
  setValueAxis(links_, top);
  if (plotted_.empty()) title = r ? tr("no traffic on the selection") : tr("no results yet");
  linksTitle_->setText(title);
  links_->legend->setVisible(!plotted_.empty());
  fitLegends();
  moveCursors();
}

void PlotsPanel::rebuildLatency() {
  latency_->clearPlottables();
  latency_->clearItems();  // also the mean/p50/p99 markers; the notice is made anew
  noLatency_ = new QCPItemText(latency_);
  noLatency_->position->setType(QCPItemPosition::ptAxisRectRatio);
  noLatency_->position->setCoords(0.5, 0.5);
  noLatency_->setPositionAlignment(Qt::AlignCenter);
  noLatency_->setText(tr("no latency data (not a traffic workload)"));
  noLatency_->setFont(QFont(font().family(), font().pointSize() + 2));
  noLatency_->setColor(QColor(90, 90, 90));
  const bool have = hasLatencyData();
  noLatency_->setVisible(!have);
  // The tab only where there is a histogram (traffic workloads): a run never leaves a
  // tab that only says it has nothing.
  tabs_->setTabVisible(tabs_->indexOf(latency_), have);
  if (!have) {
    latency_->xAxis->setRange(0, 1);
    latency_->yAxis->setRange(0, 1);
    latency_->replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  const LatencyStats& s = *model_->results()->latency;
  auto* bars = new QCPBars(latency_->xAxis, latency_->yAxis);
  const auto& e = s.histogram_edges_ns;
  QVector<double> keys, counts;
  for (size_t i = 0; i + 1 < e.size() && i < s.histogram_counts.size(); ++i) {
    keys << (e[i] + e[i + 1]) / 2;
    counts << static_cast<double>(s.histogram_counts[i]);
  }
  bars->setData(keys, counts, true);
  bars->setWidth(e.size() > 1 ? e[1] - e[0] : 1);
  bars->setPen(QPen(kSeries[0].darker(130)));
  bars->setBrush(QColor(kSeries[0].red(), kSeries[0].green(), kSeries[0].blue(), 150));
  bars->setName(tr("%1 packets").arg(formatCount(s.samples)));
  latency_->rescaleAxes();
  const double top = *std::max_element(counts.begin(), counts.end());
  latency_->yAxis->setRange(0, top * 1.25);
  const double pad = (e.back() - e.front()) * 0.05 + 1;
  latency_->xAxis->setRange(std::min(e.front(), s.mean_ns) - pad, std::max(e.back(), s.p99_ns) + pad);
  // Markers: label rows staggered so close values stay readable.
  const struct {
    const char* name;
    double ns;
    QColor colour;
  } marks[] = {{"mean", s.mean_ns, QColor(0x009e73)}, {"p50", s.p50_ns, QColor(0xe69f00)}, {"p99", s.p99_ns, QColor(0xd55e00)}};
  for (int i = 0; i < 3; ++i) {
    auto* line = new QCPItemStraightLine(latency_);
    line->point1->setCoords(marks[i].ns, 0);
    line->point2->setCoords(marks[i].ns, 1);
    line->setPen(QPen(marks[i].colour, 2, Qt::DashLine));
    auto* label = new QCPItemText(latency_);
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(marks[i].ns, 0.03 + 0.07 * i);
    // Right of the line, or left of it in the right part of the plot (not clipped).
    const QCPRange x = latency_->xAxis->range();
    const bool right = marks[i].ns > x.lower + 0.7 * x.size();
    label->setPositionAlignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    label->setText(QString(" %1 %2 ns ").arg(marks[i].name).arg(marks[i].ns, 0, 'f', 1));
    label->setColor(marks[i].colour.darker(120));
    label->setBrush(QColor(255, 255, 255, 200));
  }
  latency_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotsPanel::moveCursors() {
  const bool have = model_->binCount() > 0;
  const double x = binKey(model_->currentBin()) + binKey(1) / 2;  // the bin's middle
  for (auto* cursor : {bandwidthCursor_, linksCursor_}) {
    cursor->setVisible(have);
    cursor->point1->setCoords(x, 0);
    cursor->point2->setCoords(x, 1);
  }
  bandwidth_->replot(QCustomPlot::rpQueuedReplot);
  links_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace fl::views
