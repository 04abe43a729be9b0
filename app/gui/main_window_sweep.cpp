// The Sweep dock: one figure of every finished sweep point against the first axis
// (views::SweepChart), fed from SweepResults; clicking a point shows it in the other
// views, as picking it under "Sweep point" does.
#include <QDockWidget>
#include <QLabel>
#include <QVBoxLayout>

#include "gui/main_window.h"
#include "gui/sweep_results.h"
#include "scenario/friendly_names.h"
#include "views/sweep_chart.h"

namespace fl::gui {

QDockWidget* MainWindow::buildSweepDock() {
  auto* dock = new QDockWidget(tr("Sweep"), this);
  dock->setObjectName(QStringLiteral("SweepDock"));
  auto* body = new QWidget(dock);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  // Where each point stands while the sweep runs: done, running or pending.
  auto* states = new QLabel(body);
  states->setObjectName(QStringLiteral("sweepStates"));
  states->setWordWrap(true);
  states->setContentsMargins(6, 2, 6, 0);
  layout->addWidget(states);
  auto* chart = new views::SweepChart(body);
  layout->addWidget(chart, 1);
  dock->setWidget(body);
  auto showStates = [this, states] {
    QStringList parts;
    int done = 0;
    for (int i = 0; i < sweep_->pointCount(); ++i) {
      const auto s = sweep_->state(i);
      done += s == SweepResults::PointState::Done;
      const QString label = sweep_->labels().value(i).toHtmlEscaped();
      parts << (s == SweepResults::PointState::Done      ? QStringLiteral("<span style='color:#2e7d32'>✓ %1</span>").arg(label)
                : s == SweepResults::PointState::Running ? tr("<b>▶ %1 (running)</b>").arg(label)
                                                         : tr("<span style='color:#888'>○ %1 (pending)</span>").arg(label));
    }
    states->setVisible(sweep_->pointCount() > 1 && done < sweep_->pointCount());
    states->setText(tr("Points %1 of %2 done: ").arg(done).arg(sweep_->pointCount()) + parts.join(QStringLiteral(" · ")));
  };
  connect(sweep_, &SweepResults::pointStateChanged, states, showStates);
  connect(sweep_, &SweepResults::labelsChanged, states, showStates);
  // Final results stay on the chart while a re-run of the same points replaces them one
  // by one (SweepResults keeps them until then): an edit does not blank it.
  auto feed = [this, chart] {
    std::vector<std::string> keys;
    for (const SweepAxis& a : sweep_->scenario().sweep) keys.push_back(a.key);
    std::vector<views::SweepChart::Point> points;
    for (int i = 0; i < sweep_->pointCount(); ++i)
      points.push_back({sweep_->settings(i), sweep_->isFinal(i) ? sweep_->results(i) : nullptr, sweep_->isStale(i)});
    views::SweepChart::ValueNames names;  // the sweep's labels, else the seeds' names
    for (const SweepAxis& a : sweep_->scenario().sweep)
      for (std::size_t v = 0; v < a.values.size(); ++v)
        names[a.key][canonicalValueText(a.key, a.values[v])] = v < a.labels.size() ? a.labels[v] : friendlyValueName(a.key, a.values[v]);
    chart->setValueNames(std::move(names));
    std::map<std::string, std::string> titles;  // hierarchy levels by name ("Datacenters")
    for (const SweepAxis& a : sweep_->scenario().sweep)
      if (std::string t = friendlyLevelTitle(sweep_->scenario(), a.key); !t.empty()) titles[a.key] = t;
    chart->setKeyTitles(std::move(titles));
    chart->setSweep(keys, points);
    chart->setSelectedPoint(sweep_->selectedPoint());
  };
  connect(sweep_, &SweepResults::pointFinished, chart, feed);
  connect(sweep_, &SweepResults::labelsChanged, chart, feed);
  connect(sweep_, &SweepResults::pointStateChanged, chart, feed);  // stale marks come and go
  connect(sweep_, &SweepResults::selectedPointChanged, chart, &views::SweepChart::setSelectedPoint);
  connect(chart, &views::SweepChart::pointClicked, sweep_, &SweepResults::selectPoint);
  feed();
  showStates();
  return dock;
}

}  // namespace fl::gui
