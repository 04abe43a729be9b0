// HybridEP's stream model as a curve (seed 004 §III-E, Fig. 6): per hierarchy level, the
// predicted iteration latency against the proportion p of data sent by all-to-all, at
// every candidate expert-domain size (p = (G-S)/(G-1)) and as the continuous Lat(p),
// with the model's optimum and the EP point (p = 1, Definition 1) marked. The inputs
// (data and expert sizes, compression ratio, Lat_PE, each level's bandwidth) start at
// the run's and can be edited: every edit re-evaluates core's stream model directly
// (xdc::predict, well under a millisecond) and the time it took is shown. The run's
// simulated iteration stays beside the prediction for comparison. A log latency axis
// (on by itself while the levels' EP latencies differ by more than 10x, as the 1000-DC
// level dwarfs the GPU level; the user's tick then stands) keeps every level readable.
#pragma once
#include <QWidget>
#include <vector>

#include "xdc/stream_model.h"

class QCheckBox;
class QCPGraph;
class QCPItemText;
class QCustomPlot;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QStackedWidget;

namespace fl::views {

class RunModel;

class XdcCurvePanel : public QWidget {
  Q_OBJECT
 public:
  explicit XdcCurvePanel(RunModel* model, QWidget* parent = nullptr);

  // The inputs on screen (seconds and bytes, as the model takes them; expert compressed).
  xdc::ModelInput inputs() const;
  void setInputs(const xdc::ModelInput& in, int layers, double compressionRatio = 1);
  const xdc::Prediction& prediction() const { return prediction_; }

  QCustomPlot* plot() const { return plot_; }
  int levelCount() const { return int(candidates_.size()); }
  QCPGraph* candidates(int level) const { return candidates_[std::size_t(level)]; }  // key p, value ms
  QCPGraph* continuous(int level) const { return continuous_[std::size_t(level)]; }
  QCPGraph* optimum(int level) const { return optimum_[std::size_t(level)]; }
  QCPGraph* epPoint(int level) const { return ep_[std::size_t(level)]; }
  QDoubleSpinBox* dataBox() const { return data_; }        // MB (10^6 B)
  QDoubleSpinBox* expertBox() const { return expert_; }    // MB, before compression
  QDoubleSpinBox* ratioBox() const { return ratio_; }
  QDoubleSpinBox* preExpertBox() const { return preExpert_; }  // ms
  QDoubleSpinBox* bandwidthBox(int level) const { return bandwidth_[std::size_t(level)]; }  // GB/s
  QString summaryText() const;
  double lastEvaluationMs() const { return evaluationMs_; }  // predict + curves, last edit
  bool noticeVisible() const;
  QCheckBox* logBox() const { return log_; }
  bool logScale() const;
  // Whether the levels' EP latencies differ by more than 10x: the log axis's default.
  bool levelsFarApart() const;

 private:
  QString levelName(int l) const;
  void reload();
  void rebuildLevels(int levels);
  void evaluate();
  void fitAxes();  // x with room for the markers at p = 0 and 1, y linear or log

  RunModel* model_;
  QStackedWidget* stack_;
  QLabel* notice_;
  QFormLayout* form_;
  QDoubleSpinBox *data_, *expert_, *ratio_, *preExpert_;
  std::vector<QDoubleSpinBox*> bandwidth_;
  std::vector<int> workers_;
  int layers_ = 1;
  QCustomPlot* plot_;
  std::vector<QCPGraph*> candidates_, continuous_, optimum_, ep_;
  std::vector<QCPItemText*> labels_;  // "S=4" over each level's optimum
  QLabel* summary_;
  QCheckBox* log_;
  bool logChosen_ = false;  // the user ticked or cleared it: no more automatic default
  xdc::Prediction prediction_;
  double evaluationMs_ = 0;
};

}  // namespace fl::views
