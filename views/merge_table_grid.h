// The merging table of one CAIS merge unit as a grid of slots at one moment (the
// inspector's picture; merge_table_state.h works out what is in each slot). A cell's
// colour is its entry's state (mergeCellColour); an entry that ended inside the shown
// window is drawn faded in the colour of how it ended. Marks, one per GPU in GPU order (a
// row, or two in a square cell; the home GPU's place left blank), show who had joined
// the entry: filled once that GPU's request arrived. Cells too small for marks show a fill bar instead.
// Hover a cell for its block, state, age and arrivals.
#pragma once
#include <QColor>
#include <QWidget>
#include <vector>

#include "views/merge_table_state.h"

namespace fl::views {

QColor mergeCellColour(MergeCellState s);
// The states as a one-line HTML key (coloured squares and names) for a QLabel.
QString mergeStateLegendHtml();

class MergeTableGrid : public QWidget {
  Q_OBJECT
 public:
  explicit MergeTableGrid(QWidget* parent = nullptr);

  // `gpuOfNode`: topology node id -> GPU index (-1: not a GPU); `home`: the unit's GPU.
  void setWindow(MergeWindow window, std::vector<int> gpuOfNode, int gpus, int home, const SwitchResult* sw,
                 Time to);
  const MergeWindow& window() const { return window_; }
  int gpus() const { return gpus_; }
  // The cell rectangle of slot `s` in widget coordinates (empty when out of range).
  QRectF cellRect(int s) const;
  // GPU indices whose requests had joined slot `s`'s entry by the window's end.
  std::vector<int> arrivedGpus(int s) const;
  QString cellToolTip(int s) const;

  QSize sizeHint() const override { return {360, 220}; }
  QSize minimumSizeHint() const override { return {160, 90}; }

 protected:
  void paintEvent(QPaintEvent*) override;
  bool event(QEvent* e) override;

 private:
  struct Layout {
    int cols = 1, rows = 1;
    double cell = 10, x0 = 0, y0 = 0;
  };
  Layout layout() const;

  MergeWindow window_;
  std::vector<int> gpuOfNode_;
  int gpus_ = 0, home_ = -1;
  const SwitchResult* sw_ = nullptr;
  Time to_ = 0;
};

}  // namespace fl::views
