#include "gui/compare_dialog.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "gui/sweep_results.h"
#include "views/compare_canvases.h"
#include "views/scheme_compare_view.h"

namespace fl::gui {

CompareDialog::CompareDialog(SweepResults* sweep, QWidget* parent) : QDialog(parent), sweep_(sweep) {
  setObjectName(QStringLiteral("CompareDialog"));
  setWindowTitle(tr("Compare Sweep Points"));
  auto* pick = new QHBoxLayout;
  const QString names[] = {tr("A (top, left):"), tr("B (bottom, right):")};
  for (int side = 0; side < 2; ++side) {
    combos_[side] = new QComboBox(this);
    combos_[side]->setObjectName(side == 0 ? QStringLiteral("comparePointA") : QStringLiteral("comparePointB"));
    combos_[side]->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    pick->addWidget(new QLabel(names[side], this));
    pick->addWidget(combos_[side]);
    pick->addSpacing(16);
    connect(combos_[side], &QComboBox::currentIndexChanged, this, [this, side] {
      chosen_[side] = combos_[side]->currentData().toInt();  // the user's choice, kept over re-runs
      show2();
    });
  }
  hint_ = new QLabel(this);
  pick->addWidget(hint_, 1);
  view_ = new views::SchemeCompareView(this);
  // The charts, and the two fabrics side by side on one colour scale at one time.
  auto* tabs = new QTabWidget(this);
  tabs->setObjectName(QStringLiteral("compareTabs"));
  tabs->addTab(view_, tr("Charts"));
  canvases_ = new views::CompareCanvases(this);
  tabs->addTab(canvases_, tr("Fabrics"));
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(pick);
  layout->addWidget(tabs, 1);
  resize(1200, 850);

  connect(sweep_, &SweepResults::pointFinished, this, &CompareDialog::refresh);
  connect(sweep_, &SweepResults::labelsChanged, this, [this] {  // other points: choose anew
    chosen_[0] = chosen_[1] = -1;
    refresh();
  });
  refresh();
}

void CompareDialog::refresh() {
  const QStringList labels = sweep_->labels();
  QList<int> finished;
  for (int i = 0; i < sweep_->pointCount(); ++i)
    if (sweep_->isFinished(i)) finished << i;
  // The user's pair survives re-runs (points finish again one by one); else the first
  // point against the one the main window shows (or the second).
  int keep[2] = {chosen_[0], chosen_[1]};
  if (!finished.contains(keep[0]) && !finished.isEmpty()) keep[0] = finished[0];
  if (!finished.contains(keep[1]) && finished.size() > 1)
    keep[1] = sweep_->isFinished(sweep_->selectedPoint()) && sweep_->selectedPoint() != keep[0]
                  ? sweep_->selectedPoint()
                  : finished[1];
  for (int side = 0; side < 2; ++side) {
    const QSignalBlocker block(combos_[side]);
    combos_[side]->clear();
    for (int i : finished) combos_[side]->addItem(labels.value(i), i);
    combos_[side]->setCurrentIndex(std::max(0, combos_[side]->findData(keep[side])));
  }
  show2();
}

void CompareDialog::show2() {
  const int a = combos_[0]->currentData().isValid() ? combos_[0]->currentData().toInt() : -1;
  const int b = combos_[1]->currentData().isValid() ? combos_[1]->currentData().toInt() : -1;
  const auto ra = sweep_->results(a), rb = sweep_->results(b);
  if (combos_[0]->count() < 2 || !ra || !rb) {
    hint_->setText(tr("Waiting for two finished sweep points…"));
    return;
  }
  hint_->setText(a == b ? tr("Both sides show the same point.") : QString());
  view_->setResults(combos_[0]->currentText(), *ra, combos_[1]->currentText(), *rb);
  canvases_->setRuns(combos_[0]->currentText(), sweep_->topology(a), ra, combos_[1]->currentText(), sweep_->topology(b), rb);
}

}  // namespace fl::gui
