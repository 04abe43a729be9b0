// The Hot/Cold Links dock: a HotColdOverlay and what it shows. "Two phases" puts two
// phases of the shown run side by side (all-reduce and dispatch by default: ER's
// complementary hot and cold links, seed 003 §V-A); "Two runs" puts one phase of two
// finished runs (sweep points) side by side on one colour scale, baseline and ER by
// default when a sweep has both. Colour by class (hot threshold adjustable, the run's
// by default) or by utilisation. While a mapping-editor drag is previewed (setPreview),
// "Two phases" shows the previewed run; "Two runs" shows it in place of the edited (shown)
// run, or of the second run when neither panel is that one, the other kept to compare
// against. Captions say "preview".
#pragma once
#include <QStringList>
#include <QWidget>
#include <memory>
#include <string>
#include <vector>

#include "results/results.h"

class QBoxLayout;
class QComboBox;
class QDoubleSpinBox;

namespace fl::views {

class HotColdOverlay;
class RunModel;

class HotColdPanel : public QWidget {
  Q_OBJECT
 public:
  explicit HotColdPanel(RunModel* model, QWidget* parent = nullptr);

  // The finished runs that "Two runs" offers (sweep points, by label; null: not finished).
  void setRuns(const QStringList& labels, const std::vector<std::shared_ptr<const Results>>& runs);

  // "Two phases" shows the shown run (the selected sweep point) once `follow` is set; before
  // that (a scenario just opened, no point picked) it shows the first finished ER or HER
  // point of a mapping sweep that opened on its baseline, captioned "er point".
  void setFollowShown(bool follow);
  bool followsShown() const { return followShown_; }
  std::shared_ptr<const Results> phasesRun() const;  // the run "Two phases" draws (no preview)

  // The run a mapping-editor drag previews (null: back to the shown run).
  void setPreview(std::shared_ptr<const fl::Results> preview);
  bool showsPreview() const { return preview_ != nullptr; }

  HotColdOverlay* overlay() const { return overlay_; }
  QComboBox* modeCombo() const { return mode_; }  // 0: two phases, 1: two runs
  QComboBox* phaseACombo() const { return phaseA_; }
  QComboBox* phaseBCombo() const { return phaseB_; }
  QComboBox* runACombo() const { return runA_; }
  QComboBox* runBCombo() const { return runB_; }
  QComboBox* colourCombo() const { return colour_; }
  QDoubleSpinBox* hotSpin() const { return hot_; }
  bool controlsBeside() const { return controlsBeside_; }  // a column left of the wafers

 protected:
  void resizeEvent(QResizeEvent* e) override;

 private:
  void update();
  void syncRuns();
  void syncThreshold();

  RunModel* model_;
  HotColdOverlay* overlay_;
  QComboBox *mode_, *phaseA_, *phaseB_, *runA_, *runB_, *colour_;
  QDoubleSpinBox* hot_;
  QWidget *phaseBBox_, *runsBox_, *runBBox_;
  QStringList labels_;
  std::vector<std::shared_ptr<const Results>> runs_;
  std::shared_ptr<const Results> preview_;
  QBoxLayout* layout_;
  QWidget* controls_;
  bool controlsBeside_ = false;
  bool syncing_ = false;
  bool runsPicked_ = false;
  bool followShown_ = false;
  std::string runThresholdKind_;  // and its workload.wsc.hot_threshold_kind
  double runThreshold_ = -1;  // the last run's workload.wsc.hot_threshold  // the user chose the pair: new runs do not change it
};

}  // namespace fl::views
