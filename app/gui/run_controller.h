// Runs a scenario (every point of its sweep) in a worker thread, never on the GUI
// thread, and hands the GUI immutable results through queued calls:
//   - live snapshots of the running point, coalesced (the GUI sees the newest one, at
//     most `snapshotHz` a second; a slow GUI skips snapshots instead of queueing them),
//   - each point's final results as soon as that point is done,
//   - progress over the whole sweep, and the topology each point runs on.
// Stopping is cooperative (the engine checks the flag between event batches). Starting
// while a run is in progress cancels it first and starts the new run when it has ended,
// so at most one run (sweep) at a time; its points run concurrently, `jobs()` at once
// (QSettings run/sweep_jobs; 0: the scenario's run.jobs, then one per core), and each
// point's results arrive as it finishes, in any order. States: Idle -> Running ->
// (Cancelling) -> Idle.
#pragma once
#include <QObject>
#include <QStringList>
#include <QTimer>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "results/results.h"
#include "scenario/scenario.h"
#include "topology/topology.h"

namespace fl::gui {

class RunController : public QObject {
  Q_OBJECT
 public:
  enum class State { Idle, Running, Cancelling };
  Q_ENUM(State)

  explicit RunController(QObject* parent = nullptr);
  ~RunController() override;  // cancels and joins the worker

  State state() const { return state_; }
  bool isBusy() const { return state_ != State::Idle; }
  // Live snapshots per wall-clock second (the engine's snapshot rate; GUI repaints follow).
  void setSnapshotHz(double hz) { snapshotHz_ = hz; }
  double snapshotHz() const { return snapshotHz_; }
  // Sweep points run at once (0: automatic); starts from QSettings run/sweep_jobs.
  void setJobs(int jobs);
  int jobs() const { return jobs_; }

  // Starts a run of every sweep point of `s` (cancelling a run in progress first).
  // An invalid sweep point is reported through failed() before anything runs.
  void start(const Scenario& s);
  // Asks the running simulation to stop; state() becomes Cancelling, then Idle.
  void stop();

  // One label per sweep point of `s`: its settings as "key = value".
  static QStringList pointLabels(const Scenario& s);
  // The scenario of the run started last, and its points' settings (reports).
  const Scenario& lastScenario() const { return lastScenario_; }
  const std::vector<std::vector<std::pair<std::string, std::string>>>& lastPointSettings() const {
    return lastSettings_;
  }

 signals:
  void stateChanged(fl::gui::RunController::State state);
  // A run began: one label per sweep point ({"(single run)"} without a sweep).
  void runStarted(const QStringList& pointLabels);
  // The topology a point runs on; the same object for points with the same fabric, and
  // for consecutive runs while the fabric does not change.
  void topologyReady(int point, std::shared_ptr<const fl::topo::Topology> topology);
  void snapshotReady(int point, std::shared_ptr<const fl::Results> results);
  void pointFinished(int point, std::shared_ptr<const fl::Results> results);
  void progressChanged(double fraction);  // over the whole sweep, 0..1
  // The run ended (completed, stopped or failed): events per wall second over its points.
  void runFinished(bool cancelled, double eventsPerSecond);
  void failed(const QString& message);

 private:
  struct Job;
  void launch(const Scenario& s);
  void workerMain(std::shared_ptr<Job> job);
  void runQueued();  // GUI thread: the calls workers queued, oldest first
  void onWorkerDone(const std::shared_ptr<Job>& job, bool cancelled, double eventsPerSecond);
  void setState(State s);

  State state_ = State::Idle;
  double snapshotHz_ = 30;
  int jobs_ = 0;
  std::shared_ptr<Job> job_;
  std::thread worker_;
  std::unique_ptr<Scenario> pending_;
  Scenario lastScenario_;
  std::vector<std::vector<std::pair<std::string, std::string>>> lastSettings_;  // started while cancelling: runs next
  // The last fabric built, reused while an edit leaves topology settings unchanged so
  // that views keep their items (and zoom) across re-runs.
  TopologySpec lastSpec_;
  std::shared_ptr<const topo::Topology> lastTopology_;
  // Calls the workers hand to the GUI thread, each with its job. They wait here, under a
  // mutex, and the GUI thread collects them on a timer while a run is in progress: through
  // Qt's event queue (invokeMethod) the functor, and the event Qt allocates for it, were
  // written by the worker and read or freed by the GUI thread across a hand-over inside
  // libQt6Core that ThreadSanitizer cannot see, and it reported each one as a race.
  QTimer queuedPoll_;
  std::mutex queuedMutex_;
  std::vector<std::pair<std::shared_ptr<Job>, std::function<void()>>> queued_;
};

}  // namespace fl::gui
