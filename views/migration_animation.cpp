#include "views/migration_animation.h"

#include <QFontMetrics>
#include <QPainter>
#include <QStringList>
#include <algorithm>
#include <cmath>

#include "balance/migration_path.h"
#include "mapping/mapping.h"
#include "scenario/input_error.h"

namespace fl::views {

QColor localStageColour() { return QColor(70, 200, 120); }
QColor globalStageColour() { return QColor(245, 160, 40); }

MigrationAnimation::MigrationAnimation(QWidget* parent) : QWidget(parent) {
  setAutoFillBackground(true);
  QPalette pal = palette();
  pal.setColor(QPalette::Window, QColor(30, 33, 41));
  setPalette(pal);
}

void MigrationAnimation::setTopology(std::shared_ptr<const topo::Topology> topology) {
  topology_ = std::move(topology);
  grid_ = topology_ ? WaferGrid(*topology_) : WaferGrid();
  rebuildStages();
}

void MigrationAnimation::setResults(std::shared_ptr<const Results> results) {
  results_ = std::move(results);
  rebuildStages();
  setTime(time_);
}

void MigrationAnimation::setTime(Time t) {
  time_ = t;
  iteration_ = 0;
  if (results_ && results_->wsc && results_->makespan > 0) {
    const double n = static_cast<double>(std::max<std::size_t>(1, results_->wsc->load_max_over_mean.size()));
    iteration_ = std::clamp(static_cast<double>(t) / static_cast<double>(results_->makespan) * n, 0.0, n);
  }
  update();
}

// The mapping the run used, rebuilt from its groups and FTDs, gives each copy's path.
void MigrationAnimation::rebuildStages() {
  stages_.clear();
  if (!results_ || !results_->wsc || !topology_ || !grid_.dies()) return update();
  const WscResults& w = *results_->wsc;
  mapping::Mapping m;
  m.rows = topology_->meshRows;
  m.cols = topology_->meshCols;
  m.waferRows = m.rows / std::max(1, topology_->waferRows);
  m.waferCols = m.cols / std::max(1, topology_->waferCols);
  for (const auto& g : w.tp_groups) m.groups.push_back(g.members);
  for (const auto& f : w.ftds) m.ftds.push_back(f.members);
  try {
    mapping::completeMapping(m, "wsc.tp_groups");
  } catch (const InputError&) {
    return update();
  }
  for (const WscMigration& mig : w.migrations) {
    std::vector<Stage> out;
    if (mig.from >= 0 && mig.to >= 0 && mig.from < m.dies() && mig.to < m.dies())
      for (const balance::MigrationStage& st : balance::migrationStages(m, mig.from, mig.to)) {
        Stage s;
        s.global = st.global;
        s.dies = st.dies;
        for (size_t k = 0; k + 1 < st.dies.size(); ++k) s.links.push_back(grid_.linkBetween(st.dies[k], st.dies[k + 1]));
        out.push_back(std::move(s));
      }
    stages_.push_back(std::move(out));
  }
  update();
}

double MigrationAnimation::progress(int migration) const {
  if (!results_ || !results_->wsc || migration < 0 || migration >= migrationCount()) return 0;
  const WscMigration& m = results_->wsc->migrations[static_cast<size_t>(migration)];
  const double n = static_cast<double>(stages_[static_cast<size_t>(migration)].size());
  const double span = m.end_iteration - m.start_iteration + 1;  // iterations the copy runs in
  return std::clamp((iteration_ - m.start_iteration) / span, 0.0, 1.0) * n;
}

int MigrationAnimation::activeCount() const {
  int n = 0;
  for (int i = 0; i < migrationCount(); ++i) {
    const double p = progress(i);
    n += p > 0 && p < static_cast<double>(stages_[static_cast<size_t>(i)].size());
  }
  return n;
}

// ": expert 30 die 27 → 0, ..." for the copies under way.
QString MigrationAnimation::movingList() const {
  QStringList out;
  for (int i = 0; i < migrationCount(); ++i) {
    const double p = progress(i);
    if (p <= 0 || p >= static_cast<double>(stages_[static_cast<size_t>(i)].size())) continue;
    const WscMigration& m = results_->wsc->migrations[static_cast<size_t>(i)];
    out << tr("E%1 die %2 → %3").arg(m.expert).arg(m.from).arg(m.to);
  }
  return out.isEmpty() ? QString() : QStringLiteral(": ") + out.join(QStringLiteral(", "));
}

QString MigrationAnimation::caption() const {
  if (!results_ || !results_->wsc) return {};
  const WscResults& w = *results_->wsc;
  return w.migrations.empty()
             ? tr("No expert migrations in this run (balancer.kind none, or never triggered)")
             : tr("Iteration %1 of %2 · %3 of %4 copies moving").arg(static_cast<int>(iteration_) + 1)
                       .arg(w.load_max_over_mean.size()).arg(activeCount()).arg(w.migrations.size()) + movingList();
}

WaferKey MigrationAnimation::key() const {
  const auto stroke = [](const QColor& c, bool dashed) {
    QPen pen(c, 4, dashed ? Qt::DashLine : Qt::SolidLine, Qt::FlatCap);
    if (dashed) pen.setDashPattern({1.8, 1.2});
    return pen;
  };
  return WaferKey({{tr("local (intra-FTD, in all-reduce)"), stroke(localStageColour(), false)},
                   {tr("global (inter-FTD, in all-to-all)"), stroke(globalStageColour(), true)},
                   {tr("white: from · magenta: to")}},
                  keyFont(font()));
}

QStringList MigrationAnimation::captionLines(int width) const {
  constexpr int kMaxLines = 3;
  QFont bold = font();
  bold.setBold(true);
  const QFontMetrics fm(bold);
  QStringList lines;
  QString current;
  const QStringList words = caption().split(u' ', Qt::SkipEmptyParts);
  for (int i = 0; i < words.size(); ++i) {
    const QString joined = current.isEmpty() ? words[i] : current + u' ' + words[i];
    if (current.isEmpty() || fm.horizontalAdvance(joined) <= width) {
      current = joined;
      continue;
    }
    if (lines.size() == kMaxLines - 1) {  // the last line takes the rest, elided
      current = words.mid(i - current.count(u' ') - 1).join(u' ');
      break;
    }
    lines << current;
    current = words[i];
  }
  if (!current.isEmpty()) lines << fm.elidedText(current, Qt::ElideRight, width);
  return lines;
}

void MigrationAnimation::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QColor text(225, 228, 236);
  if (!results_ || !results_->wsc || !grid_.dies()) {
    p.setPen(text);
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("Expert migrations appear here for a wafer-scale run with a balancer."));
    return;
  }
  const WscResults& w = *results_->wsc;
  p.setPen(text);
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  // Wrapped, not cut, in a narrow dock: the caption takes the lines it needs (up to three).
  const QStringList lines = captionLines(width() - 16);
  const double line = p.fontMetrics().lineSpacing();
  // The key wraps too: as many rows as the width needs, under the wafer.
  const double capH = std::max(22.0, line * static_cast<double>(lines.size()) + 6),
               keyH = key().height(width() - 16) + 2;
  for (int i = 0; i < lines.size(); ++i)
    p.drawText(QPointF(8, 3 + p.fontMetrics().ascent() + line * i), lines[i]);
  WaferGrid g = grid_;
  g.fit(QRectF(8, capH + 2, width() - 16, height() - capH - keyH - 6));
  const double s = g.scale();
  p.setPen(QPen(QColor(70, 75, 88), std::max(1.0, 4 * s)));
  for (const auto& seg : g.segments()) p.drawLine(seg.line);
  for (int d = 0; d < g.dies(); ++d) {
    p.setPen(QPen(QColor(110, 116, 130), 1));
    p.setBrush(QColor(48, 52, 63));
    p.drawRoundedRect(g.dieRect(d), 3, 3);
  }
  const double lane = std::clamp(8 * s, 1.5, 5.0);
  for (int i = 0; i < migrationCount(); ++i) {
    const auto& st = stages_[static_cast<size_t>(i)];
    const double prog = progress(i);
    const bool active = prog > 0 && prog < static_cast<double>(st.size());
    // Only the copies under way at full strength; finished ones faint; later ones not yet drawn.
    if (prog <= 0) continue;
    const double alpha = active ? 1.0 : 0.16;
    for (size_t k = 0; k < st.size(); ++k) {
      QColor c = st[k].global ? globalStageColour() : localStageColour();
      const bool done = prog >= static_cast<double>(k + 1);
      c.setAlphaF(static_cast<float>(done || (active && prog >= static_cast<double>(k)) ? alpha : alpha * 0.5));
      QPen pen(c, lane, st[k].global ? Qt::DashLine : Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
      if (st[k].global) pen.setDashPattern({1.8, 1.2});
      p.setPen(pen);
      for (size_t h = 0; h + 1 < st[k].dies.size(); ++h) p.drawLine(g.dieCentre(st[k].dies[h]), g.dieCentre(st[k].dies[h + 1]));
      // The weights in flight: a square part way along the running stage.
      if (active && prog >= static_cast<double>(k) && prog < static_cast<double>(k + 1) && st[k].dies.size() > 1) {
        const double along = (prog - static_cast<double>(k)) * static_cast<double>(st[k].dies.size() - 1);
        const size_t h = std::min(st[k].dies.size() - 2, static_cast<size_t>(along));
        const QPointF a = g.dieCentre(st[k].dies[h]), b = g.dieCentre(st[k].dies[h + 1]);
        const QPointF at = a + (b - a) * (along - static_cast<double>(h));
        const double side = std::clamp(22 * s, 6.0, 14.0);
        p.setPen(QPen(Qt::white, 1.5));
        p.setBrush(st[k].global ? globalStageColour() : localStageColour());
        p.drawRect(QRectF(at.x() - side / 2, at.y() - side / 2, side, side));
      }
    }
    if (active && !st.empty()) {
      const WscMigration& m = w.migrations[static_cast<size_t>(i)];
      p.setPen(QPen(Qt::white, 2));
      p.setBrush(Qt::NoBrush);
      p.drawRoundedRect(g.dieRect(m.from), 3, 3);
      p.setPen(QPen(QColor(255, 45, 200), 2.5));
      p.drawRoundedRect(g.dieRect(m.to), 3, 3);
      if (g.dieRect(m.to).width() >= 30) {  // smaller boxes: the caption names the copies
        p.setPen(text);
        p.drawText(g.dieRect(m.to), Qt::AlignCenter, QStringLiteral("E%1").arg(m.expert));
      }
    }
  }
  key().paint(p, QRectF(8, height() - keyH, width() - 16, keyH), text);
}

}  // namespace fl::views
