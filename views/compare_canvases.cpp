#include "views/compare_canvases.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <algorithm>

#include "views/colour_legend.h"
#include "views/format_units.h"
#include "views/run_model.h"
#include "views/topology_canvas.h"

namespace fl::views {

CompareCanvases::CompareCanvases(QWidget* parent) : QWidget(parent) {
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  for (int side = 0; side < 2; ++side) {
    models_[side] = new RunModel(this);
    models_[side]->setFollowLive(false);
    headers_[side] = new QLabel(this);
    headers_[side]->setWordWrap(true);
    canvases_[side] = new TopologyCanvas(models_[side], this);
    canvases_[side]->setObjectName(side == 0 ? QStringLiteral("compareCanvasA") : QStringLiteral("compareCanvasB"));
    grid->addWidget(headers_[side], 0, side);
    grid->addWidget(canvases_[side], 1, side);
    grid->setColumnStretch(side, 1);
  }
  grid->setRowStretch(1, 1);
  // One legend for both (they share the colour scale), outside them: each canvas gives
  // its legend's room to the fabric.
  for (TopologyCanvas* c : canvases_) {
    c->legend()->hide();
    connect(c, &TopologyCanvas::fitted, this, &CompareCanvases::shareScale);
  }
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("Simulated time:"), this));
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setObjectName(QStringLiteral("compareTimeSlider"));
  row->addWidget(slider_, 1);
  timeLabel_ = new QLabel(this);
  timeLabel_->setMinimumWidth(timeLabel_->fontMetrics().horizontalAdvance(QStringLiteral("000.0 µs – 000.0 µs")));
  row->addWidget(timeLabel_);
  legend_ = new ColourLegend(this);
  legend_->setObjectName(QStringLiteral("compareLegend"));
  legend_->setThresholds(models_[0]->coldThreshold(), models_[0]->hotThreshold());
  row->addWidget(legend_);
  grid->addLayout(row, 2, 0, 1, 2);
  connect(slider_, &QSlider::valueChanged, this, [this](int v) { setTime(Time(v) * step()); });
}

Time CompareCanvases::step() const {
  Time s = 0;
  for (const RunModel* m : models_)
    if (m->binWidth() > 0) s = s > 0 ? std::min(s, m->binWidth()) : m->binWidth();
  return std::max<Time>(s, 1);
}

Time CompareCanvases::duration() const {
  Time d = 0;
  for (const RunModel* m : models_) d = std::max(d, Time(m->binCount()) * m->binWidth());
  return d;
}

void CompareCanvases::setRuns(const QString& labelA, std::shared_ptr<const topo::Topology> topologyA,
                              std::shared_ptr<const Results> a, const QString& labelB,
                              std::shared_ptr<const topo::Topology> topologyB, std::shared_ptr<const Results> b) {
  labels_[0] = labelA;
  labels_[1] = labelB;
  const std::shared_ptr<const topo::Topology> topologies[2] = {std::move(topologyA), std::move(topologyB)};
  const std::shared_ptr<const Results> results[2] = {std::move(a), std::move(b)};
  for (int side = 0; side < 2; ++side) {
    if (models_[side]->topologyShared() != topologies[side]) models_[side]->setTopology(topologies[side]);
    models_[side]->setResults(results[side], true);
  }
  const QSignalBlocker block(slider_);
  slider_->setRange(0, static_cast<int>(std::max<Time>(0, duration() - 1) / step()));
  slider_->setValue(static_cast<int>(std::min<Time>(time_, std::max<Time>(0, duration() - 1)) / step()));
  setTime(Time(slider_->value()) * step());
}

void CompareCanvases::setThresholds(double cold, double hot) {
  for (RunModel* m : models_) m->setThresholds(cold, hot);
  legend_->setThresholds(cold, hot);
}

// Both canvases at the smaller of their fits (a sweep over the topology may give the two
// different fabrics; the same fabric fits alike in equal columns).
void CompareCanvases::shareScale() {
  if (canvases_[0]->fitScale() <= 0 || canvases_[1]->fitScale() <= 0) return;
  const double s = std::min(canvases_[0]->fitScale(), canvases_[1]->fitScale());
  for (TopologyCanvas* c : canvases_) c->setFitScaleLimit(s);
}

void CompareCanvases::setTime(Time t) {
  time_ = std::max<Time>(0, t);
  for (RunModel* m : models_)
    if (m->binWidth() > 0 && m->binCount() > 0) m->setCurrentBin(static_cast<int>(std::min<Time>(time_ / m->binWidth(), m->binCount() - 1)));
  const QSignalBlocker block(slider_);
  slider_->setValue(static_cast<int>(time_ / step()));
  const Time s = step();
  timeLabel_->setText(QStringLiteral("%1 – %2").arg(formatTime(time_ / s * s), formatTime(time_ / s * s + s)));
  updateHeaders();
}

QString CompareCanvases::header(int side) const { return headers_[side]->text(); }

void CompareCanvases::updateHeaders() {
  for (int side = 0; side < 2; ++side) {
    const Results* r = models_[side]->results();
    QString text = QStringLiteral("<b>%1</b>").arg(labels_[side].toHtmlEscaped());
    if (r) {
      text += tr(" · makespan %1").arg(formatTime(r->makespan));
      if (time_ >= Time(r->bins) * r->bin) text += tr(" · finished (its last bin shown)");
    }
    headers_[side]->setText(text);
  }
}

}  // namespace fl::views
