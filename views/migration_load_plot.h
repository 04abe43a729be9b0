// Device load over iterations (seed 003 §VI-C, Fig. 13; issue 20 "Views"): the run's
// wsc.load_max_over_mean per iteration (1 = every die equally loaded), each expert copy
// marked where it starts (triangle) and where its replica is in place (vertical line at
// end_iteration + 1, the iteration it activates in), and a cursor at the timeline's
// iteration. QCustomPlot, with the chart menu every plot has.
#pragma once
#include <QWidget>
#include <memory>

#include "results/results.h"

class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;

namespace fl::views {

class MigrationLoadPlot : public QWidget {
  Q_OBJECT
 public:
  explicit MigrationLoadPlot(QWidget* parent = nullptr);

  void setResults(std::shared_ptr<const Results> results);
  void setIteration(double iteration);  // the cursor (0-based, fractional)

  QCustomPlot* plot() const { return plot_; }
  int pointCount() const;        // load points drawn
  int migrationMarkCount() const;  // start marks drawn
  double cursorIteration() const { return cursor_; }

 protected:
  void resizeEvent(QResizeEvent* e) override;

 private:
  QCustomPlot* plot_;
  QCPGraph *load_, *starts_;
  QCPItemStraightLine* cursorLine_;
  std::vector<QCPItemStraightLine*> activations_;
  double cursor_ = 0;
};

}  // namespace fl::views
