// Two runs side by side (e.g. two sweep points: deepep vs dysharp): their traffic
// breakdowns on the same byte scale, and under them, one above the other on a shared
// time axis, each run's aggregate uplink vs downlink bandwidth per bin (GB/s, the same
// sums as the Plots dock). Shows copies of what it is given, so the runs may go away.
#pragma once
#include <QWidget>

#include "results/results.h"
#include "views/format_units.h"

class QCustomPlot;
class QCPAxisRect;
class QCPGraph;
class QCPTextElement;
class QLabel;

namespace fl::views {

class TrafficBreakdownBars;

// Wire bytes per bin over the links flagged uplink (resp. downlink), as GB/s.
struct UpDownBandwidth {
  std::vector<double> up, down;  // one value per bin
};
UpDownBandwidth upDownBandwidth(const Results& r);

class SchemeCompareView : public QWidget {
  Q_OBJECT
 public:
  explicit SchemeCompareView(QWidget* parent = nullptr);

  void setResults(const QString& labelA, const Results& a, const QString& labelB, const Results& b);

  QString label(int side) const { return labels_[side]; }  // side 0: A, 1: B
  TrafficBreakdownBars* bars(int side) const { return bars_[side]; }
  QCustomPlot* bandwidthPlot() const { return plot_; }
  QCPAxisRect* bandwidthRect(int side) const { return rects_[side]; }
  QCPGraph* bandwidthGraph(int side, bool uplink) const { return graphs_[side][uplink ? 0 : 1]; }
  QString bandwidthTitle(int side) const;
  const TimeUnit& timeUnit() const { return unit_; }

 private:
  QString labels_[2];
  QLabel* headers_[2];
  TrafficBreakdownBars* bars_[2];
  QCustomPlot* plot_;
  QCPAxisRect* rects_[2];
  QCPTextElement* titles_[2];
  QCPGraph* graphs_[2][2];
  TimeUnit unit_;
};

}  // namespace fl::views
