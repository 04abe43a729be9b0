// "Follow one" in the main window: the Follow bar under the canvas (views/follow_bar.h),
// shown by its action (View > Follow One, Ctrl+Shift+F). A request re-runs the point the
// views show on a worker thread with the hops of the chosen packets recorded
// (sim/follow_run.h); the hops go to the canvas's overlay and the bar plays them. A point
// whose scenario names run.follow brings its recorded hops along: they are shown the same
// way as soon as that point's final results are on screen.
#pragma once
#include <QObject>
#include <atomic>
#include <functional>
#include <memory>
#include <thread>

#include "results/packet_follow.h"
#include "results/results.h"
#include "scenario/scenario.h"
#include "sim/run.h"

class QAction;

namespace fl::views {
class FollowBar;
class RunModel;
class TopologyCanvas;
}  // namespace fl::views

namespace fl::gui {

class SweepResults;

class FollowRunner : public QObject {
  Q_OBJECT
 public:
  FollowRunner(views::TopologyCanvas* canvas, views::RunModel* model, SweepResults* sweep, QWidget* barParent);
  ~FollowRunner() override;

  views::FollowBar* bar() const { return bar_; }
  QAction* action() const { return action_; }
  // Records the hops of `item` of GPU `gpu` (piece `piece`) on the point shown.
  void follow(int gpu, int item, int piece);
  // The same with the Follow bar shown and its pickers set (a story step's follow action).
  void showAndFollow(int gpu, int item, int piece);
  // A story step's follow: one selector as showAndFollow, several ("a; b", as run.follow
  // writes a list) recorded at once, each in its own colour; the pickers show the first.
  void showAndFollowSelectors(const QString& selectors);
  bool isRunning() const { return running_; }

 signals:
  void followed();  // the bar and the canvas have the new hops (or the error)

 private:
  void updateChoices();
  void stop();
  void showRecorded();  // the hops run.follow recorded in the results shown, if any
  bool pointScenario(Scenario& s);
  // Runs `job` (a run of `s` that fills the PacketFollow) on the worker thread; its hops go
  // to the canvas and the bar.
  using RecordJob = std::function<void(const Scenario&, const topo::Topology&, const RunControl&, PacketFollow&)>;
  void record(const Scenario& s, const QString& what, RecordJob job);

  views::TopologyCanvas* canvas_;
  views::RunModel* model_;
  SweepResults* sweep_;
  views::FollowBar* bar_;
  QAction* action_;
  std::jthread worker_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  bool running_ = false;
  int generation_ = 0;  // answers of superseded requests are dropped
  std::weak_ptr<const Results> shownRecorded_;  // results whose run.follow hops were put on screen
};

}  // namespace fl::gui
