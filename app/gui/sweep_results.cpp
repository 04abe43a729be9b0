#include "gui/sweep_results.h"

#include <algorithm>


#include "gui/run_controller.h"
#include "report/report_data.h"
#include "views/run_model.h"

namespace fl::gui {

SweepResults::SweepResults(RunController* controller, views::RunModel* model, QObject* parent)
    : QObject(parent), controller_(controller), model_(model) {
  connect(controller, &RunController::runStarted, this, &SweepResults::onRunStarted);
  connect(controller, &RunController::topologyReady, this, &SweepResults::onTopology);
  connect(controller, &RunController::snapshotReady, this,
          [this](int p, std::shared_ptr<const Results> r) { onResults(p, std::move(r), false); });
  connect(controller, &RunController::pointFinished, this,
          [this](int p, std::shared_ptr<const Results> r) { onResults(p, std::move(r), true); });
}

std::shared_ptr<const Results> SweepResults::results(int point) const {
  return point >= 0 && point < pointCount() ? points_[size_t(point)].results : nullptr;
}

std::shared_ptr<const topo::Topology> SweepResults::topology(int point) const {
  return point >= 0 && point < pointCount() ? points_[size_t(point)].topology : nullptr;
}

std::vector<std::pair<std::string, std::string>> SweepResults::settings(int point) const {
  return point >= 0 && point < pointCount() ? points_[size_t(point)].settings
                                            : std::vector<std::pair<std::string, std::string>>{};
}

bool SweepResults::isFinal(int point) const {
  return point >= 0 && point < pointCount() && points_[size_t(point)].final;
}

SweepResults::PointState SweepResults::state(int point) const {
  if (point < 0 || point >= pointCount()) return PointState::Pending;
  const Point& p = points_[size_t(point)];
  if (p.stale) return p.running ? PointState::Running : PointState::Pending;
  return p.final ? PointState::Done : PointState::Running;
}

bool SweepResults::isStale(int point) const { return point >= 0 && point < pointCount() && points_[size_t(point)].stale; }

bool SweepResults::isFinished(int point) const {
  if (point < 0 || point >= pointCount()) return false;
  const Point& p = points_[size_t(point)];
  return p.final && p.results && !p.stale;
}

int SweepResults::finishedCount() const {
  int n = 0;
  for (int i = 0; i < pointCount(); ++i) n += isFinished(i);
  return n;
}

std::vector<SweepPoint> SweepResults::finishedPoints() const {
  std::vector<SweepPoint> out;
  for (const Point& p : points_)
    if (p.final && p.results && !p.stale) out.push_back({p.settings, *p.results});
  return out;
}

const topo::Topology* SweepResults::finishedTopology() const {
  for (const Point& p : points_)
    if (p.final && p.results && !p.stale) return p.topology.get();
  return nullptr;
}

void SweepResults::clear() {
  points_.clear();
  labels_.clear();
  selected_ = 0;
  emit labelsChanged(labels_);
  emit selectedPointChanged(selected_);
}

void SweepResults::onRunStarted(const QStringList& labels) {
  // The new scenario first: views that redraw on labelsChanged read its sweep.
  scenario_ = controller_->lastScenario();
  if (labels != labels_) {
    // Different points: old results would be shown under the wrong label.
    points_.assign(static_cast<size_t>(labels.size()), {});
    labels_ = labels;
    if (selected_ >= labels_.size()) selected_ = 0;
    emit labelsChanged(labels_);
    emit selectedPointChanged(selected_);
  }
  const auto& settings = controller_->lastPointSettings();
  for (size_t i = 0; i < points_.size(); ++i) {
    points_[i].running.reset();
    points_[i].stale = true;
    if (i < settings.size()) points_[i].settings = settings[i];
  }
  for (int i = 0; i < pointCount(); ++i) emit pointStateChanged(i);
}

void SweepResults::onTopology(int point, std::shared_ptr<const topo::Topology> topology) {
  if (point < 0 || point >= pointCount()) return;
  Point& p = points_[size_t(point)];
  const PointState before = state(point);
  p.running = std::move(topology);
  if (state(point) != before) emit pointStateChanged(point);
  // Nothing on screen for this point yet: show the fabric before the first results.
  if (point == selected_ && !p.results && model_->topologyShared() != p.running)
    model_->setTopology(p.running);
}

void SweepResults::onResults(int point, std::shared_ptr<const Results> results, bool final) {
  if (point < 0 || point >= pointCount()) return;
  Point& p = points_[size_t(point)];
  const PointState before = state(point);
  p.topology = p.running;
  p.results = std::move(results);
  p.final = final;
  p.stale = false;
  if (state(point) != before) emit pointStateChanged(point);
  if (final) emit pointFinished(point);
  if (point != selected_) return;
  publish(point);
  // A finished run opens on its busiest bin (the most telling picture) unless the user
  // has taken the timeline off "live"; a run too short for live snapshots would
  // otherwise show its first bin and a long one its last.
  if (final && model_->followLive()) {
    const int busiest = report::busiestBin(*p.results);
    if (busiest >= 0) model_->setCurrentBin(busiest);
  }
}

void SweepResults::publish(int point) {
  const Point& p = points_[size_t(point)];
  if (p.topology && model_->topologyShared() != p.topology) model_->setTopology(p.topology);
  if (p.results) model_->setResults(p.results, p.final);
}

int binAfterSwitch(const Results& r, Time shown) {
  if (shown >= 0 && r.bin > 0) {
    const std::vector<std::int64_t> total = report::totalBytesPerBin(r);
    const Time b = shown / r.bin;
    if (b < Time(total.size()) && b < r.bins && total[size_t(b)] > 0) return int(b);
  }
  return std::max(0, report::busiestBin(r));
}

void SweepResults::selectPoint(int point) {
  if (point < 0 || point >= pointCount() || point == selected_) return;
  selected_ = point;
  const Point& p = points_[size_t(point)];
  if (p.results) {
    // The instant on screen, before the other point's results replace it.
    const Time shown = model_->results() && model_->binWidth() > 0 ? model_->currentBin() * model_->binWidth() : -1;
    publish(point);
    model_->setCurrentBin(binAfterSwitch(*p.results, shown));
  } else if (auto t = p.running ? p.running : model_->topologyShared()) {
    model_->setTopology(t);  // clears the other point's results: nothing to show yet
  }
  emit selectedPointChanged(point);
}

}  // namespace fl::gui
