// One CAIS merge unit's occupancy over the run: the most entries its merging table held
// in each time bin (a step curve), the table's capacity as a labelled dashed line (none when the
// table is unbounded), and the end of the timeline's current bin marked (the instant the
// inspector's grid shows). Bins in which the unit saw
// no allocation or release record nothing and read 0.
#pragma once
#include <QWidget>

#include "results/results.h"
#include "views/format_units.h"

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemText;

namespace fl::views {

class MergeOccupancyPlot : public QWidget {
  Q_OBJECT
 public:
  explicit MergeOccupancyPlot(QWidget* parent = nullptr);

  QCustomPlot* plot() const { return plot_; }  // graph 0: entries per bin (steps)
  QCPItemStraightLine* capacityLine() const { return capacity_; }
  // The port to plot (null: empty), over `bins` bins of `binWidth`.
  void setPort(const MergePortResult* port, int bins, Time binWidth);
  void setCurrentBin(int bin);
  double binKey(int bin) const;  // a bin's start on the x axis (in timeUnit())
  const TimeUnit& timeUnit() const { return unit_; }

 private:
  QCustomPlot* plot_;
  QCPItemStraightLine *cursor_, *capacity_;
  QCPItemText* capacityLabel_;
  TimeUnit unit_;
  Time binWidth_ = 0;
  int bins_ = 0, bin_ = 0;
};

}  // namespace fl::views
