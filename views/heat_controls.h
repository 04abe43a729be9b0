// What the canvas colours by: the cold and hot thresholds (in %, slider + spin box each),
// the phase shown ("timeline (per bin)" or one of the run's phases, averaged), and a
// side-by-side comparison of two phases (B defaults to the phase after A's, and follows
// A until picked by hand). The comparison is a canvas matter, so it is
// offered as signals: connect sideBySideRequested to TopologyCanvas::setSideBySidePhases
// and sideBySideCleared to TopologyCanvas::clearSideBySide.
#pragma once
#include <QWidget>

class QCheckBox;
class QComboBox;
class QSlider;
class QSpinBox;

namespace fl::views {

class RunModel;

class HeatControls : public QWidget {
  Q_OBJECT
 public:
  explicit HeatControls(RunModel* model, QWidget* parent = nullptr);

  QSpinBox* coldSpin() const { return coldSpin_; }
  QSpinBox* hotSpin() const { return hotSpin_; }
  QComboBox* phaseCombo() const { return phase_; }  // item 0: timeline; item i + 1: phase i
  QCheckBox* sideBySideCheck() const { return compare_; }
  QComboBox* directionCombo() const { return directions_; }  // items in DirectionFilter order
  QComboBox* phaseACombo() const { return phaseA_; }
  QComboBox* phaseBCombo() const { return phaseB_; }

 signals:
  void sideBySideRequested(int phaseA, int phaseB);
  void sideBySideCleared();

 private:
  void syncThresholds();
  void syncPhases();
  void applyThresholds(int coldPercent, int hotPercent);
  void emitSideBySide();
  int followingPhase(int a) const;  // the phase after `a` (the last if none)

  RunModel* model_;
  QSlider *coldSlider_, *hotSlider_;
  QSpinBox *coldSpin_, *hotSpin_;
  QComboBox *phase_, *phaseA_, *phaseB_, *directions_;
  QCheckBox* compare_;
  bool syncing_ = false;
  bool bPicked_ = false;  // the user chose B: it no longer follows A
};

}  // namespace fl::views
