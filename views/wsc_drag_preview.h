// The live preview of a mapping-editor drag (issue 20 "in the analytical model the result
// updates while dragging"): the edited scenario run in the analytical model (one
// iteration, no balancer: a few ms on 4 x 4, tens on 8 x 8) on a worker thread, so the
// canvas never waits for it. Throttled: at most one preview runs at a time and the next
// starts no sooner than `minInterval` after the last began; requests made meanwhile
// collapse into the latest (a drag hovering over many dies previews where it is now).
// The unedited run ("before") is computed once per shown scenario and kept.
#pragma once
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QTimer>
#include <memory>
#include <optional>

#include "results/results.h"
#include "scenario/scenario.h"
#include "topology/topology.h"

namespace fl::views {

class WscDragPreview : public QObject {
  Q_OBJECT
 public:
  struct Outcome {
    int serial = 0;  // the request it answers
    QString label;   // as requested ("Swap 3 ↔ 4", "Expert 7 → die 2")
    std::shared_ptr<const Results> before, after;
    QString error;   // the run threw: why
    double ms = 0;   // worker time of this preview (both runs when "before" was not cached)
  };

  explicit WscDragPreview(QObject* parent = nullptr);
  ~WscDragPreview() override;

  // One iteration without a balancer or sweep: the mapping's own phase times, quickly.
  static Scenario previewScenario(Scenario s);

  // Previews `after` against `before` on `topology`; returns the request's serial.
  int request(const Scenario& before, const Scenario& after, std::shared_ptr<const topo::Topology> topology,
              const QString& label);
  // The drag ended: forget the waiting request; a preview in flight is ignored on arrival.
  void cancel();
  bool busy() const { return running_ || pending_.has_value(); }
  int minInterval() const { return minIntervalMs_; }
  void setMinInterval(int ms) { minIntervalMs_ = ms; }
  int started() const { return started_; }  // previews begun (for tests of the throttle)

 signals:
  void ready(const fl::views::WscDragPreview::Outcome& outcome);

 private:
  struct Request {
    int serial = 0;
    Scenario before, after;
    std::shared_ptr<const topo::Topology> topology;
    QString label;
  };
  void startNext();
  void finished(Outcome o, std::optional<Scenario> beforeKey);

  QThreadPool pool_;
  QTimer wait_;
  QElapsedTimer sinceStart_;
  std::optional<Request> pending_;
  bool running_ = false;
  int serial_ = 0, cancelledUpTo_ = 0, started_ = 0;
  int minIntervalMs_ = 40;
  std::optional<Scenario> beforeKey_;
  std::shared_ptr<const Results> beforeRun_;
};

}  // namespace fl::views
