// Every chart's context menu: save as PNG or SVG, copy the image, save the plotted data
// as CSV, and maximise (the chart's dock floats over the whole screen; again: back).
// installChartMenus(root) gives it to every QCustomPlot under `root`; the exports are
// functions too, for tests and other callers.
#pragma once
#include <QString>

class QCustomPlot;
class QMenu;
class QWidget;

namespace fl::views {

void installChartMenu(QCustomPlot* plot);
void installChartMenus(QWidget* root);
// The menu the chart shows (actions "chartSavePng", "chartSaveSvg", "chartCopy",
// "chartSaveCsv", "chartMaximise"), parented to `parent`.
QMenu* chartMenu(QCustomPlot* plot, QWidget* parent);

bool saveChartPng(QCustomPlot* plot, const QString& path);
bool saveChartSvg(QCustomPlot* plot, const QString& path);
void copyChartImage(QCustomPlot* plot);
// Every plotted series as rows "series,x,y" (graphs and bars, with their axis titles in
// the header comment); Gantt bars as "kind,gpu,start_us,end_us".
QString chartCsv(QCustomPlot* plot);
bool saveChartCsv(QCustomPlot* plot, const QString& path);
// Floats the chart's dock maximised, or docks it back; false when it sits in no dock.
bool toggleChartMaximised(QCustomPlot* plot);

}  // namespace fl::views
