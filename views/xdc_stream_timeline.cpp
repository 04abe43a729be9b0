#include "views/xdc_stream_timeline.h"

#include <QEvent>
#include <QLabel>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <set>
#include <qcustomplot.h>

#include "results/results.h"
#include "views/format_units.h"
#include "views/run_model.h"

namespace fl::views {

namespace {

struct KindStyle {
  const char* kind;
  int row;
  QColor colour;
  const char* label;
};
const KindStyle kKinds[] = {
    {"pre_expert", 1, QColor(0x56, 0xb4, 0xe9), "pre-expert"},
    {"expert", 1, QColor(0xcc, 0x79, 0xa7), "expert (+ SRDecode)"},
    {"all_gather", 0, QColor(0x00, 0x9e, 0x73), "all-gather"},
    {"dispatch", 0, QColor(0xe6, 0x9f, 0x00), "dispatch A2A"},
    {"combine", 0, QColor(0xd5, 0x5e, 0x00), "combine A2A"},
    // workload.xdc.pass training: the backward pass (bwd) and the gradient all-reduce (layer -1).
    {"combine_backward", 0, QColor(0xf0, 0xe4, 0x42), "combine bwd"},
    {"expert_backward", 1, QColor(0x88, 0x22, 0x55), "expert bwd"},
    {"dispatch_backward", 0, QColor(0xb0, 0x80, 0x00), "dispatch bwd"},
    {"pre_expert_backward", 1, QColor(0x00, 0x72, 0xb2), "pre-expert bwd"},
    // Gradient traffic on a row of its own: with workload.xdc.grad_overlap it runs beside
    // the backward pass.
    {"expert_grad", -1, QColor(0x44, 0xaa, 0x99), "expert grads"},
    {"all_reduce", -1, QColor(0x66, 0x66, 0x66), "all-reduce"},
};
constexpr int kPlotMinHeight = 90;  // px: two rows of spans and the time axis
constexpr int kPlotRowHeight = 25;  // px more for the gradients row

bool isBackward(const std::string& kind) {
  return kind.find("backward") != std::string::npos || kind == "expert_grad" || kind == "all_reduce";
}

const KindStyle* styleOf(const std::string& kind) {
  for (const KindStyle& k : kKinds)
    if (kind == k.kind) return &k;
  return nullptr;
}

double ms(Time t) { return toNs(t) / 1e6; }

}  // namespace

XdcStreamTimeline::XdcStreamTimeline(RunModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  stack_ = new QStackedWidget(this);
  notice_ = makeNoticeLabel(stack_);
  notice_->setText(tr("The compute and communication streams appear for cross_dc_moe runs."));
  auto* page = new QWidget(stack_);
  plot_ = new QCustomPlot(page);
  plot_->setMinimumSize(260, kPlotMinHeight);
  plot_->xAxis->setLabel(tr("time (ms), GPU 0"));
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  ticker->addTick(0, tr("communication"));
  ticker->addTick(1, tr("compute"));
  ticker->addTick(-1, tr("gradients"));
  plot_->yAxis->setTicker(ticker);
  plot_->yAxis->setRange(-0.6, 1.6);
  plot_->yAxis->grid()->setVisible(false);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->axisRect()->setRangeDrag(Qt::Horizontal);
  plot_->axisRect()->setRangeZoom(Qt::Horizontal);
  plot_->installEventFilter(this);
  // The key is a line of the summary: a legend box would take the rows' room in a short dock.
  summary_ = new QLabel(page);
  summary_->setWordWrap(true);
  summary_->installEventFilter(this);  // its width decides which summary fits (fitSummary)
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(plot_, 1);
  layout->addWidget(summary_);
  stack_->addWidget(notice_);
  stack_->addWidget(page);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->addWidget(stack_);
  connect(model_, &RunModel::resultsChanged, this, &XdcStreamTimeline::reload);
  reload();
}

bool XdcStreamTimeline::noticeVisible() const { return stack_->currentWidget() == notice_; }

void XdcStreamTimeline::reload() {
  for (const Span& s : spans_) plot_->removeItem(s.rect);
  spans_.clear();
  agTotal_ = agHidden_ = 0;
  fullText_.clear();
  shortText_.clear();
  const Results* r = model_->results();
  if (!r || !r->hybridep || r->hybridep->timeline.empty()) {
    stack_->setCurrentWidget(notice_);
    return;
  }
  const auto& timeline = r->hybridep->timeline;
  bool gradientRow = false;
  for (const HybridEpSpan& sp : timeline) gradientRow = gradientRow || sp.kind == "all_reduce" || sp.kind == "expert_grad";
  plot_->yAxis->setRange(gradientRow ? -1.6 : -0.6, 1.6);
  plotMinHeight_ = kPlotMinHeight + (gradientRow ? kPlotRowHeight : 0);
  plot_->setMinimumHeight(plotMinHeight_);
  std::map<int, std::pair<Time, Time>> pe;  // per layer: the pre-expert span
  int layers = 0;
  double secondLayerEnd = 0;
  end_ = 0;
  std::set<std::string> present;
  Time backwardStart = -1, allReduce = 0, backwardEnd = 0, allReduceEnd = 0;
  for (const HybridEpSpan& sp : timeline) {
    present.insert(sp.kind);
    if (isBackward(sp.kind) && (backwardStart < 0 || sp.start < backwardStart)) backwardStart = sp.start;
    if (sp.kind == "all_reduce") allReduce += sp.end - sp.start, allReduceEnd = std::max(allReduceEnd, sp.end);
    else if (isBackward(sp.kind)) backwardEnd = std::max(backwardEnd, sp.end);
    if (sp.kind == "pre_expert") pe[sp.layer] = {sp.start, sp.end};
    layers = std::max(layers, sp.layer + 1);
  }
  for (const HybridEpSpan& sp : timeline) {
    const KindStyle* k = styleOf(sp.kind);
    if (!k) continue;
    auto* rect = new QCPItemRect(plot_);
    const double h = 0.36;
    rect->topLeft->setCoords(ms(sp.start), k->row + h);
    rect->bottomRight->setCoords(ms(sp.end), k->row - h);
    rect->setPen(QPen(k->colour.darker(140), 0.8));
    rect->setBrush(k->colour);
    rect->setClipToAxisRect(true);
    spans_.push_back({sp.layer, QString::fromStdString(sp.kind), k->row, rect});
    end_ = std::max(end_, ms(sp.end));
    if (sp.layer <= 1 && !isBackward(sp.kind)) secondLayerEnd = std::max(secondLayerEnd, ms(sp.end));
    if (sp.kind == "all_gather") {
      agTotal_ += sp.end - sp.start;
      if (auto it = pe.find(sp.layer); it != pe.end())
        agHidden_ += std::max<Time>(0, std::min(sp.end, it->second.second) - std::max(sp.start, it->second.first));
    }
  }
  plot_->xAxis->setRange(0, std::max(1e-6, secondLayerEnd) * 1.02);
  plot_->replot(QCustomPlot::rpQueuedReplot);
  // The full summary, and a short one for a dock too low for it (fitSummary; the tool tip
  // keeps the full one).
  QString text = tr("GPU 0, %1 layer%2, iteration %3.").arg(layers).arg(layers == 1 ? "" : "s").arg(formatTime(r->makespan));
  QString brief = tr("%1 layer%2, %3").arg(layers).arg(layers == 1 ? "" : "s").arg(formatTime(r->makespan));
  if (agTotal_ > 0) {
    const QString hidden = formatPercent(double(agHidden_) / double(agTotal_));
    text += tr(" All-gather %1 in all, %2 of it under the pre-expert compute (%3): only the rest delays the "
               "dispatch.")
                .arg(formatTime(agTotal_), formatTime(agHidden_), hidden);
    brief += tr("; all-gather %1 hidden").arg(hidden);
  } else {
    text += tr(" No expert all-gather (plain EP, or every domain of size 1).");
  }
  if (backwardStart >= 0) {
    // What the all-reduce adds after the backward pass: all of it without overlap.
    const Time exposed = std::max<Time>(0, allReduceEnd - backwardEnd);
    text += tr(" Backward pass and gradient all-reduce from %1 (the all-reduce %2, %3 of it after the backward "
               "pass).")
                .arg(formatTime(backwardStart), formatTime(allReduce), formatTime(exposed));
    brief += tr("; backward from %1, all-reduce %2 (%3 after it)")
                 .arg(formatTime(backwardStart), formatTime(allReduce), formatTime(exposed));
  }
  text += tr(" Double-click: whole iteration.");
  QStringList key;
  for (const KindStyle& k : kKinds)
    if (present.count(k.kind) || !isBackward(k.kind))  // backward kinds only when modelled
      key << QStringLiteral("<span style='color:%1'>&#9632;</span>&nbsp;%2")
                 .arg(k.colour.name(), tr(k.label).replace(QLatin1Char(' '), QStringLiteral("&nbsp;")));
  const QString keyLine = key.join(QStringLiteral(" "));
  fullText_ = keyLine + QStringLiteral("<br>") + text;
  shortText_ = keyLine + QStringLiteral("<br>") + brief + QStringLiteral(".");
  summary_->setToolTip(QStringLiteral("<p>") + text + QStringLiteral("</p>"));
  stack_->setCurrentWidget(stack_->widget(1));
  fitSummary();
}

// The full summary where the dock leaves the plot its minimum height beside it, else the
// short one: the label is never given less height than its text needs.
void XdcStreamTimeline::fitSummary() {
  if (fullText_.isEmpty()) return;
  const int width = std::max(1, summary_->width());
  const int room = summary_->parentWidget()->height() - plotMinHeight_ - 12;  // margins and spacing
  QLabel probe;
  probe.setWordWrap(true);
  probe.setFont(summary_->font());
  probe.setText(fullText_);
  const bool full = probe.heightForWidth(width) <= room;
  const QString& want = full ? fullText_ : shortText_;
  if (summary_->text() != want) summary_->setText(want);
}

void XdcStreamTimeline::showWholeIteration() {
  plot_->xAxis->setRange(0, std::max(1e-6, end_) * 1.02);
  plot_->replot();
}

bool XdcStreamTimeline::eventFilter(QObject* o, QEvent* e) {
  if (o == summary_ && e->type() == QEvent::Resize) fitSummary();
  if (o == plot_ && e->type() == QEvent::MouseButtonDblClick) {
    showWholeIteration();
    return true;
  }
  return QWidget::eventFilter(o, e);
}

QString XdcStreamTimeline::summaryText() const { return summary_->text(); }

}  // namespace fl::views
