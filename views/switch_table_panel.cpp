#include "views/switch_table_panel.h"

#include "views/format_units.h"

#include <QComboBox>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

#include "views/notice_stack.h"
#include "views/split_orientation.h"
#include "views/run_model.h"
#include "views/switch_port_picker.h"

namespace fl::views {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

SwitchTablePanel::SwitchTablePanel(RunModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  auto* page = new QWidget(this);
  // Switches whose reduction buffers held anything, by their reductions and evictions.
  SwitchPortPicker::Source source;
  source.ports = [](const SwitchResult& s) { return SwitchPortPicker::portsOf(s.reduction_ports); };
  source.label = [](const SwitchResult& s) {
    return tr("%1 (%2 reductions, %3 evictions)").arg(q(s.id), formatCount(s.reductions), formatCount(s.evictions));
  };
  picker_ = new SwitchPortPicker(std::move(source), tr("Port:"), page);
  switchCombo()->setObjectName(QStringLiteral("switchCombo"));
  switchCombo()->setToolTip(tr("Switches whose reduction buffers held anything in this run"));
  portCombo()->setObjectName(QStringLiteral("portCombo"));
  portCombo()->setToolTip(tr("Ports of the switch that reduced anything: port → device at its other end"));
  summary_ = new QLabel(page);
  summary_->setWordWrap(true);

  plot_ = new QCustomPlot(page);
  plot_->setMinimumSize(260, 100);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->axisRect()->setRangeDrag(Qt::Horizontal);
  plot_->axisRect()->setRangeZoom(Qt::Horizontal);
  plot_->yAxis->setLabel(tr("entries (max/bin)"));
  const QColor blue(0x0072b2), red(0xd03020);
  QCPGraph* entries = plot_->addGraph();
  entries->setPen(QPen(blue, 2));
  entries->setBrush(QColor(blue.red(), blue.green(), blue.blue(), 40));
  entries->setLineStyle(QCPGraph::lsStepLeft);
  entries->setName(tr("entries held"));
  plot_->yAxis2->setVisible(true);
  plot_->yAxis2->setLabel(tr("▼ evictions per bin"));
  plot_->yAxis2->setLabelColor(red);
  plot_->yAxis2->setTickLabelColor(red);
  auto counts = QSharedPointer<QCPAxisTickerFixed>::create();  // evictions are whole numbers
  counts->setTickStep(1);
  counts->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  plot_->yAxis2->setTicker(counts);
  QCPGraph* evictions = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
  evictions->setLineStyle(QCPGraph::lsNone);
  evictions->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangleInverted, red, red, 8));
  evictions->setName(tr("evictions"));
  // No legend (it would cover the steps in a short plot): each axis wears its series' colour.
  plot_->yAxis->setLabelColor(blue.darker(120));
  plot_->yAxis->setTickLabelColor(blue.darker(120));
  cursor_ = new QCPItemStraightLine(plot_);
  cursor_->setPen(QPen(QColor(200, 30, 30, 200), 1.5, Qt::DashLine));

  entries_ = new ReductionEntryTable(page);
  split_ = new QSplitter(Qt::Horizontal, page);  // resizeEvent turns it for tall docks
  split_->addWidget(plot_);
  split_->addWidget(entries_);
  split_->setStretchFactor(0, 3);
  split_->setStretchFactor(1, 2);
  split_->setChildrenCollapsible(false);
  auto* col = new QVBoxLayout(page);
  col->setContentsMargins(6, 6, 6, 6);
  col->addWidget(picker_);
  col->addWidget(summary_);
  col->addWidget(split_, 1);

  stack_ = new NoticeStack(page, this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);
  setMinimumWidth(std::max(picker_->minimumSizeHint().width() + 12, stackedMinimumWidth(*split_, 12)));

  connect(picker_, &SwitchPortPicker::portChanged, this, &SwitchTablePanel::showPort);
  connect(model_, &RunModel::resultsChanged, this, &SwitchTablePanel::rebuildSwitches);
  connect(model_, &RunModel::topologyChanged, this, &SwitchTablePanel::rebuildSwitches);
  connect(model_, &RunModel::currentBinChanged, this, [this] {
    moveCursor();
    rebuildTable();
  });
  connect(model_, &RunModel::selectionChanged, this, &SwitchTablePanel::followSelection);
  rebuildSwitches();
}

// Under the canvas the dock is wide and short: plot and table side by side there,
// one above the other in a tall or narrow dock or window.
void SwitchTablePanel::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  orientSplit(*split_, size(), 2.2, 1.6, 12);
}

bool SwitchTablePanel::noticeVisible() const { return stack_->noticeVisible(); }

QComboBox* SwitchTablePanel::switchCombo() const { return picker_->switchCombo(); }
QComboBox* SwitchTablePanel::portCombo() const { return picker_->portCombo(); }
const SwitchResult* SwitchTablePanel::currentSwitch() const { return picker_->currentSwitch(); }

const ReductionPortResult* SwitchTablePanel::currentPort() const {
  const SwitchResult* s = currentSwitch();
  const int port = picker_->currentPort();
  if (!s || port < 0) return nullptr;
  for (const auto& p : s->reduction_ports)
    if (p.port == port) return &p;
  return nullptr;
}

Time SwitchTablePanel::tableTime() const { return timeOfBin(model_->currentBin(), model_->binWidth()); }

double SwitchTablePanel::binKey(int bin) const { return double(Time(bin) * model_->binWidth()) / unit_.ps; }

void SwitchTablePanel::selectSwitch(const QString& name) { picker_->selectSwitch(name); }
void SwitchTablePanel::selectPort(int port) { picker_->selectPort(port); }

void SwitchTablePanel::rebuildSwitches() {
  results_ = model_->resultsShared();
  if (!picker_->setResults(results_.get())) {
    if (!results_) stack_->showNotice(tr("No results yet."), false);
    else stack_->showNotice(tr("No in-switch reductions in this run: the reduction buffers stayed empty (schemes "
                               "with in-switch reduction fill them, e.g. NVLS all-reduce or an MoE combine with "
                               "dysharp)."));
    portLog_.clear();
    return;
  }
  stack_->showPage();
}

void SwitchTablePanel::setElsewhereHint(const QString& hint) { stack_->setElsewhereHint(hint); }
void SwitchTablePanel::setElsewherePoints(const QString& what, std::vector<std::pair<int, QString>> points) {
  stack_->setElsewherePoints(what, std::move(points));
}
PointLinks* SwitchTablePanel::pointLinks() const { return stack_->links(); }

bool SwitchTablePanel::hasReductions(const Results& r) {
  return std::any_of(r.switches.begin(), r.switches.end(), [](const SwitchResult& s) { return !s.reduction_ports.empty(); });
}

void SwitchTablePanel::showPort() {
  if (const SwitchResult* s = currentSwitch())
    summary_->setText(tr("%1: %2 reductions of %3 contributions, %4 evictions, peak %5 entries (%6), "
                         "buffer hit rate %7. Entry log: %8 entries%9.")
                          .arg(q(s->id), formatCount(s->reductions), formatCount(s->reduction_contributions),
                               formatCount(s->evictions), formatCount(s->peak_reduction_entries),
                               formatBytes(double(s->peak_reduction_bytes)),
                               formatPercent(s->reduction_buffer_hit_rate), formatCount(qint64(s->entry_log.size())),
                               s->entry_log_truncated ? tr(" (truncated: later entries not logged)") : QString()));
  collectLog();
  rebuildPlot();
  rebuildTable();
}

void SwitchTablePanel::rebuildPlot() {
  const int bins = model_->binCount();
  unit_ = timeUnitFor(Time(std::max(bins, 1)) * std::max<Time>(model_->binWidth(), 1));
  plot_->xAxis->setLabel(tr("simulated time (%1)").arg(unit_.name));
  const ReductionPortResult* p = currentPort();
  QVector<double> keys, values, eKeys, eValues;
  double top = 1, eTop = 1;
  if (p && bins > 0) {
    const auto dense = p->entries.dense(bins);
    for (int b = 0; b <= bins; ++b) {  // one more point: the last bin's step has a width
      keys << binKey(b);
      values << double(dense[size_t(std::min(b, bins - 1))]);
      top = std::max(top, values.back());
    }
    for (size_t i = 0; i < p->evictions.bins.size(); ++i) {
      eKeys << (binKey(p->evictions.bins[i]) + binKey(p->evictions.bins[i] + 1)) / 2;
      eValues << double(p->evictions.bytes[i]);  // BinSeries holds counts here, not bytes
      eTop = std::max(eTop, eValues.back());
    }
    plot_->graph(1)->setName(tr("evictions (%1 in all)").arg(formatCount(p->evictions_total)));
  }
  plot_->graph(0)->setData(keys, values, true);
  plot_->graph(1)->setData(eKeys, eValues, true);
  // Reductions often fill a small part of the run (an MoE combine): open on that part,
  // padded; dragging and zooming reach the rest.
  double from = 0, to = std::max(binKey(bins), 1e-9);
  if (p && !p->entries.bins.empty()) {
    const double a = binKey(p->entries.bins.front()), b = binKey(p->entries.bins.back() + 1);
    from = std::max(from, a - 0.15 * (b - a));
    to = std::min(to, b + 0.15 * (b - a));
  }
  plot_->xAxis->setRange(from, to);
  plot_->yAxis->setRange(0, top * 1.15);
  plot_->yAxis2->setRange(0, eTop * 1.15);
  moveCursor();
}

void SwitchTablePanel::moveCursor() {
  const bool have = model_->binCount() > 0 && currentPort();
  const double x = double(tableTime()) / unit_.ps;
  cursor_->setVisible(have);
  cursor_->point1->setCoords(x, 0);
  cursor_->point2->setCoords(x, 1);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

// Once per port, not per bin: a switch's log can hold 100 000 entries.
void SwitchTablePanel::collectLog() {
  portLog_.clear();
  const ReductionPortResult* p = currentPort();
  const SwitchResult* s = currentSwitch();
  if (p && s)
    for (const auto& e : s->entry_log)
      if (e.port == p->port) portLog_.push_back(&e);
}

void SwitchTablePanel::rebuildTable() {
  const bool picked = currentPort() != nullptr;
  entries_->showEntries({picked ? currentSwitch() : nullptr, &portLog_, tableTime(), model_->currentBin(),
                         model_->binCount(), model_->binWidth(), results_ && results_->moe.has_value(),
                         model_->topology()});
}

void SwitchTablePanel::followSelection() {
  if (model_->selectionKind() == SelectionKind::Node) picker_->follow(model_->topology(), model_->selectedId());
}

}  // namespace fl::views
