// MainWindow's HybridEP docks (issue 23): the datacenter ring (views::XdcClusterView),
// the stream model's curve (views::XdcCurvePanel) and the two-stream timeline
// (views::XdcStreamTimeline). The dock applicability table (gui/dock_applicability.cpp)
// shows them for cross_dc_moe scenarios only; they come to the front when one opens.
#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QTimer>

#include "gui/main_actions.h"
#include "gui/main_window.h"
#include "gui/scenario_document.h"
#include "views/xdc_cluster_view.h"
#include "views/xdc_curve_panel.h"
#include "views/xdc_stream_timeline.h"

namespace fl::gui {

void MainWindow::buildXdcDocks() {
  auto* cluster = new QDockWidget(tr("Datacenters"), this);
  cluster->setObjectName(QStringLiteral("XdcClusterDock"));
  cluster->setWidget(new views::XdcClusterView(model_, cluster));
  auto* curve = new QDockWidget(tr("Expert/Data Curve"), this);
  curve->setObjectName(QStringLiteral("XdcCurveDock"));
  curve->setWidget(new views::XdcCurvePanel(model_, curve));
  auto* streams = new QDockWidget(tr("Streams"), this);
  streams->setObjectName(QStringLiteral("XdcStreamsDock"));
  streams->setWidget(new views::XdcStreamTimeline(model_, streams));
  // Beside the other panes of their kind: the ring with the inspector, the plots below.
  QDockWidget* inspector = findChild<QDockWidget*>(QStringLiteral("InspectorDock"));
  QDockWidget* plots = findChild<QDockWidget*>(QStringLiteral("PlotsDock"));
  addDockWidget(Qt::RightDockWidgetArea, cluster);
  if (inspector) tabifyDockWidget(inspector, cluster);
  addDockWidget(Qt::BottomDockWidgetArea, curve);
  addDockWidget(Qt::BottomDockWidgetArea, streams);
  if (plots) {
    tabifyDockWidget(plots, curve);
    tabifyDockWidget(plots, streams);
  }
  const QList<QDockWidget*> docks = {cluster, curve, streams};
  for (QDockWidget* d : docks) actions_.viewMenu->addAction(d->toggleViewAction());
  // Leaving a cross-DC document raises nothing: the docks connected before these (the
  // MoE breakdown on opening an MoE file, the user's own tab) keep their tab.
  // Queued: docks the table has just shown join their tab bar only once the layout has
  // run; raised at once, the Inspector stayed in front of the Datacenters.
  connect(doc_, &ScenarioDocument::documentReset, this, [this, cluster, curve] {
    if (doc_->scenario().workload.kind != WorkloadKind::CrossDcMoe) return;
    QTimer::singleShot(0, cluster, [cluster, curve] {
      cluster->raise();
      curve->raise();
    });
  });
}

}  // namespace fl::gui
