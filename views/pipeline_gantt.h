// The token pipeline as a Gantt chart (seed 000 Fig. 9, seed 001 Fig. 4): a row per SM
// group per GPU ("gpu3 · gemm1"), or one per collapsed GPU; bars coloured by task kind,
// their height showing the share of the row's SMs the task occupied; x in µs. It follows
// the timeline (RunModel's current bin): a cursor at the bin's end, tasks that start
// after it dimmed, so playing the run shows the pipeline fill. Clicking a bar (or picking
// a GPU and tile) selects a task and highlights its dependency chain with arrows; hovering
// shows the task. An optional strip under the chart plots the fraction of SMs busy.
#pragma once
#include <QWidget>
#include <memory>
#include <vector>

#include "results/results.h"
#include "views/pipeline_bars.h"

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QCPItemLine;
class QCPItemStraightLine;
class QLabel;
class QSpinBox;
class QStackedWidget;
class QToolButton;

namespace fl::views {

class RunModel;

class PipelineGantt : public QWidget {
  Q_OBJECT
 public:
  // With a model, shows and follows its results; without, shows what setResults() gives.
  explicit PipelineGantt(RunModel* model, QWidget* parent = nullptr);

  void setResults(std::shared_ptr<const Results> results);
  const Results* results() const { return results_.get(); }
  void setUtilisationVisible(bool on);  // the SMs-busy strip under the chart

  // Rows
  int rowCount() const { return scene_.rows.count; }
  QString rowLabel(int row) const;
  int gpuCount() const { return scene_.rows.gpus; }
  bool isCollapsed(int gpu) const;
  void setCollapsed(int gpu, bool collapsed);
  void collapseAll() { setAllCollapsed(true); }
  void expandAll() { setAllCollapsed(false); }

  // Bars: the plottable of each kind and what it draws in the current x range.
  PipelineBars* bars(PipelineTaskKind kind) const { return bars_[static_cast<int>(kind)]; }
  int visibleBarCount(PipelineTaskKind kind) const;

  // Selection
  int selectedTask() const { return scene_.selected; }
  void selectTask(int task);  // -1 clears
  // The GEMM task (GEMM-1 first, then GEMM-2, earliest) of `tile` on `gpu`; false if none.
  bool selectTile(int gpu, int tile);
  std::vector<int> chain() const;     // the selected task's dependency chain (sorted)
  int arrowCount() const { return static_cast<int>(arrows_.size()); }
  bool isDimmed(int task) const { return scene_.dimmed(task); }

  // The task under a point of the plot widget (-1: none) and its tooltip text.
  int taskAt(const QPointF& plotPixel) const;
  QString toolTipFor(int task) const;

  double cursorUs() const { return scene_.cursorUs; }  // +inf without a timeline
  QCustomPlot* plot() const { return plot_; }
  QCPAxisRect* utilisationRect() const { return utilRect_; }
  QCPGraph* utilisationGraph() const { return utilGraph_; }
  bool noticeVisible() const;
  // Left margin of the axes in pixels (-1: automatic), to align charts stacked in a view.
  void setLeftMargin(int pixels);
  int currentLeftMargin() const;

 public slots:
  void fit();  // the whole run (at least up to the fit end), every row

 public:
  void setFitEnd(Time end) { fitEnd_ = end; }  // a view of several runs fits the longest

 signals:
  void rowsChanged();
  void taskSelected(int task);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;  // the plot's resizes re-fit the key

 private:
  void rebuild();
  void layoutRows();  // rows, per-task geometry, y ticks
  void updateRowTicks();
  void moveCursor();
  void updateArrows();
  void setAllCollapsed(bool on);
  void updateGpuMenu();
  void showTileStatus(const QString& text);

  RunModel* model_;
  int legendWrap_ = 1;  // the most key entries a row; fewer when the widest would be cut
  std::shared_ptr<const Results> results_;
  GanttScene scene_;
  std::vector<bool> collapsed_;
  QStackedWidget* stack_;
  QLabel* notice_;
  QCustomPlot* plot_;
  QCPAxisRect* utilRect_;
  QCPGraph* utilGraph_;
  QCPItemStraightLine *cursor_, *utilCursor_;
  PipelineRowBands* bands_;
  PipelineBars* bars_[kPipelineTaskKinds];
  std::vector<QCPItemLine*> arrows_;
  QToolButton* gpuMenuButton_;
  QSpinBox *gpuSpin_, *tileSpin_;
  QLabel* status_;
  QPoint pressPos_;
  Time fitEnd_ = 0;
  int tickStride_ = 0, tickRows_ = 0;  // tickStride_: the label font's px, or -(GPUs per label)
  bool tp_ = false;                    // a tensor-parallel layer's pipeline
  bool tpLayer() const { return tp_; }
  bool tickLabelsFresh_ = false;
};

}  // namespace fl::views
