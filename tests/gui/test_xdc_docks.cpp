// HybridEP's docks in the main window (offscreen): Datacenters, Expert/Data Curve and
// Streams exist for every document but are shown (and enabled in the View menu, else
// disabled with the reason) only while the document is a cross_dc_moe scenario; opening one shows them with its results, opening
// another workload hides them again.
#include <QAction>
#include <QDockWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "gui/main_window.h"
#include "gui/run_controller.h"
#include "gui_test_util.h"
#include "main_window_fixture.h"
#include "views/xdc_cluster_view.h"
#include "views/xdc_curve_panel.h"

using fl::gui::MainWindow;
using State = fl::gui::RunController::State;
namespace t = fl::gui::test;

namespace {

const QByteArray kXdc =
    "fabriclab: 1\nname: xdc\ntopology: {preset: cluster-m}\n"
    "workload:\n  kind: cross_dc_moe\n  xdc: {model: custom, data_bytes: 4 MB, expert_bytes: 2 MB, layers: 2, "
    "pre_expert_ns: 1 ms}\nnetwork: {model: flow}\nrun: {bin: 1 ms}\n";
const QByteArray kCollective =
    "fabriclab: 1\nname: ar\ntopology: {preset: dgx-h100}\n"
    "workload:\n  kind: collective\n  collective: {op: all_reduce, algorithm: ring, size: 1 MiB}\n";

const char* kDocks[] = {"XdcClusterDock", "XdcCurveDock", "XdcStreamsDock"};

}  // namespace

class TestXdcDocks : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { t::isolateSettings(); }

  void onlyForCrossDcMoe() {
    QTemporaryDir dir;
    auto w = t::makeWindow();
    w->resize(1280, 800);
    QCOMPARE(w->openFile(t::writeFile(dir, "xdc.yaml", kXdc)), QString());
    QTRY_COMPARE_WITH_TIMEOUT(w->controller()->state(), State::Idle, 120000);
    for (const char* name : kDocks) {
      auto* d = w->findChild<QDockWidget*>(name);
      QVERIFY2(d, name);
      QVERIFY2(d->isVisible() && d->toggleViewAction()->isEnabled(), name);
    }
    // Opened on the ring and the curve, in front of their tab groups.
    for (const char* name : {"XdcClusterDock", "XdcCurveDock"})
      QVERIFY2(!w->findChild<QDockWidget*>(name)->visibleRegion().isEmpty(), name);
    auto* ring = w->findChild<fl::views::XdcClusterView*>();
    QTRY_COMPARE(ring->dcCount(), 2);  // Cluster-M: 2 DCs x 8 GPUs
    QCOMPARE(ring->gpusPerDc(), 8);
    QVERIFY(!w->findChild<fl::views::XdcCurvePanel*>()->noticeVisible());
    QVERIFY(w->grab().save(t::artefactsDir() + "/xdc_docks_1280x800.png"));

    QCOMPARE(w->openFile(t::writeFile(dir, "ar.yaml", kCollective)), QString());
    QTRY_COMPARE_WITH_TIMEOUT(w->controller()->state(), State::Idle, 120000);
    for (const char* name : kDocks) {
      auto* d = w->findChild<QDockWidget*>(name);
      QVERIFY2(!d->isVisible() && !d->toggleViewAction()->isEnabled(), name);
      QVERIFY2(d->toggleViewAction()->toolTip().contains("cross_dc_moe"), name);
    }
  }
};

QTEST_MAIN(TestXdcDocks)
#include "test_xdc_docks.moc"
