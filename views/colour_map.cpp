#include "views/colour_map.h"

#include "report/colormap.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace fl::views {

// The same viridis table the HTML report uses, so the canvas and the report agree.
QColor colourMap(double utilisation) { return QColor::fromRgb(report::viridisRgb(utilisation)); }

QLinearGradient colourMapGradient(QPointF from, QPointF to) {
  QLinearGradient g(from, to);
  for (int i = 0; i <= 16; ++i) g.setColorAt(i / 16.0, colourMap(i / 16.0));
  return g;
}

}  // namespace fl::views
