// The CAIS merge-table inspector (seed 002 §III-A; specs/cais.md §2.2): pick a switch and
// one of its merge units (a GPU-facing port), or click a switch or GPU on the canvas. It
// shows the unit's merging table at the end of the timeline's current bin as a grid
// (merge_table_grid.h: entries appear, fill with one mark per GPU, turn Load-Ready,
// complete, are evicted or time out, each state its colour; the key above it), what
// happened in that bin (entries opened and ended, requests bypassed), and the unit's
// occupancy over the run against the table's capacity (merge_occupancy_plot.h).
#pragma once
#include <QWidget>
#include <utility>
#include <vector>
#include <memory>

#include "results/results.h"
#include "views/merge_table_state.h"

class QComboBox;
class QLabel;
class QSplitter;

namespace fl::views {

class MergeOccupancyPlot;
class MergeTableGrid;
class NoticeStack;
class PointLinks;
class RunModel;
class SwitchPortPicker;

class MergeTableInspector : public QWidget {
  Q_OBJECT
 public:
  explicit MergeTableInspector(RunModel* model, QWidget* parent = nullptr);

  QComboBox* switchCombo() const;  // data: index in results->switches
  QComboBox* portCombo() const;    // data: MergePortResult::port
  MergeTableGrid* grid() const { return grid_; }
  MergeOccupancyPlot* occupancy() const { return occupancy_; }
  QLabel* windowLabel() const { return window_; }
  bool noticeVisible() const;

  const SwitchResult* currentSwitch() const;
  const MergePortResult* currentPort() const;
  // The window the grid shows: (from, to] = the current bin.
  Time windowFrom() const;
  Time windowTo() const;

  void selectSwitch(const QString& name);
  void selectPort(int port);
  static bool hasMergeUnits(const Results& r);
  // Where else to look when this run has none (the sweep points that have them).
  void setElsewhereHint(const QString& hint);
  // The sweep points with merge units / reductions as links under the notice.
  void setElsewherePoints(const QString& what, std::vector<std::pair<int, QString>> points);
  PointLinks* pointLinks() const;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void rebuildSwitches();
  void rebuildPort();
  void showWindow();
  void followSelection();

  RunModel* model_;
  std::shared_ptr<const Results> results_;  // keeps the log the grid points into
  NoticeStack* stack_;  // the unit's views, or why there are none
  QLabel *legend_, *window_;
  SwitchPortPicker* picker_;
  QSplitter* split_;
  MergeTableGrid* grid_;
  MergeOccupancyPlot* occupancy_;
  MergePortLog log_;
  std::vector<int> gpuOfNode_;
  int gpus_ = 0;
};

}  // namespace fl::views
