#include "views/follow_bar.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
#include <algorithm>
#include <cmath>

#include "views/flow_layout.h"
#include "views/follow_item.h"
#include "views/format_units.h"

namespace fl::views {

namespace {
constexpr int kSliderSteps = 2000;
// Simulated time per wall-clock second, ps: 1 ns/s .. 10 µs/s.
constexpr double kSpeeds[] = {1e3, 1e4, 1e5, 1e6, 1e7};
}  // namespace

FollowBar::FollowBar(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("followBar"));
  // Groups that wrap onto a second line in a narrow window (views/flow_layout.h).
  auto* row = new FlowLayout(this);
  row->setContentsMargins(6, 2, 6, 2);
  gpu_ = new QSpinBox(this);
  itemLabel_ = new QLabel(tr("chunk"), this);
  item_ = new QSpinBox(this);
  pieceLabel_ = new QLabel(tr("piece"), this);
  piece_ = new QSpinBox(this);
  piece_->setRange(0, 1 << 20);
  go_ = new QPushButton(tr("Follow"), this);
  go_->setToolTip(tr("Re-run the point shown, recording the hops of these packets only"));
  play_ = new QToolButton(this);
  play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
  play_->setToolTip(tr("Play the hops in slow motion"));
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setRange(0, kSliderSteps);
  slider_->setMinimumWidth(120);
  speedBox_ = new QComboBox(this);
  for (double s : kSpeeds) speedBox_->addItem(tr("%1 per second").arg(formatTime(Time(s))), s);
  speedBox_->setToolTip(tr("Simulated time played per wall-clock second"));
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("followStatus"));
  status_->setMinimumWidth(160);
  status_->setWordWrap(true);
  status_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  close_ = new QToolButton(this);
  close_->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
  close_->setToolTip(tr("Stop following"));
  row->addWidget(flowGroup(this, {new QLabel(tr("<b>Follow</b> GPU"), this), gpu_, itemLabel_, item_, pieceLabel_, piece_, go_}));
  row->addWidget(flowGroup(this, {play_, slider_, speedBox_}, 1));
  row->addWidget(flowGroup(this, {status_, close_}, 0));

  timer_.setInterval(kTickMs);
  connect(&timer_, &QTimer::timeout, this, &FollowBar::tick);
  connect(go_, &QPushButton::clicked, this, [this] {
    emit followRequested(gpu_->value(), item_->value(), piece_->isEnabled() ? piece_->value() : -1);
  });
  connect(play_, &QToolButton::clicked, this, [this] { isPlaying() ? pause() : play(); });
  connect(slider_, &QSlider::valueChanged, this, [this](int v) {
    setTime(firstTime() + Time(double(lastTime() - firstTime()) * v / kSliderSteps));
  });
  connect(speedBox_, &QComboBox::currentIndexChanged, this, [this](int i) { speed_ = speedBox_->itemData(i).toDouble(); });
  connect(close_, &QToolButton::clicked, this, [this] {
    pause();
    emit closed();
  });
  setFollow(nullptr, QString());
}

void FollowBar::setChoices(int gpus, const QString& itemName, int items, bool pieces) {
  gpu_->setRange(0, std::max(0, gpus - 1));
  itemLabel_->setText(itemName);
  item_->setRange(0, std::max(0, items - 1));
  piece_->setEnabled(pieces);
  pieceLabel_->setEnabled(pieces);
}

Time FollowBar::firstTime() const { return follow_ && !follow_->hops.empty() ? follow_->hops.front().start : 0; }

Time FollowBar::lastTime() const {
  Time t = 0;
  if (follow_)
    for (const auto& h : follow_->hops) t = std::max(t, h.arrive);
  return t;
}

void FollowBar::setFollow(std::shared_ptr<const PacketFollow> follow, const QString& description) {
  pause();
  follow_ = std::move(follow);
  description_ = description;
  if (follow_ && follow_->parts.size() > 1) {  // several selectors: name each with its colour's swatch
    QStringList named;
    for (std::size_t i = 0; i < follow_->parts.size(); ++i)
      named << QStringLiteral("<span style=\"color:%1\">\u25cf</span> %2")
                   .arg(FollowItem::selectorColour(int(i)).name(), QString::fromStdString(follow_->parts[i]).toHtmlEscaped());
    description_ = named.join(tr(" and "));
  }
  const bool have = follow_ && !follow_->hops.empty();
  play_->setEnabled(have);
  slider_->setEnabled(have);
  speedBox_->setEnabled(have);
  go_->setEnabled(true);
  if (have) {  // the whole way in about 20 s: the slowest listed speed that manages it
    const double wanted = double(lastTime() - firstTime()) / 20;
    int pick = int(std::size(kSpeeds)) - 1;
    for (int i = 0; i < int(std::size(kSpeeds)); ++i)
      if (kSpeeds[i] >= wanted) {
        pick = i;
        break;
      }
    speedBox_->setCurrentIndex(pick);
    speed_ = kSpeeds[pick];
  }
  time_ = -1;
  setTime(firstTime());
}

void FollowBar::setBusy(const QString& message) {
  pause();
  go_->setEnabled(false);
  status_->setText(message);
}

void FollowBar::setSpeed(double psPerSecond) {
  speed_ = psPerSecond;
  for (int i = 0; i < speedBox_->count(); ++i)
    if (speedBox_->itemData(i).toDouble() == psPerSecond) {
      const QSignalBlocker block(speedBox_);
      speedBox_->setCurrentIndex(i);
    }
}

void FollowBar::setTime(Time t) {
  t = std::clamp(t, firstTime(), std::max(firstTime(), lastTime()));
  if (t == time_) return;
  time_ = t;
  {
    const QSignalBlocker block(slider_);
    const Time span = lastTime() - firstTime();
    slider_->setValue(span > 0 ? int(double(t - firstTime()) * kSliderSteps / double(span)) : 0);
  }
  updateStatus();
  emit timeChanged(t);
}

void FollowBar::play() {
  if (!follow_ || follow_->hops.empty()) return;
  if (time_ >= lastTime()) setTime(firstTime());
  timer_.start();
  play_->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
}

void FollowBar::pause() {
  timer_.stop();
  play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
}

void FollowBar::tick() {
  setTime(time_ + Time(std::llround(speed_ * kTickMs / 1000.0)));
  if (time_ >= lastTime()) pause();
}

QString FollowBar::statusText() const { return status_->text(); }

void FollowBar::updateStatus() {
  if (!follow_) {  // nothing recorded yet, or why not (an error)
    status_->setText(description_.isEmpty()
                         ? tr("Pick what to follow, then Follow: the point shown runs again and records those packets' hops.")
                         : description_);
    return;
  }
  if (follow_->hops.empty()) {
    status_->setText(tr("%1: no packet of it crossed a link.").arg(description_));
    return;
  }
  int moving[4] = {}, done = 0;
  for (const auto& h : follow_->hops) {
    if (h.arrive <= time_) ++done;
    else if (h.start <= time_) ++moving[int(FollowItem::roleOf(h.op))];
  }
  QStringList parts;
  int total = 0;
  for (int r = 0; r < 4; ++r)
    if (moving[r] > 0) {
      parts << QStringLiteral("%1 %2").arg(moving[r]).arg(FollowItem::roleName(FollowItem::Role(r)));
      total += moving[r];
    }
  status_->setText(tr("%1 at %2: %3 on links%4; %5 of %6 hops done%7")
                       .arg(description_, formatTime(time_))
                       .arg(total)
                       .arg(parts.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(parts.join(QStringLiteral(", "))))
                       .arg(done)
                       .arg(follow_->hops.size())
                       .arg(follow_->truncated ? tr(" (recording cut at its limit)") : QString()));
}

}  // namespace fl::views
