// DySHARP's destination hub per GPU: the AL TLB (address-layout translation cache) of
// the selected GPU (canvas selection or the combo) next to the whole fabric's figures,
// and a bar chart of every GPU's hit rate with the selected one highlighted. A notice
// replaces it when the run has no per-GPU data (not an MoE layer) or no lookups.
#pragma once
#include <QWidget>
#include <utility>
#include <vector>

class QComboBox;
class QCustomPlot;
class QCPBars;
class QCPItemStraightLine;
class QCPItemText;
class QLabel;
class QTableWidget;

namespace fl {
struct Results;
}

namespace fl::views {

class NoticeStack;
class PointLinks;
class RunModel;

class AlTlbPanel : public QWidget {
  Q_OBJECT
 public:
  explicit AlTlbPanel(RunModel* model, QWidget* parent = nullptr);

  QComboBox* gpuCombo() const { return combo_; }  // data: index in results->endpoints
  QCustomPlot* plot() const { return plot_; }
  QCPBars* rateBars() const { return rates_; }         // key: endpoint index, value: hit rate %
  QCPBars* selectedBar() const { return selected_; }   // the selected GPU's bar, highlighted
  QTableWidget* table() const { return table_; }
  // A figure as shown: `column` 1 the selected GPU, 2 all GPUs ("" if no such row).
  QString value(const QString& property, int column = 1) const;
  bool noticeVisible() const;
  QString noticeText() const;
  int currentEndpoint() const;  // index in results->endpoints, -1 when none
  void selectEndpoint(int index);
  // Where else to look when this run has no AL TLB lookups; added to the notice. Empty:
  // nothing.
  void setElsewhereHint(const QString& hint);
  // The sweep points that have lookups, as links under the notice (as the Merge Table
  // and Switch Tables docks do); a click emits pointLinks()->pointRequested.
  void setElsewherePoints(const QString& what, std::vector<std::pair<int, QString>> points);
  PointLinks* pointLinks() const;
  // Whether a run has anything for this panel to show: AL TLB lookups on some GPU.
  static bool hasLookups(const Results& r);

 private:
  void rebuild();
  void showEndpoint();
  void followSelection();

  RunModel* model_;
  NoticeStack* stack_;
  QComboBox* combo_;
  QTableWidget* table_;
  QCustomPlot* plot_;
  QCPBars *rates_, *selected_;
  QCPItemStraightLine* mean_;  // the whole fabric's hit rate
  QCPItemText* meanLabel_;
};

}  // namespace fl::views
