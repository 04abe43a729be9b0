// One figure of every finished sweep point against one of the sweep's axes (the first
// unless picked), one series per value of the others (as the report's sweep charts): a line over numeric
// settings ("64 KiB", "512"), bars over names ("deepep", "dysharp"). The figure is
// picked from those the points have (results/sweep_metrics.h); by default the one the
// swept parameter is about (the AL TLB hit rate for an AL TLB size sweep), unless it is
// (nearly) the same along some axis: then the headline (makespan, bus bandwidth). Points fill
// in as they finish; the point the other views show is ringed (its bar outlined), a
// finished point the figure does not apply to reads "n/a" on a bar chart, and clicking
// a point asks for it (pointClicked).
#pragma once
#include <QWidget>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "report/sweep_axes.h"
#include "results/results.h"

class QComboBox;
class QLabel;
class QStackedWidget;
class QCustomPlot;
class QCPAbstractItem;
class QCPItemRect;
class QCPItemText;
class QCPTextElement;
class QCPGraph;

namespace fl {
struct SweepMetric;
}

namespace fl::views {

class SweepChart : public QWidget {
  Q_OBJECT
 public:
  struct Point {
    report::PointSettings settings;
    std::shared_ptr<const Results> results;  // null: not finished
    bool stale = false;  // the previous run's results, shown until the re-run replaces them
  };

  explicit SweepChart(QWidget* parent = nullptr);

  // The sweep's axis keys (the first is the x axis) and its points, finished or not.
  void setSweep(const std::vector<std::string>& keys, const std::vector<Point>& points);
  void setSelectedPoint(int point);
  // Short names for axis values (key -> value -> name, e.g. the sweep's `labels` or the
  // seeds' names: "nvls" -> "NVLS"), shown on the x axis's category ticks in place of the
  // raw value. Set before setSweep; values without a name show as they are.
  using ValueNames = std::map<std::string, std::map<std::string, std::string>>;
  void setValueNames(ValueNames names) { valueNames_ = std::move(names); }
  // Titles for axis keys (key -> title, e.g. "Datacenters" for topology.levels[0].count),
  // shown as the x axis's title in place of the key. Set before setSweep.
  void setKeyTitles(std::map<std::string, std::string> titles) { keyTitles_ = std::move(titles); }

  QString metric() const;  // id of the figure shown ("" when none)
  // Shows figure `id` if some finished point has it (false otherwise); it stays chosen
  // while the points have it.
  bool setMetric(const QString& id);
  QStringList metricIds() const;  // the figures offered, in table order
  // The axis along x (the first by default); the others make the series. False for a
  // key the sweep does not have.
  bool setXAxis(const QString& key);
  QString xAxisKey() const { return QString::fromStdString(xKey_); }

  QCustomPlot* plot() const { return plot_; }
  QComboBox* metricBox() const { return metricBox_; }
  QComboBox* axisBox() const { return axisBox_; }
  QString title() const;
  // The centred explanation shown instead of the chart (not a sweep, nothing finished).
  bool noticeVisible() const;
  QString noticeText() const;
  // The point whose bar is outlined as the shown one (its bar's corners in plot
  // coordinates in `coords`); -1 when none is (a line chart rings its point instead).
  int selectedBarOutline(QRectF* coords = nullptr) const;
  // Where point `point`'s mark is drawn, in plot pixels; null when it is not drawn.
  QPointF pointPixel(int point) const;
  // The drawn point within `radius` pixels of `pixel`, nearest first; -1 for none.
  int pointNear(const QPointF& pixel, double radius = 12) const;
  // Marks drawn hatched (bars) or ringed grey (lines) as the previous run's values.
  int staleMarkCount() const { return staleCount_; }

 signals:
  void pointClicked(int point);

 private:
  using QWidget::metric;  // metric() above hides QPaintDevice's metric(PaintDeviceMetric) (Clang warns)
  struct Mark {
    int point;
    double key, value;  // plot coordinates
  };
  std::vector<std::string> orderedKeys() const;  // x axis first
  void refreshMetrics();
  bool flatAlongSomeAxis(const fl::SweepMetric& m) const;
  void rebuild();
  void showNotice(const QString& text);
  void placeLegend(bool side);
  void dropLegend();  // out of the layout, so that it takes no room
  void placeSelection();
  void fitYTitle();
  // After each layout: the key under the axes in as many columns as its widest name
  // allows (never cut), or at their right when that would take over two rows; a value
  // over its bar only where it fits the bar's width (the shown point's always).
  void fitKeyAndValues();
  bool keyColumnsAtSide() const;
  QPointF pixelOf(const Mark& k) const;
  void onMouseMove(QMouseEvent* event);
  std::string valueName(const std::string& key, const std::string& value) const;

  std::vector<std::string> keys_;
  std::vector<Point> points_;
  int selected_ = -1;
  std::string chosen_;  // the user's pick, kept while available
  std::string xKey_;    // the axis along x
  ValueNames valueNames_;
  std::map<std::string, std::string> keyTitles_;
  QString yTitle_;      // the y axis title in full (the axis may show it broken or elided)
  QLabel* metricLabel_;
  QComboBox* metricBox_;
  QLabel* axisLabel_;
  QComboBox* axisBox_;
  QStackedWidget* stack_;  // the notice (page 0) or the chart (page 1)
  QLabel* notice_;
  QCustomPlot* plot_;
  QCPTextElement* title_;
  QCPGraph* selection_;  // a ring around the selected point
  std::vector<Mark> marks_;
  std::vector<std::pair<int, QCPItemText*>> valueLabels_;  // point -> its value (or "n/a") over its bar
  QCPItemRect* selectedBar_ = nullptr;                     // outlines the shown point's bar
  double barWidth_ = 0;  // in x units; 0: points on lines, not bars
  bool legendAtSide_ = false;
  QStringList keyNames_;  // the series' names, for where their key goes (fitKeyAndValues)
  std::vector<QCPAbstractItem*> staleItems_;  // hatching over stale bars
  int staleCount_ = 0;
  void markStale(const QString& baseTitle);
};

}  // namespace fl::views
