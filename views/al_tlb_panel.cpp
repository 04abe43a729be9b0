#include "views/al_tlb_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

#include "results/results.h"
#include "views/format_units.h"
#include "views/notice_stack.h"
#include "views/run_model.h"

namespace fl::views {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QString rate(std::int64_t hits, std::int64_t misses) {
  return hits + misses > 0 ? formatPercent(double(hits) / double(hits + misses)) : QStringLiteral("–");
}

}  // namespace

AlTlbPanel::AlTlbPanel(RunModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  auto* page = new QWidget(this);
  combo_ = new QComboBox(page);
  combo_->setObjectName(QStringLiteral("gpuCombo"));
  combo_->setToolTip(tr("The GPU whose AL TLB to show (or select a GPU on the canvas)"));
  auto* pick = new QHBoxLayout;
  pick->addWidget(new QLabel(tr("GPU:"), page));
  pick->addWidget(combo_);
  pick->addStretch(1);

  table_ = new QTableWidget(0, 3, page);
  table_->setHorizontalHeaderLabels({tr("AL TLB"), tr("selected GPU"), tr("all GPUs")});
  table_->verticalHeader()->hide();
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionMode(QAbstractItemView::NoSelection);
  table_->setFocusPolicy(Qt::NoFocus);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  const int rowHeight = table_->fontMetrics().height() + 8;
  table_->verticalHeader()->setDefaultSectionSize(rowHeight);
  const QString names[] = {tr("hits"), tr("misses"), tr("hit rate"), tr("layout blocks allocated")};
  const QString tips[] = {tr("Lookups of a token's address layout found in the TLB"),
                          tr("Lookups that had to walk the AL table in memory"), tr("hits / (hits + misses)"),
                          tr("Layout blocks the GPU allocated on first touch of a (source, token)")};
  table_->setRowCount(4);
  for (int r = 0; r < 4; ++r) {
    auto* item = new QTableWidgetItem(names[r]);
    item->setToolTip(tips[r]);
    table_->setItem(r, 0, item);
  }
  table_->setFixedHeight(table_->horizontalHeader()->sizeHint().height() + 4 * rowHeight + 4);

  plot_ = new QCustomPlot(page);
  plot_->setMinimumSize(220, 120);
  plot_->xAxis->setLabel(tr("GPU (endpoint index)"));
  plot_->yAxis->setLabel(tr("AL TLB hit rate (%)"));
  plot_->xAxis->grid()->setVisible(false);
  auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
  ticker->setTickStep(1);
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);  // 1, 2, 4 … as space allows
  plot_->xAxis->setTicker(ticker);
  rates_ = new QCPBars(plot_->xAxis, plot_->yAxis);
  rates_->setWidth(0.75);
  rates_->setPen(Qt::NoPen);
  rates_->setBrush(QColor(0x56b4e9));
  selected_ = new QCPBars(plot_->xAxis, plot_->yAxis);  // drawn over its plain bar
  selected_->setWidth(0.75);
  selected_->setPen(QPen(QColor(0x0072b2).darker(130), 1));
  selected_->setBrush(QColor(0x0072b2));
  mean_ = new QCPItemStraightLine(plot_);
  mean_->setPen(QPen(QColor(0xd55e00), 1.5, Qt::DashLine));
  meanLabel_ = new QCPItemText(plot_);
  meanLabel_->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
  meanLabel_->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
  meanLabel_->setColor(QColor(0xd55e00).darker(120));
  meanLabel_->setBrush(QColor(255, 255, 255, 210));

  // Figures left, chart right: the dock sits under the canvas, wide and short.
  auto* left = new QVBoxLayout;
  left->addLayout(pick);
  left->addWidget(table_);
  left->addStretch(1);
  auto* row = new QHBoxLayout(page);
  row->setContentsMargins(6, 6, 6, 6);
  row->addLayout(left);
  row->addWidget(plot_, 1);
  stack_ = new NoticeStack(page, this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);

  connect(combo_, &QComboBox::currentIndexChanged, this, &AlTlbPanel::showEndpoint);
  connect(model_, &RunModel::resultsChanged, this, &AlTlbPanel::rebuild);
  connect(model_, &RunModel::topologyChanged, this, &AlTlbPanel::rebuild);
  connect(model_, &RunModel::selectionChanged, this, &AlTlbPanel::followSelection);
  rebuild();
}

bool AlTlbPanel::noticeVisible() const { return stack_->noticeVisible(); }
QString AlTlbPanel::noticeText() const { return noticeVisible() ? stack_->noticeText() : QString(); }

int AlTlbPanel::currentEndpoint() const {
  return combo_->currentData().isValid() ? combo_->currentData().toInt() : -1;
}

void AlTlbPanel::selectEndpoint(int index) {
  const int i = combo_->findData(index);
  if (i >= 0) combo_->setCurrentIndex(i);
}

QString AlTlbPanel::value(const QString& property, int column) const {
  for (int r = 0; r < table_->rowCount(); ++r)
    if (table_->item(r, 0) && table_->item(r, 0)->text() == property)
      return table_->item(r, column) ? table_->item(r, column)->text() : QString();
  return {};
}

void AlTlbPanel::setElsewhereHint(const QString& hint) { stack_->setElsewhereHint(hint); }
void AlTlbPanel::setElsewherePoints(const QString& what, std::vector<std::pair<int, QString>> points) {
  stack_->setElsewherePoints(what, std::move(points));
}
PointLinks* AlTlbPanel::pointLinks() const { return stack_->links(); }

bool AlTlbPanel::hasLookups(const Results& r) {
  return std::any_of(r.endpoints.begin(), r.endpoints.end(),
                     [](const EndpointResult& e) { return e.al_tlb_hits + e.al_tlb_misses > 0; });
}

void AlTlbPanel::rebuild() {
  const Results* r = model_->results();
  if (!r || !hasLookups(*r)) {
    if (!r)
      stack_->showNotice(tr("No results yet."), false);
    else if (r->endpoints.empty())
      stack_->showNotice(tr("No per-GPU AL TLB data: the run is not an MoE layer."));
    else
      stack_->showNotice(tr("No AL TLB lookups in this run (scheme %1): the AL TLB serves DySHARP's "
                            "dynamic multimem addressing.")
                             .arg(r->moe ? q(r->moe->communication) : tr("(unknown)")));
    return;
  }
  stack_->showPage();
  const int keep = currentEndpoint();
  {
    const QSignalBlocker block(combo_);
    combo_->clear();
    for (size_t i = 0; i < r->endpoints.size(); ++i) combo_->addItem(q(r->endpoints[i].id), int(i));
    combo_->setCurrentIndex(0);
    selectEndpoint(keep);
  }
  QVector<double> keys, values;
  std::int64_t hits = 0, misses = 0, blocks = 0;
  for (size_t i = 0; i < r->endpoints.size(); ++i) {
    const auto& e = r->endpoints[i];
    const auto n = e.al_tlb_hits + e.al_tlb_misses;
    keys << double(i);
    values << (n ? 100.0 * double(e.al_tlb_hits) / double(n) : 0.0);
    hits += e.al_tlb_hits, misses += e.al_tlb_misses, blocks += e.al_blocks_allocated;
  }
  rates_->setData(keys, values, true);
  plot_->xAxis->setRange(-0.7, double(r->endpoints.size()) - 0.3);
  plot_->yAxis->setRange(0, 105);
  const double overall = hits + misses ? 100.0 * double(hits) / double(hits + misses) : 0.0;
  mean_->point1->setCoords(0, overall);
  mean_->point2->setCoords(1, overall);
  meanLabel_->position->setCoords(0.99, overall);
  meanLabel_->setText(tr("all GPUs %1").arg(rate(hits, misses)));
  const QString all[] = {formatCount(hits), formatCount(misses), rate(hits, misses), formatCount(blocks)};
  for (int row = 0; row < 4; ++row) {
    auto* item = new QTableWidgetItem(all[row]);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table_->setItem(row, 2, item);
  }
  showEndpoint();
}

void AlTlbPanel::showEndpoint() {
  const Results* r = model_->results();
  const int i = currentEndpoint();
  if (!r || i < 0 || i >= int(r->endpoints.size())) return;
  const auto& e = r->endpoints[size_t(i)];
  const QString mine[] = {formatCount(e.al_tlb_hits), formatCount(e.al_tlb_misses),
                          rate(e.al_tlb_hits, e.al_tlb_misses), formatCount(e.al_blocks_allocated)};
  for (int row = 0; row < 4; ++row) {
    auto* item = new QTableWidgetItem(mine[row]);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table_->setItem(row, 1, item);
  }
  table_->horizontalHeaderItem(1)->setText(q(e.id));
  const auto n = e.al_tlb_hits + e.al_tlb_misses;
  selected_->setData(QVector<double>{double(i)},
                     QVector<double>{n ? 100.0 * double(e.al_tlb_hits) / double(n) : 0.0}, true);
  selected_->setName(q(e.id));
  // As wide as its figures (the chart takes the rest), never eliding a count.
  table_->setFixedWidth(table_->horizontalHeader()->length() + 2 * table_->frameWidth());
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void AlTlbPanel::followSelection() {
  const topo::Topology* t = model_->topology();
  const Results* r = model_->results();
  const int id = model_->selectedId();
  if (!t || !r || model_->selectionKind() != SelectionKind::Node || id < 0 || id >= int(t->nodes().size())) return;
  // Endpoint results are named after their nodes; the index is the fallback.
  const auto& node = t->node(id);
  for (size_t i = 0; i < r->endpoints.size(); ++i)
    if (r->endpoints[i].id == node.name) return selectEndpoint(int(i));
  if (node.endpoint >= 0) selectEndpoint(node.endpoint);
}

}  // namespace fl::views
