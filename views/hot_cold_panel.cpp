#include "views/hot_cold_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <QResizeEvent>

#include "views/flow_layout.h"
#include "views/hot_cold_overlay.h"
#include "views/run_model.h"

namespace fl::views {

namespace {

const QStringList kPhases = {QStringLiteral("all_reduce"), QStringLiteral("dispatch"), QStringLiteral("combine"),
                             QStringLiteral("migration")};

QString phaseTitle(const QString& p) {
  if (p == QLatin1String("all_reduce")) return QObject::tr("All-reduce");
  if (p == QLatin1String("dispatch")) return QObject::tr("Dispatch");
  if (p == QLatin1String("combine")) return QObject::tr("Combine");
  return QObject::tr("Migration");
}

QWidget* labelled(const QString& text, QWidget* w, QWidget* parent) {
  auto* box = new QWidget(parent);
  auto* l = new QHBoxLayout(box);
  l->setContentsMargins(0, 0, 0, 0);
  l->addWidget(new QLabel(text, box));
  l->addWidget(w);
  return box;
}

}  // namespace

HotColdPanel::HotColdPanel(RunModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  layout_ = new QBoxLayout(QBoxLayout::TopToBottom, this);
  layout_->setContentsMargins(4, 4, 4, 4);
  auto* controls = controls_ = new QWidget(this);
  auto* flow = new FlowLayout(controls);
  mode_ = new QComboBox(controls);
  mode_->addItems({tr("Two phases"), tr("Two runs")});
  mode_->setToolTip(tr("Two phases of the shown run side by side, or one phase of two finished runs (sweep points) "
                       "on one colour scale"));
  phaseA_ = new QComboBox(controls);
  phaseB_ = new QComboBox(controls);
  for (const QString& p : kPhases) phaseA_->addItem(phaseTitle(p), p), phaseB_->addItem(phaseTitle(p), p);
  phaseB_->setCurrentIndex(1);
  runA_ = new QComboBox(controls);
  runB_ = new QComboBox(controls);
  colour_ = new QComboBox(controls);
  // No "Colour:" label: the items say it, so the controls keep to one row at 1024 x 768.
  colour_->addItems({tr("by class"), tr("by utilisation")});
  colour_->setToolTip(tr("Colour the lanes by class (hot / cold / idle at the threshold) or by utilisation (one "
                         "viridis scale for both panels)"));
  hot_ = new QDoubleSpinBox(controls);
  hot_->setRange(1, 100);
  hot_->setSuffix(QStringLiteral(" %"));
  hot_->setDecimals(0);
  mode_->setObjectName(QStringLiteral("hotColdMode"));
  phaseA_->setObjectName(QStringLiteral("hotColdPhaseA"));
  hot_->setObjectName(QStringLiteral("hotColdHot"));
  hot_->setToolTip(tr("Hot threshold (the run's workload.wsc.hot_threshold until changed here); \"of max\": "
                      "relative to the phase's busiest link (workload.wsc.hot_threshold_kind: relative)"));
  flow->addWidget(mode_);
  flow->addWidget(phaseA_);
  flow->addWidget(phaseBBox_ = labelled(tr("vs"), phaseB_, controls));
  flow->addWidget(runsBox_ = labelled(tr("of"), runA_, controls));
  flow->addWidget(runBBox_ = labelled(tr("vs"), runB_, controls));
  flow->addWidget(colour_);
  flow->addWidget(labelled(tr("Hot ≥"), hot_, controls));
  layout_->addWidget(controls, 0, Qt::AlignTop);
  overlay_ = new HotColdOverlay(this);
  layout_->addWidget(overlay_, 1);

  for (QComboBox* c : {mode_, phaseA_, phaseB_, runA_, runB_, colour_})
    connect(c, &QComboBox::currentIndexChanged, this, [this] {
      if (!syncing_) update();
    });
  for (QComboBox* c : {runA_, runB_})
    connect(c, &QComboBox::activated, this, [this] { runsPicked_ = true; });
  connect(hot_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    if (!syncing_) overlay_->setHotThreshold(v / 100);
  });
  connect(model_, &RunModel::topologyChanged, this, [this] { overlay_->setTopology(model_->topologyShared()); });
  connect(model_, &RunModel::resultsChanged, this, [this] {
    syncThreshold();
    update();
  });
  overlay_->setTopology(model_->topologyShared());
  syncThreshold();
  syncRuns();
  update();
}

// A run with another workload.wsc.hot_threshold (or kind): its own again in the spin box
// (live snapshots and reruns of the same keep the user's choice).
void HotColdPanel::syncThreshold() {
  const Results* r = model_->results();
  if (!r || !r->wsc || (r->wsc->hot_threshold == runThreshold_ && r->wsc->hot_threshold_kind == runThresholdKind_))
    return;
  runThreshold_ = r->wsc->hot_threshold;
  runThresholdKind_ = r->wsc->hot_threshold_kind;
  syncing_ = true;
  // Relative (workload.wsc.hot_threshold_kind): a share of the phase's busiest link.
  hot_->setSuffix(runThresholdKind_ == "relative" ? tr(" % of max") : QStringLiteral(" %"));
  hot_->setValue(runThreshold_ * 100);
  syncing_ = false;
  overlay_->setHotThreshold(-1);
}

// A wide, short dock (the bottom area beside side docks, 1024 x 768): the controls as a
// column on the left, so the wafers get the dock's whole height; else a row on top.
void HotColdPanel::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  const bool beside = width() >= 2 * height() && width() >= 480;
  if (beside == controlsBeside_) return;
  controlsBeside_ = beside;
  layout_->setDirection(beside ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
  controls_->setMaximumWidth(beside ? 170 : QWIDGETSIZE_MAX);
}

void HotColdPanel::setPreview(std::shared_ptr<const Results> preview) {
  if (preview == preview_) return;
  preview_ = std::move(preview);
  update();
}

void HotColdPanel::setRuns(const QStringList& labels, const std::vector<std::shared_ptr<const Results>>& runs) {
  labels_ = labels;
  runs_ = runs;
  syncRuns();
  update();
}

// The run combos list the finished runs; baseline and er are picked first when present.
void HotColdPanel::syncRuns() {
  syncing_ = true;
  const QString a = runA_->currentText(), b = runB_->currentText();
  runA_->clear();
  runB_->clear();
  int base = -1, er = -1;
  for (int i = 0; i < static_cast<int>(runs_.size()) && i < labels_.size(); ++i) {
    if (!runs_[static_cast<size_t>(i)] || !runs_[static_cast<size_t>(i)]->wsc) continue;
    runA_->addItem(labels_[i], i);
    runB_->addItem(labels_[i], i);
    const std::string& m = runs_[static_cast<size_t>(i)]->wsc->mapping;
    if (m == "baseline" && base < 0) base = runA_->count() - 1;
    if ((m == "er" || m == "her") && er < 0) er = runA_->count() - 1;
  }
  const int ia = runA_->findText(a), ib = runB_->findText(b);
  // A pair picked by hand stays; otherwise baseline vs ER (or the first two) as runs finish.
  runA_->setCurrentIndex(runsPicked_ && ia >= 0 ? ia : base >= 0 ? base : 0);
  runB_->setCurrentIndex(runsPicked_ && ib >= 0 ? ib : er >= 0 ? er : std::min(1, runB_->count() - 1));
  const bool two = runA_->count() >= 2;
  mode_->setItemData(1, two ? QVariant() : QVariant(0), Qt::UserRole - 1);  // disabled without two runs
  if (!two && mode_->currentIndex() == 1) mode_->setCurrentIndex(0);
  syncing_ = false;
}

void HotColdPanel::setFollowShown(bool follow) {
  if (follow == followShown_) return;
  followShown_ = follow;
  update();
}

// The shown run, or (until the user picks a point) the sweep's first finished ER or HER
// point while the shown one is the baseline: seed 003 §V-A's complementary hot and cold
// links are ER's, and a mapping sweep opens on its baseline.
std::shared_ptr<const Results> HotColdPanel::phasesRun() const {
  const auto shown = model_->resultsShared();
  if (followShown_ || !shown || !shown->wsc || shown->wsc->mapping != "baseline") return shown;
  for (const auto& r : runs_)
    if (r && r->wsc && (r->wsc->mapping == "er" || r->wsc->mapping == "her")) return r;
  return shown;
}

void HotColdPanel::update() {
  const bool runs = mode_->currentIndex() == 1;
  phaseBBox_->setVisible(!runs);
  runsBox_->setVisible(runs);
  runBBox_->setVisible(runs);
  overlay_->setColourBy(colour_->currentIndex() == 1 ? HotColdOverlay::ColourBy::Utilisation
                                                     : HotColdOverlay::ColourBy::Class);
  std::vector<HotColdOverlay::Panel> panels;
  const QString pa = phaseA_->currentData().toString(), pb = phaseB_->currentData().toString();
  if (runs) {
    // A drag's preview stands in for the run being edited (the shown one) wherever that
    // run is drawn, or for the second run when neither is it: the other stays to compare.
    const bool previewing = preview_ && preview_->wsc;
    int edited = -1;
    std::vector<int> picked;
    for (QComboBox* c : {runA_, runB_}) {
      const int i = c->currentData().toInt();
      if (i < 0 || i >= static_cast<int>(runs_.size())) continue;
      if (edited < 0 && runs_[static_cast<size_t>(i)] == model_->resultsShared()) edited = static_cast<int>(picked.size());
      picked.push_back(i);
    }
    if (previewing && edited < 0 && !picked.empty()) edited = static_cast<int>(picked.size()) - 1;
    for (size_t k = 0; k < picked.size(); ++k) {
      const QString label = (k == 0 ? runA_ : runB_)->currentText();
      if (previewing && static_cast<int>(k) == edited)
        panels.push_back({preview_, pa, phaseTitle(pa) + QStringLiteral(" · ") + QString::fromStdString(preview_->wsc->mapping) +
                                            tr(" · preview (%1 edited)").arg(label)});
      else
        panels.push_back({runs_[static_cast<size_t>(picked[k])], pa, phaseTitle(pa) + QStringLiteral(" · ") + label});
    }
  } else if (const auto r = preview_ && preview_->wsc ? preview_ : phasesRun(); r && r->wsc) {
    const QString m = QString::fromStdString(r->wsc->mapping) +
                      (r == preview_ ? tr(" · preview") : r != model_->resultsShared() ? tr(" point") : QString());
    panels.push_back({r, pa, phaseTitle(pa) + QStringLiteral(" · ") + m});
    panels.push_back({r, pb, phaseTitle(pb) + QStringLiteral(" · ") + m});
  }
  overlay_->setPanels(panels);
}

}  // namespace fl::views
