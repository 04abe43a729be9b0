#include "views/mapping_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "mapping/mapping.h"
#include "scenario/input_error.h"
#include "scenario/schema.h"
#include "scenario/validate.h"
#include "views/format_units.h"
#include "views/run_model.h"
#include "views/topology_canvas.h"
#include "wsc/expert_placement.h"

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

// The class drawn for a previewed link: the hottest of its all-reduce, dispatch and
// combine classes (hot over cold over idle); "" when it has no wafer-phase figures.
QString hottestClass(const LinkDirectionResult& l) {
  int rank = -1;
  for (const LinkPhaseResult& f : l.phases) {
    if (f.phase != "all_reduce" && f.phase != "dispatch" && f.phase != "combine") continue;
    rank = std::max(rank, f.cls == "hot" ? 2 : f.cls == "cold" ? 1 : 0);
  }
  return rank == 2 ? QStringLiteral("hot") : rank == 1 ? QStringLiteral("cold") : rank == 0 ? QStringLiteral("idle") : QString();
}

// Each directed die-to-die link of a run (die d is node 2d, its router 2d + 1).
std::vector<WaferMappingOverlay::PreviewLane> previewLanes(const Results& r, const topo::Topology& t) {
  std::vector<WaferMappingOverlay::PreviewLane> out;
  for (const LinkDirectionResult& l : r.links) {
    if (l.link < 0 || l.link >= static_cast<int>(t.links().size())) continue;
    const topo::Link& k = t.link(l.link);
    if (k.kind != topo::LinkKind::Mesh && k.kind != topo::LinkKind::Border) continue;
    const QString cls = hottestClass(l);
    if (cls.isEmpty()) continue;
    const int a = static_cast<int>(k.a) / 2, b = static_cast<int>(k.b) / 2;
    out.push_back({l.direction == 0 ? a : b, l.direction == 0 ? b : a, cls});
  }
  return out;
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
  auto* modeRow = new QWidget(this);
  auto* modeLayout = new QHBoxLayout(modeRow);
  modeLayout->setContentsMargins(0, 0, 0, 0);
  modeLayout->addWidget(new QLabel(tr("Drag moves"), modeRow));
  mode_ = new QComboBox(modeRow);
  mode_->setObjectName(QStringLiteral("mappingDragMode"));
  mode_->addItems({tr("dies (swap TP groups)"), tr("experts (between dies)")});
  modeLayout->addWidget(mode_, 1);
  summary_ = wrapped(this);
  auto* hint = wrapped(this);
  hint->setText(tr("Dies: drag a die onto another to swap them between TP groups (or ring positions). Experts: "
                   "drag an expert chip onto another die to move it there, or onto another die's expert to "
                   "exchange the two. Edit > Undo takes an edit back."));
  refusal_ = makeErrorLabel(this);
  refusal_->setObjectName(QStringLiteral("mappingRefusal"));
  refusal_->hide();
  preview_ = wrapped(this);
  preview_->setObjectName(QStringLiteral("mappingPreview"));
  die_ = wrapped(this);
  experts_ = wrapped(this);
  experts_->setObjectName(QStringLiteral("mappingExperts"));
  previewRun_ = new WscDragPreview(this);
  for (QWidget* w : {static_cast<QWidget*>(show_), static_cast<QWidget*>(rings_), modeRow, static_cast<QWidget*>(hint),
                     static_cast<QWidget*>(summary_),
                     static_cast<QWidget*>(refusal_), static_cast<QWidget*>(preview_), static_cast<QWidget*>(die_),
                     static_cast<QWidget*>(experts_)})
    layout->addWidget(w);
  layout->addStretch(1);

  connect(show_, &QCheckBox::toggled, overlay_, &WaferMappingOverlay::setShown);
  connect(rings_, &QCheckBox::toggled, overlay_, &WaferMappingOverlay::setRingsShown);
  connect(overlay_, &WaferMappingOverlay::swapRequested, this, [this](int a, int b) { requestSwap(a, b); });
  connect(mode_, &QComboBox::currentIndexChanged, this, [this](int i) {
    overlay_->setDragMode(i == 1 ? WaferMappingOverlay::DragMode::Experts : WaferMappingOverlay::DragMode::Dies);
  });
  connect(overlay_, &WaferMappingOverlay::swapHovered, this, [this](int a, int b) {
    if (b < 0 || !previewSwap(a, b)) endPreview();
  });
  connect(overlay_, &WaferMappingOverlay::expertHovered, this, [this](int e, int die, int other) {
    if (die < 0) return endPreview();
    const bool swap = other >= 0;
    const ExpertDies dies = swap ? swapExperts(expertDies_, e, other) : moveExpert(expertDies_, e, die);
    const QString label = swap ? tr("Experts %1 ↔ %2").arg(e).arg(other) : tr("Expert %1 → die %2").arg(e).arg(die);
    if (!previewExperts(dies, label)) endPreview();
  });
  connect(overlay_, &WaferMappingOverlay::dragEnded, this, &MappingPanel::endPreview);
  connect(overlay_, &WaferMappingOverlay::expertMoveRequested, this, [this](int e, int d) { requestExpertMove(e, d); });
  connect(overlay_, &WaferMappingOverlay::expertSwapRequested, this, [this](int a, int b) { requestExpertSwap(a, b); });
  connect(previewRun_, &WscDragPreview::ready, this, &MappingPanel::showPreview);
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

void MappingPanel::setDragMode(WaferMappingOverlay::DragMode mode) {
  mode_->setCurrentIndex(mode == WaferMappingOverlay::DragMode::Experts ? 1 : 0);
}

void MappingPanel::setScenario(const Scenario& s) {
  scenario_ = s;
  if (s.workload.kind != WorkloadKind::WscInference) return;
  expertDies_ = expertDiesOf(s);
  const int dies = endpointCount(s.topology);
  overlay_->setExperts(expertsOnDies(expertDies_, dies));
  experts_->setText(tr("Experts: %1 routed experts, %2 (at most %3 per die, workload.wsc.expert_slots).")
                        .arg(s.workload.wsc.experts)
                        .arg(s.workload.wsc.expert_placement == WscExpertPlacement::Explicit
                                 ? tr("placed by hand (workload.wsc.expert_placement explicit)")
                                 : tr("expert e on die e mod %1 (workload.wsc.expert_placement modulo)").arg(dies))
                        .arg(wsc::expertSlots(s.workload.wsc, dies)));
  updateSelection();
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

bool MappingPanel::previewSwap(int dieA, int dieB) {
  if (!scenario_ || scenario_->network.model != NetworkModel::Analytical) return false;
  const DieLists groups = swapDies(overlay_->groups(), dieA, dieB);
  if (!mappingEditRefusal(*scenario_, groups).isEmpty()) {
    preview_->setText(tr("Swap %1 ↔ %2: refused on drop").arg(dieA).arg(dieB));
    return false;
  }
  Scenario after = withExplicitGroups(*scenario_, groups);
  return requestPreview(after, tr("Swap %1 ↔ %2").arg(dieA).arg(dieB));
}

bool MappingPanel::previewExperts(const ExpertDies& dies, const QString& label) {
  if (!scenario_ || scenario_->network.model != NetworkModel::Analytical) return false;
  if (const QString why = expertEditRefusal(*scenario_, dies); !why.isEmpty()) {
    preview_->setText(tr("%1: refused on drop (%2)").arg(label, why));
    return false;
  }
  Scenario after = withExplicitExperts(*scenario_, dies);
  if (!overlay_->groups().empty()) after = withExplicitGroups(after, overlay_->groups());  // the shown mapping
  return requestPreview(after, label);
}

// Against the shown mapping and placement, as explicit keys (a sweep point's mapping too).
bool MappingPanel::requestPreview(const Scenario& after, const QString& label) {
  if (!scenario_ || !model_->topologyShared() || overlay_->groups().empty()) return false;
  const Scenario before = withExplicitGroups(*scenario_, overlay_->groups());
  if (preview_->text().isEmpty()) preview_->setText(tr("%1: previewing…").arg(label));
  previewRun_->request(before, after, model_->topologyShared(), label);
  return true;
}

void MappingPanel::showPreview(const WscDragPreview::Outcome& o) {
  if (!o.error.isEmpty() || !o.before || !o.after || !o.before->wsc || !o.after->wsc) {
    preview_->setText(tr("%1: no preview (%2)").arg(o.label, o.error));
    return;
  }
  lastPreviewMs_ = o.ms;
  const WscResults &a = *o.before->wsc, &b = *o.after->wsc;
  preview_->setText(tr("%1 (analytical, one iteration): all-reduce %2; dispatch %3; combine %4; communication %5. "
                       "Previewed in %6 ms on a worker thread; the canvas's links show its hot / cold / idle "
                       "classes until the drop.")
                        .arg(o.label)
                        .arg(change(a.allreduce, b.allreduce), change(a.dispatch, b.dispatch),
                             change(a.combine, b.combine), change(a.comm, b.comm))
                        .arg(o.ms, 0, 'f', 1));
  if (const topo::Topology* t = model_->topology())
    overlay_->setPreviewLanes(previewLanes(*o.after, *t),
                              tr("Preview: %1").arg(o.label));
  emit previewResults(o.after);
}

void MappingPanel::endPreview() {
  previewRun_->cancel();
  preview_->clear();
  overlay_->clearPreviewLanes();
  emit previewResults(nullptr);
}

QString MappingPanel::applyExperts(const ExpertDies& dies, const QString& label) {
  QString reason = !scenario_ ? tr("no scenario") : expertEditRefusal(*scenario_, dies);
  if (reason.isEmpty() && applyExperts_) reason = applyExperts_(dies, label);
  if (!reason.isEmpty()) {
    showRefusal(tr("%1 refused: %2").arg(label, reason));
    return reason;
  }
  refusal_->hide();
  expertDies_ = dies;
  overlay_->setExperts(expertsOnDies(dies, endpointCount(scenario_->topology)));
  updateSelection();
  return {};
}

QString MappingPanel::requestExpertMove(int expert, int die) {
  if (expert < 0 || expert >= static_cast<int>(expertDies_.size())) {
    const QString why = tr("no expert %1 (workload.wsc.experts = %2)").arg(expert).arg(expertDies_.size());
    showRefusal(tr("Move of expert %1 refused: %2").arg(expert).arg(why));
    return why;
  }
  if (expertDies_[static_cast<std::size_t>(expert)] == die) return {};
  return applyExperts(moveExpert(expertDies_, expert, die), tr("Move of expert %1 to die %2").arg(expert).arg(die));
}

QString MappingPanel::requestExpertSwap(int expertA, int expertB) {
  return applyExperts(swapExperts(expertDies_, expertA, expertB),
                      tr("Exchange of experts %1 and %2").arg(expertA).arg(expertB));
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
  QStringList list;
  for (std::size_t e = 0; e < expertDies_.size(); ++e)
    if (expertDies_[e] == die) list << QString::number(e);
  die_->setText(tr("Die %1: TP group %2, ring position %3, FTD %4; experts %5")
                    .arg(die)
                    .arg(overlay_->groupOf(die))
                    .arg(overlay_->ringIndexOf(die))
                    .arg(overlay_->ftdOf(die))
                    .arg(list.isEmpty() ? tr("none") : list.join(QStringLiteral(", "))));
}

}  // namespace fl::views
