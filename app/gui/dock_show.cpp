#include "gui/dock_show.h"

#include <QDockWidget>
#include <QPointer>
#include <QTimer>
#include <memory>

#include "gui/dock_applicability.h"
#include "gui/main_window.h"
#include "gui/run_controller.h"
#include "gui/scenario_document.h"
#include "views/run_model.h"

namespace fl::gui {

namespace {

// The docks that apply to the window's scenario and results, shown and raised; the
// others named with the reason once `explain`.
void raiseAll(const MainWindow& window, const QList<QPointer<QDockWidget>>& docks, bool explain) {
  for (QDockWidget* d : docks) {
    if (!d) continue;
    const Applicability a = dockApplicability(d->objectName(), window.document()->scenario(), window.runModel()->results());
    if (a.applies) {
      d->show();
      d->raise();
    } else if (explain) {
      qWarning("--show: the %s dock does not apply to this scenario: %s", qPrintable(d->windowTitle()), qPrintable(a.reason));
    }
  }
}

}  // namespace

DockShowRequest findDocksToShow(const MainWindow& window, const QStringList& titles) {
  DockShowRequest out;
  const auto docks = window.findChildren<QDockWidget*>();
  for (const QString& title : titles) {
    QDockWidget* found = nullptr;
    QStringList names;
    for (QDockWidget* d : docks) {
      names << d->windowTitle();
      if (d->windowTitle().compare(title, Qt::CaseInsensitive) == 0) found = d;
    }
    if (!found) {
      out.error = QObject::tr("--show: expected a dock title (%1), found '%2'").arg(names.join(QStringLiteral(", ")), title);
      return out;
    }
    out.docks << found;
  }
  return out;
}

void raiseDocksSoon(MainWindow& window, const QList<QDockWidget*>& docks) {
  if (docks.isEmpty()) return;
  QList<QPointer<QDockWidget>> held(docks.begin(), docks.end());
  QTimer::singleShot(0, &window, [&window, held] { raiseAll(window, held, false); });
  auto once = std::make_shared<QMetaObject::Connection>();
  *once = QObject::connect(window.controller(), &RunController::runFinished, &window, [&window, held, once] {
    QObject::disconnect(*once);
    QTimer::singleShot(0, &window, [&window, held] { raiseAll(window, held, true); });
  });
}

}  // namespace fl::gui
