// The token-centric pipeline's SM partition (seed 000 §IV-C1): four groups, Dispatch,
// GEMM-1, GEMM-2 and Combine, that always sum to the GPU's SMs. One slider and spin box
// per group, a stacked bar of the split, and an "automatic" box (all four 0: the
// simulator picks the split, which the sliders and the bar then show greyed). Moving one group takes SMs from, or gives them to, the
// other three in proportion (redistributeSms); a whole drag is one edit.
#pragma once
#include <QWidget>
#include <array>

class QCheckBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace fl::views {

inline constexpr int kSmGroups = 4;
using SmGroups = std::array<int, kSmGroups>;  // Dispatch, GEMM-1, GEMM-2, Combine

// Group `moved` set to `value`; the other three absorb the difference so that the sum
// stays `total` (assumes sum(base) == total). Rule, chosen to keep the others' ratios:
//  - every group keeps at least 1 SM (the validator needs one for Dispatch, Combine and
//    the GEMMs), so `value` is clamped to [1, total - the others' floors]; a group that
//    is already 0 (from a file) stays 0 when SMs are taken;
//  - SMs taken are taken in proportion to each other group's spare SMs (above 1);
//  - SMs given back are given in proportion to each other group's SMs (equally if all 0);
//  - integer shares by largest remainder: floor(d * w / W) each, then the leftover SMs
//    one each to the largest remainders, ties to the earlier group (pipeline order).
SmGroups redistributeSms(const SmGroups& base, int moved, int value, int total);

// The split as one horizontal bar, a segment per group with its name and SM count.
class SmPartitionBar : public QWidget {
  Q_OBJECT
 public:
  explicit SmPartitionBar(QWidget* parent = nullptr);
  // `automatic`: the groups are the simulator's own split (drawn greyed, labelled so).
  void setPartition(const SmGroups& groups, int total, bool automatic = false);
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;
  static QColor groupColour(int group);

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  SmGroups groups_{};
  int total_ = 0;
  bool automatic_ = false;
};

class SmPartitionSlider : public QWidget {
  Q_OBJECT
 public:
  explicit SmPartitionSlider(QWidget* parent = nullptr);

  // Shows a partition without emitting anything. `automaticSplit` is the split the
  // simulator takes when all four groups are 0: shown (disabled) while automatic, and
  // what unticking "automatic" starts from (it must sum to `total`).
  void setPartition(const SmGroups& groups, int total, const SmGroups& automaticSplit);
  SmGroups groups() const { return shown_; }  // during a drag: the preview; automatic: its split
  int total() const { return total_; }
  bool isAutomatic() const;

  QSlider* slider(int group) const { return sliders_[group]; }
  QSpinBox* spinBox(int group) const { return spins_[group]; }
  QCheckBox* automaticBox() const { return automatic_; }
  SmPartitionBar* bar() const { return bar_; }
  static QString groupName(int group);

 signals:
  // One user gesture ended (a drag released, a key or wheel step, a spin box value, the
  // automatic box toggled): the partition to store.
  void partitionEdited(const fl::views::SmGroups& groups);

 private:
  void onSliderMoved(int group, int value);
  void showGroups(const SmGroups& groups);
  void updateEnabled();

  std::array<QSlider*, kSmGroups> sliders_{};
  std::array<QSpinBox*, kSmGroups> spins_{};
  QCheckBox* automatic_;
  SmPartitionBar* bar_;
  SmGroups stored_{}, shown_{}, automaticSplit_{};
  SmGroups dragBase_{};  // the partition when the current drag began
  int total_ = 0;
};

}  // namespace fl::views
