// Per-direction link utilisation over time for two runs on one axis (seed 002 §V-B,
// Fig. 16: CAIS keeps both directions busy): for each of two chosen sweep points, the
// uplinks' (GPU → switch) and downlinks' (switch → GPU) wire bytes per bin over their
// capacity in the bin, as a percentage; uplinks solid, downlinks dashed, one colour per
// point. Follows the timeline's current bin.
#pragma once
#include <QWidget>
#include <vector>

#include "views/format_units.h"
#include "views/labelled_results.h"

class QComboBox;
class QCustomPlot;
class QCPItemStraightLine;

namespace fl::views {

class DirectionUtilisationPlot : public QWidget {
  Q_OBJECT
 public:
  explicit DirectionUtilisationPlot(QWidget* parent = nullptr);

  QCustomPlot* plot() const { return plot_; }  // graphs: A up, A down, B up, B down
  QComboBox* firstCombo() const { return first_; }
  QComboBox* secondCombo() const { return second_; }
  // The points to choose from (finished ones); keeps the choices where labels persist.
  void setPoints(const std::vector<LabelledResults>& points);
  void setCurrentBin(int bin);
  const TimeUnit& timeUnit() const { return unit_; }

  // Utilisation (0..1) of all uplinks (or downlinks) together in each bin of `r`.
  static std::vector<double> utilisation(const Results& r, bool uplink);

 private:
  void rebuild();

  QCustomPlot* plot_;
  QComboBox *first_, *second_;
  QCPItemStraightLine* cursor_;
  std::vector<LabelledResults> points_;
  TimeUnit unit_;
  int bin_ = 0;
  bool chosen_ = false;  // the user picked a point: keep their pair
};

}  // namespace fl::views
