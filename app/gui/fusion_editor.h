// The "Fusion scheme" dock: the scheme.* keys of an MoE layer as form controls (a notice
// for other workloads). Fusion and communication combos with a one-line explanation and
// buttons for the seeds' five named combinations; the token-centric SM partition as four
// sliders that always sum to gpu.sms; tiles and token-tracker tables, kernel launches,
// the persistent kernel and stragglers. Every user gesture is one undo command on the
// document (ScenarioDocument::editAll); a rejected value shows the validator's message
// under the form and the scenario stays as it was. The dock follows the document (undo,
// redo, open). Accepted edits re-run through the main window's debounced re-run.
// Keys the scenario's sweep varies are shown with the selected sweep point's value and
// locked (each point overrides them), with a note saying so, so that the form always
// describes the run the other views show.
#pragma once
#include <QDockWidget>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "views/sm_partition_slider.h"

class QAbstractButton;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QScrollArea;
class QStackedWidget;
class QVBoxLayout;

namespace fl::gui {

class ScenarioDocument;

class FusionEditor : public QDockWidget {
  Q_OBJECT
 public:
  explicit FusionEditor(ScenarioDocument* doc, QWidget* parent = nullptr);

  // The control bound to a scheme key (QComboBox, QSpinBox, QDoubleSpinBox, QCheckBox or
  // QLineEdit for quantities), or null.
  QWidget* field(const std::string& path) const;
  views::SmPartitionSlider* partition() const { return partition_; }
  QAbstractButton* presetButton(int index) const { return presetButtons_.at(index); }
  QString explanation() const;
  QString errorText() const;  // "" when the last edit was accepted
  bool noticeVisible() const;
  QString noticeText() const;
  QString sweepNoteText() const;  // "" when no shown key is swept

 public slots:
  // The sweep point the views show (index into sweepPoints() of the document).
  void setSweepPoint(int point);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  using Assignments = std::vector<std::pair<std::string, std::string>>;
  struct Field {
    std::string path;
    QWidget* widget;
    std::function<void(const std::string&)> show;  // the document's value text into the widget
  };

  QWidget* buildSchemeBox();
  QWidget* buildPartitionBox();
  QWidget* buildTrackerBox();
  QWidget* buildLaunchBox();
  QWidget* buildPersistentBox();
  QWidget* buildStragglersBox();

  // Controls for one key, added to `form` with the schema's description as tooltip.
  QComboBox* addCombo(QFormLayout* form, const QString& label, const std::string& path);
  QWidget* addInteger(QFormLayout* form, const QString& label, const std::string& path);
  QWidget* addReal(QFormLayout* form, const QString& label, const std::string& path, int decimals, double step);
  QLineEdit* addQuantity(QFormLayout* form, const QString& label, const std::string& path);
  QWidget* addCheck(QFormLayout* form, const QString& label, const std::string& path);
  void alignLabels(QWidget* body);
  QWidget* bind(const std::string& path, QWidget* w, std::function<void(const std::string&)> show);

  // One gesture: applied as one undo command, or its error shown and the form reverted
  // (except `keep`, a line edit whose rejected text the user may want to correct).
  void commit(const Assignments& assignments, const QString& label = {}, QWidget* keep = nullptr);
  void refresh(QWidget* keep = nullptr);
  void showError(const QString& message);
  void clearError();

  ScenarioDocument* doc_;
  QStackedWidget* stack_;
  QScrollArea* scroll_;
  QLabel *notice_, *explanation_, *error_, *sweepNote_;
  int sweepPoint_ = 0;
  views::SmPartitionSlider* partition_ = nullptr;
  std::vector<QAbstractButton*> presetButtons_;
  QWidget *partitionBox_ = nullptr, *trackerBox_ = nullptr, *persistentBox_ = nullptr;
  std::vector<Field> fields_;
};

}  // namespace fl::gui
