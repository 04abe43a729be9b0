#include "views/pipeline_gantt.h"

#include <QFontInfo>
#include <QFontMetrics>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QWheelEvent>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "views/flow_layout.h"
#include "views/format_units.h"
#include "views/legend_under_plot.h"
#include "views/run_model.h"

namespace fl::views {

namespace {

constexpr double kUs = double(kMicrosecond);
constexpr int kGroupAbove = 16;  // GPUs: more open collapsed, one row each
constexpr int kMinRowPx = 12;    // a row at least this tall on Fit
constexpr int kMinTpRowPx = 16;  // a TP layer's (six rows a GPU, each labelled) on Fit
constexpr int kMinLabelPx = 8;   // the smallest row label font, in pixels
constexpr double kUtilisationStretch = 0.22;
const QColor kCursor(200, 30, 30, 210);

QString q(const std::string& s) { return QString::fromStdString(s); }

QCPItemStraightLine* makeCursor(QCustomPlot* plot, QCPAxisRect* rect) {
  auto* line = new QCPItemStraightLine(plot);
  line->setClipAxisRect(rect);
  for (auto* p : {line->point1, line->point2}) p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
  line->setPen(QPen(kCursor, 1.5, Qt::DashLine));
  line->setVisible(false);
  return line;
}

}  // namespace

PipelineGantt::PipelineGantt(RunModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  stack_ = new QStackedWidget(this);
  notice_ = makeNoticeLabel(stack_);
  auto* page = new QWidget(stack_);

  // Controls: view, rows, and the token/tile selector.
  auto* fitButton = new QPushButton(tr("Fit"), page);
  fitButton->setObjectName(QStringLiteral("pipelineFit"));
  fitButton->setToolTip(tr("Show the whole run and every row (wheel: zoom time, drag: pan)"));
  auto* collapse = new QPushButton(tr("Collapse all"), page);
  collapse->setToolTip(tr("One row per GPU with all its tasks (double-click a row to toggle its GPU)"));
  auto* expand = new QPushButton(tr("Expand all"), page);
  expand->setToolTip(tr("One row per SM group of each GPU"));
  gpuMenuButton_ = new QToolButton(page);
  gpuMenuButton_->setText(tr("GPUs"));
  gpuMenuButton_->setToolTip(tr("Expand or collapse single GPUs"));
  gpuMenuButton_->setPopupMode(QToolButton::InstantPopup);
  gpuMenuButton_->setMenu(new QMenu(gpuMenuButton_));
  gpuSpin_ = new QSpinBox(page);
  gpuSpin_->setObjectName(QStringLiteral("pipelineGpu"));
  tileSpin_ = new QSpinBox(page);
  tileSpin_->setObjectName(QStringLiteral("pipelineTile"));
  tileSpin_->setMaximum(1 << 20);
  auto* pick = new QPushButton(tr("Select"), page);
  pick->setToolTip(tr("Select the GEMM task of this tile on this GPU and show its dependency chain"));
  status_ = new QLabel(page);
  status_->setObjectName(QStringLiteral("pipelineStatus"));
  status_->setWordWrap(true);
  status_->setContentsMargins(4, 0, 4, 0);
  status_->hide();  // until there is something to say
  // Two groups that wrap onto a second line in a narrow dock rather than widen it.
  auto* controlsBox = new QWidget(page);
  auto* controls = new FlowLayout(controlsBox, 12);
  controls->setContentsMargins(2, 2, 2, 0);
  controls->addWidget(flowGroup(controlsBox, {fitButton, collapse, expand, gpuMenuButton_}));
  auto* gpuLabel = new QLabel(tr("GPU"), page);
  auto* tileLabel = new QLabel(tr("tile"), page);
  controls->addWidget(flowGroup(controlsBox, {gpuLabel, gpuSpin_, tileLabel, tileSpin_, pick}));

  plot_ = new QCustomPlot(page);
  plot_->setObjectName(QStringLiteral("pipelinePlot"));
  plot_->setMinimumSize(300, 170);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  QCPAxisRect* gantt = plot_->axisRect();
  gantt->setRangeDrag(Qt::Horizontal | Qt::Vertical);
  gantt->setRangeZoom(Qt::Horizontal);
  // Ctrl + wheel zooms the rows (vertical zoom); the wheel alone zooms time.
  connect(plot_, &QCustomPlot::mouseWheel, this, [gantt](QWheelEvent* e) {
    gantt->setRangeZoom(e->modifiers() & Qt::ControlModifier ? Qt::Vertical : Qt::Horizontal);
  });
  plot_->xAxis->setLabel(tr("time (µs)"));
  plot_->yAxis->setRangeReversed(true);  // gpu0 on top
  plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
  plot_->yAxis->setSubTicks(false);
  plot_->yAxis->setTickLength(0, 0);
  plot_->yAxis->grid()->setVisible(false);
  bands_ = new PipelineRowBands(plot_->xAxis, plot_->yAxis, &scene_);
  for (int k = 0; k < kPipelineTaskKinds; ++k)
    bars_[k] = new PipelineBars(plot_->xAxis, plot_->yAxis, &scene_, static_cast<PipelineTaskKind>(k));
  for (int k = kMoePipelineTaskKinds; k < kPipelineTaskKinds; ++k) bars_[k]->removeFromLegend();  // TP layers only
  bands_->removeFromLegend();
  bands_->addToLegend();  // idle last, after the kinds

  // The SMs-busy strip under the chart, on the same time axis and left edge.
  utilRect_ = new QCPAxisRect(plot_);
  plot_->plotLayout()->addElement(1, 0, utilRect_);
  auto* margins = new QCPMarginGroup(plot_);
  gantt->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  utilRect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  utilRect_->setRangeDrag(Qt::Horizontal);
  utilRect_->setRangeZoom(Qt::Horizontal);
  QCPAxis* ux = utilRect_->axis(QCPAxis::atBottom);
  QCPAxis* uy = utilRect_->axis(QCPAxis::atLeft);
  uy->setLabel(tr("SMs busy (%)"));
  uy->setRange(0, 105);
  uy->ticker()->setTickCount(2);
  connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), ux, qOverload<const QCPRange&>(&QCPAxis::setRange));
  connect(ux, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::setRange));
  utilGraph_ = plot_->addGraph(ux, uy);
  utilGraph_->setPen(QPen(QColor(0x0072b2), 1.5));
  utilGraph_->setBrush(QColor(0, 0x72, 0xb2, 50));
  utilGraph_->setLineStyle(QCPGraph::lsStepLeft);
  utilGraph_->removeFromLegend();
  cursor_ = makeCursor(plot_, gantt);
  utilCursor_ = makeCursor(plot_, utilRect_);

  gantt->insetLayout()->take(plot_->legend);
  plot_->plotLayout()->addElement(2, 0, plot_->legend);
  plot_->plotLayout()->setRowStretchFactors({1, kUtilisationStretch, 0.001});
  plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  plot_->legend->setWrap(kMoePipelineTaskKinds + 1);
  plot_->legend->setBorderPen(Qt::NoPen);
  plot_->legend->setVisible(true);
  plot_->legend->setIconSize(22, 10);  // a compact key: the rows above need the height
  plot_->legend->setRowSpacing(0);
  QFont keyFont = plot_->font();
  keyFont.setPointSizeF(std::max(6.0, keyFont.pointSizeF() - 1));
  plot_->legend->setFont(keyFont);
  setUtilisationVisible(false);

  auto* chart = new QVBoxLayout(page);
  chart->setContentsMargins(0, 0, 0, 0);
  chart->addWidget(controlsBox);
  chart->addWidget(status_);
  chart->addWidget(plot_, 1);
  stack_->addWidget(notice_);
  stack_->addWidget(page);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);

  connect(fitButton, &QPushButton::clicked, this, &PipelineGantt::fit);
  connect(collapse, &QPushButton::clicked, this, &PipelineGantt::collapseAll);
  connect(expand, &QPushButton::clicked, this, &PipelineGantt::expandAll);
  connect(pick, &QPushButton::clicked, this, [this] { selectTile(gpuSpin_->value(), tileSpin_->value()); });
  connect(plot_->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &PipelineGantt::updateRowTicks);
  connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) { pressPos_ = e->pos(); });
  connect(plot_, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
    if ((e->pos() - pressPos_).manhattanLength() <= 3) selectTask(taskAt(e->position()));  // a click, not a drag
  });
  connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent* e) {
    const int row = int(std::lround(plot_->yAxis->pixelToCoord(e->position().y())));
    if (row >= 0 && row < scene_.rows.count) {
      const int gpu = scene_.rows.gpuOfRow(row);
      setCollapsed(gpu, !isCollapsed(gpu));
    }
  });
  connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
    const int t = e->buttons() == Qt::NoButton ? taskAt(e->position()) : -1;
    if (t >= 0) QToolTip::showText(e->globalPosition().toPoint(), toolTipFor(t), plot_);
    else QToolTip::hideText();
  });
  connect(plot_, &QCustomPlot::afterLayout, this, &PipelineGantt::updateRowTicks);
  plot_->installEventFilter(this);
  if (model_) {
    connect(model_, &RunModel::resultsChanged, this, [this] { setResults(model_->resultsShared()); });
    connect(model_, &RunModel::currentBinChanged, this, &PipelineGantt::moveCursor);
    setResults(model_->resultsShared());
  } else {
    setResults(nullptr);
  }
}

bool PipelineGantt::noticeVisible() const { return stack_->currentWidget() == notice_; }

bool PipelineGantt::eventFilter(QObject* watched, QEvent* event) {
  if (watched == plot_ && event->type() == QEvent::Resize) fitLegendColumns(plot_, legendWrap_);
  return QWidget::eventFilter(watched, event);
}

void PipelineGantt::setUtilisationVisible(bool on) {
  QCPLayoutGrid* grid = plot_->plotLayout();
  const bool shown = grid->hasElement(1, 0) && grid->element(1, 0) == utilRect_;
  if (on == shown) return;
  if (on) {
    grid->insertRow(1);
    grid->addElement(1, 0, utilRect_);
    grid->setRowStretchFactors({1, kUtilisationStretch, 0.001});
  } else {
    grid->take(utilRect_);
    grid->simplify();
    grid->setRowStretchFactors({1, 0.001});
  }
  utilRect_->setVisible(on);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PipelineGantt::setResults(std::shared_ptr<const Results> results) {
  results_ = std::move(results);
  rebuild();
}

void PipelineGantt::rebuild() {
  const PipelineResults* p = results_ && results_->pipeline ? &*results_->pipeline : nullptr;
  if (!p || p->tasks.empty()) {
    notice_->setText(!results_    ? tr("No results yet.")
                     : p          ? tr("The run recorded no pipeline tasks.")
                     : results_->moe ? tr("These MoE-layer results carry no token pipeline.")
                                  : tr("No pipeline: these results are neither an MoE layer (the Pipeline view "
                                       "shows how scheme.fusion schedules dispatch, GEMMs and combine) nor a "
                                       "tensor-parallel layer (its kernels and collectives per GPU)."));
    stack_->setCurrentWidget(notice_);
    scene_ = GanttScene{};
    for (auto* b : bars_) b->setTasks({});
    updateArrows();
    return;
  }
  stack_->setCurrentWidget(stack_->widget(1));
  scene_.pipeline = p;
  scene_.selected = -1;
  scene_.inChain.clear();
  const int gpus = pipelineGpuCount(*p);
  // Grouping: more than 16 GPUs open one row per GPU (32 or 72 GPUs' SM-group rows would
  // be a pixel each); a row opens by double-click or the GPU menu.
  if (static_cast<int>(collapsed_.size()) != gpus) collapsed_.assign(static_cast<size_t>(gpus), gpus > kGroupAbove);
  std::vector<int> byKind[kPipelineTaskKinds];
  for (int i = 0; i < static_cast<int>(p->tasks.size()); ++i)
    byKind[static_cast<int>(p->tasks[static_cast<size_t>(i)].kind) % kPipelineTaskKinds].push_back(i);
  // The key: an MoE pipeline's six kinds as always; a TP layer's, the kinds it ran.
  bool tp = false;
  for (int k = kMoePipelineTaskKinds; k < kPipelineTaskKinds; ++k) tp = tp || !byKind[k].empty();
  tp_ = tp;
  for (int k = 0; k < kPipelineTaskKinds; ++k) {
    bars_[k]->removeFromLegend();
    if (tp ? !byKind[k].empty() : k < kMoePipelineTaskKinds) bars_[k]->addToLegend();
  }
  bands_->removeFromLegend();
  bands_->addToLegend();  // idle last
  // Up to 11 TP keys: two rows of six fit a dock half the screen wide; MoE keeps one row.
  legendWrap_ = tp ? 6 : kMoePipelineTaskKinds + 1;
  plot_->legend->setWrap(legendWrap_);
  fitLegendColumns(plot_, legendWrap_);
  for (int k = 0; k < kPipelineTaskKinds; ++k) bars_[k]->setTasks(std::move(byKind[k]));
  gpuSpin_->setMaximum(std::max(0, gpus - 1));
  updateGpuMenu();

  // SMs busy per bin: the run's bins, or ~200 across the pipeline when it has none.
  Time end = 0;
  for (const PipelineTask& t : p->tasks) end = std::max(end, t.end);
  const Time bin = results_->bin > 0 ? results_->bin : std::max<Time>(end / 200, 1);
  const int bins = static_cast<int>((end + bin - 1) / bin);
  const std::vector<double> busy = smBusyFraction(*p, gpus, bin, bins);
  QVector<double> keys, values;
  for (int b = 0; b <= bins; ++b) {
    keys << double(Time(b) * bin) / kUs;
    values << 100 * busy[static_cast<size_t>(std::min(b, bins - 1))];
  }
  utilGraph_->setData(keys, values, true);
  layoutRows();
  fit();
  moveCursor();
}

void PipelineGantt::layoutRows() {
  const PipelineResults* p = scene_.pipeline;
  if (!p) return;
  scene_.rows = pipelineRows(pipelineGpuCount(*p), static_cast<int>(p->groups.size()), collapsed_);
  const size_t n = p->tasks.size();
  scene_.row.resize(n);
  scene_.span.resize(n);
  scene_.occupancy.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const PipelineTask& t = p->tasks[i];
    const int group = t.group == kWholeGpuGroup ? -1 : t.group;
    scene_.row[i] = scene_.rows.rowOf(t.gpu, group);
    scene_.span[i] = scene_.rows.spanOf(t.gpu, group);
    const bool inGroup = !isCollapsed(t.gpu) && group >= 0 && group < static_cast<int>(p->group_sms.size());
    const int rowSms = inGroup ? p->group_sms[static_cast<size_t>(group)] : p->sms;
    scene_.occupancy[i] = rowSms > 0 ? std::clamp(float(t.sms) / float(rowSms), 0.f, 1.f) : 1.f;
  }
  tickLabelsFresh_ = false;  // labels move with collapsing
  updateRowTicks();
  updateArrows();
  emit rowsChanged();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString PipelineGantt::rowLabel(int row) const {
  const PipelineResults* p = scene_.pipeline;
  if (!p || row < 0 || row >= scene_.rows.count) return {};
  const int gpu = scene_.rows.gpuOfRow(row), group = scene_.rows.groupOfRow(row);
  if (group < 0) return tr("gpu%1 · all").arg(gpu);
  const QString name = group < static_cast<int>(p->groups.size()) ? q(p->groups[static_cast<size_t>(group)]) : tr("tasks");
  return QStringLiteral("gpu%1 · %2").arg(gpu).arg(name);
}

// Labels every row: in the widget's font where rows are that tall, else in a smaller one
// (down to kMinLabelPx). Thinner rows get one label per GPU, centred on its rows (every
// k-th GPU when even those are too thin): a label never sits beside another GPU's row, as
// one on every k-th row did. The axis rect's height is known after a layout: a changed
// choice costs one more replot.
void PipelineGantt::updateRowTicks() {
  auto ticker = plot_->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
  if (!ticker) return;
  const PipelineRows& rows = scene_.rows;
  const double rowPixels = plot_->axisRect()->height() / std::max(plot_->yAxis->range().size(), 1e-9);
  QFont labelFont = font();
  int px = QFontInfo(labelFont).pixelSize();
  bool everyRow = true;
  while (QFontMetrics(labelFont).height() + 1 > rowPixels) {
    if (px <= kMinLabelPx) {
      everyRow = false;
      labelFont = font();
      break;
    }
    labelFont.setPixelSize(--px);
  }
  // One label per GPU: its rows' height on average against a line of the widget's font
  // (capped at the GPU count before the cast: an axis not laid out yet has 0 px).
  const double gpuPixels = rowPixels * rows.count / std::max(rows.gpus, 1);
  const double gpusPerLabel = std::ceil((fontMetrics().height() + 1) / std::max(gpuPixels, 1e-9));
  const int gpuStride = std::max(1, int(std::min(gpusPerLabel, double(std::max(rows.gpus, 1)))));
  const int choice = everyRow ? px : -gpuStride;  // what the labels are, for the cache
  if (choice == tickStride_ && tickRows_ == rows.count && tickLabelsFresh_) return;
  tickStride_ = choice;
  tickRows_ = rows.count;
  tickLabelsFresh_ = true;
  plot_->yAxis->setTickLabelFont(labelFont);
  QMap<double, QString> ticks;
  if (everyRow) {
    for (int r = 0; r < rows.count; ++r) ticks.insert(r, rowLabel(r));
  } else {
    for (int g = 0; g < rows.gpus; g += gpuStride)
      ticks.insert(rows.firstRow[static_cast<size_t>(g)] + (rows.rowsOf(g) - 1) / 2.0, tr("gpu%1").arg(g));
  }
  ticker->setTicks(ticks);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool PipelineGantt::isCollapsed(int gpu) const {
  return gpu >= 0 && gpu < static_cast<int>(collapsed_.size()) && collapsed_[static_cast<size_t>(gpu)];
}

void PipelineGantt::setCollapsed(int gpu, bool on) {
  if (gpu < 0 || gpu >= static_cast<int>(collapsed_.size()) || collapsed_[static_cast<size_t>(gpu)] == on) return;
  collapsed_[static_cast<size_t>(gpu)] = on;
  const double rowsBefore = scene_.rows.count;
  layoutRows();
  updateGpuMenu();
  // Keep the view's top, show as many rows as before (or all there are).
  const QCPRange y = plot_->yAxis->range();
  if (y.size() >= rowsBefore - 1e-9) plot_->yAxis->setRange(-0.5, scene_.rows.count - 0.5);
}

void PipelineGantt::setAllCollapsed(bool on) {
  std::fill(collapsed_.begin(), collapsed_.end(), on);
  layoutRows();
  updateGpuMenu();
  plot_->yAxis->setRange(-0.5, scene_.rows.count - 0.5);
}

void PipelineGantt::updateGpuMenu() {
  QMenu* menu = gpuMenuButton_->menu();
  menu->clear();
  for (int g = 0; g < static_cast<int>(collapsed_.size()); ++g) {
    QAction* a = menu->addAction(tr("gpu%1 expanded").arg(g));
    a->setCheckable(true);
    a->setChecked(!collapsed_[static_cast<size_t>(g)]);
    connect(a, &QAction::toggled, this, [this, g](bool expanded) { setCollapsed(g, !expanded); });
  }
}

void PipelineGantt::fit() {
  if (!scene_.pipeline) return;
  Time end = std::max<Time>(fitEnd_, 1);
  for (const PipelineTask& t : scene_.pipeline->tasks) end = std::max(end, t.end);
  plot_->xAxis->setRange(0, double(end) / kUs * 1.01);
  // Every row when each gets kMinRowPx; else the first rows that do (drag to scroll).
  // (Hidden, its height is not known yet: every row.)
  const int px = plot_->axisRect()->height() > 20 ? plot_->axisRect()->height() : plot_->height() - 60;
  const int fits = plot_->isVisible() ? std::max(1, px / (tpLayer() ? kMinTpRowPx : kMinRowPx)) : scene_.rows.count;
  plot_->yAxis->setRange(-0.5, std::min(scene_.rows.count, fits) - 0.5);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

int PipelineGantt::visibleBarCount(PipelineTaskKind kind) const {
  const auto [from, to] = bars(kind)->visibleSpan(plot_->xAxis->range());
  return static_cast<int>(to - from);
}

void PipelineGantt::moveCursor() {
  const bool timed = model_ && model_->results() == results_.get() && model_->binWidth() > 0;
  scene_.cursorUs = timed ? double(Time(model_->currentBin() + 1) * model_->binWidth()) / kUs
                          : std::numeric_limits<double>::infinity();
  for (auto* c : {cursor_, utilCursor_}) {
    c->setVisible(timed);
    c->point1->setCoords(timed ? scene_.cursorUs : 0, 0);
    c->point2->setCoords(timed ? scene_.cursorUs : 0, 1);
  }
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PipelineGantt::setLeftMargin(int pixels) {
  for (QCPAxisRect* r : {plot_->axisRect(), utilRect_}) {
    r->setAutoMargins(pixels < 0 ? QCP::MarginSides(QCP::msAll) : QCP::msRight | QCP::msTop | QCP::msBottom);
    if (pixels >= 0) r->setMargins(QMargins(pixels, 0, 0, 0));
  }
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

int PipelineGantt::currentLeftMargin() const { return plot_->axisRect()->margins().left(); }

}  // namespace fl::views
