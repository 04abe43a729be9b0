// Dock tab bars that show every tab whole on a 1024 x 768 screen. The main window's
// bottom row tabs up to six docks (Plots, Switch Tables, Pipeline, Sweep, Merge Table,
// CAIS Compare on a CAIS layer) into the ~400 px under the canvas; with their titles the
// row scrolled and a tab hid behind the arrows ("…es"). The tabs draw a short label
// (dockTabLabel: "Tables", "Merge", "Compare"), while the dock's title bar, the tab's
// tool tip, the View menu and --show keep the full title. The bars never elide; they
// scroll only where even the labels do not fit (a window narrower than ~900 px): asking
// the layout for room for every tab instead pushed an 800 x 600 screen's window to
// 845 px, past the screen's edge.
#pragma once
#include <QString>

class QDockWidget;
class QMainWindow;

namespace fl::gui {

// The label a dock's tab shows: short for docks whose title is long, else the title.
QString dockTabLabel(const QDockWidget& dock);

// Applies the labels and the no-elide policy to the window's dock tab bars,
// also to those Qt creates later (tab bars come and go as docks are tabbed).
void installDockTabLabels(QMainWindow* window);

}  // namespace fl::gui
