#include "gui/dock_applicability.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QSettings>
#include <algorithm>
#include <map>

#include "gui/scenario_document.h"
#include "scenario/schema.h"
#include "views/merge_table_inspector.h"
#include "views/run_model.h"

namespace fl::gui {

namespace {

const char* const kSettingsKey = "docks/hiddenAsNotApplicable";

// Whether `key` takes a value `matches` accepts in the scenario or in any point of its sweep.
template <typename Pred>
bool anyPointWhere(const Scenario& s, const std::string& key, Pred matches) {
  for (const SweepAxis& a : s.sweep)
    if (a.key == key) return std::any_of(a.values.begin(), a.values.end(), matches);
  try {
    return matches(getValue(s, key));
  } catch (const std::exception&) {
    return false;
  }
}

// Whether `key` takes one of `values` in the scenario or in any point of its sweep.
bool anyPointTakes(const Scenario& s, const std::string& key, std::initializer_list<const char*> values) {
  return anyPointWhere(s, key, [&](const std::string& v) {
    return std::any_of(values.begin(), values.end(), [&](const char* x) { return v == x; });
  });
}

// A tensor-parallel layer under a CAIS scheme (merge units in the switches) at some point.
bool caisTp(const Scenario& s) {
  return s.workload.kind == WorkloadKind::TpLayer &&
         anyPointTakes(s, "scheme.tp", {"cais_base", "cais_coord", "cais_partial", "cais"});
}

Applicability only(bool applies, const char* reason) {
  return applies ? Applicability{} : Applicability{false, QObject::tr(reason)};
}

// Whether the run has CAIS merge units (seed 002).
bool hasMergeUnits(const Results* r) { return r && views::MergeTableInspector::hasMergeUnits(*r); }

struct Rule {
  QString name;
  ResultsApplicabilityRule rule;
};

// A rule of the scenario alone.
Rule row(const char* name, ApplicabilityRule rule) {
  return {QString::fromLatin1(name), [rule = std::move(rule)](const Scenario& s, const Results*) { return rule(s); }};
}

// One workload kind only.
Rule forKind(const char* name, WorkloadKind kind, const char* reason) {
  return row(name, [kind, reason](const Scenario& s) { return only(s.workload.kind == kind, reason); });
}

// The docks of the MoE layer views (seed 000/001) and the scheme form, the wafer-scale
// views (seed 003), CAIS (seed 002) and HybridEP (seed 004). The table keeps
// registration order; rows for docks other branches add are appended at run time.
std::vector<Rule>& rules() {
  static std::vector<Rule> table = {
      forKind("BreakdownDock", WorkloadKind::MoeLayer,
              "The traffic breakdown (useful, redundant, useless bytes) is measured for MoE layers only "
              "(workload.kind: moe_layer)."),
      // Only DySHARP translates through the AL TLB (core/workloads/moe_agent.h).
      row("AlTlbDock",
          [](const Scenario& s) {
            return only(s.workload.kind == WorkloadKind::MoeLayer &&
                            anyPointTakes(s, "scheme.communication", {"dysharp"}),
                        "The AL TLB serves DySHARP's MoE dispatch: MoE layers with scheme.communication: dysharp "
                        "only.");
          }),
      row("PipelineDock",
          [](const Scenario& s) {
            return only(s.workload.kind == WorkloadKind::MoeLayer || s.workload.kind == WorkloadKind::TpLayer,
                        "The Pipeline view shows an MoE layer's token pipeline or a tensor-parallel layer's kernels "
                        "(workload.kind: moe_layer or tp_layer).");
          }),
      forKind("FusionDock", WorkloadKind::MoeLayer,
              "scheme.communication and scheme.fusion configure MoE layers only (workload.kind: moe_layer)."),
      // In-switch reduction tables: NVLS collectives, DySHARP / NVLS MoE layers, the
      // tensor-parallel layers under NVLS schemes; never a ring or a mesh.
      row("SwitchTablesDock",
          [](const Scenario& s) {
            bool reduces = false;
            switch (s.workload.kind) {
              case WorkloadKind::Collective:
                // CAIS merges in merge units (Merge Table), not in reduction buffers.
                reduces = anyPointTakes(s, "workload.collective.algorithm", {"nvls"});
                break;
              case WorkloadKind::MoeLayer:
                reduces = anyPointTakes(s, "scheme.communication", {"dysharp", "nvls_static"});
                break;
              case WorkloadKind::TpLayer:  // NVLS reduces in the switch; CAIS merges (Merge Table)
                reduces = anyPointTakes(s, "scheme.tp", {"tp_nvls", "sp_nvls"});
                break;
              default:
                break;
            }
            return only(reduces,
                        "No in-switch reductions in this scenario: the tables fill for NVLS collectives, DySHARP "
                        "or NVLS MoE layers and tensor-parallel layers under tp_nvls or sp_nvls.");
          }),
      forKind("MappingDock", WorkloadKind::WscInference,
              "The mapping editor places TP groups on a wafer: wafer-scale inference only (workload.kind: wsc_inference)."),
      forKind("HotColdDock", WorkloadKind::WscInference,
              "Hot/cold links compare a wafer's two phases: wafer-scale inference only (workload.kind: wsc_inference)."),
      // Without a balancer, or in a single iteration, no expert ever moves: the dock would
      // only say so.
      row("MigrationsDock",
          [](const Scenario& s) {
            return only(s.workload.kind == WorkloadKind::WscInference &&
                            anyPointTakes(s, "balancer.kind", {"greedy", "topology_aware", "non_invasive"}) &&
                            anyPointWhere(s, "workload.wsc.iterations", [](const std::string& v) { return v != "1"; }),
                        "Expert migrations move experts between a wafer's dies under a balancer, between "
                        "iterations: wafer-scale inference (workload.kind: wsc_inference) with balancer.kind other "
                        "than none and workload.wsc.iterations above 1.");
          }),
      // The merge table and the CAIS comparison: tensor-parallel layers under a CAIS
      // scheme, and any run whose switches had merge units (a CAIS collective); the
      // controls edit tp_layer keys, under any scheme.
      {QStringLiteral("MergeTableDock"),
       [](const Scenario& s, const Results* r) {
         return only(caisTp(s) || hasMergeUnits(r),
                     "No CAIS merge units: the merge table fills for tensor-parallel layers under a cais_* "
                     "scheme.tp and runs whose switches merge (CAIS collectives).");
       }},
      {QStringLiteral("CaisCompareDock"),
       [](const Scenario& s, const Results* r) {
         return only(caisTp(s) || hasMergeUnits(r),
                     "Arrival skew and up/down utilisation compare CAIS schemes: tensor-parallel layers under a "
                     "cais_* scheme.tp and runs whose switches merge.");
       }},
      forKind("CaisControlsDock", WorkloadKind::TpLayer,
              "The CAIS controls edit scheme.tp and the merge table: tensor-parallel layers only "
              "(workload.kind: tp_layer)."),
      forKind("XdcClusterDock", WorkloadKind::CrossDcMoe,
              "The datacenter ring is HybridEP's: cross-datacenter MoE only (workload.kind: cross_dc_moe)."),
      forKind("XdcCurveDock", WorkloadKind::CrossDcMoe,
              "The expert/data curve is HybridEP's stream model: cross-datacenter MoE only "
              "(workload.kind: cross_dc_moe)."),
      forKind("XdcStreamsDock", WorkloadKind::CrossDcMoe,
              "The two-stream timeline is HybridEP's: cross-datacenter MoE only (workload.kind: cross_dc_moe)."),
      row("SweepDock",
          [](const Scenario& s) {
            return only(!s.sweep.empty(),
                        "This scenario has no sweep: a sweep: section (a key and its values) runs it at several "
                        "points, charted here.");
          }),
      row("StoryDock",
          [](const Scenario& s) {
            return only(!s.story.empty(), "This scenario has no story: a story: section in its file adds steps "
                                          "to play here.");
          }),
  };
  return table;
}

}  // namespace

void registerDockApplicabilityWithResults(const QString& objectName, ResultsApplicabilityRule rule) {
  for (Rule& r : rules())
    if (r.name == objectName) {
      r.rule = std::move(rule);
      return;
    }
  rules().push_back({objectName, std::move(rule)});
}

void registerDockApplicability(const QString& objectName, ApplicabilityRule rule) {
  registerDockApplicabilityWithResults(objectName, row("", std::move(rule)).rule);
}

Applicability dockApplicability(const QString& objectName, const Scenario& s, const Results* results) {
  for (const Rule& r : rules())
    if (r.name == objectName) return r.rule(s, results);
  return {};
}

std::vector<QString> dockApplicabilityNames() {
  std::vector<QString> names;
  for (const Rule& r : rules()) names.push_back(r.name);
  return names;
}

DockApplicabilityGuard::DockApplicabilityGuard(QMainWindow* window, ScenarioDocument* doc,
                                               const views::RunModel* model)
    : QObject(window), window_(window), doc_(doc), model_(model) {
  // Docks this guard hid in an earlier session: the saved window state has them hidden.
  // Resolved in update(), as docks built after the guard join.
  saved_ = QSettings().value(kSettingsKey).toStringList();
  written_ = saved_;
  connect(doc_, &ScenarioDocument::changed, this, &DockApplicabilityGuard::update);
  if (model_) connect(model_, &views::RunModel::resultsChanged, this, &DockApplicabilityGuard::update);
  update();
}

bool DockApplicabilityGuard::hiddenAsNotApplicable(const QDockWidget* dock) const {
  return std::find(hidden_.begin(), hidden_.end(), dock) != hidden_.end();
}

void DockApplicabilityGuard::update() {
  for (qsizetype i = saved_.size() - 1; i >= 0; --i)
    if (auto* dock = window_->findChild<QDockWidget*>(saved_[i])) {
      if (!hiddenAsNotApplicable(dock)) hidden_.push_back(dock);
      saved_.removeAt(i);
    }
  const Scenario& s = doc_->scenario();
  const Results* results = model_ ? model_->results() : nullptr;
  QStringList names = saved_;  // not built yet: kept for when they are
  for (const QString& name : dockApplicabilityNames()) {
    auto* dock = window_->findChild<QDockWidget*>(name);
    if (!dock) continue;
    const Applicability a = dockApplicability(name, s, results);
    QAction* toggle = dock->toggleViewAction();
    const bool wasHidden = hiddenAsNotApplicable(dock);
    if (a.applies) {
      toggle->setEnabled(true);
      toggle->setToolTip(dock->windowTitle());
      toggle->setStatusTip({});
      if (wasHidden) {
        hidden_.erase(std::find(hidden_.begin(), hidden_.end(), dock));
        dock->show();
      }
      continue;
    }
    // Closed by the user (hidden explicitly) stays theirs; shown, or not shown yet, ours.
    const bool closedByUser = dock->isHidden() && dock->testAttribute(Qt::WA_WState_ExplicitShowHide);
    if (!wasHidden && !closedByUser) hidden_.push_back(dock);
    dock->hide();
    toggle->setEnabled(false);
    toggle->setToolTip(a.reason);
    toggle->setStatusTip(a.reason);
    if (hiddenAsNotApplicable(dock)) names << name;
  }
  if (names != written_) {  // runs on every published result: write only changes
    QSettings().setValue(kSettingsKey, names);
    written_ = names;
  }
}

}  // namespace fl::gui
