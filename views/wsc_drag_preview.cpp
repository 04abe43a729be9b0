#include "views/wsc_drag_preview.h"

#include <QMetaObject>
#include <algorithm>
#include <exception>

#include "wsc/wsc_run.h"

namespace fl::views {

WscDragPreview::WscDragPreview(QObject* parent) : QObject(parent) {
  pool_.setMaxThreadCount(1);
  wait_.setSingleShot(true);
  connect(&wait_, &QTimer::timeout, this, &WscDragPreview::startNext);
}

WscDragPreview::~WscDragPreview() { pool_.waitForDone(); }

Scenario WscDragPreview::previewScenario(Scenario s) {
  s.workload.wsc.iterations = 1;
  s.balancer.kind = BalancerKind::None;
  s.sweep.clear();
  return s;
}

int WscDragPreview::request(const Scenario& before, const Scenario& after,
                            std::shared_ptr<const topo::Topology> topology, const QString& label) {
  pending_ = Request{++serial_, previewScenario(before), previewScenario(after), std::move(topology), label};
  if (!running_ && !wait_.isActive()) {
    const qint64 since = sinceStart_.isValid() ? sinceStart_.elapsed() : minIntervalMs_;
    wait_.start(static_cast<int>(std::max<qint64>(0, minIntervalMs_ - since)));
  }
  return serial_;
}

void WscDragPreview::cancel() {
  pending_.reset();
  wait_.stop();
  cancelledUpTo_ = serial_;
}

void WscDragPreview::startNext() {
  if (running_ || !pending_ || !pending_->topology) return;
  Request r = std::move(*pending_);
  pending_.reset();
  running_ = true;
  ++started_;
  sinceStart_.start();
  std::shared_ptr<const Results> cached = beforeKey_ && *beforeKey_ == r.before ? beforeRun_ : nullptr;
  pool_.start([this, r = std::move(r), cached] {
    QElapsedTimer clock;
    clock.start();
    Outcome o;
    o.serial = r.serial;
    o.label = r.label;
    std::optional<Scenario> key;
    try {
      o.before = cached;
      if (!o.before) {
        o.before = std::make_shared<const Results>(wsc::runWscAnalytical(r.before, *r.topology));
        key = r.before;
      }
      o.after = std::make_shared<const Results>(wsc::runWscAnalytical(r.after, *r.topology));
    } catch (const std::exception& e) {
      o.error = QString::fromUtf8(e.what());
    }
    o.ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    // Queued to the GUI thread; the destructor waits for this job, so `this` is alive.
    QMetaObject::invokeMethod(this, [this, o = std::move(o), key = std::move(key)]() mutable {
      finished(std::move(o), std::move(key));
    }, Qt::QueuedConnection);
  });
}

void WscDragPreview::finished(Outcome o, std::optional<Scenario> beforeKey) {
  running_ = false;
  if (beforeKey && o.before) beforeKey_ = std::move(beforeKey), beforeRun_ = o.before;
  // A superseded preview of this drag is still shown until the latest arrives.
  if (o.serial > cancelledUpTo_) emit ready(o);
  if (pending_) {
    const qint64 since = sinceStart_.elapsed();
    wait_.start(static_cast<int>(std::max<qint64>(0, minIntervalMs_ - since)));
  }
}

}  // namespace fl::views
