// The Mapping dock (seed 003 §IV, issue 20 "Views"): switches the mapping editor on the
// canvas (WaferMappingOverlay) on and off, says what mapping is shown (kind, TP groups,
// FTDs, mean all-to-all hops, the phase times of the run), and carries a drag out: a swap
// is checked (mapping_edit.h) and handed to the document through `setApply` (one undo
// step setting mapping.kind explicit and mapping.groups); a refused swap shows its reason
// here, in red, and over the canvas. With network.model analytical, hovering a drag over
// a die previews the swapped mapping's phase times at once (one iteration, no balancer)
// and says how long the preview took.
//
// Experts: wsc_inference places expert e on die e mod N (workload.wsc.experts); the schema
// has no expert placement key, so experts are shown for the selected die but not moved.
#pragma once
#include <QString>
#include <QWidget>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scenario/scenario.h"
#include "views/mapping_edit.h"

class QCheckBox;
class QLabel;

namespace fl::views {

class RunModel;
class TopologyCanvas;
class WaferMappingOverlay;

class MappingPanel : public QWidget {
  Q_OBJECT
 public:
  // Applies withExplicitGroups(scenario, groups) as one undo step; returns "" or why the
  // document refused it.
  using Apply = std::function<QString(const DieLists& groups, const QString& label)>;

  MappingPanel(RunModel* model, TopologyCanvas* canvas, QWidget* parent = nullptr);

  void setApply(Apply apply) { apply_ = std::move(apply); }
  // The document's scenario: what edits are checked against and what is drawn (its
  // mapping built by core, unless a sweep axis gives each point its own: then the run's).
  void setScenario(const Scenario& s);
  // Tries to swap two dies; returns "" when applied, else the reason (shown inline).
  QString requestSwap(int dieA, int dieB);
  // The preview of a swap in the analytical model; "" when there is none.
  QString previewSwap(int dieA, int dieB);

  WaferMappingOverlay* overlay() const { return overlay_; }
  QCheckBox* showCheck() const { return show_; }
  QLabel* refusalLabel() const { return refusal_; }
  QLabel* previewLabel() const { return preview_; }
  QLabel* summaryLabel() const { return summary_; }
  double lastPreviewMs() const { return lastPreviewMs_; }

 private:
  void updateFromResults();
  void updateSummary();
  void updateSelection();
  bool mappingFromRun() const;  // a sweep axis sets the mapping: draw the run's
  void showRefusal(const QString& reason);

  RunModel* model_;
  WaferMappingOverlay* overlay_;
  Apply apply_;
  std::optional<Scenario> scenario_;
  QCheckBox *show_, *rings_;
  QLabel *summary_, *refusal_, *preview_, *die_, *experts_;
  double lastPreviewMs_ = -1;
};

}  // namespace fl::views
