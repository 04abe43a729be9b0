#include "views/merge_table_inspector.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "views/format_units.h"
#include "views/merge_occupancy_plot.h"
#include "views/merge_table_grid.h"
#include "views/run_model.h"

namespace fl::views {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

MergeTableInspector::MergeTableInspector(RunModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  stack_ = new QStackedWidget(this);
  notice_ = makeNoticeLabel(stack_);
  auto* page = new QWidget(stack_);
  switchCombo_ = new QComboBox(page);
  switchCombo_->setObjectName(QStringLiteral("mergeSwitchCombo"));
  switchCombo_->setToolTip(tr("Switches whose CAIS merge units saw ld.cais / red.cais"));
  switchCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  portCombo_ = new QComboBox(page);
  portCombo_->setObjectName(QStringLiteral("mergePortCombo"));
  portCombo_->setToolTip(tr("Merge units: one per GPU-facing port, named port → home GPU"));
  portCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  auto* pickers = new QHBoxLayout;
  pickers->addWidget(new QLabel(tr("Switch:"), page));
  pickers->addWidget(switchCombo_);
  pickers->addSpacing(12);
  pickers->addWidget(new QLabel(tr("Merge unit:"), page));
  pickers->addWidget(portCombo_);
  pickers->addStretch(1);
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
  col->addLayout(pickers);
  col->addWidget(split_, 1);
  stack_->addWidget(notice_);
  stack_->addWidget(page);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);

  connect(switchCombo_, &QComboBox::currentIndexChanged, this, [this] {
    switchChosen_ = true;
    portChosen_ = false;
    rebuildPorts();
  });
  connect(portCombo_, &QComboBox::currentIndexChanged, this, [this] {
    portChosen_ = true;
    rebuildPort();
  });
  connect(model_, &RunModel::resultsChanged, this, &MergeTableInspector::rebuildSwitches);
  connect(model_, &RunModel::topologyChanged, this, &MergeTableInspector::rebuildSwitches);
  connect(model_, &RunModel::currentBinChanged, this, [this](int bin) {
    occupancy_->setCurrentBin(bin);
    showWindow();
  });
  connect(model_, &RunModel::selectionChanged, this, &MergeTableInspector::followSelection);
  rebuildSwitches();
}

// Wide and short under the canvas: grid and plot side by side; stacked in a tall dock.
void MergeTableInspector::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  const bool wide = split_->orientation() == Qt::Horizontal ? width() > 1.4 * height() : width() > 2.0 * height();
  const auto o = wide ? Qt::Horizontal : Qt::Vertical;
  if (split_->orientation() != o) {
    split_->setOrientation(o);
    split_->setSizes({1, 1});
  }
}

bool MergeTableInspector::noticeVisible() const { return stack_->currentIndex() == 0; }

bool MergeTableInspector::hasMergeUnits(const Results& r) {
  return std::any_of(r.switches.begin(), r.switches.end(), [](const SwitchResult& s) { return !s.merge_ports.empty(); });
}

const SwitchResult* MergeTableInspector::currentSwitch() const {
  const int i = switchCombo_->currentData().isValid() ? switchCombo_->currentData().toInt() : -1;
  return results_ && i >= 0 && i < int(results_->switches.size()) ? &results_->switches[std::size_t(i)] : nullptr;
}

const MergePortResult* MergeTableInspector::currentPort() const {
  const SwitchResult* s = currentSwitch();
  if (!s || !portCombo_->currentData().isValid()) return nullptr;
  const int port = portCombo_->currentData().toInt();
  for (const auto& p : s->merge_ports)
    if (p.port == port) return &p;
  return nullptr;
}

Time MergeTableInspector::windowFrom() const { return Time(model_->currentBin()) * model_->binWidth(); }
Time MergeTableInspector::windowTo() const { return Time(model_->currentBin() + 1) * model_->binWidth(); }

void MergeTableInspector::selectSwitch(const QString& name) {
  for (int k = 0; k < switchCombo_->count(); ++k)
    if (switchCombo_->itemText(k).section(' ', 0, 0) == name) return switchCombo_->setCurrentIndex(k);
}

void MergeTableInspector::selectPort(int port) {
  const int i = portCombo_->findData(port);
  if (i >= 0) portCombo_->setCurrentIndex(i);
}

void MergeTableInspector::rebuildSwitches() {
  results_ = model_->resultsShared();
  gpuOfNode_.clear();
  gpus_ = 0;
  if (const topo::Topology* t = model_->topology()) {
    gpuOfNode_.assign(t->nodes().size(), -1);
    for (std::size_t g = 0; g < t->endpoints().size(); ++g) gpuOfNode_[std::size_t(t->endpoints()[g])] = int(g);
    gpus_ = int(t->endpoints().size());
  }
  const QString keep = switchCombo_->currentText().section(' ', 0, 0);
  {
    const QSignalBlocker block(switchCombo_);
    switchCombo_->clear();
    if (results_)
      for (std::size_t i = 0; i < results_->switches.size(); ++i) {
        const SwitchResult& s = results_->switches[i];
        if (s.merge_ports.empty()) continue;
        std::int64_t bypasses = 0, evictions = 0;
        for (const auto& p : s.merge_ports) {
          bypasses += p.bypasses;
          evictions += p.evictions;
        }
        switchCombo_->addItem(tr("%1 (%2 evictions, %3 bypasses)").arg(q(s.id), formatCount(evictions), formatCount(bypasses)),
                              int(i));
      }
  }
  if (switchCombo_->count() == 0) {
    notice_->setText(noticeText());
    stack_->setCurrentIndex(0);
    log_ = {};
    return;
  }
  stack_->setCurrentIndex(1);
  const QSignalBlocker block(switchCombo_);
  switchCombo_->setCurrentIndex(0);
  if (switchChosen_) selectSwitch(keep);
  rebuildPorts();
}

QString MergeTableInspector::noticeText() const {
  if (!results_) return tr("No results yet.");
  QString text = tr("No CAIS merge units in this run: they fill under the cais_* schemes of a tp_layer workload "
                    "(scheme.tp) or a collective with algorithm cais.");
  if (!elsewhere_.isEmpty()) text += QStringLiteral("\n\n") + elsewhere_;
  return text;
}

void MergeTableInspector::setElsewhereHint(const QString& hint) {
  if (hint == elsewhere_) return;
  elsewhere_ = hint;
  if (noticeVisible()) notice_->setText(noticeText());
}

void MergeTableInspector::rebuildPorts() {
  const SwitchResult* s = currentSwitch();
  const int keep = portCombo_->currentData().isValid() ? portCombo_->currentData().toInt() : -1;
  {
    const QSignalBlocker block(portCombo_);
    portCombo_->clear();
    if (s) {
      auto ports = s->merge_ports;
      std::sort(ports.begin(), ports.end(), [](const auto& a, const auto& b) { return a.port < b.port; });
      int busiest = 0;
      for (const auto& p : ports) {
        if (p.peak_entries > ports[std::size_t(busiest)].peak_entries) busiest = portCombo_->count();
        portCombo_->addItem(tr("port %1 → %2 (peak %3 entries)").arg(p.port).arg(q(p.peer)).arg(p.peak_entries), p.port);
      }
      portCombo_->setCurrentIndex(busiest);
      if (portChosen_) selectPort(keep);
    }
  }
  rebuildPort();
}

void MergeTableInspector::rebuildPort() {
  const SwitchResult* s = currentSwitch();
  const MergePortResult* p = currentPort();
  log_ = s && p ? collectPortLog(*s, p->port, p->capacity) : MergePortLog{};
  // The unit's totals over the run, on the unit picker (the dock is short).
  if (s && p)
    portCombo_->setToolTip(tr("Run: %3 ld.cais, %4 red.cais; %5 merged, %6 bypassed, %7 evicted, %8 timed out, "
                         "%9 partial sums flushed. Table: %10. %1 → %2 log: %11 entries%12.")
                          .arg(q(s->id), q(p->peer), formatCount(p->loads), formatCount(p->reductions),
                               formatCount(p->hits), formatCount(p->bypasses), formatCount(p->evictions),
                               formatCount(p->timeouts), formatCount(p->partial_flushes))
                          .arg(p->capacity > 0 ? tr("%1 entries, peak %2").arg(p->capacity).arg(p->peak_entries)
                                               : tr("unbounded, peak %1 entries").arg(p->peak_entries),
                               formatCount(qint64(log_.entries.size())),
                               s->merge_log_truncated ? tr(" (truncated: later ones not shown)") : QString()));
  else
    portCombo_->setToolTip(tr("Merge units: one per GPU-facing port, named port → home GPU"));
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
  const topo::Topology* t = model_->topology();
  const int id = model_->selectedId();
  if (!t || !results_ || model_->selectionKind() != SelectionKind::Node || id < 0 || id >= int(t->nodes().size())) return;
  const QString name = q(t->node(id).name);
  for (const auto& s : results_->switches)
    if (s.node == id) return selectSwitch(name);
  // A GPU: the current switch's merge unit for it.
  if (const SwitchResult* s = currentSwitch())
    for (const auto& p : s->merge_ports)
      if (q(p.peer) == name) return selectPort(p.port);
}

}  // namespace fl::views
