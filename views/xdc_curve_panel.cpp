#include "views/xdc_curve_panel.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QStyle>
#include <QStyleOptionSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <functional>
#include <qcustomplot.h>

#include "results/results.h"
#include "topology/topology.h"
#include "views/format_units.h"
#include "views/run_model.h"

namespace fl::views {

namespace {

// Okabe-Ito blue, purple, green, yellow: one per level.
constexpr double kMarkerPx = 11;  // the optimum's disc and EP's square

const QColor kLevelColours[] = {QColor(0x00, 0x72, 0xb2), QColor(0xcc, 0x79, 0xa7), QColor(0x00, 0x9e, 0x73),
                                QColor(0xe6, 0x9f, 0x00)};
QColor levelColour(int l) { return kLevelColours[l % 4]; }

// The value without trailing zeros ("24 MB", "0.156 GB/s", not "24.000 MB"), and at
// least as wide as that text: in a narrow dock the layout squeezed the boxes to 64 px
// and cut the units ("24.000 M", "0.156 G").
class CompactSpinBox : public QDoubleSpinBox {
 public:
  using QDoubleSpinBox::QDoubleSpinBox;
  QString textFromValue(double v) const override {
    QString text = locale().toString(v, 'f', decimals());
    const QChar point = locale().decimalPoint().front();
    if (text.contains(point)) {
      while (text.endsWith(u'0')) text.chop(1);
      if (text.endsWith(point)) text.chop(1);
    }
    return text;
  }
  void fitToValue() {
    QStyleOptionSpinBox option;
    option.initFrom(this);
    option.frame = hasFrame();
    option.buttonSymbols = buttonSymbols();
    option.subControls = QStyle::SC_SpinBoxFrame | QStyle::SC_SpinBoxEditField | QStyle::SC_SpinBoxUp | QStyle::SC_SpinBoxDown;
    const QFontMetrics fm(font());
    const QSize text(fm.horizontalAdvance(prefix() + textFromValue(value()) + suffix()) + 8, fm.height());
    setMinimumWidth(style()->sizeFromContents(QStyle::CT_SpinBox, &option, text, this).width());
  }
};

// Calls `f` after each resize of the watched widget.
class ResizeWatcher : public QObject {
 public:
  ResizeWatcher(QWidget* watched, std::function<void()> f) : QObject(watched), f_(std::move(f)) { watched->installEventFilter(this); }
  bool eventFilter(QObject*, QEvent* e) override {
    if (e->type() == QEvent::Resize) f_();
    return false;
  }

 private:
  std::function<void()> f_;
};

QDoubleSpinBox* spin(QWidget* parent, double lo, double hi, int decimals, const QString& suffix, const QString& tip) {
  auto* b = new CompactSpinBox(parent);
  b->setRange(lo, hi);
  b->setDecimals(decimals);
  b->setSuffix(suffix);
  b->setToolTip(tip);
  b->setKeyboardTracking(false);  // one evaluation per finished edit or arrow step
  QObject::connect(b, &QDoubleSpinBox::valueChanged, b, [b] { b->fitToValue(); });
  b->fitToValue();
  return b;
}

}  // namespace

XdcCurvePanel::XdcCurvePanel(RunModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  stack_ = new QStackedWidget(this);
  notice_ = makeNoticeLabel(stack_);
  notice_->setText(tr("The stream model's curve appears for cross_dc_moe runs."));
  auto* page = new QWidget(stack_);

  auto* inputs = new QWidget(page);
  form_ = new QFormLayout(inputs);
  form_->setContentsMargins(0, 0, 0, 0);
  data_ = spin(inputs, 0.001, 1e6, 3, tr(" MB"), tr("D: bytes one GPU dispatches in one all-to-all (10^6 B)"));
  expert_ = spin(inputs, 0.001, 1e6, 3, tr(" MB"), tr("P_E: the expert bytes one GPU contributes, before compression"));
  ratio_ = spin(inputs, 1, 1e6, 1, QString(), tr("SR compression ratio: expert bytes on the wire = P_E / ratio (1 = off)"));
  preExpert_ = spin(inputs, 0, 1e6, 3, tr(" ms"), tr("Lat_PE: pre-expert compute per layer, which hides the all-gather"));
  form_->addRow(tr("Data D"), data_);
  form_->addRow(tr("Expert P_E"), expert_);
  form_->addRow(tr("Compression"), ratio_);
  form_->addRow(tr("Lat_PE"), preExpert_);
  for (QDoubleSpinBox* b : {data_, expert_, ratio_, preExpert_})
    connect(b, &QDoubleSpinBox::valueChanged, this, &XdcCurvePanel::evaluate);

  log_ = new QCheckBox(tr("Log latency axis"), inputs);
  log_->setToolTip(tr("Logarithmic latency axis: levels whose latencies differ by orders of magnitude "
                      "(1000 DCs against 8 GPUs) each stay readable. On by itself when the levels' EP "
                      "latencies differ by more than 10x."));
  connect(log_, &QCheckBox::toggled, this, [this] {
    logChosen_ = true;
    fitAxes();
    plot_->replot(QCustomPlot::rpQueuedReplot);
  });
  plot_ = new QCustomPlot(page);
  plot_->setMinimumSize(220, 150);
  // On two lines, then shorter, where the plot is narrower than the title (cut at its
  // right edge; at 1024 x 768 the plot is ~220 px and even the first of two lines was cut).
  new ResizeWatcher(plot_, [this] {
    const QString candidates[] = {tr("p = share of data sent by A2A (1 = EP)"),
                                  tr("p = share of data sent by A2A\n(1 = EP)"), tr("p = share sent by A2A\n(1 = EP)")};
    const QFontMetrics fm(plot_->xAxis->labelFont());
    QString label = candidates[2];
    for (const QString& c : candidates) {
      int widest = 0;
      for (const QString& line : c.split('\n')) widest = std::max(widest, fm.horizontalAdvance(line));
      if (widest + 60 <= plot_->width()) {
        label = c;
        break;
      }
    }
    if (plot_->xAxis->label() != label) plot_->xAxis->setLabel(label);
    fitAxes();
    plot_->replot(QCustomPlot::rpQueuedReplot);
  });
  plot_->xAxis->setLabel(tr("p = share of data sent by A2A (1 = EP)"));
  plot_->yAxis->setLabel(tr("latency (ms)"));
  plot_->xAxis->setRange(-0.03, 1.03);
  // No legend box: the key is one line under the plot, which keeps the curves their room
  // in a short bottom dock.
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);

  auto* side = new QWidget(page);
  auto* sideLayout = new QVBoxLayout(side);
  sideLayout->setContentsMargins(0, 0, 0, 0);
  sideLayout->addWidget(inputs);
  sideLayout->addWidget(log_);

  summary_ = new QLabel(page);
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  // The inputs beside the plot, the summary under both (the full width: fewer lines in a
  // narrow bottom dock).
  auto* grid = new QGridLayout(page);
  grid->setContentsMargins(4, 4, 4, 4);
  grid->addWidget(side, 0, 0, Qt::AlignTop);
  grid->addWidget(plot_, 0, 1);
  grid->addWidget(summary_, 1, 0, 1, 2);
  grid->setColumnStretch(1, 1);
  grid->setRowStretch(0, 1);
  stack_->addWidget(notice_);
  stack_->addWidget(page);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->addWidget(stack_);
  connect(model_, &RunModel::resultsChanged, this, &XdcCurvePanel::reload);
  reload();
}

bool XdcCurvePanel::noticeVisible() const { return stack_->currentWidget() == notice_; }

void XdcCurvePanel::reload() {
  const Results* r = model_->results();
  if (!r || !r->hybridep || r->hybridep->levels.empty()) {
    stack_->setCurrentWidget(notice_);
    return;
  }
  const HybridEpResults& h = *r->hybridep;
  xdc::ModelInput in;
  in.data = h.data_bytes;
  in.expert = h.expert_bytes / std::max(1.0, h.compression_ratio);
  in.preExpert = h.pre_expert_ns * 1e-9;
  for (const HybridEpLevel& l : h.levels) in.levels.push_back({l.workers, l.bandwidth_Bps});
  setInputs(in, h.layers, h.compression_ratio);
  stack_->setCurrentWidget(stack_->widget(1));
}

// Level `l` by the fabric's name for it ("DC", "GPU", "node"), else its number.
QString XdcCurvePanel::levelName(int l) const {
  const topo::Topology* t = model_ ? model_->topology() : nullptr;
  if (!t || l < 0 || l >= int(t->levelNames.size()) || t->levelNames[size_t(l)].empty()) return tr("level %1").arg(l);
  const QString name = QString::fromStdString(t->levelNames[size_t(l)]);
  return name == QLatin1String("dc") || name == QLatin1String("gpu") ? name.toUpper() : name;
}

void XdcCurvePanel::rebuildLevels(int levels) {
  while (int(bandwidth_.size()) > levels) {
    form_->removeRow(form_->rowCount() - 1);
    bandwidth_.pop_back();
  }
  while (int(bandwidth_.size()) < levels) {
    const int l = int(bandwidth_.size());
    auto* b = spin(form_->parentWidget(), 0.001, 1e6, 3, tr(" GB/s"),
                   tr("B^%1: what one GPU gets towards its level-%1 peers").arg(l));
    connect(b, &QDoubleSpinBox::valueChanged, this, &XdcCurvePanel::evaluate);
    form_->addRow(tr("B level %1").arg(l), b);
    bandwidth_.push_back(b);
  }
  for (int l = 0; l < levels; ++l)  // the fabric's names, also when the count stays
    if (auto* label = qobject_cast<QLabel*>(form_->labelForField(bandwidth_[size_t(l)])))
      label->setText(tr("B %1").arg(levelName(l)));
  if (int(candidates_.size()) == levels) return;
  plot_->clearGraphs();
  plot_->clearItems();
  candidates_.clear(), continuous_.clear(), optimum_.clear(), ep_.clear(), labels_.clear();
  for (int l = 0; l < levels; ++l) {
    const QColor c = levelColour(l);
    QCPGraph* line = plot_->addGraph();
    line->setPen(QPen(c, 1, Qt::DotLine));
    line->setName(tr("L%1 Lat(p)").arg(l));
    continuous_.push_back(line);
    QCPGraph* cand = plot_->addGraph();
    cand->setPen(QPen(c, 1.5));
    cand->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, c, Qt::white, 7));
    cand->setName(tr("L%1 candidates S").arg(l));
    candidates_.push_back(cand);
    QCPGraph* opt = plot_->addGraph();
    opt->setLineStyle(QCPGraph::lsNone);
    opt->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(0xd0, 0x20, 0x20), kMarkerPx));
    opt->setName(l == 0 ? tr("optimum") : QString());
    optimum_.push_back(opt);
    QCPGraph* ep = plot_->addGraph();
    ep->setLineStyle(QCPGraph::lsNone);
    ep->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, QPen(Qt::black, 1.5), QBrush(Qt::NoBrush), kMarkerPx));
    ep->setName(l == 0 ? tr("EP (p = 1)") : QString());
    ep_.push_back(ep);
    auto* label = new QCPItemText(plot_);
    label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
    label->setPadding(QMargins(0, 0, 0, 8));
    label->setColor(QColor(0xd0, 0x20, 0x20));
    labels_.push_back(label);
  }
  for (int i = plot_->legend->itemCount(); i-- > 0;)
    if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot_->legend->item(i)); item && item->plottable()->name().isEmpty())
      plot_->legend->removeItem(i);
}

void XdcCurvePanel::setInputs(const xdc::ModelInput& in, int layers, double compressionRatio) {
  workers_.clear();
  for (const xdc::ModelLevel& l : in.levels) workers_.push_back(l.workers);
  layers_ = std::max(1, layers);
  rebuildLevels(int(in.levels.size()));
  {
    const QSignalBlocker b1(data_), b2(expert_), b3(ratio_), b4(preExpert_);
    data_->setValue(in.data / 1e6);
    ratio_->setValue(compressionRatio);
    expert_->setValue(in.expert * compressionRatio / 1e6);
    preExpert_->setValue(in.preExpert * 1e3);
    for (std::size_t l = 0; l < bandwidth_.size(); ++l) {
      const QSignalBlocker b(bandwidth_[l]);
      bandwidth_[l]->setValue(in.levels[l].bandwidth / 1e9);
    }
  }
  for (QDoubleSpinBox* b : findChildren<QDoubleSpinBox*>())
    if (auto* c = dynamic_cast<CompactSpinBox*>(b)) c->fitToValue();  // signals were blocked
  evaluate();
}

xdc::ModelInput XdcCurvePanel::inputs() const {
  xdc::ModelInput in;
  in.data = data_->value() * 1e6;
  in.expert = expert_->value() * 1e6 / ratio_->value();
  in.preExpert = preExpert_->value() * 1e-3;
  for (std::size_t l = 0; l < workers_.size(); ++l) in.levels.push_back({workers_[l], bandwidth_[l]->value() * 1e9});
  return in;
}

void XdcCurvePanel::evaluate() {
  if (workers_.empty()) return;
  QElapsedTimer timer;
  timer.start();
  const xdc::ModelInput in = inputs();
  prediction_ = xdc::predict(in);
  const double toMs = 1e3 * layers_;
  for (std::size_t l = 0; l < prediction_.levels.size(); ++l) {
    const xdc::LevelPrediction& lp = prediction_.levels[l];
    QVector<double> p, lat;
    for (const xdc::CurvePoint& c : lp.curve) {
      p.push_back(c.p);
      lat.push_back(c.lat * toMs);
      if (c.domainSize == lp.domainSize) optimum_[l]->setData({c.p}, {c.lat * toMs});
      if (c.domainSize == 1) ep_[l]->setData({c.p}, {c.lat * toMs});
    }
    candidates_[l]->setData(p, lat, true);
    // The continuous Lat(p) of this level (spec 1.4), with its kink at the threshold.
    const double g = lp.workers, b = in.levels[l].bandwidth, pe = in.preExpert, d = in.data;
    QVector<double> xs, ys;
    const int samples = 100;
    for (int i = 0; i <= samples; ++i) xs.push_back(double(i) / samples);
    if (lp.threshold > 0 && lp.threshold < 1) xs.push_back(lp.threshold);
    std::sort(xs.begin(), xs.end());
    for (double x : xs) {
      const double lat = g > 1 ? std::max(pe, (1 - x) * (g - 1) * lp.expert / b) + 2 * x * d * (g - 1) / (g * b) : pe;
      ys.push_back(lat * toMs);
    }
    continuous_[l]->setData(xs, ys, true);
  }
  evaluationMs_ = double(timer.nsecsElapsed()) / 1e6;
  if (!logChosen_) {
    const QSignalBlocker block(log_);
    log_->setChecked(levelsFarApart());
  }
  fitAxes();
  for (std::size_t l = 0; l < labels_.size(); ++l) {
    const xdc::LevelPrediction& lp = prediction_.levels[l];
    labels_[l]->setText(QStringLiteral("S=%1").arg(lp.domainSize));
    if (!optimum_[l]->data()->isEmpty()) {
      const double p = optimum_[l]->data()->constBegin()->key;
      labels_[l]->position->setCoords(p, optimum_[l]->data()->constBegin()->value);
      // Centred over the dot, but inside the plot at either end (p = 1 is EP's edge:
      // "S=" was cut there).
      const Qt::Alignment h = p > 0.85 ? Qt::AlignRight : p < 0.15 ? Qt::AlignLeft : Qt::AlignHCenter;
      labels_[l]->setPositionAlignment(Qt::AlignBottom | h);
    }
  }
  plot_->replot(QCustomPlot::rpQueuedReplot);

  QStringList chosen;
  for (const xdc::LevelPrediction& lp : prediction_.levels) chosen << QString::number(lp.domainSize);
  const double model = prediction_.lat * toMs, ep = prediction_.epLat * toMs;
  QStringList key;
  for (std::size_t l = 0; l < prediction_.levels.size(); ++l)
    key << QStringLiteral("<span style='color:%1'>&#9679; %2</span>").arg(levelColour(int(l)).name(), levelName(int(l)).toHtmlEscaped());
  QString text = tr("%1: candidates S (dots: Lat(p)); <span style='color:#d02020'>&#11044;</span> optimum, "
                    "&#9633; EP.<br><b>Model</b> S_ED [%2]: %3 ms, EP %4 ms (%5&times;)")
                     .arg(key.join(QStringLiteral(" ")), chosen.join(QStringLiteral(", ")))
                     .arg(model, 0, 'f', 2)
                     .arg(ep, 0, 'f', 2)
                     .arg(model > 0 ? ep / model : 0, 0, 'f', 2);
  if (const Results* r = model_->results(); r && r->hybridep) {
    QStringList ran;
    for (const HybridEpLevel& l : r->hybridep->levels) ran << QString::number(l.domain_size);
    const double sim = toNs(r->makespan) / 1e6;
    text += tr(" &middot; <b>Simulated</b> %1 ms (%2 model, S_ED [%3], the run's inputs")
                .arg(sim, 0, 'f', 2)
                .arg(QString::fromStdString(r->hybridep->network_model), ran.join(QStringLiteral(", ")));
    if (r->hybridep->model_lat_ns > 0)
      text += tr("; %1&times; its prediction").arg(toNs(r->makespan) / r->hybridep->model_lat_ns, 0, 'f', 3);
    text += QStringLiteral(")");
  }
  text += tr(" &middot; curve in %1 ms").arg(evaluationMs_, 0, 'f', 3);
  summary_->setText(text);
}

QString XdcCurvePanel::summaryText() const { return summary_->text(); }

bool XdcCurvePanel::logScale() const { return plot_->yAxis->scaleType() == QCPAxis::stLogarithmic; }

bool XdcCurvePanel::levelsFarApart() const {
  double lo = 0, hi = 0;
  for (QCPGraph* g : ep_)
    if (!g->data()->isEmpty() && g->data()->constBegin()->value > 0) {
      const double v = g->data()->constBegin()->value;
      lo = lo > 0 ? std::min(lo, v) : v;
      hi = std::max(hi, v);
    }
  return lo > 0 && hi > 10 * lo;
}

void XdcCurvePanel::fitAxes() {
  // x: EP sits at p = 1 and a domain of all workers at p = 0; their markers need half
  // their size plus the pen inside the axis rect, however narrow the plot (a fixed 0.03
  // left EP's square half cut at 200 px).
  const double width = plot_->axisRect()->width() > 40 ? plot_->axisRect()->width() : plot_->width() * 0.7;
  const double margin = std::max(0.03, (kMarkerPx / 2 + 3) / std::max(40.0, width - kMarkerPx - 6));
  plot_->xAxis->setRange(-margin, 1 + margin);
  double top = 0, least = 0;
  for (const auto* graphs : {&candidates_, &continuous_})
    for (QCPGraph* g : *graphs)
      for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) {
        top = std::max(top, it->value);
        if (it->value > 0) least = least > 0 ? std::min(least, it->value) : it->value;
      }
  QCPAxis* y = plot_->yAxis;
  if (log_->isChecked() && least > 0) {
    if (y->scaleType() != QCPAxis::stLogarithmic) {
      y->setScaleType(QCPAxis::stLogarithmic);
      y->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    }
    // Every level whole, each marker with room: half a marker is ~0.1 decade here.
    y->setRange(least / 2, top * 2);
    return;
  }
  if (y->scaleType() != QCPAxis::stLinear) {
    y->setScaleType(QCPAxis::stLinear);
    y->setTicker(QSharedPointer<QCPAxisTicker>::create());
  }
  // The interesting part is around the optimum and EP; far candidates (an all-gather of
  // 1000 DCs' experts) run off the top, where dragging or the wheel reaches them.
  double focus = 0;
  for (QCPGraph* g : ep_)
    if (!g->data()->isEmpty()) focus = std::max(focus, g->data()->constBegin()->value);
  const double upper = std::max(1e-6, std::min(top, 2.5 * focus > 0 ? 2.5 * focus : top)) * 1.12;
  // Below 0 by half a marker: a level near 0 (8 GPUs under 1000 DCs) keeps its dots whole.
  const double height = plot_->axisRect()->height() > 40 ? plot_->axisRect()->height() : plot_->height() * 0.6;
  const double below = (kMarkerPx / 2 + 3) / std::max(40.0, height - kMarkerPx - 6);
  y->setRange(-upper * below, upper);
}

}  // namespace fl::views
