// A compact key under a QCustomPlot's axis rect, never over its data: columns first,
// `wrap` entries a row, one point smaller type. For the CAIS comparison plots.
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

}  // namespace fl::views
