// The plottables of the pipeline Gantt chart: one PipelineBars per task kind (all its
// tasks in one layerable, drawn as batched rectangles culled to the visible time range,
// sub-pixel bars of a row merged), and PipelineRowBands, the idle background of each GPU's
// rows. A run has up to ~50 000 tasks: one QCPItem per task would not scale.
#pragma once
#include <limits>
#include <qcustomplot.h>
#include <utility>
#include <vector>

#include "results/results.h"
#include "views/pipeline_rows.h"

namespace fl::views {

// What the plottables draw from; owned by PipelineGantt, rebuilt with the results or rows.
struct GanttScene {
  const PipelineResults* pipeline = nullptr;
  PipelineRows rows;
  std::vector<int> row, span;       // per task: its (first) row and the rows it covers
  std::vector<float> occupancy;     // per task: sms / SMs of its row (group, or GPU when collapsed)
  double cursorUs = std::numeric_limits<double>::infinity();  // tasks starting later: dimmed
  std::vector<char> inChain;        // per task, when a task is selected; else empty
  int selected = -1;

  bool dimmed(int task) const;
  // The task's bar in plot coordinates (x: µs, y: rows, bottom-aligned, height by occupancy).
  QRectF barRect(int task) const;
};

QString pipelineKindLabel(PipelineTaskKind kind);  // "GEMM-1", "launch gap", ...

class PipelineBars : public QCPAbstractPlottable {
  Q_OBJECT
 public:
  PipelineBars(QCPAxis* keyAxis, QCPAxis* valueAxis, const GanttScene* scene, PipelineTaskKind kind);

  void setTasks(std::vector<int> tasks);  // indices into the pipeline's tasks, by start time
  const std::vector<int>& tasks() const { return tasks_; }
  PipelineTaskKind kind() const { return kind_; }
  const GanttScene* scene() const { return scene_; }
  // Positions in tasks() of the tasks overlapping [lower, upper] µs: what draw() visits.
  std::pair<size_t, size_t> visibleSpan(const QCPRange& keys) const;

  double selectTest(const QPointF&, bool, QVariant* = nullptr) const override { return -1; }
  QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
  QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                         const QCPRange& inKeyRange = QCPRange()) const override;

 protected:
  void draw(QCPPainter* painter) override;
  void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

 private:
  const GanttScene* scene_;
  PipelineTaskKind kind_;
  std::vector<int> tasks_;
  double maxDurationUs_ = 0;  // to find every bar that starts left of the view but reaches into it
};

class PipelineRowBands : public QCPAbstractPlottable {
  Q_OBJECT
 public:
  PipelineRowBands(QCPAxis* keyAxis, QCPAxis* valueAxis, const GanttScene* scene);

  double selectTest(const QPointF&, bool, QVariant* = nullptr) const override { return -1; }
  QCPRange getKeyRange(bool& foundRange, QCP::SignDomain = QCP::sdBoth) const override;
  QCPRange getValueRange(bool& foundRange, QCP::SignDomain = QCP::sdBoth, const QCPRange& = QCPRange()) const override;

 protected:
  void draw(QCPPainter* painter) override;
  void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

 private:
  const GanttScene* scene_;
};

}  // namespace fl::views
