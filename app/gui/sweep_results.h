// The results of every point of the current sweep, and which point the views show.
// Feeds the RunModel with the selected point's topology and results (live snapshots,
// then final). Results of the previous run stay on screen until the new run publishes
// the same point, so an edit never blanks the views while the re-run warms up.
#pragma once
#include <QObject>
#include <QStringList>
#include <memory>
#include <vector>

#include "results/results.h"
#include "scenario/scenario.h"
#include "sim/run.h"
#include "topology/topology.h"

namespace fl::views {
class RunModel;
}

namespace fl::gui {

class RunController;

// The bin to show after switching to a point with results `r` from time `shown` (ps;
// negative: nothing was shown): the bin holding that time if the point carries traffic
// there, else its busiest bin (the last bin of a shorter run is idle: a dark canvas).
int binAfterSwitch(const Results& r, Time shown);

class SweepResults : public QObject {
  Q_OBJECT
 public:
  SweepResults(RunController* controller, views::RunModel* model, QObject* parent = nullptr);

  QStringList labels() const { return labels_; }
  int pointCount() const { return static_cast<int>(points_.size()); }
  int selectedPoint() const { return selected_; }
  std::shared_ptr<const Results> results(int point) const;
  // The fabric point `point`'s results were computed on (null when out of range).
  std::shared_ptr<const topo::Topology> topology(int point) const;
  // The values point `point` gives the swept keys (empty when out of range).
  std::vector<std::pair<std::string, std::string>> settings(int point) const;
  bool isFinal(int point) const;
  // Where a point of the current run stands: not started, running (its fabric or live
  // results have come), or finished. A point left from the previous run is pending.
  enum class PointState { Pending, Running, Done };
  PointState state(int point) const;
  // "stale": showing the previous run's results until this run publishes the point.
  bool isStale(int point) const;
  // Finished in the current run (final, not left over from a previous run).
  bool isFinished(int point) const;
  int finishedCount() const;
  // Finished results of every point so far, with their settings (reports), and the
  // scenario they ran.
  std::vector<SweepPoint> finishedPoints() const;
  const Scenario& scenario() const { return scenario_; }
  // The fabric of the first finished point (null before any).
  const topo::Topology* finishedTopology() const;

  // Forget everything (a different document): the next run publishes from scratch.
  void clear();

 public slots:
  void selectPoint(int point);

 signals:
  void labelsChanged(const QStringList& labels);
  void selectedPointChanged(int point);
  void pointFinished(int point);  // its final results are in
  void pointStateChanged(int point);

 private:
  struct Point {
    std::shared_ptr<const topo::Topology> topology;  // what `results` were computed on
    std::shared_ptr<const Results> results;
    bool final = false;
    std::shared_ptr<const topo::Topology> running;   // the current run's topology
    std::vector<std::pair<std::string, std::string>> settings;
    bool stale = false;  // from a previous run, shown until this run publishes the point
  };
  void onRunStarted(const QStringList& labels);
  void onTopology(int point, std::shared_ptr<const topo::Topology> topology);
  void onResults(int point, std::shared_ptr<const Results> results, bool final);
  void publish(int point);

  RunController* controller_;
  views::RunModel* model_;
  Scenario scenario_;
  QStringList labels_;
  std::vector<Point> points_;
  int selected_ = 0;
};

}  // namespace fl::gui
