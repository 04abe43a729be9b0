// The canvas's find box (Ctrl+F): a line edit over the top-right corner of the fabric
// that completes device names as they are typed; Enter (or a completion) asks the canvas
// to jump to that node, Escape hides it. Names match by substring, case-insensitive, so
// "node1" finds "dc17/node1".
#pragma once
#include <QLineEdit>

class QStringListModel;

namespace fl::views {

class CanvasFindBox : public QLineEdit {
  Q_OBJECT
 public:
  explicit CanvasFindBox(QWidget* parent = nullptr);

  void setNames(const QStringList& names);  // the fabric's device names
  void open();                               // shown, focused, text selected

 signals:
  void nodeRequested(const QString& name);

 protected:
  void keyPressEvent(QKeyEvent* e) override;

 private:
  QStringListModel* names_;
};

}  // namespace fl::views
