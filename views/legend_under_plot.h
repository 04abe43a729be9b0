// A compact key under a QCustomPlot's axis rect, never over its data: columns first,
// `wrap` entries a row, one point smaller type. For the CAIS comparison plots.
// fitLegendColumns, after the entries are named and whenever the plot's width changes,
// lowers the entries a row until the widest fits (long names used to be cut).
#pragma once
#include <QFont>
#include <algorithm>
#include <qcustomplot.h>

namespace fl::views {

inline void legendUnderPlot(QCustomPlot* plot, int wrap) {
  plot->axisRect()->insetLayout()->take(plot->legend);
  plot->plotLayout()->addElement(1, 0, plot->legend);
  plot->plotLayout()->setRowStretchFactor(1, 0.001);
  plot->legend->setVisible(true);
  plot->legend->setBorderPen(Qt::NoPen);
  plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  plot->legend->setWrap(wrap);
  plot->legend->setRowSpacing(0);
  plot->legend->setIconSize(22, 10);
  QFont small = plot->font();
  small.setPointSizeF(std::max(6.0, small.pointSizeF() - 1));
  plot->legend->setFont(small);
}

// At most `wrap` entries a row, fewer when the widest entry would not fit the plot's width.
inline void fitLegendColumns(QCustomPlot* plot, int wrap) {
  int widest = 1;
  for (int i = 0; i < plot->legend->itemCount(); ++i)
    if (QCPLayoutElement* item = plot->legend->item(i))
      widest = std::max(widest, item->minimumOuterSizeHint().width());
  const QMargins m = plot->legend->margins();
  const int room = plot->width() - m.left() - m.right();
  const int columns = std::clamp((room + plot->legend->columnSpacing()) / (widest + plot->legend->columnSpacing()), 1, wrap);
  if (columns == plot->legend->wrap()) return;
  plot->legend->setWrap(columns);
  plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // re-flows the entries
}

}  // namespace fl::views
