// Two runs' fabrics side by side (e.g. two sweep points: ring vs NVLS), each on its own
// canvas and RunModel, coloured on one scale (link utilisation 0-100 %, the same cold and
// hot thresholds) at one simulated time: a slider moves both; a run shorter than that
// time shows its last bin and says it has finished. One legend for both, under them
// beside the slider, so neither canvas keeps room for one, and both fabrics are drawn at
// one scale (the smaller of their fits). The compare dialog's "Fabrics" tab.
#pragma once
#include <QWidget>
#include <memory>

#include "results/results.h"
#include "topology/topology.h"

class QLabel;
class QSlider;

namespace fl::views {

class ColourLegend;
class RunModel;
class TopologyCanvas;

class CompareCanvases : public QWidget {
  Q_OBJECT
 public:
  explicit CompareCanvases(QWidget* parent = nullptr);

  void setRuns(const QString& labelA, std::shared_ptr<const topo::Topology> topologyA, std::shared_ptr<const Results> a,
               const QString& labelB, std::shared_ptr<const topo::Topology> topologyB, std::shared_ptr<const Results> b);
  void setThresholds(double cold, double hot);  // both canvases (the main window's)
  // Both canvases at the bin holding simulated time `t` (ps), clamped to each run's bins.
  void setTime(Time t);
  Time time() const { return time_; }
  Time duration() const;  // of the longer run

  TopologyCanvas* canvas(int side) const { return canvases_[side]; }
  RunModel* model(int side) const { return models_[side]; }
  QSlider* slider() const { return slider_; }
  QString header(int side) const;
  ColourLegend* legend() const { return legend_; }

 private:
  void updateHeaders();
  void shareScale();
  Time step() const;  // the slider's step: the finer bin width

  RunModel* models_[2];
  TopologyCanvas* canvases_[2];
  QLabel* headers_[2];
  QString labels_[2];
  QSlider* slider_;
  QLabel* timeLabel_;
  ColourLegend* legend_;
  Time time_ = 0;
};

}  // namespace fl::views
