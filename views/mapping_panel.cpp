#include "views/mapping_panel.h"

#include <QCheckBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QVBoxLayout>

#include "mapping/mapping.h"
#include "scenario/input_error.h"
#include "scenario/schema.h"
#include "views/format_units.h"
#include "views/run_model.h"
#include "views/topology_canvas.h"
#include "views/wafer_mapping_overlay.h"
#include "wsc/wsc_run.h"

namespace fl::views {

namespace {

QLabel* wrapped(QWidget* parent) {
  auto* l = new QLabel(parent);
  l->setWordWrap(true);
  l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return l;
}

QString change(Time before, Time after) {
  const double pct = before > 0 ? 100.0 * static_cast<double>(after - before) / static_cast<double>(before) : 0;
  return QStringLiteral("%1 → %2 (%3%4 %)")
      .arg(formatTime(before), formatTime(after), pct >= 0 ? QStringLiteral("+") : QString())
      .arg(pct, 0, 'f', 1);
}

// One iteration without a balancer: the mapping's own phase times, quickly.
Scenario previewScenario(Scenario s) {
  s.workload.wsc.iterations = 1;
  s.balancer.kind = BalancerKind::None;
  s.sweep.clear();
  return s;
}

}  // namespace

MappingPanel::MappingPanel(RunModel* model, TopologyCanvas* canvas, QWidget* parent)
    : QWidget(parent), model_(model), overlay_(new WaferMappingOverlay(canvas)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  show_ = new QCheckBox(tr("Show mapping on the canvas"), this);
  show_->setToolTip(tr("Then drag a die onto another to swap them (one undo step)"));
  show_->setObjectName(QStringLiteral("mappingShow"));
  rings_ = new QCheckBox(tr("Ring paths"), this);
  rings_->setChecked(true);
  summary_ = wrapped(this);
  auto* hint = wrapped(this);
  hint->setText(tr("Drag a die onto another to swap them between TP groups (or ring positions); Edit > Undo "
                   "takes a swap back."));
  refusal_ = makeErrorLabel(this);
  refusal_->setObjectName(QStringLiteral("mappingRefusal"));
  refusal_->hide();
  preview_ = wrapped(this);
  preview_->setObjectName(QStringLiteral("mappingPreview"));
  die_ = wrapped(this);
  experts_ = wrapped(this);
  experts_->setText(tr("Experts: expert e sits on die e mod N (workload.wsc.experts); the schema has no expert "
                       "placement key, so experts are listed per die but not moved by hand."));
  experts_->setStyleSheet(QStringLiteral("QLabel { color: palette(mid); }"));
  for (QWidget* w : {static_cast<QWidget*>(show_), static_cast<QWidget*>(rings_), static_cast<QWidget*>(hint),
                     static_cast<QWidget*>(summary_),
                     static_cast<QWidget*>(refusal_), static_cast<QWidget*>(preview_), static_cast<QWidget*>(die_),
                     static_cast<QWidget*>(experts_)})
    layout->addWidget(w);
  layout->addStretch(1);

  connect(show_, &QCheckBox::toggled, overlay_, &WaferMappingOverlay::setShown);
  connect(rings_, &QCheckBox::toggled, overlay_, &WaferMappingOverlay::setRingsShown);
  connect(overlay_, &WaferMappingOverlay::swapRequested, this, [this](int a, int b) { requestSwap(a, b); });
  connect(overlay_, &WaferMappingOverlay::swapHovered, this, [this](int a, int b) {
    preview_->setText(b < 0 ? QString() : previewSwap(a, b));
  });
  connect(overlay_, &WaferMappingOverlay::dieClicked, this,
          [this](int die) { model_->select(SelectionKind::Node, 2 * die); });  // die d is node 2d
  connect(model_, &RunModel::resultsChanged, this, &MappingPanel::updateFromResults);
  connect(model_, &RunModel::selectionChanged, this, &MappingPanel::updateSelection);
  updateSummary();
}

bool MappingPanel::mappingFromRun() const {
  if (!scenario_) return true;
  for (const SweepAxis& a : scenario_->sweep)  // axes that change the groups or the grid
    if (a.key.rfind("mapping.", 0) == 0 || a.key == "workload.wsc.tp" || a.key == "workload.wsc.all_gather" ||
        a.key.rfind("topology.", 0) == 0)
      return true;
  return false;
}

void MappingPanel::setScenario(const Scenario& s) {
  scenario_ = s;
  if (s.workload.kind != WorkloadKind::WscInference) return;
  if (!mappingFromRun()) {
    try {
      const mapping::Mapping m = mapping::buildMapping(s.mapping, s.topology, s.workload.wsc.tp, s.workload.wsc.all_gather);
      DieLists groups, ftds;
      for (const auto& g : m.groups) groups.emplace_back(g.begin(), g.end());
      for (const auto& f : m.ftds) ftds.emplace_back(f.begin(), f.end());
      overlay_->setMapping(groups, ftds);
    } catch (const InputError&) {
      // An impossible mapping never reaches the document (edits are checked first).
    }
  } else {
    updateFromResults();
  }
  updateSummary();
}

void MappingPanel::updateFromResults() {
  const Results* r = model_->results();
  if (r && r->wsc && (mappingFromRun() || overlay_->groups().empty())) {
    DieLists ftds;
    for (const auto& f : r->wsc->ftds) ftds.emplace_back(f.members.begin(), f.members.end());
    overlay_->setMapping(groupsOf(*r->wsc), ftds);
  }
  updateSummary();
}

void MappingPanel::updateSummary() {
  const DieLists& g = overlay_->groups();
  QString text;
  if (g.empty()) {
    text = tr("No wafer-scale mapping: run a wsc_inference scenario.");
  } else {
    const QString kind = scenario_ && !mappingFromRun() ? QString::fromStdString(getValue(*scenario_, "mapping.kind"))
                                                        : QString::fromStdString(model_->results() && model_->results()->wsc
                                                                                     ? model_->results()->wsc->mapping
                                                                                     : std::string("?"));
    text = tr("Mapping <b>%1</b>: %2 TP groups of %3 dies (colours, G = group, # = ring position), %4 FTDs (white "
              "dashed tiles, or F = FTD on strided dies).")
               .arg(kind)
               .arg(g.size())
               .arg(g.front().size())
               .arg(overlay_->ftds().size());
    if (const Results* r = model_->results(); r && r->wsc)
      text += tr("<br>Run: all-reduce %1, dispatch %2, combine %3, communication %4; mean all-to-all hops %5.")
                  .arg(formatTime(r->wsc->allreduce), formatTime(r->wsc->dispatch), formatTime(r->wsc->combine),
                       formatTime(r->wsc->comm))
                  .arg(r->wsc->ftd_avg_hops, 0, 'f', 3);
  }
  summary_->setText(text);
}

QString MappingPanel::requestSwap(int dieA, int dieB) {
  QString reason;
  const DieLists groups = swapDies(overlay_->groups(), dieA, dieB);
  if (!scenario_) reason = tr("no scenario");
  else if (groups == overlay_->groups()) reason = tr("die %1 or %2 is in no TP group").arg(dieA).arg(dieB);
  else reason = mappingEditRefusal(*scenario_, groups);
  if (reason.isEmpty() && apply_)
    reason = apply_(groups, tr("Swap dies %1 and %2").arg(dieA).arg(dieB));
  if (!reason.isEmpty()) {
    showRefusal(tr("Swap of dies %1 and %2 refused: %3").arg(dieA).arg(dieB).arg(reason));
    return reason;
  }
  refusal_->hide();
  overlay_->setMapping(groups, scenario_->mapping.ftds.empty() ? DieLists{} : scenario_->mapping.ftds);
  updateSummary();
  return {};
}

QString MappingPanel::previewSwap(int dieA, int dieB) {
  const topo::Topology* t = model_->topology();
  if (!scenario_ || !t || scenario_->network.model != NetworkModel::Analytical) return {};
  const DieLists groups = swapDies(overlay_->groups(), dieA, dieB);
  if (!mappingEditRefusal(*scenario_, groups).isEmpty()) return tr("Swap %1 ↔ %2: refused on drop").arg(dieA).arg(dieB);
  QElapsedTimer clock;
  clock.start();
  try {
    Scenario before = previewScenario(*scenario_);
    before.mapping.kind = MappingKind::Explicit;
    before.mapping.groups = overlay_->groups();
    const Results a = wsc::runWscAnalytical(before, *t);
    const Results b = wsc::runWscAnalytical(previewScenario(withExplicitGroups(*scenario_, groups)), *t);
    lastPreviewMs_ = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    return tr("Swap %1 ↔ %2 (analytical, one iteration): all-reduce %3; dispatch %4; communication %5. "
              "Previewed in %6 ms.")
        .arg(dieA)
        .arg(dieB)
        .arg(change(a.wsc->allreduce, b.wsc->allreduce), change(a.wsc->dispatch, b.wsc->dispatch),
             change(a.wsc->comm, b.wsc->comm))
        .arg(lastPreviewMs_, 0, 'f', 1);
  } catch (const std::exception& e) {
    return tr("Swap %1 ↔ %2: no preview (%3)").arg(dieA).arg(dieB).arg(QString::fromUtf8(e.what()));
  }
}

void MappingPanel::showRefusal(const QString& reason) {
  refusal_->setText(reason);
  refusal_->show();
  overlay_->flashMessage(reason);
}

void MappingPanel::updateSelection() {
  const topo::Topology* t = model_->topology();
  if (!t || t->kind != "mesh" || model_->selectionKind() != SelectionKind::Node || !scenario_) return die_->clear();
  const int die = model_->selectedId() / 2;
  const int dies = t->meshRows * t->meshCols, experts = scenario_->workload.wsc.experts;
  QStringList list;
  for (int e = die; e < experts; e += std::max(1, dies)) list << QString::number(e);
  die_->setText(tr("Die %1: TP group %2, ring position %3, FTD %4; experts %5")
                    .arg(die)
                    .arg(overlay_->groupOf(die))
                    .arg(overlay_->ringIndexOf(die))
                    .arg(overlay_->ftdOf(die))
                    .arg(list.isEmpty() ? tr("none") : list.join(QStringLiteral(", "))));
}

}  // namespace fl::views
