// An MoE layer's traffic by what it achieves (seed 000 §II): one stacked bar per
// phase and direction (dispatch/combine/all × uplink/downlink) split into useful,
// redundant, useless and overhead bytes, titled with the scheme and d (distinct remote
// GPUs per token; on two lines in a narrow dock). Follows a RunModel, or shows whatever setResults() is given (the
// compare view); a centred notice when the results carry no breakdown.
#pragma once
#include <QWidget>
#include <string>
#include <vector>

#include "results/results.h"

class QCustomPlot;
class QCPBars;
class QCPItemText;
class QCPTextElement;

namespace fl::views {

class RunModel;

class TrafficBreakdownBars : public QWidget {
  Q_OBJECT
 public:
  enum Class { Useful = 0, Redundant, Useless, Overhead, ClassCount };

  // `model` may be null: the widget then shows only what setResults() gives it.
  explicit TrafficBreakdownBars(RunModel* model, QWidget* parent = nullptr);

  // Shows `results` (copied; null clears). With a model, its next results replace these.
  void setResults(const Results* results);
  // A fixed top for the value axis (bytes; 0 = fit the data): the compare view gives
  // both sides the same scale so bar heights compare at a glance.
  void setValueTop(double bytes);
  // The bars are the previous run's, shown until a re-run replaces them: drawn faded
  // and hatched, the title says so.
  void setStale(bool stale);
  bool isStale() const { return stale_; }
  // Bar totals set one line apart (uplink low, downlink high) where side by side they
  // would touch: a narrow dock.
  bool totalsStaggered() const { return staggered_; }
  double dataTop() const;  // the tallest stack, bytes
  static double dataTop(const Results& r);  // ... of any results' breakdown

  QCustomPlot* plot() const { return plot_; }
  QCPBars* bars(Class c) const { return bars_[c]; }
  // The bar key of a breakdown row (phase, direction); NaN when it is not plotted.
  double keyOf(const std::string& phase, const std::string& direction) const;
  bool noticeVisible() const;
  QString title() const;
  static QString className(Class c);
  static QColor classColour(Class c);

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void rebuild();

  RunModel* model_;
  QCustomPlot* plot_;
  QCPBars* bars_[ClassCount];
  QCPItemText* notice_;
  QCPTextElement* title_;
  std::vector<TrafficBreakdownRow> rows_;
  std::optional<MoeResults> moe_;
  std::vector<QCPItemText*> totals_;  // total of each stack, over it
  double valueTop_ = 0;
  bool stale_ = false;
  bool staggered_ = false;
  bool shortTicks_ = false;  // "dispatch up" / "down" under a pair of narrow bars
  QString fullTitle_;  // on one line; broken at " — " when the dock is too narrow
  void fitTitleAndTotals();
};

}  // namespace fl::views
