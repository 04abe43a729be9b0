#include "views/heat_controls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <algorithm>
#include <cmath>

#include "views/elided_combo_box.h"
#include "views/format_units.h"
#include "views/run_model.h"

namespace fl::views {

HeatControls::HeatControls(RunModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  auto pair = [this](QSlider*& slider, QSpinBox*& spin, const QString& tip) {
    slider = new QSlider(Qt::Horizontal, this);
    slider->setRange(0, 100);
    spin = new QSpinBox(this);
    spin->setRange(0, 100);
    spin->setSuffix(" %");
    slider->setToolTip(tip);
    spin->setToolTip(tip);
    connect(slider, &QSlider::valueChanged, spin, &QSpinBox::setValue);
    connect(spin, &QSpinBox::valueChanged, slider, &QSlider::setValue);
    auto* row = new QHBoxLayout;
    row->addWidget(slider, 1);
    row->addWidget(spin);
    return row;
  };
  auto* form = new QFormLayout(this);
  form->addRow(tr("cold ≤"), pair(coldSlider_, coldSpin_, tr("Lanes at or below this utilisation are drawn dimmed")));
  form->addRow(tr("hot ≥"), pair(hotSlider_, hotSpin_, tr("Lanes at or above this utilisation are drawn thick with a bright outline")));
  coldSlider_->setObjectName(QStringLiteral("heatColdSlider"));
  coldSpin_->setObjectName(QStringLiteral("heatColdSpin"));
  hotSlider_->setObjectName(QStringLiteral("heatHotSlider"));
  hotSpin_->setObjectName(QStringLiteral("heatHotSpin"));
  // Phase names with their times are long ("2. all_gather (637 µs – 1.27 ms)"): elided
  // in the middle, so that the end of the span stays in view, whole in the tooltip.
  auto* phase = new ElidedComboBox(this);
  phase->setObjectName(QStringLiteral("heatPhase"));
  phase->setDescription(tr("Colour by the current bin of the timeline, or by a phase's mean utilisation"));
  phase_ = phase;
  form->addRow(tr("colour by"), phase_);
  // Elided too, and the check box below short: their widths once held the right dock
  // column at 300 px, so that a narrowing window squeezed the Scenario dock instead.
  auto* directions = new ElidedComboBox(this);
  directions->setObjectName(QStringLiteral("heatDirections"));
  directions->addItems({tr("both directions"), tr("uplinks (towards the switches)"), tr("downlinks (towards the GPUs)")});
  directions->setDescription(tr("Which lanes are drawn at full strength; the others stay faint"));
  directions_ = directions;
  form->addRow(tr("show"), directions_);
  connect(directions_, &QComboBox::currentIndexChanged, this,
          [this](int i) { model_->setDirectionFilter(static_cast<DirectionFilter>(std::max(0, i))); });
  connect(model_, &RunModel::directionFilterChanged, this, [this] {
    const QSignalBlocker block(directions_);
    directions_->setCurrentIndex(static_cast<int>(model_->directionFilter()));
  });
  compare_ = new QCheckBox(tr("two phases side by side"), this);
  compare_->setToolTip(tr("Draw the fabric twice, coloured by the mean utilisation of phases A and B"));
  form->addRow(compare_);
  auto* phaseA = new ElidedComboBox(this), *phaseB = new ElidedComboBox(this);
  phaseA->setObjectName(QStringLiteral("heatPhaseA"));
  phaseB->setObjectName(QStringLiteral("heatPhaseB"));
  phaseA->setDescription(tr("The phase drawn on the left"));
  phaseB->setDescription(tr("The phase drawn on the right"));
  phaseA_ = phaseA;
  phaseB_ = phaseB;
  form->addRow(tr("left (A)"), phaseA_);
  form->addRow(tr("right (B)"), phaseB_);

  connect(coldSpin_, &QSpinBox::valueChanged, this, [this](int v) {
    if (!syncing_) applyThresholds(v, std::max(v, hotSpin_->value()));
  });
  connect(hotSpin_, &QSpinBox::valueChanged, this, [this](int v) {
    if (!syncing_) applyThresholds(std::min(v, coldSpin_->value()), v);
  });
  connect(phase_, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (!syncing_) model_->setPhase(i - 1);
  });
  connect(compare_, &QCheckBox::toggled, this, &HeatControls::emitSideBySide);
  // B defaults to the phase after A's and follows A until B is picked by hand.
  connect(phaseA_, &QComboBox::currentIndexChanged, this, [this](int a) {
    if (!syncing_ && !bPicked_) {
      const QSignalBlocker block(phaseB_);
      phaseB_->setCurrentIndex(followingPhase(a));
    }
    emitSideBySide();
  });
  connect(phaseB_, &QComboBox::activated, this, [this] { bPicked_ = true; });
  connect(phaseB_, &QComboBox::currentIndexChanged, this, &HeatControls::emitSideBySide);
  connect(model_, &RunModel::thresholdsChanged, this, &HeatControls::syncThresholds);
  connect(model_, &RunModel::phaseChanged, this, &HeatControls::syncPhases);
  connect(model_, &RunModel::resultsChanged, this, &HeatControls::syncPhases);
  connect(model_, &RunModel::topologyChanged, this, &HeatControls::syncPhases);
  syncThresholds();
  syncPhases();
}

// Keeps cold <= hot: moving one past the other drags the other along.
void HeatControls::applyThresholds(int coldPercent, int hotPercent) {
  model_->setThresholds(coldPercent / 100.0, hotPercent / 100.0);
}

void HeatControls::syncThresholds() {
  syncing_ = true;
  coldSpin_->setValue(static_cast<int>(std::lround(model_->coldThreshold() * 100)));
  hotSpin_->setValue(static_cast<int>(std::lround(model_->hotThreshold() * 100)));
  syncing_ = false;
}

void HeatControls::syncPhases() {
  const Results* r = model_->results();
  QStringList names;
  if (r)
    for (size_t i = 0; i < r->phases.size(); ++i)
      names << tr("%1. %2 (%3 – %4)")
                   .arg(i + 1)
                   .arg(QString::fromStdString(r->phases[i].name), formatTime(r->phases[i].start),
                        formatTime(r->phases[i].end));
  syncing_ = true;
  const bool same = phase_->count() == names.size() + 1 &&
                    [&] {
                      for (int i = 0; i < names.size(); ++i)
                        if (phase_->itemText(i + 1) != names[i]) return false;
                      return true;
                    }();
  if (!same) {  // live snapshots arrive 20 times a second: only rebuild on a real change
    const int a = phaseA_->currentIndex(), b = phaseB_->currentIndex();
    phase_->clear();
    phase_->addItem(tr("timeline (per bin)"));
    phase_->addItems(names);
    phaseA_->clear();
    phaseB_->clear();
    phaseA_->addItems(names);
    phaseB_->addItems(names);
    phaseA_->setCurrentIndex(a >= 0 && a < names.size() ? a : 0);
    // Live snapshots add phases one by one: B moves on to A's next as soon as it exists.
    phaseB_->setCurrentIndex(bPicked_ && b >= 0 && b < names.size() ? b : followingPhase(phaseA_->currentIndex()));
  }
  phase_->setCurrentIndex(model_->phase() + 1);
  const bool any = !names.isEmpty();
  compare_->setEnabled(any);
  if (!any) compare_->setChecked(false);
  phaseA_->setEnabled(any && compare_->isChecked());
  phaseB_->setEnabled(any && compare_->isChecked());
  compare_->setToolTip(any ? tr("Draw the fabric twice, coloured by the mean utilisation of two phases")
                           : tr("This run has no phases"));
  syncing_ = false;
}

int HeatControls::followingPhase(int a) const {
  return std::min(a + 1, phaseB_->count() - 1);
}

void HeatControls::emitSideBySide() {
  phaseA_->setEnabled(compare_->isEnabled() && compare_->isChecked());
  phaseB_->setEnabled(compare_->isEnabled() && compare_->isChecked());
  if (syncing_) return;
  if (compare_->isChecked() && phaseA_->currentIndex() >= 0 && phaseB_->currentIndex() >= 0)
    emit sideBySideRequested(phaseA_->currentIndex(), phaseB_->currentIndex());
  else
    emit sideBySideCleared();
}

}  // namespace fl::views
