#include "gui/run_controller.h"

#include "gui/point_labels.h"

#include <QMetaObject>
#include <atomic>
#include <chrono>
#include <mutex>
#include <utility>

#include "scenario/input_error.h"
#include "scenario/sweep.h"
#include "sim/run.h"

namespace fl::gui {

// Everything the worker and the GUI thread share for one run. The GUI thread owns the
// controller's members; the worker touches only this.
struct RunController::Job {
  std::atomic<bool> cancel{false};
  std::vector<Scenario> points;  // validated point scenarios
  std::vector<std::pair<TopologySpec, std::shared_ptr<const topo::Topology>>> topologies;
  double snapshotHz = 30;

  std::mutex mutex;  // guards latest/latestPoint
  std::shared_ptr<const Results> latest;
  int latestPoint = -1;
  std::atomic<bool> snapshotPosted{false};
  std::atomic<bool> progressPosted{false};
  std::atomic<double> progress{0};
};

RunController::RunController(QObject* parent) : QObject(parent) {}

RunController::~RunController() {
  if (job_) job_->cancel = true;
  if (worker_.joinable()) worker_.join();
}

void RunController::setState(State s) {
  if (s == state_) return;
  state_ = s;
  emit stateChanged(s);
}

QStringList RunController::pointLabels(const Scenario& s) { return friendlyPointLabels(s); }

void RunController::start(const Scenario& s) {
  if (state_ != State::Idle) {
    pending_ = std::make_unique<Scenario>(s);  // the newest request wins
    if (state_ == State::Running) {
      job_->cancel = true;
      setState(State::Cancelling);
    }
    return;
  }
  launch(s);
}

void RunController::stop() {
  pending_.reset();
  if (state_ != State::Running) return;
  job_->cancel = true;
  setState(State::Cancelling);
}

void RunController::launch(const Scenario& s) {
  auto job = std::make_shared<Job>();
  job->snapshotHz = snapshotHz_;
  std::vector<SweepSettings> settings;
  try {
    settings = sweepPoints(s);
    for (const SweepSettings& point : settings) job->points.push_back(sweepPointScenario(s, point));
  } catch (const InputError& e) {
    emit failed(QString::fromStdString(e.what()));
    return;
  }
  lastScenario_ = s;
  lastSettings_ = std::move(settings);
  if (lastTopology_) job->topologies.push_back({lastSpec_, lastTopology_});
  job_ = job;
  setState(State::Running);
  emit runStarted(pointLabels(s));
  emit progressChanged(0);
  worker_ = std::thread([this, job] { workerMain(job); });
}

void RunController::workerMain(std::shared_ptr<Job> job) {
  // Queued calls run on the GUI thread; they are dropped if the controller is gone, and
  // ignore a job that is no longer the current one.
  auto post = [this, job](auto fn) {
    QMetaObject::invokeMethod(this, [this, job, fn = std::move(fn)] {
      if (job == job_) fn();
    }, Qt::QueuedConnection);
  };
  double events = 0, wall = 0;
  bool cancelled = false;
  const double n = static_cast<double>(job->points.size());
  try {
    for (std::size_t i = 0; i < job->points.size(); ++i) {
      const int point = static_cast<int>(i);
      const Scenario& ps = job->points[i];
      std::shared_ptr<const topo::Topology> topology;
      for (const auto& [spec, t] : job->topologies)
        if (spec == ps.topology) topology = t;
      if (!topology) {
        topology = std::shared_ptr<const topo::Topology>(topo::buildTopology(ps.topology));
        job->topologies.push_back({ps.topology, topology});
      }
      post([this, point, topology, spec = ps.topology] {
        lastSpec_ = spec;
        lastTopology_ = topology;
        emit topologyReady(point, topology);
      });
      if (job->cancel) {
        cancelled = true;
        break;
      }

      RunControl control;
      control.cancel = &job->cancel;
      control.snapshotHz = job->snapshotHz;
      control.progress = [&, i](double f) {
        job->progress = (static_cast<double>(i) + f) / n;
        if (job->progressPosted.exchange(true)) return;  // one pending update is enough
        post([this, job] {
          job->progressPosted = false;
          emit progressChanged(job->progress.load());
        });
      };
      control.snapshot = [&, point](Results&& partial) {
        auto copy = std::make_shared<const Results>(std::move(partial));
        {
          std::lock_guard lock(job->mutex);
          job->latest = std::move(copy);
          job->latestPoint = point;
        }
        if (job->snapshotPosted.exchange(true)) return;  // the pending call takes the newest
        post([this, job] {
          std::shared_ptr<const Results> r;
          int p = -1;
          {
            std::lock_guard lock(job->mutex);
            r = std::move(job->latest);
            p = job->latestPoint;
            job->snapshotPosted = false;
          }
          if (r) emit snapshotReady(p, r);
        });
      };
      const auto t0 = std::chrono::steady_clock::now();
      Results r = runOnTopology(ps, *topology, control);
      wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      events += static_cast<double>(r.events);
      cancelled = r.cancelled || job->cancel;
      auto done = std::make_shared<const Results>(std::move(r));
      post([this, job, point, done] {
        {
          std::lock_guard lock(job->mutex);  // a snapshot still queued is older: drop it
          if (job->latestPoint == point) job->latest.reset();
        }
        emit pointFinished(point, done);
      });
      if (cancelled) break;
    }
  } catch (const std::exception& e) {
    post([this, msg = QString::fromStdString(e.what())] { emit failed(msg); });
  }
  const double rate = wall > 0 ? events / wall : 0;
  post([this, job, cancelled, rate] { onWorkerDone(job, cancelled, rate); });
}

void RunController::onWorkerDone(const std::shared_ptr<Job>& job, bool cancelled, double eventsPerSecond) {
  if (worker_.joinable()) worker_.join();  // the worker's last act was posting this
  job_.reset();
  emit runFinished(cancelled, eventsPerSecond);
  if (pending_) {
    const Scenario next = *pending_;
    pending_.reset();
    launch(next);
    if (state_ != State::Idle) return;
  }
  setState(State::Idle);
}

}  // namespace fl::gui
