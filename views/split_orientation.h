// Panels under the canvas (switch_table_panel.h, merge_table_inspector.h) put their two
// views side by side when the dock is wide and short, one above the other otherwise. Side
// by side only where both views' minimum widths fit: the panel's own minimum width is the
// stacked one, so a small window's narrow centre never pushes the side docks aside (the
// Merge Table once held the centre at 476 px and left the Scenario dock 185 px).
#pragma once
#include <QSplitter>
#include <algorithm>

namespace fl::views {

// The narrowest `split` can be with its views stacked, plus `margins`.
inline int stackedMinimumWidth(const QSplitter& split, int margins) {
  int widest = 0;
  for (int i = 0; i < split.count(); ++i) {
    const QWidget* w = split.widget(i);
    widest = std::max({widest, w->minimumWidth(), w->minimumSizeHint().width()});
  }
  return widest + margins;
}

// Turns `split` for a panel of `size`: side by side when wider than `toWide` x its height
// (while side by side: `keepWide` x, a hysteresis, so that a flip that changes size hints
// does not flip back) and the views' minimum widths fit in `size` less `margins`.
inline void orientSplit(QSplitter& split, QSize size, double toWide, double keepWide, int margins) {
  int sideBySide = margins + split.handleWidth() * std::max(0, split.count() - 1);
  for (int i = 0; i < split.count(); ++i) {
    const QWidget* w = split.widget(i);
    sideBySide += std::max(w->minimumWidth(), w->minimumSizeHint().width());
  }
  const double ratio = split.orientation() == Qt::Horizontal ? keepWide : toWide;
  const auto o = size.width() > ratio * size.height() && size.width() >= sideBySide ? Qt::Horizontal : Qt::Vertical;
  if (split.orientation() != o) {
    split.setOrientation(o);
    split.setSizes({1, 1});  // an even share in the new direction
  }
}

}  // namespace fl::views
