// "Compare sweep points": pick two finished points of the current sweep and see them
// side by side (views::SchemeCompareView). Non-modal; follows the sweep as points finish
// and keeps the shown pair while their labels still exist.
#pragma once
#include <QDialog>

class QComboBox;
class QLabel;

namespace fl::views {
class CompareCanvases;
class SchemeCompareView;
}

namespace fl::gui {

class SweepResults;

class CompareDialog : public QDialog {
  Q_OBJECT
 public:
  explicit CompareDialog(SweepResults* sweep, QWidget* parent = nullptr);

  QComboBox* pointA() const { return combos_[0]; }  // data: sweep point index
  QComboBox* pointB() const { return combos_[1]; }
  views::SchemeCompareView* view() const { return view_; }
  views::CompareCanvases* canvases() const { return canvases_; }  // the "Fabrics" tab

  // Re-lists the finished points (keeping the chosen ones) and redraws.
  void refresh();

 private:
  void show2();

  SweepResults* sweep_;
  QComboBox* combos_[2];
  QLabel* hint_;
  int chosen_[2] = {-1, -1};  // sweep points the user last saw compared
  views::SchemeCompareView* view_;
  views::CompareCanvases* canvases_;
};

}  // namespace fl::gui
