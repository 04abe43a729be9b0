// Colours for the report: viridis for utilisation (perceptually uniform, readable in
// grey-scale print and by colour-blind readers) and a categorical palette for series.
#pragma once
#include <cstdint>
#include <string>

namespace fl::report {

// Viridis at t in [0, 1] (clamped), as "#rrggbb". Matplotlib's 256-entry table.
std::string viridis(double t);
std::uint32_t viridisRgb(double t);  // 0xrrggbb

// Series colour i (Okabe-Ito palette, colour-blind safe; cycles after 8).
std::string seriesColor(int i);

// "#rrggbb" from 0xrrggbb.
std::string hexColor(std::uint32_t rgb);

}  // namespace fl::report
