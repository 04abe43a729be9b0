// Which docks apply to a scenario: a dock whose view has nothing to show for the
// scenario's workload (the Traffic Breakdown, AL TLB or Pipeline on a collective; the
// Fusion scheme form on a wafer or tensor-parallel layer; the wafer, CAIS and cross-DC
// docks on other workloads) is hidden, and its View-menu entry disabled with the reason
// as its tool tip, instead of showing empty axes. Each dock declares when it applies by
// its object name: a function of the scenario (keyed on workload.kind) and, where that
// is not enough, of the shown run's results (the CAIS merge table: a tp_layer, or any run
// with merge units), registered in a table. This is the one mechanism that shows and
// hides docks for a workload: new docks add a row with registerDockApplicability(), so
// main_window only installs the guard.
//
// The user's choice stands: the raised tab changes only when Qt moves off a tab that
// was hidden; nothing is raised when a run ends. A dock hidden here is shown again when
// a scenario it applies to is opened, also after a restart (the names are kept in the
// settings, since the window state saved at exit records them hidden).
#pragma once
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

#include "scenario/scenario.h"

class QDockWidget;
class QMainWindow;

namespace fl {
struct Results;
namespace views {
class RunModel;
}
}  // namespace fl

namespace fl::gui {

class ScenarioDocument;

struct Applicability {
  bool applies = true;
  QString reason;  // why not, for the View menu's tool tip ("for MoE layers only")
};
using ApplicabilityRule = std::function<Applicability(const Scenario&)>;
// Also given the shown run's results: null before the first results of a document.
using ResultsApplicabilityRule = std::function<Applicability(const Scenario&, const Results*)>;

// Adds or replaces the rule of the dock named `objectName`; docks without a rule apply.
void registerDockApplicability(const QString& objectName, ApplicabilityRule rule);
void registerDockApplicabilityWithResults(const QString& objectName, ResultsApplicabilityRule rule);
Applicability dockApplicability(const QString& objectName, const Scenario& s, const Results* r = nullptr);
// The docks with a rule (object names), in registration order.
std::vector<QString> dockApplicabilityNames();

// Keeps the window's docks in step with the document's workload.
class DockApplicabilityGuard : public QObject {
  Q_OBJECT
 public:
  // With `model`, rules also see its results and the guard follows resultsChanged.
  DockApplicabilityGuard(QMainWindow* window, ScenarioDocument* doc, const views::RunModel* model = nullptr);

  // Hides the docks that do not apply to the document's scenario and shows those it
  // hid before that apply now. Runs on every document change (a workload.kind edit too)
  // and new results; call it once more after adding docks.
  void update();
  bool hiddenAsNotApplicable(const QDockWidget* dock) const;

 private:
  QMainWindow* window_;
  ScenarioDocument* doc_;
  const views::RunModel* model_;
  std::vector<QPointer<QDockWidget>> hidden_;  // hidden here, not by the user
  QStringList saved_;  // hidden here in an earlier session, docks not built yet at construction
  QStringList written_;  // the names last written to the settings
};

}  // namespace fl::gui
