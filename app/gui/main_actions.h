// The main window's actions and menus (File, Edit, Run, View, Help) with platform-standard
// shortcuts. Only creates them; MainWindow connects them.
#pragma once
#include <QList>

class QAction;
class QActionGroup;
class QMainWindow;
class QMenu;
class QUndoStack;

namespace fl::gui {

struct MainActions {
  QAction *open, *save, *saveAs, *exportReport, *exportImage, *quit;
  QAction *undo, *redo;
  QAction *run, *stop, *stepForward, *stepBack, *playPause;
  QAction* fit;
  QAction* compare;      // two finished sweep points side by side; enabled with >= 2
  QAction* comparePipelines;  // the shown run's token pipeline against another scheme's
  QAction* exportTrace;       // Chrome trace of the shown run
  QAction* presentation;      // F11: full screen, editing docks hidden, larger type (checkable)
  QAction *welcome, *docs, *shortcuts, *about;  // Help menu
  QMenu* recentMenu;     // filled by the window from Settings::recentFiles()
  QMenu* viewMenu;       // the window adds its dock toggles here
  QMenu* speedMenu;
  QMenu* helpMenu;
  QActionGroup* speeds;  // checkable, data() = bins per animation tick
  QList<double> speedFactors;
};

// Builds the actions (object names "actionOpen", "actionRun", ...) and the menu bar.
MainActions createMainActions(QMainWindow* window, QUndoStack* undo);

}  // namespace fl::gui
