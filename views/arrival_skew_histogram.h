// CAIS arrival skew per scheme (seed 002 §III-B, Fig. 13(b); specs/cais.md §2.13): for
// every (block, type) request set, the latest minus the earliest arrival at its merge
// unit, as a histogram over power-of-two bins (MergePortResult::skew_histogram, summed
// over all units), one bar colour per sweep point, as a share of that point's sets so
// schemes with different traffic compare. Points without merge units (NVLS schemes) are
// named under the plot but draw nothing. The legend gives each point's mean skew.
#pragma once
#include <QWidget>
#include <vector>

#include "views/labelled_results.h"

class QCustomPlot;
class QLabel;

namespace fl::views {

class ArrivalSkewHistogram : public QWidget {
  Q_OBJECT
 public:
  explicit ArrivalSkewHistogram(QWidget* parent = nullptr);

  QCustomPlot* plot() const { return plot_; }  // one QCPBars per plotted point (plottable i)
  QLabel* note() const { return note_; }
  void setPoints(const std::vector<LabelledResults>& points);
  // Plotted points' labels, in plottable order.
  const QStringList& plotted() const { return plotted_; }
  // The x position of skew bin k (kSkewHistogramBins) on the plot.
  static double binKey(int k) { return k; }
  static QString binLabel(int k);  // its lower edge: "0", "1 ns", "2 ns", ... "1.02 µs"

 private:
  QCustomPlot* plot_;
  QLabel* note_;
  QStringList plotted_;
  std::vector<LabelledResults> points_;  // re-laid out when the width changes the labels

 protected:
  void resizeEvent(QResizeEvent* e) override;
};

}  // namespace fl::views
