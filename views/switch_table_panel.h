// The in-switch table inspector: one switch port's reduction buffer over the run. Pick a
// switch (those that reduced anything) and a port; a step plot shows the most entries
// held per time bin with evictions per bin in red (right axis) and the current bin
// marked; a table lists the entries alive at the current bin's middle, decoded from
// their tags (MoE: token and source GPU), with the contributions arrived by then and
// their age then (the header also counts entries that came and went between two bin
// middles, e.g. NVLS entries whose contributions all arrive at once). It follows the
// timeline and the canvas selection (a switch selects it here; a device its port).
#pragma once
#include <QWidget>
#include <memory>
#include <vector>

#include "results/results.h"
#include "views/format_units.h"

class QComboBox;
class QCustomPlot;
class QCPItemStraightLine;
class QLabel;
class QSplitter;
class QStackedWidget;
class QTableWidget;

namespace fl::views {

class RunModel;

// An MoE layer's message tag: phase << 62 | source GPU << 32 | token (core/workloads/moe_layer).
struct MoeTag {
  int phase = 0;   // 0 dispatch, 1 combine
  int source = 0;  // endpoint index of the token's GPU
  std::uint32_t token = 0;
};
MoeTag decodeMoeTag(std::uint64_t tag);

class SwitchTablePanel : public QWidget {
  Q_OBJECT
 public:
  enum Column { Token = 0, Source, Piece, Expected, Arrived, Age, Evicted, ColumnCount };

  explicit SwitchTablePanel(RunModel* model, QWidget* parent = nullptr);

  QComboBox* switchCombo() const { return switchCombo_; }  // data: index in results->switches
  QComboBox* portCombo() const { return portCombo_; }      // data: ReductionPortResult::port
  QCustomPlot* plot() const { return plot_; }  // graph 0: entries (steps), 1: evictions (yAxis2)
  QTableWidget* table() const { return table_; }
  bool noticeVisible() const;

  const SwitchResult* currentSwitch() const;  // null when none
  const ReductionPortResult* currentPort() const;
  // The instant the table shows: the middle of the current bin.
  Time tableTime() const;
  static Time timeOfBin(int bin, Time binWidth) { return Time(bin) * binWidth + binWidth / 2; }
  double binKey(int bin) const;  // a bin's start on the plot's x axis (in timeUnit())
  const TimeUnit& timeUnit() const { return unit_; }

  void selectSwitch(const QString& name);  // no-op when it has no reduction activity
  void selectPort(int port);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void rebuildSwitches();
  void rebuildPorts();
  void collectLog();
  void rebuildPlot();
  void rebuildTable();
  void moveCursor();
  void followSelection();

  RunModel* model_;
  std::shared_ptr<const Results> results_;  // keeps the entry log the table points into
  QStackedWidget* stack_;
  QLabel *notice_, *summary_, *tableHeader_;
  QComboBox *switchCombo_, *portCombo_;
  QSplitter* split_;
  QCustomPlot* plot_;
  QCPItemStraightLine* cursor_;
  QTableWidget* table_;
  TimeUnit unit_;
  std::vector<const ReductionEntryRecord*> portLog_;  // the current port's entries (log order)
};

}  // namespace fl::views
