// The colour map every view shades utilisation with: viridis (perceptually uniform,
// colour-blind safe, readable in grey scale), the same map core/report uses, so the
// desktop canvas and the HTML/SVG report agree on what a colour means.
#pragma once
#include <QColor>
#include <QLinearGradient>

namespace fl::views {

// Utilisation 0..1 (clamped; NaN counts as 0) to a colour of the 256-entry table.
QColor colourMap(double utilisation);

// The map as a gradient from `from` (0 %) to `to` (100 %), for legends and plots.
QLinearGradient colourMapGradient(QPointF from, QPointF to);

// The selection: magenta, a hue viridis (blue - green - yellow) never takes, so a
// selected lane is never read as a utilisation.
inline QColor selectionColour(int alpha = 255) { return QColor(255, 45, 200, alpha); }

}  // namespace fl::views
