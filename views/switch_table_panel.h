// The in-switch table inspector: one switch port's reduction buffer over the run. Pick a
// switch (those that reduced anything) and a port; a step plot shows the most entries
// held per time bin with evictions per bin in red (right axis) and the current bin
// marked; a table (reduction_entry_table.h) lists the entries alive at the current
// bin's middle. It follows the timeline and the canvas selection (a switch selects it
// here; a device its port).
#pragma once
#include <QWidget>
#include <memory>
#include <utility>
#include <vector>

#include "results/results.h"
#include "views/format_units.h"
#include "views/reduction_entry_table.h"

class QComboBox;
class QCustomPlot;
class QCPItemStraightLine;
class QLabel;
class QSplitter;

namespace fl::views {

class NoticeStack;
class PointLinks;
class RunModel;
class SwitchPortPicker;

class SwitchTablePanel : public QWidget {
  Q_OBJECT
 public:
  using enum ReductionEntryTable::Column;  // the table's columns: SwitchTablePanel::Token, ...

  explicit SwitchTablePanel(RunModel* model, QWidget* parent = nullptr);

  QComboBox* switchCombo() const;  // data: index in results->switches
  QComboBox* portCombo() const;    // data: ReductionPortResult::port
  QCustomPlot* plot() const { return plot_; }  // graph 0: entries (steps), 1: evictions (yAxis2)
  QTableWidget* table() const { return entries_->table(); }
  bool noticeVisible() const;

  const SwitchResult* currentSwitch() const;  // null when none
  const ReductionPortResult* currentPort() const;
  // The instant the table shows: the middle of the current bin.
  Time tableTime() const;
  static Time timeOfBin(int bin, Time binWidth) { return Time(bin) * binWidth + binWidth / 2; }
  double binKey(int bin) const;  // a bin's start on the plot's x axis (in timeUnit())
  const TimeUnit& timeUnit() const { return unit_; }

  void selectSwitch(const QString& name);  // no-op when it has no reduction activity
  // Where else to look when this run has no reductions (e.g. the sweep points that do);
  // added to the notice. Empty: nothing.
  void setElsewhereHint(const QString& hint);
  // The sweep points with merge units / reductions as links under the notice.
  void setElsewherePoints(const QString& what, std::vector<std::pair<int, QString>> points);
  PointLinks* pointLinks() const;
  // Whether a run has anything for this panel to show: a switch port that reduced.
  static bool hasReductions(const Results& r);
  void selectPort(int port);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void rebuildSwitches();
  void showPort();
  void collectLog();
  void rebuildPlot();
  void rebuildTable();
  void moveCursor();
  void followSelection();

  RunModel* model_;
  std::shared_ptr<const Results> results_;  // keeps the entry log the table points into
  NoticeStack* stack_;  // the port's views, or why there are none
  QLabel* summary_;
  SwitchPortPicker* picker_;
  QSplitter* split_;
  QCustomPlot* plot_;
  QCPItemStraightLine* cursor_;
  ReductionEntryTable* entries_;
  TimeUnit unit_;
  std::vector<const ReductionEntryRecord*> portLog_;  // the current port's entries (log order)
};

}  // namespace fl::views
