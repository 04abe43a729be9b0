#include "views/sm_partition_slider.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QLabel>
#include <QPainter>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <algorithm>
#include <cstdint>
#include <numeric>

#include "views/phase_palette.h"

namespace fl::views {

namespace {

// `amount` split over `weights` (sum > 0) by largest remainder, ties to the lower index.
std::array<int, kSmGroups> shares(int amount, const std::array<std::int64_t, kSmGroups>& weights) {
  const std::int64_t total = std::accumulate(weights.begin(), weights.end(), std::int64_t{0});
  std::array<int, kSmGroups> out{};
  std::array<std::int64_t, kSmGroups> remainder{};
  int given = 0;
  for (int j = 0; j < kSmGroups; ++j) {
    out[j] = static_cast<int>(amount * weights[j] / total);
    remainder[j] = amount * weights[j] % total;
    given += out[j];
  }
  for (; given < amount; ++given) {
    int best = -1;
    for (int j = 0; j < kSmGroups; ++j)
      if (weights[j] > 0 && (best < 0 || remainder[j] > remainder[best])) best = j;
    ++out[best];
    remainder[best] = -1;  // one extra SM per group at most
  }
  return out;
}

}  // namespace

SmGroups redistributeSms(const SmGroups& base, int moved, int value, int total) {
  SmGroups floors{};
  int othersFloor = 0;
  for (int j = 0; j < kSmGroups; ++j)
    if (j != moved) othersFloor += floors[j] = std::min(base[j], 1);
  value = std::clamp(value, 1, std::max(1, total - othersFloor));
  SmGroups out = base;
  out[moved] = value;
  const int delta = value - base[moved];
  if (delta == 0) return out;
  std::array<std::int64_t, kSmGroups> weights{};
  for (int j = 0; j < kSmGroups; ++j)
    if (j != moved) weights[j] = delta > 0 ? base[j] - floors[j] : base[j];
  if (std::all_of(weights.begin(), weights.end(), [](std::int64_t w) { return w == 0; })) {
    if (delta > 0) return base;  // nothing to take
    for (int j = 0; j < kSmGroups; ++j) weights[j] = j != moved;
  }
  const auto part = shares(delta > 0 ? delta : -delta, weights);
  for (int j = 0; j < kSmGroups; ++j) out[j] += j == moved ? 0 : (delta > 0 ? -part[j] : part[j]);
  return out;
}

// --- SmPartitionBar

SmPartitionBar::SmPartitionBar(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

QSize SmPartitionBar::sizeHint() const { return {320, fontMetrics().height() * 2 + 6}; }
QSize SmPartitionBar::minimumSizeHint() const { return {120, sizeHint().height()}; }

QColor SmPartitionBar::groupColour(int group) {
  // The groups in pipeline order, coloured as their tasks are everywhere else.
  static constexpr PipelineTaskKind kinds[kSmGroups] = {PipelineTaskKind::Dispatch, PipelineTaskKind::Gemm1,
                                                        PipelineTaskKind::Gemm2, PipelineTaskKind::Combine};
  return phaseColour(kinds[group]);
}

void SmPartitionBar::setPartition(const SmGroups& groups, int total, bool automatic) {
  groups_ = groups;
  total_ = total;
  automatic_ = automatic;
  QStringList tip;
  if (automatic) tip << tr("Automatic: the simulator's split of %1 SMs").arg(total);
  for (int g = 0; g < kSmGroups; ++g)
    tip << QStringLiteral("%1: %2 SMs").arg(SmPartitionSlider::groupName(g)).arg(groups[g]);
  setToolTip(tip.join(QLatin1Char('\n')));
  update();
}

void SmPartitionBar::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QRectF box = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
  const int sum = std::accumulate(groups_.begin(), groups_.end(), 0);
  if (sum <= 0 || !isEnabled()) {
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(palette().color(QPalette::Window));
    p.drawRoundedRect(box, 3, 3);
    p.setPen(palette().color(QPalette::Disabled, QPalette::WindowText));
    p.drawText(box, Qt::AlignCenter,
               sum <= 0 ? tr("automatic: the simulator splits %1 SMs").arg(total_) : tr("not used by this fusion"));
    return;
  }
  double x = box.left();
  for (int g = 0; g < kSmGroups; ++g) {
    const double w = box.width() * groups_[g] / sum;
    const QRectF seg(x, box.top(), w, box.height());
    // Automatic: the same colours washed out towards the window colour, as the disabled
    // sliders beside them are (the split is shown, not editable).
    QColor c = groupColour(g);
    if (automatic_) {
      const QColor bg = palette().color(QPalette::Window);
      c = QColor((c.red() + 2 * bg.red()) / 3, (c.green() + 2 * bg.green()) / 3, (c.blue() + 2 * bg.blue()) / 3);
    }
    p.setPen(Qt::NoPen);
    p.setBrush(c);
    p.drawRect(seg);
    const double luma = 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue();
    p.setPen(luma < 128 ? Qt::white : Qt::black);  // readable on each colour
    const QString full = QStringLiteral("%1\n%2").arg(SmPartitionSlider::groupName(g)).arg(groups_[g]);
    const QString count = QString::number(groups_[g]);
    const QFontMetrics fm = fontMetrics();
    if (fm.horizontalAdvance(SmPartitionSlider::groupName(g)) + 6 < w)
      p.drawText(seg, Qt::AlignCenter, full);
    else if (fm.horizontalAdvance(count) + 2 < w)
      p.drawText(seg, Qt::AlignCenter, count);
    x += w;
  }
  p.setPen(palette().color(QPalette::Mid));
  p.setBrush(Qt::NoBrush);
  p.drawRoundedRect(box, 3, 3);
}

// --- SmPartitionSlider

QString SmPartitionSlider::groupName(int group) {
  static const char* names[kSmGroups] = {QT_TR_NOOP("Dispatch"), QT_TR_NOOP("GEMM-1"), QT_TR_NOOP("GEMM-2"),
                                         QT_TR_NOOP("Combine")};
  return tr(names[group]);
}

SmPartitionSlider::SmPartitionSlider(QWidget* parent) : QWidget(parent) {
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setColumnStretch(1, 1);
  automatic_ = new QCheckBox(tr("Automatic split"), this);
  automatic_->setToolTip(tr("All four groups 0: the simulator splits the SMs itself (comm_sms / 2 each for "
                            "Dispatch and Combine, the rest 2 : 1 by GEMM FLOPs), shown greyed; unticking "
                            "starts from that split"));
  automatic_->setObjectName(QStringLiteral("smAutomatic"));
  grid->addWidget(automatic_, 0, 0, 1, 3);
  for (int g = 0; g < kSmGroups; ++g) {
    // The name with its bar colour: the bar's legend.
    auto* name = new QLabel(QStringLiteral("<span style='color:%1'>&#9632;</span>&nbsp;%2")
                                .arg(SmPartitionBar::groupColour(g).name(), groupName(g)),
                            this);
    auto* slider = new QSlider(Qt::Horizontal, this);
    auto* spin = new QSpinBox(this);
    slider->setObjectName(QStringLiteral("smSlider%1").arg(g));
    spin->setObjectName(QStringLiteral("smSpin%1").arg(g));
    spin->setKeyboardTracking(false);  // one edit when typing ends, not per digit
    spin->setSuffix(tr(" SMs"));
    name->setBuddy(spin);
    grid->addWidget(name, g + 1, 0);
    grid->addWidget(slider, g + 1, 1);
    grid->addWidget(spin, g + 1, 2);
    sliders_[g] = slider;
    spins_[g] = spin;

    connect(slider, &QSlider::sliderPressed, this, [this] { dragBase_ = stored_; });
    connect(slider, &QSlider::valueChanged, this, [this, g](int v) { onSliderMoved(g, v); });
    connect(slider, &QSlider::sliderReleased, this, [this] {
      if (shown_ != stored_) emit partitionEdited(shown_);
    });
    connect(spin, &QSpinBox::valueChanged, this, [this, g](int v) {
      const SmGroups next = redistributeSms(stored_, g, v, total_);
      showGroups(next);
      if (next != stored_) emit partitionEdited(next);
    });
  }
  bar_ = new SmPartitionBar(this);
  bar_->setObjectName(QStringLiteral("smBar"));
  grid->addWidget(bar_, kSmGroups + 1, 0, 1, 3);
  connect(automatic_, &QCheckBox::clicked, this, [this](bool on) {
    emit partitionEdited(on ? SmGroups{} : automaticSplit_);
  });
}

bool SmPartitionSlider::isAutomatic() const {
  return std::all_of(stored_.begin(), stored_.end(), [](int v) { return v == 0; });
}

void SmPartitionSlider::setPartition(const SmGroups& groups, int total, const SmGroups& automaticSplit) {
  stored_ = dragBase_ = groups;
  total_ = total;
  automaticSplit_ = automaticSplit;
  for (int g = 0; g < kSmGroups; ++g) {
    const QSignalBlocker b1(sliders_[g]), b2(spins_[g]);
    sliders_[g]->setRange(0, total);
    sliders_[g]->setPageStep(std::max(1, total / 16));
    spins_[g]->setRange(0, total);
  }
  {
    const QSignalBlocker b(automatic_);
    automatic_->setChecked(isAutomatic());
  }
  showGroups(isAutomatic() ? automaticSplit : groups);
  updateEnabled();
}

void SmPartitionSlider::onSliderMoved(int group, int value) {
  // A drag previews against the partition at its start (dragging back restores it
  // exactly) and is stored on release; keys and the wheel store each step.
  const bool dragging = sliders_[group]->isSliderDown();
  const SmGroups next = redistributeSms(dragging ? dragBase_ : stored_, group, value, total_);
  showGroups(next);
  if (!dragging && next != stored_) emit partitionEdited(next);
}

void SmPartitionSlider::showGroups(const SmGroups& groups) {
  shown_ = groups;
  for (int g = 0; g < kSmGroups; ++g) {
    const QSignalBlocker b1(sliders_[g]), b2(spins_[g]);
    sliders_[g]->setValue(groups[g]);  // also pulls a dragged handle back to a clamp
    spins_[g]->setValue(groups[g]);
  }
  bar_->setPartition(groups, total_, isAutomatic());
}

void SmPartitionSlider::updateEnabled() {
  // Fewer than 4 SMs cannot give every group one; the scenario tree can still set them.
  const bool manual = !isAutomatic() && total_ >= kSmGroups;
  for (int g = 0; g < kSmGroups; ++g) {
    sliders_[g]->setEnabled(manual);
    spins_[g]->setEnabled(manual);
  }
  automatic_->setEnabled(total_ >= kSmGroups || !isAutomatic());
}

}  // namespace fl::views
