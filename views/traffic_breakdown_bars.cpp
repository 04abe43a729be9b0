#include "views/traffic_breakdown_bars.h"

#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include <qcustomplot.h>

#include "report/svg_moe_charts.h"
#include "views/format_units.h"
#include "views/run_model.h"

namespace fl::views {

namespace {

// Bars in groups of two (uplink, downlink) with a gap between phases, as the report
// draws them.
using Slot = report::BreakdownSlot;
constexpr const auto& kSlots = report::kBreakdownSlots;

// Tick labels in one binary unit (KiB/MiB/GiB, as the bar totals and the reports write
// sizes) chosen from the axis span, so the data stay in bytes (exact, and what tests read
// back) while the axis reads "1.5 GiB" as "1.5", with ticks at round steps of that unit.
class BytesTicker : public QCPAxisTicker {
 public:
  double scale = double(1 << 30);

 protected:
  double getTickStep(const QCPRange& range) override {
    return QCPAxisTicker::getTickStep(QCPRange(range.lower / scale, range.upper / scale)) * scale;
  }
  QString getTickLabel(double tick, const QLocale& locale, QChar, int) override {
    return locale.toString(tick / scale, 'g', 4);
  }
};

std::int64_t total(const TrafficBreakdownRow& r) { return r.useful + r.redundant + r.useless + r.overhead; }

}  // namespace

QString TrafficBreakdownBars::className(Class c) {
  switch (c) {
    case Useful: return tr("useful");
    case Redundant: return tr("redundant (extra copies)");
    case Useless: return tr("useless (not needed)");
    case Overhead: return tr("overhead (headers, targets)");
    default: return {};
  }
}

// Okabe-Ito hues (colour-blind safe); overhead neutral grey, as it is framing, not data.
QColor TrafficBreakdownBars::classColour(Class c) {
  static const QColor colours[] = {QColor(0x009e73), QColor(0xe69f00), QColor(0xd55e00), QColor(0x999999)};
  return colours[c];
}

TrafficBreakdownBars::TrafficBreakdownBars(RunModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  plot_ = new QCustomPlot(this);
  plot_->setMinimumSize(280, 170);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);

  plot_->plotLayout()->insertRow(0);
  title_ = new QCPTextElement(plot_, QString(), QFont(font().family(), font().pointSize(), QFont::Bold));
  plot_->plotLayout()->addElement(0, 0, title_);

  QCPBars* below = nullptr;
  for (int c = 0; c < ClassCount; ++c) {
    auto* b = bars_[c] = new QCPBars(plot_->xAxis, plot_->yAxis);
    b->setName(className(Class(c)));
    b->setWidth(0.8);
    b->setPen(QPen(classColour(Class(c)).darker(140), 1));
    b->setBrush(classColour(Class(c)));
    if (below) b->moveAbove(below);
    below = b;
  }
  auto ticks = QSharedPointer<QCPAxisTickerText>::create();
  for (const Slot& s : kSlots) ticks->addTick(s.key, QString("%1\n%2").arg(tr(s.phase), tr(s.direction)));
  plot_->xAxis->setTicker(ticks);
  plot_->xAxis->setRange(0.2, 7.8);
  plot_->xAxis->grid()->setVisible(false);
  plot_->yAxis->setTicker(QSharedPointer<BytesTicker>::create());

  // The legend in one row under the axes: the bars stay unobstructed.
  plot_->axisRect()->insetLayout()->take(plot_->legend);
  plot_->plotLayout()->addElement(plot_->plotLayout()->rowCount(), 0, plot_->legend);
  plot_->plotLayout()->setRowStretchFactor(plot_->plotLayout()->rowCount() - 1, 0.001);
  plot_->legend->setBorderPen(Qt::NoPen);
  plot_->legend->setVisible(true);

  notice_ = new QCPItemText(plot_);
  notice_->position->setType(QCPItemPosition::ptAxisRectRatio);
  notice_->position->setCoords(0.5, 0.5);
  notice_->setPositionAlignment(Qt::AlignCenter);
  notice_->setFont(QFont(font().family(), font().pointSize() + 2));
  notice_->setColor(QColor(90, 90, 90));
  notice_->setText(tr("no traffic breakdown (not an MoE layer)"));

  if (model_) {
    auto follow = [this] { setResults(model_->results()); };
    connect(model_, &RunModel::resultsChanged, this, follow);
    connect(model_, &RunModel::topologyChanged, this, follow);
    follow();
  } else {
    rebuild();
  }
}

// The legend in one row when it fits, else two: its four entries are long.
void TrafficBreakdownBars::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fitTitleAndTotals();
  int wide = 0;
  for (int i = 0; i < plot_->legend->itemCount(); ++i) wide += plot_->legend->item(i)->minimumOuterSizeHint().width();
  const int columns = wide + 40 <= width() ? ClassCount : 2;
  if (plot_->legend->wrap() != columns) {
    plot_->legend->setWrap(columns);
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    plot_->replot(QCustomPlot::rpQueuedReplot);
  }
}

void TrafficBreakdownBars::setStale(bool stale) {
  if (stale == stale_) return;
  stale_ = stale;
  rebuild();
}

// The title whole: on one line when it fits, else broken after the scheme. The totals
// over the bars: side by side when they fit a bar's pitch, else every other one a line
// higher (at 1024 x 768 "2.17 GiB" over neighbouring bars ran together).
void TrafficBreakdownBars::fitTitleAndTotals() {
  const QFontMetrics titleMetrics(title_->font());
  const QString title = titleMetrics.horizontalAdvance(fullTitle_) + 16 <= width()
                            ? fullTitle_
                            : QString(fullTitle_).replace(QStringLiteral(" — "), QStringLiteral("\n"));
  bool changed = title != title_->text();
  title_->setText(title);
  // One key unit in pixels: the axis spans 7.6 units over the width less its margins
  // (from the widget's width, so it holds before the plot has laid out a new size).
  const double pitch = std::max(1, width() - 80) / 7.6;
  int widest = 0;
  for (QCPItemText* t : totals_) widest = std::max(widest, QFontMetrics(t->font()).horizontalAdvance(t->text()));
  const bool stagger = widest + 4 > pitch;
  // Tick labels and legend names: whole where they fit, else shortened ("dispatch up"
  // under the first bar of a pair and "down" under the second; legend names without
  // their explanation), never running into each other or cut at the edge.
  const QFontMetrics tickMetrics(plot_->xAxis->tickLabelFont());
  const bool shortTicks = tickMetrics.horizontalAdvance(tr("downlink")) + 6 > pitch ||
                          tickMetrics.horizontalAdvance(tr("dispatch")) + 6 > pitch;
  if (shortTicks != shortTicks_) {
    shortTicks_ = shortTicks;
    auto ticks = QSharedPointer<QCPAxisTickerText>::create();
    for (const Slot& sl : kSlots) {
      const bool first = QString(sl.direction) == QLatin1String("uplink");
      ticks->addTick(sl.key, shortTicks ? (first ? QString("%1\n%2").arg(tr(sl.phase), tr("up")) : QString("\n") + tr("down"))
                                        : QString("%1\n%2").arg(tr(sl.phase), tr(sl.direction)));
    }
    plot_->xAxis->setTicker(ticks);
    changed = true;
  }
  int legendWide = 0;
  for (int c = 0; c < ClassCount; ++c)
    legendWide = std::max(legendWide, QFontMetrics(plot_->legend->font()).horizontalAdvance(className(Class(c))));
  const bool shortNames = 2 * (legendWide + 40) > width();  // two columns of full names do not fit
  for (int c = 0; c < ClassCount; ++c) {
    const QString name = shortNames ? className(Class(c)).section(QLatin1Char(' '), 0, 0) : className(Class(c));
    if (bars_[c]->name() != name) bars_[c]->setName(name), changed = true;
  }
  if (stagger != staggered_) {
    staggered_ = stagger;
    changed = true;
  }
  for (std::size_t i = 0; i < totals_.size(); ++i) {
    const int line = QFontMetrics(totals_[i]->font()).height();
    totals_[i]->setPadding(QMargins(0, 0, 0, staggered_ && i % 2 ? line : 0));
  }
  // Headroom for the totals over the tallest bar: one line of text, two when staggered,
  // in pixels of the axis's height (a short dock needs a larger share).
  const double top = std::max({valueTop_, dataTop(), 1.0});
  // (the axes' height estimated from the widget's: title, tick labels and legend take
  // about nine lines; the plot's own layout lags a resize until its next replot)
  const int line = totals_.empty() ? 0 : QFontMetrics(totals_.front()->font()).height();
  const int axisHeight = std::max(40, height() - 9 * QFontMetrics(font()).height());
  const double share = std::min(0.6, (staggered_ ? 2.8 : 1.4) * line / double(std::max(1, axisHeight)));
  plot_->yAxis->setRange(0, std::max(top * 1.12, top / (1 - share)));
  if (changed) plot_->replot(QCustomPlot::rpQueuedReplot);
}

void TrafficBreakdownBars::setResults(const Results* results) {
  rows_ = results ? results->breakdown : std::vector<TrafficBreakdownRow>{};
  moe_ = results ? results->moe : std::nullopt;
  rebuild();
}

void TrafficBreakdownBars::setValueTop(double bytes) {
  valueTop_ = bytes;
  rebuild();
}

double TrafficBreakdownBars::keyOf(const std::string& phase, const std::string& direction) const {
  for (const Slot& s : kSlots)
    if (phase == s.phase && direction == s.direction) return s.key;
  return std::numeric_limits<double>::quiet_NaN();
}

bool TrafficBreakdownBars::noticeVisible() const { return notice_->visible(); }
QString TrafficBreakdownBars::title() const { return title_->text(); }

double TrafficBreakdownBars::dataTop(const Results& r) {
  double top = 0;
  for (const auto& row : r.breakdown) top = std::max(top, double(total(row)));
  return top;
}

double TrafficBreakdownBars::dataTop() const {
  double top = 0;
  for (const auto& r : rows_) top = std::max(top, double(total(r)));
  return top;
}

void TrafficBreakdownBars::rebuild() {
  for (auto* t : totals_) plot_->removeItem(t);
  totals_.clear();
  QVector<double> keys, values[ClassCount];
  for (const auto& r : rows_) {
    const double key = keyOf(r.phase, r.direction);
    if (std::isnan(key)) continue;  // a phase this view does not know: skip, never misplace
    keys << key;
    values[Useful] << double(r.useful);
    values[Redundant] << double(r.redundant);
    values[Useless] << double(r.useless);
    values[Overhead] << double(r.overhead);
  }
  for (int c = 0; c < ClassCount; ++c) {
    bars_[c]->setData(keys, values[c]);
    // Stale: the previous run's bars, faded and hatched until the re-run replaces them.
    QBrush brush(stale_ ? classColour(Class(c)).lighter(150) : classColour(Class(c)));
    if (stale_) brush.setStyle(Qt::BDiagPattern);
    bars_[c]->setBrush(brush);
  }
  const bool have = !keys.isEmpty();
  notice_->setVisible(!have);
  plot_->legend->setVisible(have);

  // Never below the data: a live point may outgrow the scale its sweep set.
  const double top = std::max({valueTop_, dataTop(), 1.0});
  constexpr double kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
  const double scale = top >= 2 * kGiB ? kGiB : top >= 2 * kMiB ? kMiB : kKiB;
  static_cast<BytesTicker*>(plot_->yAxis->ticker().data())->scale = scale;
  plot_->yAxis->setLabel(tr("bytes (%1)").arg(scale == kGiB ? "GiB" : scale == kMiB ? "MiB" : "KiB"));
  plot_->yAxis->setRange(0, top * 1.12);  // headroom for the totals over the bars

  for (int i = 0; i < keys.size(); ++i) {
    double sum = 0;
    for (const auto& v : values) sum += v[i];
    auto* t = new QCPItemText(plot_);
    t->position->setCoords(keys[i], sum);
    t->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    t->setText(formatBytes(sum));
    t->setFont(QFont(font().family(), std::max(7, font().pointSize() - 1)));
    t->setColor(QColor(60, 60, 60));
    totals_.push_back(t);
  }

  QString title = tr("Traffic breakdown");
  if (moe_) {
    title = tr("%1 + %2 — d = %3 distinct remote GPUs per token")
                .arg(QString::fromStdString(moe_->communication), QString::fromStdString(moe_->fusion))
                .arg(moe_->distinct_remote_gpus_per_token, 0, 'f', 2);
  }
  if (stale_) title += tr(" (previous run: stale until this point re-runs)");
  fullTitle_ = title;
  title_->setText(title);
  fitTitleAndTotals();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace fl::views
