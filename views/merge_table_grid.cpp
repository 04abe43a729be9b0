#include "views/merge_table_grid.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "views/format_units.h"

namespace fl::views {

// Okabe-Ito colours (readable with colour-vision deficiencies): live states saturated,
// the ways an entry ends distinct from them.
QColor mergeCellColour(MergeCellState s) {
  switch (s) {
    case MergeCellState::Empty: return QColor(0xf2, 0xf2, 0xf2);
    case MergeCellState::LoadWait: return QColor(0xe6, 0x9f, 0x00);
    case MergeCellState::LoadReady: return QColor(0x00, 0x9e, 0x73);
    case MergeCellState::Reduction: return QColor(0x00, 0x72, 0xb2);
    case MergeCellState::Completed: return QColor(0x9a, 0x9a, 0x9a);
    case MergeCellState::Evicted: return QColor(0xd5, 0x5e, 0x00);
    case MergeCellState::TimedOut: return QColor(0xcc, 0x79, 0xa7);
    case MergeCellState::EvictedOnFill: return QColor(0x56, 0xb4, 0xe9);
  }
  return Qt::black;
}

QString mergeStateLegendHtml() {
  QString html;
  for (int i = 1; i < kMergeCellStates; ++i) {
    const auto s = MergeCellState(i);
    html += QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2%3")
                .arg(mergeCellColour(s).name(), QString::fromLatin1(mergeCellStateName(s)),
                     i == int(MergeCellState::Reduction) ? QStringLiteral(" &nbsp;|&nbsp; ended: ")
                                                          : QStringLiteral(" &nbsp; "));
  }
  return html + QStringLiteral("&nbsp;&nbsp;&#9632; marks: GPUs that joined (in GPU order)");
}

MergeTableGrid::MergeTableGrid(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void MergeTableGrid::setWindow(MergeWindow window, std::vector<int> gpuOfNode, int gpus, int home,
                               const SwitchResult* sw, Time to) {
  window_ = std::move(window);
  gpuOfNode_ = std::move(gpuOfNode);
  gpus_ = gpus;
  home_ = home;
  sw_ = sw;
  to_ = to;
  update();
}

// Square cells, as many columns as make the grid fill the widget's shape.
MergeTableGrid::Layout MergeTableGrid::layout() const {
  Layout l;
  const int n = std::max<int>(1, int(window_.cells.size()));
  const double w = std::max(10, width() - 4), h = std::max(10, height() - 4);
  double best = 0;
  for (int cols = 1; cols <= n; ++cols) {
    const int rows = (n + cols - 1) / cols;
    const double cell = std::min(w / cols, h / rows);
    if (cell > best) {
      best = cell;
      l.cols = cols;
      l.rows = rows;
    }
  }
  l.cell = best;
  l.x0 = (width() - l.cols * l.cell) / 2;
  l.y0 = 2;
  return l;
}

QRectF MergeTableGrid::cellRect(int s) const {
  if (s < 0 || s >= int(window_.cells.size())) return {};
  const Layout l = layout();
  return {l.x0 + (s % l.cols) * l.cell, l.y0 + (s / l.cols) * l.cell, l.cell, l.cell};
}

std::vector<int> MergeTableGrid::arrivedGpus(int s) const {
  std::vector<int> out;
  if (s < 0 || s >= int(window_.cells.size()) || !sw_) return out;
  const MergeEntryRecord* e = window_.cells[std::size_t(s)].entry;
  if (!e || std::size_t(e->arrivals) + e->arrived > sw_->merge_arrivals.size()) return out;
  for (int k = 0; k < e->arrived; ++k) {
    const MergeArrival& a = sw_->merge_arrivals[e->arrivals + std::size_t(k)];
    if (e->start + Time(a.offset_ns) * kNanosecond > to_) continue;
    const int g = a.gpu >= 0 && a.gpu < int(gpuOfNode_.size()) ? gpuOfNode_[std::size_t(a.gpu)] : -1;
    if (g >= 0) out.push_back(g);
  }
  return out;
}

void MergeTableGrid::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const Layout l = layout();
  const double gap = l.cell >= 8 ? 1.5 : 0.5;
  for (int s = 0; s < int(window_.cells.size()); ++s) {
    const MergeCell& c = window_.cells[std::size_t(s)];
    const QRectF r = cellRect(s).adjusted(gap, gap, -gap, -gap);
    const bool ended = c.state >= MergeCellState::Completed;
    QColor fill = mergeCellColour(c.state);
    if (ended) fill.setAlpha(120);
    p.setPen(ended ? QPen(mergeCellColour(c.state).darker(130), 1, Qt::DashLine) : QPen(QColor(0xc8, 0xc8, 0xc8), 0.5));
    p.setBrush(fill);
    p.drawRect(r);
    if (!c.entry) continue;
    // One row of marks, or two where that makes them bigger (8 GPUs in a square cell).
    const int places = std::max(1, gpus_), half = (places + 1) / 2;
    const double one = std::min((r.width() - 4) / places, r.height() / 3);
    const double two = std::min((r.width() - 4) / half, r.height() / 5);
    const int perRow = two > 1.3 * one ? half : places;
    const double mark = perRow == places ? one : two;
    const int markRows = (places + perRow - 1) / perRow;
    const std::vector<int> arrived = arrivedGpus(s);
    if (gpus_ > 0 && mark >= 3) {  // one mark per GPU, in GPU order
      const double y0 = r.bottom() - markRows * mark - 2, x0 = r.left() + (r.width() - mark * perRow) / 2;
      for (int g = 0; g < gpus_; ++g) {
        if (g == home_) continue;
        const QRectF m(x0 + (g % perRow) * mark + 0.5, y0 + (g / perRow) * mark, mark - 1, mark - 1);
        const bool in = std::find(arrived.begin(), arrived.end(), g) != arrived.end();
        p.setPen(QPen(QColor(0x20, 0x20, 0x20), 0.8));
        p.setBrush(in ? QBrush(QColor(0x20, 0x20, 0x20)) : QBrush(Qt::white));
        p.drawRect(m);
      }
    } else if (c.entry->expected > 0) {  // too small: a bar of arrived / expected
      const double f = std::min(1.0, double(c.arrivedBy) / c.entry->expected);
      p.setPen(Qt::NoPen);
      p.setBrush(QColor(0x20, 0x20, 0x20));
      p.drawRect(QRectF(r.left(), r.bottom() - std::max(1.0, r.height() / 5), r.width() * f, std::max(1.0, r.height() / 5)));
    }
  }
}

QString MergeTableGrid::cellToolTip(int s) const {
  if (s < 0 || s >= int(window_.cells.size())) return {};
  const MergeCell& c = window_.cells[std::size_t(s)];
  if (!c.entry) return tr("slot %1: empty").arg(s);
  const MergeEntryRecord& e = *c.entry;
  QString text = tr("slot %1: block %2 (%3)\n%4").arg(s).arg(e.block).arg(e.load ? tr("ld.cais") : tr("red.cais"),
                                                                            QString::fromLatin1(mergeCellStateName(c.state)));
  text += tr("\nallocated %1, ended %2 (%3)")
              .arg(formatTime(e.start), formatTime(e.end), QString::fromLatin1(mergeEndReasonName(e.reason)));
  if (e.load && e.ready >= 0) text += tr("\nLoad-Ready at %1").arg(formatTime(e.ready));
  text += tr("\nrequests joined: %1 of %2 expected (%3 by now)").arg(e.arrived).arg(e.expected).arg(c.arrivedBy);
  QStringList gpus;
  for (int g : arrivedGpus(s)) gpus << QStringLiteral("gpu%1").arg(g);
  if (!gpus.isEmpty()) text += tr("\nfrom: %1").arg(gpus.join(QStringLiteral(", ")));
  return text;
}

bool MergeTableGrid::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    const auto* h = static_cast<QHelpEvent*>(e);
    for (int s = 0; s < int(window_.cells.size()); ++s)
      if (cellRect(s).contains(h->pos())) {
        QToolTip::showText(h->globalPos(), cellToolTip(s), this);
        return true;
      }
    QToolTip::hideText();
    return true;
  }
  return QWidget::event(e);
}

}  // namespace fl::views
