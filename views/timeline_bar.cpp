#include "views/timeline_bar.h"

#include <QComboBox>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <cmath>

#include "views/flow_layout.h"
#include "views/format_units.h"
#include "views/run_model.h"

namespace fl::views {

namespace {
const double kSpeeds[] = {0.25, 0.5, 1, 2, 4, 8};
}

TimelineBar::TimelineBar(RunModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  auto button = [this](QStyle::StandardPixmap icon, const QString& tip) {
    auto* b = new QToolButton(this);
    b->setIcon(style()->standardIcon(icon));
    b->setToolTip(tip);
    b->setAutoRaise(true);
    b->setIconSize(QSize(20, 20));
    return b;
  };
  back_ = button(QStyle::SP_MediaSeekBackward, tr("Step back one bin"));
  play_ = button(QStyle::SP_MediaPlay, tr("Play / pause"));
  forward_ = button(QStyle::SP_MediaSeekForward, tr("Step forward one bin"));
  loop_ = new QToolButton(this);
  loop_->setText(tr("loop"));
  loop_->setCheckable(true);
  loop_->setToolTip(tr("Start again from the first bin at the end"));
  live_ = new QToolButton(this);
  live_->setText(tr("● live"));
  live_->setCheckable(true);
  live_->setToolTip(tr("Follow the newest bin of the running simulation"));

  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setMinimumWidth(120);
  slider_->setPageStep(10);
  binLabel_ = new QLabel(this);
  binLabel_->setObjectName(QStringLiteral("timelineBin"));
  timeLabel_ = new QLabel(this);
  binLabel_->setMinimumWidth(binLabel_->fontMetrics().horizontalAdvance("bin 0000 of 0000") + 4);
  binLabel_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  timeLabel_->setMinimumWidth(timeLabel_->fontMetrics().horizontalAdvance("000 µs – 000 µs") + 4);
  timeLabel_->setToolTip(tr("Simulated time covered by the current bin"));
  speedBox_ = new QComboBox(this);
  speedBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);  // "1× · 152 µs/s" whole
  for (double s : kSpeeds) speedBox_->addItem(QString("%1×").arg(s), s);
  speedBox_->setCurrentIndex(2);
  speedBox_->setToolTip(tr("Playback speed: bins advanced per frame (30 frames per second), and the simulated "
                          "time that plays in one second"));

  // One line where the canvas is wide; in a narrow window the bin and speed groups wrap
  // under the slider rather than widen the window.
  auto* row = new FlowLayout(this, 8);
  row->setContentsMargins(6, 2, 6, 2);
  row->addWidget(flowGroup(this, {back_, play_, forward_, slider_}, 3));
  row->addWidget(flowGroup(this, {binLabel_, timeLabel_}));
  row->addWidget(flowGroup(this, {new QLabel(tr("speed"), this), speedBox_, loop_, live_}));

  timer_.setInterval(kTickMs);
  connect(&timer_, &QTimer::timeout, this, &TimelineBar::tick);
  connect(play_, &QToolButton::clicked, this, &TimelineBar::togglePlay);
  connect(back_, &QToolButton::clicked, this, &TimelineBar::stepBack);
  connect(forward_, &QToolButton::clicked, this, &TimelineBar::stepForward);
  connect(slider_, &QSlider::valueChanged, this, [this](int v) {
    if (!syncing_) userMovedTo(v);
  });
  connect(speedBox_, &QComboBox::currentIndexChanged, this,
          [this](int i) { setSpeed(speedBox_->itemData(i).toDouble()); });
  connect(live_, &QToolButton::toggled, this, [this](bool on) {
    if (syncing_) return;
    model_->setFollowLive(on);
    if (on) model_->setCurrentBin(model_->binCount() - 1);
  });
  connect(model_, &RunModel::currentBinChanged, this, &TimelineBar::sync);
  connect(model_, &RunModel::resultsChanged, this, &TimelineBar::sync);
  connect(model_, &RunModel::topologyChanged, this, [this] {
    pause();
    sync();
  });
  sync();
}

bool TimelineBar::isLooping() const { return loop_->isChecked(); }
void TimelineBar::setLooping(bool on) { loop_->setChecked(on); }

void TimelineBar::play() {
  if (model_->binCount() <= 1 || isPlaying()) return;
  if (model_->currentBin() >= model_->binCount() - 1) model_->setCurrentBin(0);  // replay
  model_->setFollowLive(false);  // playback and following the live edge exclude each other
  carry_ = 0;
  timer_.start();
  sync();
  emit playingChanged(true);
}

void TimelineBar::pause() {
  if (!isPlaying()) return;
  timer_.stop();
  sync();
  emit playingChanged(false);
}

void TimelineBar::togglePlay() { isPlaying() ? pause() : play(); }

void TimelineBar::stepForward() { userMovedTo(model_->currentBin() + 1); }
void TimelineBar::stepBack() { userMovedTo(model_->currentBin() - 1); }

void TimelineBar::setSpeed(double binsPerTick) {
  speed_ = binsPerTick > 0 ? binsPerTick : 1;
  const int i = speedBox_->findData(speed_);
  if (i >= 0 && i != speedBox_->currentIndex()) speedBox_->setCurrentIndex(i);
}

void TimelineBar::userMovedTo(int bin) {
  model_->setFollowLive(false);
  model_->setCurrentBin(bin);
  sync();
}

// Fractional speeds accumulate: 0.25x moves one bin every fourth tick.
void TimelineBar::tick() {
  carry_ += speed_;
  const int steps = static_cast<int>(std::floor(carry_));
  carry_ -= steps;
  if (steps == 0) return;
  const int last = model_->binCount() - 1;
  int next = model_->currentBin() + steps;
  if (next > last) {
    if (isLooping()) {
      next = 0;
    } else {
      model_->setCurrentBin(last);
      pause();
      return;
    }
  }
  model_->setCurrentBin(next);
}

void TimelineBar::sync() {
  syncing_ = true;
  const int n = model_->binCount(), bin = model_->currentBin();
  slider_->setRange(0, std::max(0, n - 1));
  slider_->setValue(bin);
  slider_->setEnabled(n > 1);
  for (QWidget* w : std::initializer_list<QWidget*>{play_, back_, forward_, speedBox_}) w->setEnabled(n > 1);
  play_->setIcon(style()->standardIcon(isPlaying() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  binLabel_->setText(n > 0 ? tr("bin %1").arg(binNumber(bin, n)) : tr("no results"));
  const Time w = model_->binWidth();
  timeLabel_->setText(n > 0 ? QString("%1 – %2").arg(formatTime(Time(bin) * w), formatTime(Time(bin + 1) * w))
                            : QString());
  // Each speed as the simulated time it plays per wall-clock second.
  for (int i = 0; i < speedBox_->count(); ++i) {
    const double s = speedBox_->itemData(i).toDouble();
    const QString text = w > 0 ? tr("%1× · %2/s").arg(s).arg(formatTime(Time(std::llround(s * (1000.0 / kTickMs) * double(w)))))
                               : QStringLiteral("%1×").arg(s);
    if (speedBox_->itemText(i) != text) speedBox_->setItemText(i, text);
  }
  const bool live = model_->results() && !model_->isFinal();
  live_->setVisible(live);
  live_->setChecked(model_->followLive());
  syncing_ = false;
}

}  // namespace fl::views
