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

// A title given whole (any case), else the one dock whose title starts with it ("hot"
// for Hot/Cold Links); several such docks, or none, is an error listing them.
DockShowRequest findDocksToShow(const MainWindow& window, const QStringList& titles) {
  DockShowRequest out;
  const auto docks = window.findChildren<QDockWidget*>();
  QStringList names;
  for (QDockWidget* d : docks) names << d->windowTitle();
  names.sort(Qt::CaseInsensitive);
  for (const QString& given : titles) {
    const QString title = given.trimmed();
    QList<QDockWidget*> exact, prefixed;
    for (QDockWidget* d : docks) {
      if (d->windowTitle().compare(title, Qt::CaseInsensitive) == 0) exact << d;
      else if (!title.isEmpty() && d->windowTitle().startsWith(title, Qt::CaseInsensitive)) prefixed << d;
    }
    const QList<QDockWidget*>& found = exact.isEmpty() ? prefixed : exact;
    if (found.size() == 1) {
      out.docks << found.front();
      continue;
    }
    if (found.isEmpty()) {
      out.error = QObject::tr("--show: expected a dock title or the start of one (%1), found '%2'")
                      .arg(names.join(QStringLiteral(", ")), given);
    } else {
      QStringList matching;
      for (QDockWidget* d : found) matching << d->windowTitle();
      matching.sort(Qt::CaseInsensitive);
      out.error = QObject::tr("--show: expected the start of one dock title, found '%1', which starts %2")
                      .arg(given, matching.join(QStringLiteral(", ")));
    }
    return out;
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
