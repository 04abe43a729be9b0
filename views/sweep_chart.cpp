#include "views/sweep_chart.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <qcustomplot.h>

#include "report/metric_format.h"
#include "results/sweep_metrics.h"
#include "scenario/schema.h"
#include "views/elided_combo_box.h"
#include "views/format_units.h"
#include "views/legend_under_plot.h"

namespace fl::views {

namespace {

// Okabe-Ito hues, told apart with any colour vision; more series than those get hues
// spread around the wheel, so that no two share a colour.
QColor seriesColour(std::size_t i, std::size_t count) {
  static const QColor colours[] = {QColor(0x0072b2), QColor(0xe69f00), QColor(0x009e73), QColor(0xd55e00),
                                   QColor(0xcc79a7), QColor(0x56b4e9), QColor(0, 0, 0), QColor(0xf0e442)};
  if (count <= std::size(colours)) return colours[i];
  return QColor::fromHsvF(float(i) / float(count), i % 2 ? 0.55f : 0.85f, i % 2 ? 0.95f : 0.7f);
}

QString pointLabel(const report::PointSettings& settings) {
  QStringList parts;
  for (const auto& kv : settings)  // quantities as the schema writes them
    parts << QString::fromStdString(kv.first.substr(kv.first.rfind('.') + 1) + " = " + report::settingOf(settings, kv.first));
  return parts.join(QStringLiteral(", "));
}

}  // namespace

SweepChart::SweepChart(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(6, 4, 6, 0);
  metricLabel_ = new QLabel(tr("Figure:"), this);
  // Figure names and key paths are long: in a narrow dock they are elided, not the dock widened.
  auto* metricBox = new ElidedComboBox(this);
  metricBox->setDescription(tr("The figure of each sweep point to plot against the first sweep axis"));
  metricBox_ = metricBox;
  metricBox_->setObjectName(QStringLiteral("sweepMetric"));
  metricLabel_->setBuddy(metricBox_);
  bar->addWidget(metricLabel_);
  bar->addWidget(metricBox_);
  axisLabel_ = new QLabel(tr("against:"), this);
  auto* axisBox = new ElidedComboBox(this);
  axisBox->setDescription(tr("The sweep axis along the x axis; the other axes make the series"));
  axisBox_ = axisBox;
  axisBox_->setObjectName(QStringLiteral("sweepAxis"));
  axisLabel_->setBuddy(axisBox_);
  bar->addSpacing(12);
  bar->addWidget(axisLabel_);
  bar->addWidget(axisBox_);
  bar->addStretch(1);
  layout->addLayout(bar);
  // Nothing to chart: one centred, wrapped explanation in place of the chart (as the other
  // docks' empty states), never empty axes squeezed into a corner.
  stack_ = new QStackedWidget(this);
  notice_ = makeNoticeLabel(stack_);
  notice_->setObjectName(QStringLiteral("sweepNotice"));
  notice_->setMargin(12);
  stack_->addWidget(notice_);
  plot_ = new QCustomPlot(stack_);
  plot_->setMinimumSize(280, 160);
  stack_->addWidget(plot_);
  layout->addWidget(stack_, 1);

  plot_->plotLayout()->insertRow(0);
  title_ = new QCPTextElement(plot_, QString(), QFont(font().family(), font().pointSize(), QFont::Bold));
  plot_->plotLayout()->addElement(0, 0, title_);
  // The legend outside the axes (placeLegend): series names are long ("fusion =
  // token_centric") and the bars, some of them zero, stay unobstructed.
  plot_->axisRect()->insetLayout()->take(plot_->legend);
  plot_->legend->setBorderPen(Qt::NoPen);
  placeLegend(false);
  selection_ = nullptr;

  connect(metricBox_, &QComboBox::activated, this, [this](int i) {
    chosen_ = metricBox_->itemData(i).toString().toStdString();
    rebuild();
  });
  connect(axisBox_, &QComboBox::activated, this, [this](int i) { setXAxis(axisBox_->itemData(i).toString()); });
  connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
    const int p = pointNear(e->position());
    if (p >= 0) emit pointClicked(p);
  });
  connect(plot_, &QCustomPlot::mouseMove, this, &SweepChart::onMouseMove);
  connect(plot_, &QCustomPlot::afterLayout, this, &SweepChart::fitYTitle);
  connect(plot_, &QCustomPlot::afterLayout, this, &SweepChart::fitKeyAndValues);
  rebuild();
}

void SweepChart::setSweep(const std::vector<std::string>& keys, const std::vector<Point>& points) {
  keys_ = keys;
  points_ = points;
  if (std::find(keys_.begin(), keys_.end(), xKey_) == keys_.end())  // a new sweep: its first axis
    xKey_ = keys_.empty() ? std::string() : keys_.front();
  {
    QSignalBlocker block(axisBox_);
    axisBox_->clear();
    for (const std::string& k : keys_) {  // by its title ("TP scheme"), the key path as data and tooltip
      axisBox_->addItem(QString::fromStdString(report::axisName(k, keyTitles_)), QString::fromStdString(k));
      axisBox_->setItemData(axisBox_->count() - 1, QString::fromStdString(k), Qt::ToolTipRole);
    }
    axisBox_->setCurrentIndex(axisBox_->findData(QString::fromStdString(xKey_)));
  }
  axisLabel_->setVisible(keys_.size() > 1);
  axisBox_->setVisible(keys_.size() > 1);
  refreshMetrics();
  rebuild();
}

bool SweepChart::setXAxis(const QString& key) {
  const std::string k = key.toStdString();
  if (std::find(keys_.begin(), keys_.end(), k) == keys_.end()) return false;
  xKey_ = k;
  axisBox_->setCurrentIndex(axisBox_->findData(key));
  refreshMetrics();  // the default figure follows the axis unless one was picked
  rebuild();
  return true;
}

std::vector<std::string> SweepChart::orderedKeys() const {
  std::vector<std::string> keys = {xKey_};
  for (const std::string& k : keys_)
    if (k != xKey_) keys.push_back(k);
  return keys;
}

void SweepChart::setSelectedPoint(int point) {
  selected_ = point;
  placeSelection();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString SweepChart::metric() const { return metricBox_->currentData().toString(); }

QStringList SweepChart::metricIds() const {
  QStringList ids;
  for (int i = 0; i < metricBox_->count(); ++i) ids << metricBox_->itemData(i).toString();
  return ids;
}

bool SweepChart::setMetric(const QString& id) {
  const int i = metricBox_->findData(id);
  if (i < 0) return false;
  chosen_ = id.toStdString();
  metricBox_->setCurrentIndex(i);
  rebuild();
  return true;
}

QString SweepChart::title() const { return title_->text(); }

std::string SweepChart::valueName(const std::string& key, const std::string& value) const {
  const auto axis = valueNames_.find(key);
  if (axis == valueNames_.end()) return value;
  const auto name = axis->second.find(value);
  return name == axis->second.end() || name->second.empty() ? value : name->second;
}
bool SweepChart::noticeVisible() const { return stack_->currentWidget() == notice_; }
QString SweepChart::noticeText() const { return noticeVisible() ? notice_->text() : QString(); }

void SweepChart::refreshMetrics() {
  std::vector<const Results*> finished;
  for (const Point& p : points_)
    if (p.results) finished.push_back(p.results.get());
  const auto available = fl::metricsWithValues(finished);
  std::string current;
  for (const fl::SweepMetric* m : available)
    if (m->id == chosen_) current = chosen_;
  if (current.empty() && !available.empty()) {
    // The figure the x axis is about, unless it does not tell the points apart: then the
    // headline (no figure answers an empty key). The redundant share is 43.2 % with and
    // without fusion, so it says nothing of what fusion changes, while the makespan does.
    const auto charted = fl::chartedMetrics(xKey_, available);
    const auto headline = fl::chartedMetrics(std::string(), available);
    const fl::SweepMetric* pick = charted.empty() ? available.front() : charted.front();
    if (!headline.empty() && flatAlongSomeAxis(*pick)) pick = headline.front();
    current = pick->id;
  }
  QSignalBlocker block(metricBox_);
  metricBox_->clear();
  for (const fl::SweepMetric* m : available) metricBox_->addItem(QString::fromUtf8(m->name), QString(m->id));
  metricBox_->setCurrentIndex(metricBox_->findData(QString::fromStdString(current)));
}

// Whether `m` is (nearly) the same between every two finished points that differ in one
// axis only, for some axis: within a percentage point for shares and rates, within 10 %
// of the larger value for other figures. Unknown (no such two points yet) is not flat.
bool SweepChart::flatAlongSomeAxis(const fl::SweepMetric& m) const {
  std::vector<report::PointSettings> settings;
  for (const Point& p : points_) settings.push_back(p.settings);
  for (const std::string& axis : keys_) {
    std::vector<std::string> keys = {axis};
    for (const std::string& k : keys_)
      if (k != axis) keys.push_back(k);
    bool compared = false, flat = true;
    for (const report::SweepSeries& line : report::seriesByOtherAxes(settings, keys)) {
      std::vector<double> values;
      for (std::size_t i : line.points)
        if (points_[i].results)
          if (const auto v = m.value(*points_[i].results)) values.push_back(*v);
      if (values.size() < 2) continue;
      compared = true;
      const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
      const double tolerance =
          m.kind == fl::MetricKind::Fraction ? 0.01 : 0.1 * std::max(std::fabs(*lo), std::fabs(*hi));
      flat = flat && *hi - *lo <= tolerance;
    }
    if (compared && flat) return true;
  }
  return false;
}

void SweepChart::showNotice(const QString& text) {
  notice_->setText(text);
  stack_->setCurrentWidget(notice_);
  title_->setText(QString());
  plot_->legend->setVisible(false);
  plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
  plot_->xAxis->setScaleType(QCPAxis::stLinear);
  plot_->xAxis->setLabel(QString());
  yTitle_.clear();
  plot_->yAxis->setLabel(QString());
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void SweepChart::rebuild() {
  plot_->clearPlottables();
  for (const auto& [point, label] : valueLabels_) plot_->removeItem(label);
  valueLabels_.clear();
  if (selectedBar_) plot_->removeItem(selectedBar_);
  selectedBar_ = nullptr;
  for (QCPAbstractItem* item : staleItems_) plot_->removeItem(item);
  staleItems_.clear();
  staleCount_ = 0;
  selection_ = nullptr;
  marks_.clear();
  barWidth_ = 0;
  const fl::SweepMetric* m = fl::findSweepMetric(metric().toStdString());
  // No figure to pick without a sweep.
  metricLabel_->setVisible(!keys_.empty());
  metricBox_->setVisible(!keys_.empty());
  if (keys_.empty())
    return showNotice(tr("This scenario has no sweep: add a sweep: section (e.g. sweep: [{key: "
                         "topology.link.bandwidth, values: [25 GB/s, 50 GB/s]}]) to run it at several "
                         "settings and compare them here; see \"Sweeps\" in docs/scenario.md."));
  if (!m) return showNotice(tr("No sweep point has finished yet: each point's figure appears here as it finishes."));
  stack_->setCurrentWidget(plot_);

  const std::vector<std::string> keys = orderedKeys();
  const std::string& key = keys.front();
  std::vector<report::PointSettings> settings;
  for (const Point& p : points_) settings.push_back(p.settings);
  // Numeric or not is decided over every point, finished or not: the axis does not
  // change kind while the sweep runs.
  std::vector<std::optional<double>> xs;
  std::vector<std::string> categories;
  bool numeric = true;
  for (const auto& s : settings) {
    const std::string v = report::settingOf(s, key);
    xs.push_back(settingNumber(key, v));
    numeric = numeric && xs.back().has_value();
    if (std::find(categories.begin(), categories.end(), v) == categories.end()) categories.push_back(v);
  }
  double largest = 0;
  for (const Point& p : points_)
    if (p.results) largest = std::max(largest, std::fabs(m->value(*p.results).value_or(0)));
  const report::MetricAxis axis = report::metricAxis(*m, largest);
  auto valueOf = [&](std::size_t i) -> std::optional<double> {
    if (!points_[i].results) return std::nullopt;
    const auto v = m->value(*points_[i].results);
    return v ? std::optional<double>(*v * axis.scale) : std::nullopt;
  };

  const auto series = report::seriesByOtherAxes(settings, keys, keyTitles_);
  auto seriesName = [&](std::size_t g) {  // one series: the figure names it
    return series[g].name.empty() ? QString::fromUtf8(m->name) : QString::fromStdString(series[g].name);
  };
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  if (numeric) {
    for (std::size_t i = 0; i < xs.size(); ++i) {
      lo = std::min(lo, *xs[i]), hi = std::max(hi, *xs[i]);
      ticker->addTick(*xs[i], QString::fromStdString(report::settingOf(settings[i], key)));
    }
    const bool log = lo > 0 && hi / lo >= 16;  // sizes in powers of two read best on a log axis
    plot_->xAxis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log) plot_->xAxis->setRange(lo / 1.3, hi * 1.3);
    else if (hi > lo) plot_->xAxis->setRange(lo - (hi - lo) * 0.06, hi + (hi - lo) * 0.06);
    else plot_->xAxis->setRange(lo - 1, lo + 1);
    for (std::size_t g = 0; g < series.size(); ++g) {
      const QColor colour = seriesColour(g, series.size());
      auto* graph = plot_->addGraph();
      graph->setName(seriesName(g));
      graph->setPen(QPen(colour, 2));
      graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colour, colour, 7));
      std::vector<std::size_t> order = series[g].points;
      std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return *xs[a] < *xs[b]; });
      for (std::size_t i : order)
        if (const auto v = valueOf(i)) {
          graph->addData(*xs[i], *v);
          marks_.push_back({static_cast<int>(i), *xs[i], *v});
        }
    }
  } else {
    plot_->xAxis->setScaleType(QCPAxis::stLinear);
    for (std::size_t c = 0; c < categories.size(); ++c)
      ticker->addTick(double(c + 1), QString::fromStdString(valueName(key, categories[c])));
    plot_->xAxis->setRange(0.4, double(categories.size()) + 0.6);
    const double width = barWidth_ = 0.8 / double(series.size());
    for (std::size_t g = 0; g < series.size(); ++g) {
      const QColor colour = seriesColour(g, series.size());
      auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
      bars->setName(seriesName(g));
      bars->setWidth(width);
      bars->setPen(QPen(colour.darker(140), 1));
      bars->setBrush(colour);
      for (std::size_t i : series[g].points) {
        const std::string category = report::settingOf(settings[i], key);
        const auto c = std::find(categories.begin(), categories.end(), category) - categories.begin();
        const double k = double(c + 1) - 0.4 + width * (double(g) + 0.5);
        const auto v = valueOf(i);
        if (v) {
          bars->addData(k, *v);
          marks_.push_back({static_cast<int>(i), k, *v});
        }
        // The value over its bar: a zero (DySHARP's redundant share) reads as a result,
        // not as a missing bar; a finished point the figure does not apply to (no AL TLB
        // without DySHARP) says "n/a" where its bar would stand, rather than pass for a
        // zero. Not over a dozen thin bars, where they would collide.
        if (series.size() > 4 || !points_[i].results) continue;
        auto* label = new QCPItemText(plot_);
        label->position->setCoords(k, v.value_or(0));
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setText(v ? QString::fromStdString(report::formatMetric(*m, *v / axis.scale)) : tr("n/a"));
        label->setFont(QFont(font().family(), font().pointSize() - 1));
        label->setColor(v ? QColor(Qt::black) : QColor(110, 110, 110));
        label->setClipToAxisRect(false);
        valueLabels_.push_back({static_cast<int>(i), label});
      }
    }
  }
  plot_->xAxis->setTicker(ticker);
  plot_->xAxis->grid()->setVisible(numeric);
  plot_->xAxis->setLabel(QString::fromStdString(report::axisTitle(key, keyTitles_)));
  yTitle_ = QString::fromStdString(axis.title);
  plot_->yAxis->setLabel(yTitle_);  // fitted to the axis's height once laid out (fitYTitle)
  double top = 0;
  for (const Mark& k : marks_) top = std::max(top, k.value);
  plot_->yAxis->setRange(0, top > 0 ? top * 1.15 : 1);
  plot_->legend->setVisible(series.size() > 1);
  keyNames_.clear();
  for (std::size_t g = 0; g < series.size() && series.size() > 1; ++g) keyNames_ << seriesName(g);
  if (series.size() > 1) placeLegend(keyColumnsAtSide());
  else dropLegend();  // one series: the title names it, and the axes get the row
  markStale(QString::fromUtf8(m->name) + tr(" vs ") + QString::fromStdString(report::axisName(key, keyTitles_)));

  // The shown point: a ring on a line; on a bar, a thick outline of the bar (a ring halfway
  // up read as data and struck through the labels of zero bars) and its value in bold.
  selection_ = plot_->addGraph();
  selection_->setName(tr("shown point"));
  selection_->setLineStyle(QCPGraph::lsNone);
  selection_->setScatterStyle(
      QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(20, 20, 20), 2), Qt::NoBrush, 17));
  selection_->removeFromLegend();
  if (barWidth_ > 0) {
    selectedBar_ = new QCPItemRect(plot_);
    selectedBar_->setPen(QPen(QColor(20, 20, 20), 3));
    selectedBar_->setBrush(Qt::NoBrush);
  }
  placeSelection();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

// Values left from the previous run while a re-run replaces them point by point: hatched
// bars (grey rings on lines), "(stale)" after their values and a count in the title, so
// a chart mixing old and new values says which are which.
void SweepChart::markStale(const QString& baseTitle) {
  QCPGraph* rings = nullptr;
  for (const Mark& k : marks_) {
    if (k.point < 0 || k.point >= static_cast<int>(points_.size()) || !points_[size_t(k.point)].stale) continue;
    ++staleCount_;
    if (barWidth_ > 0) {
      auto* hatch = new QCPItemRect(plot_);
      hatch->topLeft->setCoords(k.key - barWidth_ / 2, k.value);
      hatch->bottomRight->setCoords(k.key + barWidth_ / 2, 0);
      hatch->setPen(QPen(QColor(90, 90, 90), 1, Qt::DashLine));
      hatch->setBrush(QBrush(QColor(60, 60, 60, 170), Qt::BDiagPattern));
      staleItems_.push_back(hatch);
      continue;
    }
    if (!rings) {
      rings = plot_->addGraph();
      rings->setName(tr("previous run (stale)"));
      rings->setLineStyle(QCPGraph::lsNone);
      rings->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(120, 120, 120), 2, Qt::DotLine),
                                             QBrush(Qt::white), 11));
    }
    rings->addData(k.key, k.value);
  }
  for (const auto& [point, label] : valueLabels_)
    if (point >= 0 && point < static_cast<int>(points_.size()) && points_[size_t(point)].stale) {
      label->setText(label->text() + tr(" (stale)"));
      label->setColor(QColor(110, 110, 110));
    }
  title_->setText(staleCount_ ? baseTitle + tr(" — %n stale (previous run, hatched) until re-run", "", staleCount_)
                              : baseTitle);
}

// The y axis title within the axis's height (a dock is short, figure names long): whole,
// else broken before its unit ("symmetric layout per GPU" over "(MiB)"), each line elided
// in the middle if still too long.
void SweepChart::fitYTitle() {
  if (yTitle_.isEmpty()) return;
  const int room = plot_->axisRect()->height();
  const QFontMetrics metrics(plot_->yAxis->labelFont());
  QString text = yTitle_;
  if (metrics.horizontalAdvance(text) > room) {
    const qsizetype unit = text.lastIndexOf(QLatin1String(" ("));
    QStringList lines = unit > 0 ? QStringList{text.left(unit), text.mid(unit + 1)} : QStringList{text};
    for (QString& line : lines) line = metrics.elidedText(line, Qt::ElideMiddle, room);
    text = lines.join(QLatin1Char('\n'));
  }
  if (text == plot_->yAxis->label()) return;
  plot_->yAxis->setLabel(text);
  plot_->replot(QCustomPlot::rpQueuedReplot);  // the margin follows the title's lines
}

// Measured in the bottom key's type, whatever the key's place now, so that the choice
// depends on the plot's width only (it cannot flip back and forth).
bool SweepChart::keyColumnsAtSide() const {
  if (keyNames_.size() > 4) return true;
  const QFontMetrics metrics(font());
  int widest = 0;
  for (const QString& name : keyNames_) widest = std::max(widest, metrics.horizontalAdvance(name));
  widest += 32 + 20;  // icon, its gap and the entry's padding
  const int columns = std::clamp(plot_->width() / std::max(1, widest), 1, 4);
  // At the right (in 0.85 of the type) only where the axes keep 240 px beside it.
  const bool room = plot_->width() - widest * 0.85 >= 240;
  return room && (keyNames_.size() + columns - 1) / columns > 2;
}

void SweepChart::fitKeyAndValues() {
  bool changed = false;
  if (plot_->legend->visible() && keyColumnsAtSide() != legendAtSide_) {
    placeLegend(!legendAtSide_);
    changed = true;
  }
  if (plot_->legend->visible() && !legendAtSide_) {
    const int before = plot_->legend->wrap();
    fitLegendColumns(plot_, 4);
    changed = plot_->legend->wrap() != before;
  }
  for (const auto& [point, label] : valueLabels_) {
    const double at = label->position->coords().x();
    const double bar = std::fabs(plot_->xAxis->coordToPixel(at + barWidth_ / 2) - plot_->xAxis->coordToPixel(at - barWidth_ / 2));
    const bool fits = QFontMetrics(label->font()).horizontalAdvance(label->text()) <= bar + 4;
    const bool show = fits || point == selected_;
    changed = changed || label->visible() != show;
    label->setVisible(show);
  }
  if (changed) plot_->replot(QCustomPlot::rpQueuedReplot);
}

void SweepChart::dropLegend() {
  if (plot_->legend->layout() != plot_->plotLayout()) return;
  plot_->plotLayout()->take(plot_->legend);
  plot_->plotLayout()->simplify();
}

// A few series in a row under the axes; more in a column at their right, where they
// take width rather than the height a dock has little of.
void SweepChart::placeLegend(bool side) {
  QCPLayoutGrid* layout = plot_->plotLayout();
  if (legendAtSide_ == side && plot_->legend->layout() == layout) return;
  legendAtSide_ = side;
  if (plot_->legend->layout() == layout) {
    layout->take(plot_->legend);
    layout->simplify();
  }
  if (side) {
    layout->addElement(1, 1, plot_->legend);
    layout->setColumnStretchFactor(1, 0.001);
    plot_->legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
    plot_->legend->setWrap(0);
    // Many entries in a dock's height: smaller type, so that each keeps its full height
    // (squeezed, they lose their descenders: "top_k" read "top k").
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    plot_->legend->setFont(small);
    plot_->legend->setIconSize(14, 8);
    plot_->legend->setRowSpacing(0);
  } else {
    layout->addElement(layout->rowCount(), 0, plot_->legend);
    layout->setRowStretchFactor(layout->rowCount() - 1, 0.001);
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    plot_->legend->setWrap(4);
    // Compact, as at the side: long names in a short dock take several rows.
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.9);
    plot_->legend->setFont(small);
    // Icons as tall as a line with its descenders: shorter rows cut the underscore off
    // the last name ("token_centric" read "token centric").
    plot_->legend->setIconSize(22, 16);
    plot_->legend->setRowSpacing(0);
  }
}

void SweepChart::placeSelection() {
  if (!selection_) return;
  selection_->data()->clear();
  if (selectedBar_) selectedBar_->setVisible(false);
  for (const Mark& k : marks_) {
    if (k.point != selected_) continue;
    if (!selectedBar_) {
      selection_->addData(k.key, k.value);
      continue;
    }
    selectedBar_->topLeft->setCoords(k.key - barWidth_ / 2, k.value);
    selectedBar_->bottomRight->setCoords(k.key + barWidth_ / 2, 0);
    selectedBar_->setVisible(true);
  }
  for (const auto& [point, label] : valueLabels_) {
    QFont f = label->font();
    f.setBold(point == selected_);
    label->setFont(f);
  }
}

int SweepChart::selectedBarOutline(QRectF* coords) const {
  if (!selectedBar_ || !selectedBar_->visible()) return -1;
  if (coords)
    *coords = QRectF(selectedBar_->topLeft->coords(), selectedBar_->bottomRight->coords()).normalized();
  return selected_;
}

QPointF SweepChart::pixelOf(const Mark& k) const {
  return {plot_->xAxis->coordToPixel(k.key), plot_->yAxis->coordToPixel(k.value)};
}

QPointF SweepChart::pointPixel(int point) const {
  for (const Mark& k : marks_)
    if (k.point == point) return pixelOf(k);
  return {};
}

int SweepChart::pointNear(const QPointF& pixel, double radius) const {
  int best = -1;
  double bestDistance = radius;
  for (const Mark& k : marks_) {
    const QPointF at = pixelOf(k);
    double d = std::hypot(at.x() - pixel.x(), at.y() - pixel.y());
    if (barWidth_ > 0) {  // a bar answers anywhere on it, not only at its top
      const double half = std::fabs(plot_->xAxis->coordToPixel(k.key + barWidth_ / 2) - at.x());
      const bool onBar = pixel.y() >= at.y() - radius && pixel.y() <= plot_->yAxis->coordToPixel(0);
      if (std::fabs(pixel.x() - at.x()) <= half && onBar) d = 0;
    }
    if (d <= bestDistance) {
      best = k.point;
      bestDistance = d;
    }
  }
  return best;
}

void SweepChart::onMouseMove(QMouseEvent* event) {
  const int p = pointNear(event->position());
  const fl::SweepMetric* m = fl::findSweepMetric(metric().toStdString());
  if (p < 0 || !m || !points_[std::size_t(p)].results) {
    QToolTip::hideText();
    return;
  }
  const auto v = m->value(*points_[std::size_t(p)].results);
  QToolTip::showText(event->globalPosition().toPoint(),
                     tr("Point %1: %2\n%3: %4")
                         .arg(p + 1)
                         .arg(pointLabel(points_[std::size_t(p)].settings))
                         .arg(QString::fromUtf8(m->name))
                         .arg(v ? QString::fromStdString(report::formatMetric(*m, *v)) : QStringLiteral("–")),
                     plot_);
}

}  // namespace fl::views
