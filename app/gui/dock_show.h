// Docks named on the command line (`fabriclab --show TITLE`): found by their title or a
// unique start of it (case-insensitive: `--show hot`), and brought to the front of their tab group. The raise is queued
// until the window's layout has run, and repeated when the first run ends: a dock the
// applicability table has just shown joins its tab bar only then (raised at once, the
// Datacenters stayed behind the Inspector), and results may raise another tab. A dock
// that does not apply to the scenario stays hidden (the table's rule, which may need the
// results), with the reason on stderr.
#pragma once
#include <QList>
#include <QString>
#include <QStringList>

class QDockWidget;

namespace fl::gui {

class MainWindow;

struct DockShowRequest {
  QList<QDockWidget*> docks;  // in the order named
  QString error;              // "" or the unknown (ambiguous) title, with the titles there are (it starts)
};

DockShowRequest findDocksToShow(const MainWindow& window, const QStringList& titles);
// Shows and raises `docks` (queued) now and once more when the window's next run finishes.
void raiseDocksSoon(MainWindow& window, const QList<QDockWidget*>& docks);

}  // namespace fl::gui
