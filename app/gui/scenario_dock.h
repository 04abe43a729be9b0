// The Scenario dock: the editable scenario tree, and under it the message of the last
// rejected edit in red (the CLI's text: key path, what was expected, what was found).
#pragma once
#include <QDockWidget>

class QLabel;
class QTreeView;

namespace fl::gui {

class ScenarioDocument;
class ScenarioTreeModel;
class ValueDelegate;

class ScenarioDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit ScenarioDock(ScenarioDocument* doc, QWidget* parent = nullptr);

  ScenarioTreeModel* model() const { return model_; }
  QTreeView* view() const { return view_; }
  QString errorText() const;  // "" when the last edit was accepted
  // Below kStackBelow px of tree, each key stands above its value (ValueDelegate).
  bool keysStacked() const;
  static constexpr int kStackBelow = 240;

 public slots:
  void showError(const QString& message);
  void clearError();

 private:
  void expandSections();
  // The key column at most 45 % of the tree's width (keys elide first), the value column
  // the rest; the defaults column only where the tree is wide enough for it.
  void fitColumns();
  struct KeyWidths {
    int whole = 0;  // the widest key on one line
    int part = 0;   // the widest part between separators
  };
  KeyWidths keyWidths(int indent) const;  // in pixels over the expanded rows, indentation included
  bool eventFilter(QObject* watched, QEvent* event) override;

  ScenarioTreeModel* model_;
  QTreeView* view_;
  ValueDelegate* values_;
  QLabel* error_;
  int indentation_ = 20;  // the style's, for a wide dock
};

}  // namespace fl::gui
