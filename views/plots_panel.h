// Plots of a run, one tab each: (a) aggregate uplink vs downlink bandwidth per bin
// (GB/s, summed over the links flagged uplink/downlink), (b) utilisation over time of
// the selected link's two directions, or of the busiest directions at the selected node
// or in the whole fabric, (c) the latency histogram of a synthetic-traffic run with
// mean/p50/p99 marked. Time plots mark the current bin; replots are queued.
#pragma once
#include <QWidget>
#include <vector>

#include "views/format_units.h"

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;
class QTabWidget;

namespace fl::views {

class RunModel;

class PlotsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit PlotsPanel(RunModel* model, QWidget* parent = nullptr);

  QTabWidget* tabs() const { return tabs_; }
  QCustomPlot* bandwidthPlot() const { return bandwidth_; }  // graph 0 uplink, 1 downlink
  QCustomPlot* linkPlot() const { return links_; }
  QCustomPlot* latencyPlot() const { return latency_; }
  bool hasLatencyData() const;
  // The x coordinate of a bin's start on the time plots (in timeUnit()).
  double binKey(int bin) const;
  const TimeUnit& timeUnit() const { return unit_; }
  // Link directions (indices into results->links) on the link plot, graph by graph.
  const std::vector<int>& plottedDirections() const { return plotted_; }

 private:
  void rebuildBandwidth();
  void rebuildLinks();
  void rebuildLatency();
  void moveCursors();
  QCustomPlot* makePlot(const QString& xLabel, const QString& yLabel);
  static void legendBelow(QCustomPlot* plot);

  RunModel* model_;
  QTabWidget* tabs_;
  QCustomPlot *bandwidth_, *links_, *latency_;
  QCPItemStraightLine *bandwidthCursor_, *linksCursor_;
  QCPItemText* noLatency_ = nullptr;  // the "no latency data" notice
  QCPTextElement* linksTitle_;
  TimeUnit unit_;
  std::vector<int> plotted_;
};

}  // namespace fl::views
