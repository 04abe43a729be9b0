// The Mapping dock (seed 003 §IV, issue 20 "Views"): switches the mapping editor on the
// canvas (WaferMappingOverlay) on and off, says what mapping is shown (kind, TP groups,
// FTDs, mean all-to-all hops, the phase times of the run), and carries a drag out: a swap
// is checked (mapping_edit.h) and handed to the document through `setApply` (one undo
// step setting mapping.kind explicit and mapping.groups); a refused swap shows its reason
// here, in red, and over the canvas. In expert mode a drag moves a routed expert to
// another die, or exchanges two experts (wsc_expert_edit.h): one undo step writing
// workload.wsc.expert_placement explicit + workload.wsc.expert_dies, through `setApplyExperts`.
// With network.model analytical, hovering a drag previews the edit (WscDragPreview: on a
// worker thread, throttled): the phase times as text, and the links' hot / cold / idle
// classes drawn live over the canvas and handed on (previewResults) for the Hot/Cold dock.
#pragma once
#include <QString>
#include <QWidget>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scenario/scenario.h"
#include "views/mapping_edit.h"
#include "views/wafer_mapping_overlay.h"
#include "views/wsc_drag_preview.h"
#include "views/wsc_expert_edit.h"

class QCheckBox;
class QComboBox;
class QLabel;

namespace fl::views {

class RunModel;
class TopologyCanvas;

class MappingPanel : public QWidget {
  Q_OBJECT
 public:
  // Applies withExplicitGroups(scenario, groups) as one undo step; returns "" or why the
  // document refused it.
  using Apply = std::function<QString(const DieLists& groups, const QString& label)>;
  // Applies withExplicitExperts(scenario, dies) as one undo step; "" or why refused.
  using ApplyExperts = std::function<QString(const ExpertDies& dies, const QString& label)>;

  MappingPanel(RunModel* model, TopologyCanvas* canvas, QWidget* parent = nullptr);

  void setApply(Apply apply) { apply_ = std::move(apply); }
  void setApplyExperts(ApplyExperts apply) { applyExperts_ = std::move(apply); }
  // The document's scenario: what edits are checked against and what is drawn (its
  // mapping built by core, unless a sweep axis gives each point its own: then the run's).
  void setScenario(const Scenario& s);
  // Tries to swap two dies; returns "" when applied, else the reason (shown inline).
  QString requestSwap(int dieA, int dieB);
  // Tries to move an expert to a die, or to exchange two experts; "" or the reason.
  QString requestExpertMove(int expert, int die);
  QString requestExpertSwap(int expertA, int expertB);
  // Asks for the preview of a swap or an expert move in the analytical model (answered
  // on previewLabel, the canvas's lanes and previewResults); false when there is none.
  bool previewSwap(int dieA, int dieB);
  bool previewExperts(const ExpertDies& dies, const QString& label);
  // The placement shown (entry e: the die of expert e).
  const ExpertDies& expertDies() const { return expertDies_; }
  void setDragMode(WaferMappingOverlay::DragMode mode);
  WscDragPreview* preview() const { return previewRun_; }

  WaferMappingOverlay* overlay() const { return overlay_; }
  QCheckBox* showCheck() const { return show_; }
  QLabel* refusalLabel() const { return refusal_; }
  QLabel* previewLabel() const { return preview_; }
  QLabel* summaryLabel() const { return summary_; }
  QComboBox* dragModeCombo() const { return mode_; }
  double lastPreviewMs() const { return lastPreviewMs_; }

 signals:
  // The previewed run while a drag hovers (null when the drag ends).
  void previewResults(std::shared_ptr<const fl::Results> results);

 private:
  void updateFromResults();
  void updateSummary();
  void updateSelection();
  bool mappingFromRun() const;  // a sweep axis sets the mapping: draw the run's
  void showRefusal(const QString& reason);
  bool requestPreview(const Scenario& after, const QString& label);
  void showPreview(const WscDragPreview::Outcome& o);
  void endPreview();
  QString applyExperts(const ExpertDies& dies, const QString& label);

  RunModel* model_;
  WaferMappingOverlay* overlay_;
  Apply apply_;
  ApplyExperts applyExperts_;
  ExpertDies expertDies_;
  WscDragPreview* previewRun_;
  std::optional<Scenario> scenario_;
  QCheckBox *show_, *rings_;
  QComboBox* mode_;
  QLabel *summary_, *refusal_, *preview_, *die_, *experts_;
  double lastPreviewMs_ = -1;
};

}  // namespace fl::views
