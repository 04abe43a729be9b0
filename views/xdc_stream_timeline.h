// HybridEP's two streams of GPU 0 through the recorded iteration (seed 004 §IV-B, Fig. 10;
// spec 1.10): the compute stream (pre-expert, expert) above the communication stream
// (expert all-gather, dispatch and combine all-to-alls), and in a training iteration the
// gradient traffic (expert gradients to their owners, the all-reduce) on a row of its own
// below: with workload.xdc.grad_overlap it overlaps the backward pass. The all-gather starts with the
// pre-expert compute; the part of it that runs under that compute is hidden, which is
// the min(Lat_PE, Lat_AG) overlap of Eq. 7 the panel sums up. Opens on the first two
// layers; drag and wheel to move, double-click for the whole iteration.
#pragma once
#include <QWidget>
#include <vector>

#include "engine/time.h"

class QCPItemRect;
class QCustomPlot;
class QLabel;
class QStackedWidget;

namespace fl::views {

class RunModel;

class XdcStreamTimeline : public QWidget {
  Q_OBJECT
 public:
  explicit XdcStreamTimeline(RunModel* model, QWidget* parent = nullptr);

  QCustomPlot* plot() const { return plot_; }
  struct Span {
    int layer;
    QString kind;
    int row;  // 1 compute, 0 communication, -1 gradients (expert gradients, all-reduce)
    QCPItemRect* rect;
  };
  const std::vector<Span>& spans() const { return spans_; }
  // Over all layers: all-gather time, and the part of it inside its layer's pre-expert span.
  Time allGatherTime() const { return agTotal_; }
  Time allGatherHidden() const { return agHidden_; }
  QString summaryText() const;  // what the label shows now: the full or the short summary
  QString fullSummary() const { return fullText_; }
  bool noticeVisible() const;
  void showWholeIteration();

 protected:
  bool eventFilter(QObject* o, QEvent* e) override;

 private:
  void reload();
  void fitSummary();

  RunModel* model_;
  QStackedWidget* stack_;
  QLabel* notice_;
  QCustomPlot* plot_;
  QLabel* summary_;
  QString fullText_, shortText_;
  int plotMinHeight_ = 90;
  std::vector<Span> spans_;
  Time agTotal_ = 0, agHidden_ = 0;
  double end_ = 0;  // ms
};

}  // namespace fl::views
