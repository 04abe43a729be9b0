#include "gui/status_panel.h"

#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>
#include <QTimer>

#include <cmath>

#include "gui/run_controller.h"
#include "views/format_units.h"
#include "views/run_model.h"

namespace fl::gui {

QString formatRate(double r) {
  if (r >= 1e9) return QStringLiteral("%1 G events/s").arg(r / 1e9, 0, 'f', 2);
  if (r >= 1e6) return QStringLiteral("%1 M events/s").arg(r / 1e6, 0, 'f', 2);
  if (r >= 1e3) return QStringLiteral("%1 k events/s").arg(r / 1e3, 0, 'f', 1);
  if (r > 0) return QStringLiteral("%1 events/s").arg(r, 0, 'f', 0);
  // The analytical wafer model computes its phases in closed form, without events.
  return QObject::tr("no events (closed form)");
}

StatusPanel::StatusPanel(QStatusBar* bar, views::RunModel* model, RunController* controller)
    : QObject(bar), model_(model) {
  message_ = new QLabel(bar);
  message_->setObjectName(QStringLiteral("statusMessage"));
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  bar->addWidget(message_, 1);

  time_ = new QLabel(bar);
  time_->setToolTip(tr("Simulated time span of the current bin"));
  time_->setMinimumWidth(time_->fontMetrics().horizontalAdvance(QStringLiteral("t = 999 – 999 µs (bin 9999 of 9999)")));
  bar->addPermanentWidget(time_);

  progress_ = new QProgressBar(bar);
  progress_->setObjectName(QStringLiteral("statusProgress"));
  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(220);
  progress_->setFormat(QStringLiteral("%p%"));
  progress_->setTextVisible(true);
  progress_->setToolTip(tr("Progress of the run (all sweep points)"));
  bar->addPermanentWidget(progress_);

  rate_ = new QLabel(tr("no run yet"), bar);
  rate_->setToolTip(tr("Simulation speed of the last run: events per wall-clock second"));
  bar->addPermanentWidget(rate_);

  clearTimer_ = new QTimer(this);
  clearTimer_->setSingleShot(true);
  connect(clearTimer_, &QTimer::timeout, this, &StatusPanel::clearMessage);

  connect(model_, &views::RunModel::currentBinChanged, this, &StatusPanel::updateTime);
  connect(model_, &views::RunModel::resultsChanged, this, &StatusPanel::updateTime);
  connect(controller, &RunController::progressChanged, this, [this](double f) {
    progress_->setValue(static_cast<int>(std::lround(f * 1000)));
    // Time left from the pace so far, once there is a pace to go by.
    const qint64 ms = wall_.isValid() ? wall_.elapsed() : 0;
    if (f >= 0.02 && f < 1 && ms >= 1500) {
      const double left = ms / 1000.0 * (1 - f) / f;
      progress_->setFormat(left < 90 ? tr("%p% · %1 s left").arg(std::max(1.0, std::round(left)))
                                     : tr("%p% · %1 min left").arg(std::round(left / 60)));
    } else {
      progress_->setFormat(QStringLiteral("%p%"));
    }
  });
  connect(controller, &RunController::stateChanged, this, [this](RunController::State s) {
    if (s == RunController::State::Running) rate_->setText(tr("running…"));
    if (s == RunController::State::Cancelling) rate_->setText(tr("stopping…"));
  });
  connect(controller, &RunController::runStarted, this, [this](const QStringList& points) {
    points_ = static_cast<int>(points.size());
    wall_.start();
  });
  connect(controller, &RunController::runFinished, this, [this](bool cancelled, double rate) {
    rate_->setText(formatRate(rate) + (cancelled ? tr(" (stopped)") : QString()));
    progress_->setFormat(QStringLiteral("%p%"));
    if (cancelled) return;
    progress_->setValue(progress_->maximum());
    const QString what = points_ > 1 ? tr("%1 sweep points").arg(points_) : tr("run");
    const qint64 ms = wall_.elapsed();
    const QString took = ms < 1000 ? tr("%1 ms").arg(ms) : tr("%1 s").arg(ms / 1000.0, 0, 'f', 1);
    showInfo(tr("Finished: %1 in %2").arg(what, took), 10000);
  });
  updateTime();
}

QString StatusPanel::message() const { return message_->text(); }
QString StatusPanel::timeText() const { return time_->text(); }
QString StatusPanel::rateText() const { return rate_->text(); }
int StatusPanel::progressPercent() const { return progress_->value() / 10; }

void StatusPanel::updateTime() {
  const int bins = model_->binCount();
  if (bins <= 0) {
    time_->setText(tr("t = –"));
    return;
  }
  // The bin's whole span, as the timeline and the canvas caption give it.
  const int bin = model_->currentBin();
  const Time start = static_cast<Time>(bin) * model_->binWidth(), end = start + model_->binWidth();
  time_->setText(tr("t = %1 – %2 (bin %3)").arg(views::formatTime(start), views::formatTime(end), views::binNumber(bin, bins)));
}

void StatusPanel::setMessage(const QString& text, bool error, int timeoutMs) {
  message_->setText(text);
  message_->setToolTip(text);
  message_->setStyleSheet(error ? QStringLiteral("QLabel { color: #b00020; }") : QString());
  if (timeoutMs > 0) clearTimer_->start(timeoutMs);
  else clearTimer_->stop();
}

void StatusPanel::showInfo(const QString& text, int timeoutMs) { setMessage(text, false, timeoutMs); }
void StatusPanel::showError(const QString& text) { setMessage(text, true, 0); }
void StatusPanel::clearMessage() { setMessage({}, false, 0); }

}  // namespace fl::gui
