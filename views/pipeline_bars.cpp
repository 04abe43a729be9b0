#include "views/pipeline_bars.h"

#include <algorithm>

#include "views/phase_palette.h"

namespace fl::views {

namespace {

constexpr double kUs = double(kMicrosecond);
constexpr double kRowFill = 0.84;  // of a row's height; the rest separates the rows
constexpr int kDimAlpha = 45;
const QColor kIdle(0xf2f2f2), kIdleAlternate(0xe6e6e6), kGpuSeparator(0xb0b0b0);

double startUs(const PipelineTask& t) { return double(t.start) / kUs; }
double endUs(const PipelineTask& t) { return double(t.end) / kUs; }

}  // namespace

QString pipelineKindLabel(PipelineTaskKind kind) {
  switch (kind) {
    case PipelineTaskKind::Dispatch: return QObject::tr("dispatch");
    case PipelineTaskKind::Gemm1: return QObject::tr("GEMM-1");
    case PipelineTaskKind::Gemm2: return QObject::tr("GEMM-2");
    case PipelineTaskKind::Combine: return QObject::tr("combine");
    case PipelineTaskKind::LaunchGap: return QObject::tr("launch gap");
    case PipelineTaskKind::Barrier: return QObject::tr("barrier");
    case PipelineTaskKind::LocalGemm: return QObject::tr("GEMM");
    case PipelineTaskKind::Compute: return QObject::tr("attention / GELU");
    case PipelineTaskKind::GemmRs: return QObject::tr("GEMM-RS");
    case PipelineTaskKind::LayerNorm: return QObject::tr("LN");
    case PipelineTaskKind::AgGemm: return QObject::tr("AG-GEMM");
    case PipelineTaskKind::Collective: return QObject::tr("NVLS");
    case PipelineTaskKind::CaisReduce: return QObject::tr("red.cais");
    case PipelineTaskKind::CaisLoad: return QObject::tr("ld.cais");
    case PipelineTaskKind::SyncWait: return QObject::tr("TB sync");
  }
  return {};
}

bool GanttScene::dimmed(int task) const {
  const PipelineTask& t = pipeline->tasks[static_cast<size_t>(task)];
  if (startUs(t) > cursorUs) return true;  // not started yet at the timeline's time
  return !inChain.empty() && !inChain[static_cast<size_t>(task)];
}

QRectF GanttScene::barRect(int task) const {
  const PipelineTask& t = pipeline->tasks[static_cast<size_t>(task)];
  const auto i = static_cast<size_t>(task);
  const double bottom = row[i] + span[i] - 0.5 - (1 - kRowFill) / 2;
  const double full = span[i] - 1 + kRowFill;
  const double height = span[i] > 1 ? full : full * (0.25 + 0.75 * double(occupancy[i]));
  return QRectF(QPointF(startUs(t), bottom - height), QPointF(endUs(t), bottom));
}

PipelineBars::PipelineBars(QCPAxis* keyAxis, QCPAxis* valueAxis, const GanttScene* scene, PipelineTaskKind kind)
    : QCPAbstractPlottable(keyAxis, valueAxis), scene_(scene), kind_(kind) {
  setName(pipelineKindLabel(kind));
  setBrush(phaseColour(kind));
  setPen(QPen(phaseColour(kind).darker(150), 0));
  setSelectable(QCP::stNone);
  setAntialiasedFill(false);
}

void PipelineBars::setTasks(std::vector<int> tasks) {
  tasks_ = std::move(tasks);
  maxDurationUs_ = 0;
  if (!scene_->pipeline) return;
  const auto& all = scene_->pipeline->tasks;
  std::stable_sort(tasks_.begin(), tasks_.end(),
                   [&](int a, int b) { return all[static_cast<size_t>(a)].start < all[static_cast<size_t>(b)].start; });
  for (int t : tasks_) {
    const PipelineTask& k = all[static_cast<size_t>(t)];
    maxDurationUs_ = std::max(maxDurationUs_, endUs(k) - startUs(k));
  }
}

std::pair<size_t, size_t> PipelineBars::visibleSpan(const QCPRange& keys) const {
  const auto& all = scene_->pipeline->tasks;
  auto startOf = [&](int t) { return startUs(all[static_cast<size_t>(t)]); };
  const auto lo = std::lower_bound(tasks_.begin(), tasks_.end(), keys.lower - maxDurationUs_,
                                   [&](int t, double x) { return startOf(t) < x; });
  const auto hi = std::upper_bound(lo, tasks_.end(), keys.upper, [&](double x, int t) { return x < startOf(t); });
  // Starting late enough to reach the view is necessary; ending inside it is checked here.
  auto first = lo;
  while (first != hi && endUs(all[static_cast<size_t>(*first)]) < keys.lower) ++first;
  return {static_cast<size_t>(first - tasks_.begin()), static_cast<size_t>(hi - tasks_.begin())};
}

QCPRange PipelineBars::getKeyRange(bool& foundRange, QCP::SignDomain) const {
  foundRange = !tasks_.empty();
  if (!foundRange) return {};
  const auto& all = scene_->pipeline->tasks;
  double lo = startUs(all[static_cast<size_t>(tasks_.front())]), hi = lo;
  for (int t : tasks_) hi = std::max(hi, endUs(all[static_cast<size_t>(t)]));
  return {lo, hi};
}

QCPRange PipelineBars::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const {
  foundRange = scene_->rows.count > 0;
  return {-0.5, scene_->rows.count - 0.5};
}

void PipelineBars::draw(QCPPainter* painter) {
  if (!scene_->pipeline || tasks_.empty()) return;
  const auto [from, to] = visibleSpan(mKeyAxis->range());
  // Bars narrower than a few pixels get no outline and merge with their neighbours in
  // the row: at 50 000 tasks most are sub-pixel until the user zooms in.
  struct Run {
    QRectF r;
    bool dim = false, valid = false;
  };
  std::vector<Run> pending(static_cast<size_t>(scene_->rows.count));
  QVector<QRectF> wide[2], narrow[2];  // [dimmed]
  auto toPixels = [&](const QRectF& c) {
    const QPointF a = coordsToPixels(c.left(), c.top()), b = coordsToPixels(c.right(), c.bottom());
    QRectF r = QRectF(a, b).normalized();
    if (r.width() < 1) r.setWidth(1);
    return r;
  };
  for (size_t i = from; i < to; ++i) {
    const int t = tasks_[i];
    const QRectF r = toPixels(scene_->barRect(t));
    const bool dim = scene_->dimmed(t);
    if (r.width() >= 4) {
      wide[dim] << r;
      continue;
    }
    Run& run = pending[static_cast<size_t>(scene_->row[static_cast<size_t>(t)])];
    if (run.valid && run.dim == dim && r.left() <= run.r.right() + 1) {
      run.r = run.r.united(r);
    } else {
      if (run.valid) narrow[run.dim] << run.r;
      run = {r, dim, true};
    }
  }
  for (const Run& run : pending)
    if (run.valid) narrow[run.dim] << run.r;

  const QColor c = phaseColour(kind_);
  QColor faint = c;
  faint.setAlpha(kDimAlpha);
  applyDefaultAntialiasingHint(painter);
  painter->setAntialiasing(false);
  for (int dim : {1, 0}) {
    painter->setBrush(dim ? faint : c);
    painter->setPen(Qt::NoPen);
    painter->drawRects(narrow[dim]);
    painter->setPen(QPen(dim ? faint.darker(120) : c.darker(150), 0));
    painter->drawRects(wide[dim]);
  }
  // The selected chain outlined, the selected task boldest.
  if (!scene_->inChain.empty()) {
    painter->setBrush(Qt::NoBrush);
    for (size_t i = from; i < to; ++i) {
      const int t = tasks_[i];
      if (!scene_->inChain[static_cast<size_t>(t)]) continue;
      painter->setPen(QPen(Qt::black, t == scene_->selected ? 2.5 : 1.2));
      painter->drawRect(toPixels(scene_->barRect(t)));
    }
  }
}

void PipelineBars::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const {
  painter->setPen(QPen(phaseColour(kind_).darker(150), 0));
  painter->setBrush(phaseColour(kind_));
  painter->drawRect(rect.adjusted(0, rect.height() * 0.15, 0, -rect.height() * 0.15));
}

PipelineRowBands::PipelineRowBands(QCPAxis* keyAxis, QCPAxis* valueAxis, const GanttScene* scene)
    : QCPAbstractPlottable(keyAxis, valueAxis), scene_(scene) {
  setName(QObject::tr("idle"));
  setSelectable(QCP::stNone);
}

QCPRange PipelineRowBands::getKeyRange(bool& foundRange, QCP::SignDomain) const {
  foundRange = false;  // spans whatever is in view
  return {};
}

QCPRange PipelineRowBands::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const {
  foundRange = scene_->rows.count > 0;
  return {-0.5, scene_->rows.count - 0.5};
}

// Every GPU's rows on a band (alternating shades, so the GPUs read apart), a line between GPUs.
void PipelineRowBands::draw(QCPPainter* painter) {
  const PipelineRows& rows = scene_->rows;
  const QCPRange x = mKeyAxis->range();
  painter->setAntialiasing(false);
  for (int g = 0; g < rows.gpus; ++g) {
    const double top = rows.firstRow[static_cast<size_t>(g)] - 0.5, bottom = top + rows.rowsOf(g);
    const QRectF band = QRectF(coordsToPixels(x.lower, top), coordsToPixels(x.upper, bottom)).normalized();
    painter->fillRect(band, g % 2 ? kIdleAlternate : kIdle);
    painter->setPen(QPen(kGpuSeparator, 0));
    painter->drawLine(QLineF(band.bottomLeft(), band.bottomRight()));
  }
}

void PipelineRowBands::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const {
  painter->setPen(QPen(kGpuSeparator, 0));
  painter->setBrush(kIdle);
  painter->drawRect(rect.adjusted(0, rect.height() * 0.15, 0, -rect.height() * 0.15));
}

}  // namespace fl::views
