// PipelineGantt's selection: a task picked by a click or by GPU and tile, its
// dependency chain outlined with arrows, and the task under the mouse with its tooltip.
#include <QLabel>
#include <QSpinBox>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>
#include <set>

#include "views/format_units.h"
#include "views/pipeline_gantt.h"

namespace fl::views {

namespace {

constexpr double kUs = double(kMicrosecond);
constexpr size_t kMaxArrows = 200;  // a chain fanning out wider than this gets outlines only

QString q(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

void PipelineGantt::selectTask(int task) {
  const PipelineResults* p = scene_.pipeline;
  if (!p || task < 0 || task >= static_cast<int>(p->tasks.size())) task = -1;
  scene_.selected = task;
  scene_.inChain.clear();
  const std::vector<int> c = chain();
  if (task >= 0) {
    scene_.inChain.assign(p->tasks.size(), 0);
    for (int t : c) scene_.inChain[static_cast<size_t>(t)] = 1;
    std::set<int> gpus;
    for (int t : c) gpus.insert(p->tasks[static_cast<size_t>(t)].gpu);
    const PipelineTask& s = p->tasks[static_cast<size_t>(task)];
    gpuSpin_->setValue(s.gpu);  // the selector shows what is selected
    if (s.tile >= 0) tileSpin_->setValue(s.tile);
    showTileStatus(tr("%1 on gpu%2, tile %3: a chain of %4 tasks on %5 GPUs")
                       .arg(pipelineKindLabel(s.kind)).arg(s.gpu).arg(s.tile).arg(c.size()).arg(gpus.size()));
  } else {
    showTileStatus({});
  }
  updateArrows();
  emit taskSelected(task);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

std::vector<int> PipelineGantt::chain() const {
  return scene_.pipeline && scene_.selected >= 0 ? dependencyChain(*scene_.pipeline, scene_.selected) : std::vector<int>{};
}

bool PipelineGantt::selectTile(int gpu, int tile) {
  const PipelineResults* p = scene_.pipeline;
  int found = -1;
  for (PipelineTaskKind kind : {PipelineTaskKind::Gemm1, PipelineTaskKind::Gemm2}) {
    for (int t : p ? bars(kind)->tasks() : std::vector<int>{}) {  // by start: the first is the earliest
      const PipelineTask& k = p->tasks[static_cast<size_t>(t)];
      if (k.gpu == gpu && k.tile == tile) {
        found = t;
        break;
      }
    }
    if (found >= 0) break;
  }
  if (found < 0) {
    selectTask(-1);
    showTileStatus(tr("no GEMM task of tile %1 on gpu%2").arg(tile).arg(gpu));
    return false;
  }
  selectTask(found);
  return true;
}

void PipelineGantt::showTileStatus(const QString& text) {
  status_->setText(text);
  status_->setVisible(!text.isEmpty());
}

// An arrow from each chain task's predecessor (its end) to it (its start).
void PipelineGantt::updateArrows() {
  for (auto* a : arrows_) plot_->removeItem(a);
  arrows_.clear();
  const PipelineResults* p = scene_.pipeline;
  if (!p || scene_.selected < 0) return;
  const std::vector<int> c = chain();
  for (int t : c) {
    const PipelineTask& task = p->tasks[static_cast<size_t>(t)];
    if (task.after < 0 || !scene_.inChain[static_cast<size_t>(task.after)] || arrows_.size() >= kMaxArrows) continue;
    const PipelineTask& from = p->tasks[static_cast<size_t>(task.after)];
    const QRectF a = scene_.barRect(task.after), b = scene_.barRect(t);
    auto* line = new QCPItemLine(plot_);
    line->setClipAxisRect(plot_->axisRect());
    line->start->setCoords(double(from.end) / kUs, a.center().y());
    line->end->setCoords(double(task.start) / kUs, b.center().y());
    line->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 9, 11));
    line->setPen(QPen(from.gpu == task.gpu ? QColor(40, 40, 40) : QColor(0xc0, 0x10, 0x40), 1.6));
    arrows_.push_back(line);
  }
}

int PipelineGantt::taskAt(const QPointF& px) const {
  const PipelineResults* p = scene_.pipeline;
  if (!p || !plot_->axisRect()->rect().contains(px.toPoint())) return -1;
  const double key = plot_->xAxis->pixelToCoord(px.x()), value = plot_->yAxis->pixelToCoord(px.y());
  const double slack = std::abs(plot_->xAxis->pixelToCoord(px.x() + 2) - key);  // thin bars stay clickable
  int best = -1, bestSpan = 1 << 30;
  for (const PipelineBars* b : bars_) {
    const auto [from, to] = b->visibleSpan(QCPRange(key - slack, key + slack));
    for (size_t i = from; i < to; ++i) {
      const int t = b->tasks()[i];
      const auto k = static_cast<size_t>(t);
      const PipelineTask& task = p->tasks[k];
      const bool inRow = value >= scene_.row[k] - 0.5 && value < scene_.row[k] + scene_.span[k] - 0.5;
      const bool inTime = double(task.start) / kUs - slack <= key && key <= double(task.end) / kUs + slack;
      if (inRow && inTime && scene_.span[k] < bestSpan) best = t, bestSpan = scene_.span[k];  // a group's task over a whole-GPU one
    }
  }
  return best;
}

QString PipelineGantt::toolTipFor(int task) const {
  const PipelineResults* p = scene_.pipeline;
  if (!p || task < 0 || task >= static_cast<int>(p->tasks.size())) return {};
  const PipelineTask& t = p->tasks[static_cast<size_t>(task)];
  const bool whole = t.group >= p->groups.size();
  const QString group = whole ? tr("whole GPU") : q(p->groups[t.group]);
  const int groupSms = !whole && t.group < p->group_sms.size() ? p->group_sms[t.group] : p->sms;
  QStringList lines;
  lines << tr("%1 on gpu%2 · %3 (layer pass %4)").arg(pipelineKindLabel(t.kind)).arg(t.gpu).arg(group).arg(t.step);
  QStringList what;
  if (t.tile >= 0) what << tr("tile %1").arg(t.tile);
  if (t.expert >= 0) what << tr("expert %1").arg(t.expert);
  if (t.tokens > 0) what << tr("%1 tokens").arg(t.tokens);
  if (!what.isEmpty()) lines << what.join(QStringLiteral(" · "));
  lines << tr("SMs: %1 of %2").arg(t.sms).arg(groupSms);
  lines << tr("start %1 · end %2 · duration %3").arg(formatTime(t.start), formatTime(t.end), formatTime(t.end - t.start));
  if (t.after >= 0 && t.after < static_cast<int>(p->tasks.size())) {
    const PipelineTask& a = p->tasks[static_cast<size_t>(t.after)];
    lines << tr("ready after: %1 on gpu%2 (tile %3), ended %4").arg(pipelineKindLabel(a.kind)).arg(a.gpu).arg(a.tile).arg(formatTime(a.end));
  }
  return lines.join('\n');
}

}  // namespace fl::views
