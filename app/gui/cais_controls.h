// The "CAIS" dock: the knobs of a tensor-parallel layer under CAIS (seed 002) as a compact
// form: the scheme by the paper's names (TP-NVLS, SP-NVLS, CAIS-Base, ...), the merge
// table's size and timeout, the drift that makes arrivals skew (kernel launch jitter and
// thread-block noise: scheme.stragglers.* and the calibrated workload.tp.* drift,
// specs/cais.md §2.8), the SM split of asymmetric overlapping and the tiles' order. Each change is one undo command
// (ScenarioDocument::edit); a rejected value shows the validator's message and the form
// reverts. Keys the sweep varies show the selected point's value and are locked, as in
// the Fusion scheme dock. A notice stands in for the form outside tp_layer workloads.
// Choice keys (scheme.tp, workload.tp.row_order) are combo boxes listing the schema's
// values, by the seeds' names where core/scenario/friendly_names.h has one.
#pragma once
#include <QDockWidget>
#include <string>
#include <vector>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QStackedWidget;

namespace fl::gui {

class ScenarioDocument;

// The paper's name for a scheme.tp value ("cais_base" -> "CAIS-Base", from
// friendlyValueName); the value itself when it has none.
QString tpSchemeDisplayName(const std::string& value);

class CaisControls : public QDockWidget {
  Q_OBJECT
 public:
  explicit CaisControls(ScenarioDocument* doc, QWidget* parent = nullptr);

  QComboBox* schemeCombo() const { return scheme_; }  // item data: the scheme.tp value
  // The combo box of a choice key (scheme.tp, workload.tp.row_order; item data: the
  // value), or null.
  QComboBox* choice(const std::string& path) const;
  // The line edit of a key other than the choices (null when not shown).
  QLineEdit* field(const std::string& path) const;
  std::vector<std::string> paths() const;  // every key the form shows, scheme.tp first
  QString errorText() const;
  bool noticeVisible() const;
  QString sweepNoteText() const;

 public slots:
  void setSweepPoint(int point);

 private:
  void addLine(QFormLayout* form, const QString& label, const std::string& path);
  QComboBox* addChoice(QFormLayout* form, const QString& label, const std::string& path);
  void commit(const std::string& path, const std::string& text);
  void refresh();

  ScenarioDocument* doc_;
  QStackedWidget* stack_;
  QLabel *notice_, *error_, *sweepNote_;
  QComboBox* scheme_;
  std::vector<std::pair<std::string, QComboBox*>> choices_;  // scheme.tp first
  std::vector<std::pair<std::string, QLineEdit*>> lines_;
  int sweepPoint_ = 0;
};

}  // namespace fl::gui
