// The Scenario dock: the editable scenario tree, and under it the message of the last
// rejected edit in red (the CLI's text: key path, what was expected, what was found).
#pragma once
#include <QDockWidget>

class QLabel;
class QTreeView;

namespace fl::gui {

class ScenarioDocument;
class ScenarioTreeModel;

class ScenarioDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit ScenarioDock(ScenarioDocument* doc, QWidget* parent = nullptr);

  ScenarioTreeModel* model() const { return model_; }
  QTreeView* view() const { return view_; }
  QString errorText() const;  // "" when the last edit was accepted

 public slots:
  void showError(const QString& message);
  void clearError();

 private:
  void expandSections();

  ScenarioTreeModel* model_;
  QTreeView* view_;
  QLabel* error_;
};

}  // namespace fl::gui
