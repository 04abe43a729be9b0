// The Story dock: a scenario's guided tour (its `story:` steps, scenario/story.h) as a
// list; clicking a step, or Next / Back, performs it: selects the sweep point, sets the
// direction filter, raises the dock, follows a packet, and moves the timeline to the time or the start of
// the phase (as soon as the point's final results are in, if they are not yet).
#pragma once
#include <QDockWidget>

#include "scenario/scenario.h"

class QLabel;
class QListWidget;
class QPushButton;

namespace fl::views {
class RunModel;
}

namespace fl::gui {

class ScenarioDocument;
class SweepResults;

class StoryDock : public QDockWidget {
  Q_OBJECT
 public:
  StoryDock(ScenarioDocument* doc, SweepResults* sweep, views::RunModel* model, QWidget* parent);

  QListWidget* list() const { return list_; }
  int stepCount() const;
  int currentStep() const { return current_; }
  // Performs step `step` (0-based). What it could not do (a phase the results lack, a
  // point a later edit removed) is said under the list; problem() returns it.
  void play(int step);
  void next() { play(current_ + 1); }
  void back() { play(current_ - 1); }
  QString problem() const;

 signals:
  void stepPlayed(int step);
  // A step's `follow` action: its selectors ("a; b" for a list, scenario/follow_selector.h);
  // the Follow One bar records and plays these packets (gui/follow_runner.h).
  void followRequested(const QString& selectors);

 private:
  void rebuild();
  bool moveTimeline(const StoryStep& step);  // false: no final results for the point yet
  void say(const QString& problem);

  ScenarioDocument* doc_;
  SweepResults* sweep_;
  views::RunModel* model_;
  QListWidget* list_;
  QLabel* note_;
  QPushButton *back_, *next_;
  int current_ = -1;
  int pending_ = -1;  // a step whose timeline move waits for results
  std::vector<StoryStep> steps_;
};

}  // namespace fl::gui
