// Details of the selection: a node (name, kind, endpoint index, its ports and peers and,
// for switches, the run's SwitchResult figures) or a link (per direction: bytes, payload,
// packets, busy time, utilisation over the run and in the current bin, capacity and the
// hot/cold state). One table, section rows in bold; a hint when nothing is selected.
#pragma once
#include <QWidget>

class QLabel;
class QStackedWidget;
class QTableWidget;

namespace fl::views {

class RunModel;

class InspectorPanel : public QWidget {
  Q_OBJECT
 public:
  explicit InspectorPanel(RunModel* model, QWidget* parent = nullptr);

  QString title() const;
  QTableWidget* table() const { return table_; }
  // The value cell of the first row whose first column reads `property` ("" if none);
  // `column` 1 is the value (links: direction a -> b), 2 is b -> a.
  QString value(const QString& property, int column = 1) const;

 private:
  void refresh();
  void showNode(int node);
  void showLink(int link);
  void portRows(int node);
  void section(const QString& text);
  void row(const QString& property, const QString& a, const QString& b = QString());

  RunModel* model_;
  QStackedWidget* stack_;
  QLabel *hint_, *title_, *subtitle_;
  QTableWidget* table_;
};

}  // namespace fl::views
