#include "gui/run_controller.h"

#include "gui/point_labels.h"

#include <QSettings>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <utility>

#include "scenario/input_error.h"
#include "scenario/sweep.h"
#include "sim/run.h"
#include "sim/sweep_runner.h"

namespace fl::gui {

// Everything the worker and the GUI thread share for one run. The GUI thread owns the
// controller's members; the worker touches only this.
struct RunController::Job {
  std::atomic<bool> cancel{false};
  Scenario scenario;             // the whole sweep
  std::vector<Scenario> points;  // validated point scenarios
  int jobs = 0;                  // points at once (0: run.jobs, then one per core)
  std::vector<std::pair<TopologySpec, std::shared_ptr<const topo::Topology>>> topologies;
  double snapshotHz = 30;

  std::mutex mutex;  // guards latest/latestPoint
  std::shared_ptr<const Results> latest;
  int latestPoint = -1;
  std::atomic<bool> snapshotPosted{false};
  std::atomic<bool> progressPosted{false};
  std::atomic<double> progress{0};
};

RunController::RunController(QObject* parent)
    : QObject(parent), jobs_(QSettings().value(QStringLiteral("run/sweep_jobs"), 0).toInt()) {
  queuedPoll_.setInterval(10);  // ms: below a frame at the 30 Hz snapshot rate
  connect(&queuedPoll_, &QTimer::timeout, this, &RunController::runQueued);
}

void RunController::setJobs(int jobs) { jobs_ = std::max(0, jobs); }

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
  job->scenario = s;
  job->jobs = jobs_;
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
  queuedPoll_.start();
  worker_ = std::thread([this, job] { workerMain(job); });
}

void RunController::workerMain(std::shared_ptr<Job> job) {
  // Queued calls run on the GUI thread (runQueued), in order; they ignore a job that is no
  // longer the current one.
  auto post = [this, job](std::function<void()> fn) {
    std::lock_guard lock(queuedMutex_);
    queued_.emplace_back(job, std::move(fn));
  };
  std::mutex statsMutex;
  double events = 0, wall = 0;
  bool cancelled = false;
  // The fabric of each point, built once per distinct topology and shared with the views.
  std::vector<std::shared_ptr<const topo::Topology>> topologyOf(job->points.size());
  try {
    for (std::size_t i = 0; i < job->points.size(); ++i) {
      const Scenario& ps = job->points[i];
      for (const auto& [spec, t] : job->topologies)
        if (spec == ps.topology) topologyOf[i] = t;
      if (!topologyOf[i]) {
        topologyOf[i] = std::shared_ptr<const topo::Topology>(topo::buildTopology(ps.topology));
        job->topologies.push_back({ps.topology, topologyOf[i]});
      }
    }
    // Points run concurrently (SweepRunner, `jobs` at once); the Sweep dock fills in as
    // each one finishes, whatever the order.
    SweepOptions options;
    options.jobs = job->jobs;
    options.cancel = &job->cancel;
    options.configure = [&](std::size_t i, RunControl& control) {
      const int point = static_cast<int>(i);
      post([this, point, topology = topologyOf[i], spec = job->points[i].topology] {
        lastSpec_ = spec;
        lastTopology_ = topology;
        emit topologyReady(point, topology);
      });
      control.snapshotHz = job->snapshotHz;
      control.snapshot = [this, job, post, point](Results&& partial) {
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
    };
    options.progress = [&](const SweepProgress& p) {
      job->progress = p.fraction;
      if (job->progressPosted.exchange(true)) return;  // one pending update is enough
      post([this, job] {
        job->progressPosted = false;
        emit progressChanged(job->progress.load());
      });
    };
    options.pointDone = [&](std::size_t i, const Results& r) {
      {
        std::lock_guard lock(statsMutex);
        wall += r.wall_seconds;
        events += static_cast<double>(r.events);
        cancelled = cancelled || r.cancelled || job->cancel;
      }
      const int point = static_cast<int>(i);
      auto done = std::make_shared<const Results>(r);
      post([this, job, point, done] {
        {
          std::lock_guard lock(job->mutex);  // a snapshot still queued is older: drop it
          if (job->latestPoint == point) job->latest.reset();
        }
        emit pointFinished(point, done);
      });
    };
    (void)runSweepPoints(job->scenario, options);
    cancelled = cancelled || job->cancel;
  } catch (const std::exception& e) {
    post([this, msg = QString::fromStdString(e.what())] { emit failed(msg); });
  }
  const double rate = wall > 0 ? events / wall : 0;
  post([this, job, cancelled, rate] { onWorkerDone(job, cancelled, rate); });
}

void RunController::runQueued() {
  decltype(queued_) calls;
  {
    std::lock_guard lock(queuedMutex_);
    calls.swap(queued_);
  }
  for (auto& [job, fn] : calls)
    if (job == job_) fn();
  if (!job_) queuedPoll_.stop();  // the worker has ended and nothing new was launched
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
