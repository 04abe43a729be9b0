#include "views/merge_table_inspector.h"

#include <QComboBox>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>

#include "views/format_units.h"
#include "views/merge_occupancy_plot.h"
#include "views/merge_table_grid.h"
#include "views/notice_stack.h"
#include "views/split_orientation.h"
#include "views/run_model.h"
#include "views/switch_port_picker.h"

namespace fl::views {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

MergeTableInspector::MergeTableInspector(RunModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  auto* page = new QWidget(this);
  // Switches with merge units, by their evictions and bypasses; one unit per GPU-facing port.
  SwitchPortPicker::Source source;
  source.ports = [](const SwitchResult& s) { return SwitchPortPicker::portsOf(s.merge_ports); };
  source.label = [](const SwitchResult& s) {
    std::int64_t bypasses = 0, evictions = 0;
    for (const auto& p : s.merge_ports) {
      bypasses += p.bypasses;
      evictions += p.evictions;
    }
    return tr("%1 (%2 evictions, %3 bypasses)").arg(q(s.id), formatCount(evictions), formatCount(bypasses));
  };
  picker_ = new SwitchPortPicker(std::move(source), tr("Merge unit:"), page);
  switchCombo()->setObjectName(QStringLiteral("mergeSwitchCombo"));
  switchCombo()->setToolTip(tr("Switches whose CAIS merge units saw ld.cais / red.cais"));
  portCombo()->setObjectName(QStringLiteral("mergePortCombo"));
  portCombo()->setToolTip(tr("Merge units: one per GPU-facing port, named port → home GPU"));
  // The grid takes the dock's height; the words sit beside it, over the occupancy plot,
  // in a smaller type (the dock is short under the canvas).
  auto* info = new QWidget(page);
  QFont small = font();
  small.setPointSizeF(std::max(7.0, small.pointSizeF() - 1));
  legend_ = new QLabel(mergeStateLegendHtml(), info);
  legend_->setTextFormat(Qt::RichText);
  window_ = new QLabel(info);
  window_->setTextFormat(Qt::RichText);
  for (QLabel* l : {legend_, window_}) {
    l->setWordWrap(true);
    l->setFont(small);
  }
  grid_ = new MergeTableGrid(page);
  occupancy_ = new MergeOccupancyPlot(info);
  auto* infoCol = new QVBoxLayout(info);
  infoCol->setContentsMargins(0, 0, 0, 0);
  infoCol->setSpacing(2);
  infoCol->addWidget(window_);
  infoCol->addWidget(legend_);
  infoCol->addWidget(occupancy_, 1);
  info->setMinimumWidth(300);
  split_ = new QSplitter(Qt::Horizontal, page);
  split_->addWidget(grid_);
  split_->addWidget(info);
  split_->setStretchFactor(0, 1);
  split_->setStretchFactor(1, 1);
  split_->setChildrenCollapsible(false);
  auto* col = new QVBoxLayout(page);
  col->setContentsMargins(6, 6, 6, 6);
  col->addWidget(picker_);
  col->addWidget(split_, 1);
  stack_ = new NoticeStack(page, this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);
  setMinimumWidth(std::max(picker_->minimumSizeHint().width() + 12, stackedMinimumWidth(*split_, 12)));

  connect(picker_, &SwitchPortPicker::portChanged, this, &MergeTableInspector::rebuildPort);
  connect(model_, &RunModel::resultsChanged, this, &MergeTableInspector::rebuildSwitches);
  connect(model_, &RunModel::topologyChanged, this, &MergeTableInspector::rebuildSwitches);
  connect(model_, &RunModel::currentBinChanged, this, [this](int bin) {
    occupancy_->setCurrentBin(bin);
    showWindow();
  });
  connect(model_, &RunModel::selectionChanged, this, &MergeTableInspector::followSelection);
  rebuildSwitches();
}

// Wide and short under the canvas: grid and plot side by side; stacked in a tall or narrow dock.
void MergeTableInspector::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  orientSplit(*split_, size(), 2.0, 1.4, 12);
}

bool MergeTableInspector::noticeVisible() const { return stack_->noticeVisible(); }

bool MergeTableInspector::hasMergeUnits(const Results& r) {
  return std::any_of(r.switches.begin(), r.switches.end(), [](const SwitchResult& s) { return !s.merge_ports.empty(); });
}

QComboBox* MergeTableInspector::switchCombo() const { return picker_->switchCombo(); }
QComboBox* MergeTableInspector::portCombo() const { return picker_->portCombo(); }
const SwitchResult* MergeTableInspector::currentSwitch() const { return picker_->currentSwitch(); }

const MergePortResult* MergeTableInspector::currentPort() const {
  const SwitchResult* s = currentSwitch();
  const int port = picker_->currentPort();
  if (!s || port < 0) return nullptr;
  for (const auto& p : s->merge_ports)
    if (p.port == port) return &p;
  return nullptr;
}

Time MergeTableInspector::windowFrom() const { return Time(model_->currentBin()) * model_->binWidth(); }
Time MergeTableInspector::windowTo() const { return Time(model_->currentBin() + 1) * model_->binWidth(); }

void MergeTableInspector::selectSwitch(const QString& name) { picker_->selectSwitch(name); }
void MergeTableInspector::selectPort(int port) { picker_->selectPort(port); }

void MergeTableInspector::rebuildSwitches() {
  results_ = model_->resultsShared();
  gpuOfNode_.clear();
  gpus_ = 0;
  if (const topo::Topology* t = model_->topology()) {
    gpuOfNode_.assign(t->nodes().size(), -1);
    for (std::size_t g = 0; g < t->endpoints().size(); ++g) gpuOfNode_[std::size_t(t->endpoints()[g])] = int(g);
    gpus_ = int(t->endpoints().size());
  }
  if (!picker_->setResults(results_.get())) {
    if (!results_) stack_->showNotice(tr("No results yet."), false);
    else stack_->showNotice(tr("No CAIS merge units in this run: they fill under the cais_* schemes of a tp_layer "
                               "workload (scheme.tp) or a collective with algorithm cais."));
    log_ = {};
    return;
  }
  stack_->showPage();
}

void MergeTableInspector::setElsewhereHint(const QString& hint) { stack_->setElsewhereHint(hint); }
void MergeTableInspector::setElsewherePoints(const QString& what, std::vector<std::pair<int, QString>> points) {
  stack_->setElsewherePoints(what, std::move(points));
}
PointLinks* MergeTableInspector::pointLinks() const { return stack_->links(); }

void MergeTableInspector::rebuildPort() {
  const SwitchResult* s = currentSwitch();
  const MergePortResult* p = currentPort();
  log_ = s && p ? collectPortLog(*s, p->port, p->capacity) : MergePortLog{};
  // The unit's totals over the run, on the unit picker (the dock is short).
  if (s && p)
    portCombo()->setToolTip(tr("Run: %3 ld.cais, %4 red.cais; %5 merged, %6 bypassed, %7 evicted, %8 timed out, "
                         "%9 partial sums flushed. Table: %10. %1 → %2 log: %11 entries%12.")
                          .arg(q(s->id), q(p->peer), formatCount(p->loads), formatCount(p->reductions),
                               formatCount(p->hits), formatCount(p->bypasses), formatCount(p->evictions),
                               formatCount(p->timeouts), formatCount(p->partial_flushes))
                          .arg(p->capacity > 0 ? tr("%1 entries, peak %2").arg(p->capacity).arg(p->peak_entries)
                                               : tr("unbounded, peak %1 entries").arg(p->peak_entries),
                               formatCount(qint64(log_.entries.size())),
                               s->merge_log_truncated ? tr(" (truncated: later ones not shown)") : QString()));
  else
    portCombo()->setToolTip(tr("Merge units: one per GPU-facing port, named port → home GPU"));
  occupancy_->setPort(p, model_->binCount(), model_->binWidth());
  occupancy_->setCurrentBin(model_->currentBin());
  showWindow();
}

void MergeTableInspector::showWindow() {
  const Time from = windowFrom(), to = windowTo();
  MergeWindow w = mergeWindow(log_, from, to);
  const MergePortResult* p = currentPort();
  int home = -1;
  if (p && model_->topology())
    for (int g = 0; g < gpus_; ++g)
      if (q(model_->topology()->node(model_->topology()->endpoints()[std::size_t(g)]).name) == q(p->peer)) home = g;
  const auto n = [&](MergeCellState st) { return formatCount(w.ended[int(st)]); };
  const auto live = [&](MergeCellState st) { return formatCount(w.live[int(st)]); };
  window_->setText(
      tr("<b>At %1</b> (end of bin %2): %3 Load-Wait, %4 Load-Ready, %5 Reduction. In the bin: %6 opened, "
         "%7 completed, %8 evicted, %9 timed out, %10 evicted on fill; %11 ld.cais and %12 red.cais bypassed.")
          .arg(formatTime(to), binNumber(model_->currentBin(), model_->binCount()), live(MergeCellState::LoadWait),
               live(MergeCellState::LoadReady), live(MergeCellState::Reduction), formatCount(w.opened),
               n(MergeCellState::Completed), n(MergeCellState::Evicted), n(MergeCellState::TimedOut))
          .arg(n(MergeCellState::EvictedOnFill), formatCount(w.bypassedLoads), formatCount(w.bypassedReductions)));
  grid_->setWindow(std::move(w), gpuOfNode_, gpus_, home, log_.sw, to);
}

void MergeTableInspector::followSelection() {
  if (model_->selectionKind() == SelectionKind::Node) picker_->follow(model_->topology(), model_->selectedId());
}

}  // namespace fl::views
