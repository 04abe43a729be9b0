#include "views/pipeline_compare_view.h"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>
#include <qcustomplot.h>

#include "views/format_units.h"
#include "views/pipeline_gantt.h"

namespace fl::views {

PipelineCompareView::PipelineCompareView(QWidget* parent) : QWidget(parent) {
  auto* split = new QSplitter(Qt::Vertical, this);
  split->setChildrenCollapsible(false);
  for (int side = 0; side < 2; ++side) {
    auto* half = new QWidget(split);
    auto* layout = new QVBoxLayout(half);
    layout->setContentsMargins(0, 0, 0, 0);
    titles_[side] = new QLabel(half);
    titles_[side]->setObjectName(side == 0 ? QStringLiteral("pipelineTitleA") : QStringLiteral("pipelineTitleB"));
    QFont f = titles_[side]->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.1);
    titles_[side]->setFont(f);
    titles_[side]->setAlignment(Qt::AlignCenter);
    gantts_[side] = new PipelineGantt(nullptr, half);
    gantts_[side]->setUtilisationVisible(true);
    layout->addWidget(titles_[side]);
    layout->addWidget(gantts_[side], 1);
    split->addWidget(half);
    connect(gantts_[side], &PipelineGantt::rowsChanged, this, &PipelineCompareView::alignLeftEdges);
  }
  // One time axis: dragging or zooming either pipeline moves both.
  QCPAxis* xa = gantts_[0]->plot()->xAxis;
  QCPAxis* xb = gantts_[1]->plot()->xAxis;
  connect(xa, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), xb, qOverload<const QCPRange&>(&QCPAxis::setRange));
  connect(xb, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), xa, qOverload<const QCPRange&>(&QCPAxis::setRange));
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(4, 4, 4, 4);
  outer->addWidget(split);
}

QString PipelineCompareView::title(int side) const { return titles_[side]->text(); }

QString PipelineCompareView::pipelineTitle(const QString& label, const Results& r) {
  const std::string fusion = r.pipeline ? r.pipeline->fusion : r.moe ? r.moe->fusion : std::string();
  const std::string comm = r.moe ? r.moe->communication : std::string();
  QString scheme = QString::fromStdString(fusion.empty() ? "?" : fusion);
  if (!comm.empty()) scheme += QStringLiteral(" + ") + QString::fromStdString(comm);
  QString text = tr("%1: %2 — makespan %3").arg(label, scheme, formatTime(r.makespan));
  if (r.pipeline) text += tr(", SM utilisation %1").arg(formatPercent(r.pipeline->sm_utilization));
  return text;
}

void PipelineCompareView::setResults(const QString& labelA, std::shared_ptr<const Results> a, const QString& labelB,
                                     std::shared_ptr<const Results> b) {
  const std::shared_ptr<const Results> runs[2] = {std::move(a), std::move(b)};
  const QString labels[2] = {labelA, labelB};
  Time end = 0;
  for (const auto& r : runs)
    if (r && r->pipeline)
      for (const PipelineTask& t : r->pipeline->tasks) end = std::max(end, t.end);
  for (int side = 0; side < 2; ++side) {
    const Results* r = runs[side].get();
    titles_[side]->setText(r ? pipelineTitle(labels[side], *r) : tr("%1: not run yet").arg(labels[side]));
    gantts_[side]->setFitEnd(end);  // "Fit" on either shows both runs whole
    gantts_[side]->setResults(runs[side]);
  }
  alignLeftEdges();
}

// Equal times on one vertical: both charts get the wider of their automatic left margins.
void PipelineCompareView::alignLeftEdges() {
  int widest = 0;
  for (PipelineGantt* g : gantts_) {
    g->setLeftMargin(-1);
    g->plot()->replot();  // lays out with automatic margins
    widest = std::max(widest, g->currentLeftMargin());
  }
  for (PipelineGantt* g : gantts_) g->setLeftMargin(widest);
}

}  // namespace fl::views
