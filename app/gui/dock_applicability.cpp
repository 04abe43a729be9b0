#include "gui/dock_applicability.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QSettings>
#include <algorithm>
#include <map>

#include "gui/scenario_document.h"
#include "scenario/schema.h"

namespace fl::gui {

namespace {

const char* const kSettingsKey = "docks/hiddenAsNotApplicable";

// Whether `key` takes one of `values` in the scenario or in any point of its sweep.
bool anyPointTakes(const Scenario& s, const std::string& key, std::initializer_list<const char*> values) {
  auto matches = [&](const std::string& v) {
    return std::any_of(values.begin(), values.end(), [&](const char* x) { return v == x; });
  };
  for (const SweepAxis& a : s.sweep)
    if (a.key == key) return std::any_of(a.values.begin(), a.values.end(), matches);
  try {
    return matches(getValue(s, key));
  } catch (const std::exception&) {
    return false;
  }
}

Applicability only(bool applies, const char* reason) {
  return applies ? Applicability{} : Applicability{false, QObject::tr(reason)};
}

struct Rule {
  QString name;
  ApplicabilityRule rule;
};

// The docks of the MoE layer views (seed 000/001) and the scheme form. The table keeps
// registration order; rows for docks other branches add are appended at run time.
std::vector<Rule>& rules() {
  static std::vector<Rule> table = {
      {QStringLiteral("BreakdownDock"),
       [](const Scenario& s) {
         return only(s.workload.kind == WorkloadKind::MoeLayer,
                     "The traffic breakdown (useful, redundant, useless bytes) is measured for MoE layers only "
                     "(workload.kind: moe_layer).");
       }},
      {QStringLiteral("AlTlbDock"),
       [](const Scenario& s) {
         return only(s.workload.kind == WorkloadKind::MoeLayer,
                     "The AL TLB serves DySHARP's MoE dispatch: MoE layers only (workload.kind: moe_layer).");
       }},
      {QStringLiteral("PipelineDock"),
       [](const Scenario& s) {
         return only(s.workload.kind == WorkloadKind::MoeLayer || s.workload.kind == WorkloadKind::TpLayer,
                     "The Pipeline view shows an MoE layer's token pipeline or a tensor-parallel layer's kernels "
                     "(workload.kind: moe_layer or tp_layer).");
       }},
      {QStringLiteral("FusionDock"),
       [](const Scenario& s) {
         return only(s.workload.kind == WorkloadKind::MoeLayer,
                     "scheme.communication and scheme.fusion configure MoE layers only (workload.kind: moe_layer).");
       }},
      // In-switch reduction tables: NVLS collectives, DySHARP / NVLS MoE layers, the
      // tensor-parallel layers (NVLS or CAIS merge units); never a ring or a mesh.
      {QStringLiteral("SwitchTablesDock"),
       [](const Scenario& s) {
         bool reduces = false;
         switch (s.workload.kind) {
           case WorkloadKind::Collective:
             reduces = anyPointTakes(s, "workload.collective.algorithm", {"nvls", "cais"});
             break;
           case WorkloadKind::MoeLayer:
             reduces = anyPointTakes(s, "scheme.communication", {"dysharp", "nvls_static"});
             break;
           case WorkloadKind::TpLayer:
             reduces = true;
             break;
           default:
             break;
         }
         return only(reduces,
                     "No in-switch reductions in this scenario: the tables fill for NVLS collectives, DySHARP or "
                     "NVLS MoE layers and tensor-parallel layers.");
       }},
  };
  return table;
}

}  // namespace

void registerDockApplicability(const QString& objectName, ApplicabilityRule rule) {
  for (Rule& r : rules())
    if (r.name == objectName) {
      r.rule = std::move(rule);
      return;
    }
  rules().push_back({objectName, std::move(rule)});
}

Applicability dockApplicability(const QString& objectName, const Scenario& s) {
  for (const Rule& r : rules())
    if (r.name == objectName) return r.rule(s);
  return {};
}

std::vector<QString> dockApplicabilityNames() {
  std::vector<QString> names;
  for (const Rule& r : rules()) names.push_back(r.name);
  return names;
}

DockApplicabilityGuard::DockApplicabilityGuard(QMainWindow* window, ScenarioDocument* doc)
    : QObject(window), window_(window), doc_(doc) {
  // Docks this guard hid in an earlier session: the saved window state has them hidden.
  for (const QString& name : QSettings().value(kSettingsKey).toStringList())
    if (auto* dock = window_->findChild<QDockWidget*>(name)) hidden_.push_back(dock);
  connect(doc_, &ScenarioDocument::changed, this, &DockApplicabilityGuard::update);
  update();
}

bool DockApplicabilityGuard::hiddenAsNotApplicable(const QDockWidget* dock) const {
  return std::find(hidden_.begin(), hidden_.end(), dock) != hidden_.end();
}

void DockApplicabilityGuard::update() {
  const Scenario& s = doc_->scenario();
  QStringList names;
  for (const QString& name : dockApplicabilityNames()) {
    auto* dock = window_->findChild<QDockWidget*>(name);
    if (!dock) continue;
    const Applicability a = dockApplicability(name, s);
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
  QSettings().setValue(kSettingsKey, names);
}

}  // namespace fl::gui
