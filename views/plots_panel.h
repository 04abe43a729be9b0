// Plots of a run, one tab each: (a) aggregate uplink vs downlink bandwidth per bin
// (GB/s, summed over the links flagged uplink/downlink), (b) utilisation over time of
// the selected link's two directions, or of the busiest directions at the selected node
// or in the whole fabric, (c) the latency histogram of a synthetic-traffic run with
// mean/p50/p99 marked; that tab is shown only for runs with latency samples. Time plots
// mark the current bin; replots are queued.
//
// Options in the tab bar's corner ("Axes" menu, small enough to leave the tabs whole at
// 1024 px): a log value axis for both time plots, and what the link plot shows
// (utilisation in % of capacity, or the rate in GB/s). setCommonScale fixes the
// time and value axes for every point of a sweep (the main window gives the scale over
// its finished points), so flipping points never rescales a plot.
#pragma once
#include <QWidget>
#include <vector>

#include "views/format_units.h"
#include "views/plot_scale.h"

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;
class QAction;
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

  enum class LinkValue { Utilisation, Rate };  // % of capacity, or GB/s
  void setLinkValue(LinkValue v);
  LinkValue linkValue() const { return linkValue_; }
  void setLogScale(bool on);  // value axes of both time plots logarithmic
  bool logScale() const { return log_; }
  QAction* logAction() const { return logAction_; }        // checkable
  QAction* linkRateAction() const { return linkRateAction_; }  // checked: rate, else utilisation
  // Axes shared by every sweep point (the time of the longest run, the highest bins);
  // each plot still reaches its own data when that is larger. Empty: each run its own.
  void setCommonScale(const PlotScale& scale);
  const PlotScale& commonScale() const { return common_; }

 private:
  void rebuildBandwidth();
  void rebuildLinks();
  void rebuildLatency();
  void moveCursors();
  void setValueAxis(QCustomPlot* plot, double top);  // linear from 0, or log down to top / 10^4
  double valueFloor(double top) const;                // log: what zero is drawn as
  QCustomPlot* makePlot(const QString& xLabel, const QString& yLabel);
  static void legendBelow(QCustomPlot* plot);
  // Legends never cut: as many columns as the plot's width holds (one in a narrow dock),
  // and the short uplink/downlink names where even one column is too narrow.
  void fitLegends();
  static void fitLegendColumns(QCustomPlot* plot, int columns);
  bool eventFilter(QObject* watched, QEvent* event) override;

  RunModel* model_;
  QTabWidget* tabs_;
  QCustomPlot *bandwidth_, *links_, *latency_;
  QCPItemStraightLine *bandwidthCursor_, *linksCursor_;
  QCPItemText* noLatency_ = nullptr;  // the "no latency data" notice
  QCPTextElement* linksTitle_;
  TimeUnit unit_;
  std::vector<int> plotted_;
  QAction* logAction_;
  QAction* linkRateAction_;
  QAction* utilisationAction_;  // its exclusive partner
  LinkValue linkValue_ = LinkValue::Utilisation;
  bool log_ = false;
  PlotScale common_;
  QString upName_[2], downName_[2];  // long, short
};

}  // namespace fl::views
