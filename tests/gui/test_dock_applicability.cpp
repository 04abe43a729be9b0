// Docks that do not apply to the scenario's workload are hidden, their View-menu entries
// disabled with the reason (gui/dock_applicability.h), and shown again for a scenario
// they apply to; the tab the user raised stays raised when a run ends; a dock added by
// another part of the app declares its own rule. Expected sets from each workload's
// results: which docks have something to show (breakdown, pipeline and AL TLB for MoE
// layers only; switch tables where switches reduce: NVLS, DySHARP, tensor parallel; the
// wafer docks for wsc_inference, the cross-DC docks for cross_dc_moe; the CAIS merge
// table for tp_layer and for any run whose switches had merge units).
#include <QAction>
#include <QDockWidget>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include "gui/dock_applicability.h"
#include "gui/dock_show.h"
#include "gui/main_window.h"
#include "gui/run_controller.h"
#include "gui_test_util.h"
#include "main_window_fixture.h"

using fl::gui::MainWindow;
namespace t = fl::gui::test;

namespace {

const QStringList kMoe = {"BreakdownDock", "AlTlbDock", "PipelineDock", "FusionDock"};
const QStringList kWafer = {"MappingDock", "HotColdDock", "MigrationsDock"};
const QStringList kCais = {"MergeTableDock", "CaisCompareDock", "CaisControlsDock"};
const QStringList kXdc = {"XdcClusterDock", "XdcCurveDock", "XdcStreamsDock"};
const QStringList kManaged = kMoe + QStringList{"SwitchTablesDock"} + kWafer + kCais + kXdc + QStringList{"StoryDock"};

QDockWidget* dock(MainWindow& w, const QString& name) { return w.findChild<QDockWidget*>(name); }

void open(MainWindow& w, const QString& file) {
  QCOMPARE(w.openFile(QStringLiteral(FABRICLAB_SCENARIOS "/") + file), QString());
  w.controller()->stop();
  QVERIFY(t::waitIdle(w));
}

}  // namespace

class TestDockApplicability : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    t::isolateSettings();
    QSettings().remove(QStringLiteral("docks/hiddenAsNotApplicable"));
  }

  void hiddenPerWorkload_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("hidden");
    // The run is stopped at once: the CAIS merge table of a collective (results-decided)
    // stays hidden here; resultsDecide() covers it.
    // Every one of these has a sweep; default and the fusion demo have a story; no wafer
    // scenario here has a balancer (Migrations hidden: no expert moves).
    const QStringList noStory = {"StoryDock"};
    QTest::newRow("collective ring vs NVLS") << "default.yaml" << kMoe + kWafer + kCais + kXdc;
    QTest::newRow("mesh traffic") << "mesh-8x8-uniform-loads.yaml" << kManaged;
    QTest::newRow("MoE layer") << "nvl32-moe-fusion-demo.yaml" << kWafer + kCais + kXdc;
    QTest::newRow("wafer-scale inference") << "wsc-4x4-paper.yaml"
                                           << kMoe + QStringList{"SwitchTablesDock", "MigrationsDock"} + kCais + kXdc + noStory;
    QTest::newRow("wafer with a balancer") << "wsc-balancer-single.yaml"
                                           << kMoe + QStringList{"SwitchTablesDock"} + kCais + kXdc + noStory;
    // The Pipeline view shows a tensor-parallel layer's kernels too.
    QTest::newRow("tensor-parallel CAIS") << "cais-4gpu.yaml"
                                          << QStringList{"BreakdownDock", "AlTlbDock", "FusionDock"} + kWafer + kXdc + noStory;
    QTest::newRow("cross-DC MoE") << "xdc-ablation-24-8.yaml"
                                  << kMoe + QStringList{"SwitchTablesDock"} + kWafer + kCais + noStory;
    // DeepEP, COMET, FlashDMoE: unicast, no switch reduction, no AL TLB.
    QTest::newRow("MoE layer without DySHARP") << "flashdmoe-8xh100.yaml"
                                               << QStringList{"AlTlbDock", "SwitchTablesDock"} + kWafer + kCais + kXdc;
  }
  void hiddenPerWorkload() {
    QFETCH(QString, file);
    QFETCH(QStringList, hidden);
    auto w = t::makeWindow();
    open(*w, file);
    for (const QString& name : kManaged) {
      QDockWidget* d = dock(*w, name);
      QVERIFY2(d, qPrintable(name));
      const bool off = hidden.contains(name);
      QVERIFY2(d->isHidden() == off, qPrintable(name + (off ? " shown" : " hidden")));
      QCOMPARE(d->toggleViewAction()->isEnabled(), !off);
      if (off) QVERIFY2(d->toggleViewAction()->toolTip().size() > 20, qPrintable(d->toggleViewAction()->toolTip()));
    }
    // Back to an MoE layer: its docks shown again, the others hidden.
    open(*w, "nvl32-moe-fusion-demo.yaml");
    for (const QString& name : kMoe + QStringList{"SwitchTablesDock", "StoryDock"})
      QVERIFY2(!dock(*w, name)->isHidden(), qPrintable(name));
    for (const QString& name : kWafer + kCais + kXdc) QVERIFY2(dock(*w, name)->isHidden(), qPrintable(name));
  }

  // Before the window is first shown every dock is invisible (isVisible() false): the
  // table decides on isHidden(), so a document opened before show() still gets the right
  // docks once the window appears (the launch path: startup, then show).
  void beforeFirstShow_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("shown");
    QTest::addColumn<QStringList>("hidden");
    QTest::newRow("collective") << "default.yaml" << QStringList{"SwitchTablesDock"} << kMoe + kWafer + kXdc;
    QTest::newRow("wafer") << "wsc-4x4-paper.yaml" << QStringList{"MappingDock", "HotColdDock"}
                           << kMoe + kCais + kXdc + QStringList{"MigrationsDock"};
    QTest::newRow("cross-DC") << "xdc-ablation-24-8.yaml" << kXdc << kMoe + kWafer + kCais;
  }
  void beforeFirstShow() {
    QFETCH(QString, file);
    QFETCH(QStringList, shown);
    QFETCH(QStringList, hidden);
    auto w = t::makeWindow(false, /*show=*/false);
    QCOMPARE(w->openFile(QStringLiteral(FABRICLAB_SCENARIOS "/") + file), QString());
    w->controller()->stop();
    QVERIFY(t::waitIdle(*w));
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    for (const QString& name : shown) QVERIFY2(dock(*w, name)->isVisible(), qPrintable(name));
    for (const QString& name : hidden) QVERIFY2(!dock(*w, name)->isVisible(), qPrintable(name));
  }

  // A rule that needs the results: the CAIS merge table of a collective applies once a
  // run with merge units (a red.cais reduce-scatter merges in every switch) has
  // published results, not before; a ring has none.
  void resultsDecide() {
    QTemporaryDir dir;
    auto w = t::makeWindow();
    const QByteArray cais =
        "fabriclab: 1\nname: cais collective\ntopology:\n  kind: nvswitch\n  gpus: 4\n  switches: 4\n"
        "  links_per_gpu: 4\n  switch_ports: 64\nnetwork:\n  packet_payload: 1 KiB\n  switch:\n    merge_table: 4 KiB\n"
        "workload:\n  kind: collective\n  collective: {op: reduce_scatter, algorithm: cais, size: 64 KiB}\nrun:\n  bin: 1 us\n";
    QCOMPARE(w->openFile(t::writeFile(dir, "cais.yaml", cais)), QString());
    QDockWidget* merge = dock(*w, "MergeTableDock");
    QVERIFY(merge->isHidden());  // no results yet
    QVERIFY(t::waitIdle(*w));
    QVERIFY(!merge->isHidden());
    QVERIFY(merge->toggleViewAction()->isEnabled());
    QVERIFY(!dock(*w, "CaisCompareDock")->isHidden());
    QVERIFY(dock(*w, "CaisControlsDock")->isHidden());  // tp_layer keys only
    QVERIFY(dock(*w, "CaisControlsDock")->toggleViewAction()->toolTip().contains("tp_layer"));
    // A ring all-reduce: no merge units, hidden with the reason.
    QCOMPARE(w->openFile(t::writeFile(dir, "ring.yaml", QByteArray(cais).replace("op: reduce_scatter, algorithm: cais", "op: all_reduce, algorithm: ring"))),
             QString());
    QVERIFY(t::waitIdle(*w));
    QVERIFY(merge->isHidden());
    QVERIFY(merge->toggleViewAction()->toolTip().contains("merge units"));
  }

  // A dock the user closed is not re-shown by the guard; one it hid is.
  void userClosedStaysClosed() {
    auto w = t::makeWindow();
    open(*w, "nvl32-moe-fusion-demo.yaml");
    dock(*w, "AlTlbDock")->close();
    open(*w, "default.yaml");
    open(*w, "nvl32-moe-fusion-demo.yaml");
    QVERIFY(dock(*w, "AlTlbDock")->isHidden());
    QVERIFY(!dock(*w, "BreakdownDock")->isHidden());
  }

  // The tab the user raised stays raised while and after a run: the app raises none.
  void userTabStays() {
    auto w = t::makeWindow();
    w->resize(1280, 800);
    QCOMPARE(w->openFile(QStringLiteral(FABRICLAB_SCENARIOS "/nvl32-moe-fusion-demo.yaml")), QString());
    QDockWidget* sweep = dock(*w, "SweepDock");
    sweep->raise();
    QTest::qWait(50);
    QVERIFY(t::waitIdle(*w, 240000));
    QTest::qWait(50);
    QVERIFY(!sweep->visibleRegion().isEmpty());
    QVERIFY(dock(*w, "BreakdownDock")->visibleRegion().isEmpty());
  }

  // fabriclab --show TITLE (gui/dock_show.h) as main() runs it: the document opened, the
  // docks found and raised before the window is first shown; after the run the named
  // dock is in front of its tab group, also where opening the scenario raises another
  // (the wafer's Hot/Cold Links over Plots, the cross-DC curve over Sweep) or the table
  // has just shown it. A dock that does not apply stays hidden.
  void showFlag_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("title");
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("front");
    QTest::newRow("Datacenters on a cross-DC scenario") << "xdc-ablation-24-8.yaml" << "Datacenters" << "XdcClusterDock" << true;
    QTest::newRow("Streams on a cross-DC scenario") << "xdc-ablation-24-8.yaml" << "streams" << "XdcStreamsDock" << true;
    QTest::newRow("Sweep on a cross-DC scenario") << "xdc-ablation-24-8.yaml" << "Sweep" << "SweepDock" << true;
    QTest::newRow("Plots on a wafer") << "wsc-4x4-paper.yaml" << "Plots" << "PlotsDock" << true;
    QTest::newRow("Datacenters on a wafer") << "wsc-4x4-paper.yaml" << "Datacenters" << "XdcClusterDock" << false;
  }
  void showFlag() {
    QFETCH(QString, file);
    QFETCH(QString, title);
    QFETCH(QString, name);
    QFETCH(bool, front);
    auto w = t::makeWindow(false, /*show=*/false);
    w->resize(1280, 800);
    QCOMPARE(w->startup(QStringLiteral(FABRICLAB_SCENARIOS "/") + file, false), QString());
    const fl::gui::DockShowRequest request = fl::gui::findDocksToShow(*w, {title});
    QCOMPARE(request.error, QString());
    QCOMPARE(request.docks.size(), 1);
    QCOMPARE(request.docks.front()->objectName(), name);
    fl::gui::raiseDocksSoon(*w, request.docks);
    w->show();
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QVERIFY(t::waitIdle(*w, 120000));
    QTest::qWait(100);
    QDockWidget* d = dock(*w, name);
    if (front) {
      QVERIFY(d->isVisible());
      QVERIFY2(!d->visibleRegion().isEmpty(), qPrintable(name + " behind another tab"));
    } else {
      QVERIFY(d->isHidden());
    }
    const fl::gui::DockShowRequest unknown = fl::gui::findDocksToShow(*w, {QStringLiteral("Nonesuch")});
    QVERIFY(unknown.docks.isEmpty());
    QVERIFY(unknown.error.contains("Nonesuch") && unknown.error.contains("Datacenters"));
  }

  // --show takes a title's unique start in any case ("hot" for Hot/Cold Links, as the
  // tab reads); an exact title wins over longer ones it starts; a start several titles
  // share, or none has, is refused with the candidates named.
  void showByPrefix_data() {
    QTest::addColumn<QString>("given");
    QTest::addColumn<QString>("name");       // the dock found, or "" for an error
    QTest::addColumn<QStringList>("named");  // in the error
    QTest::newRow("hot") << "hot" << "HotColdDock" << QStringList();
    QTest::newRow("Hot/Cold") << "Hot/Cold" << "HotColdDock" << QStringList();
    QTest::newRow("HEAT") << "HEAT" << "HeatDock" << QStringList();
    QTest::newRow("datacenters") << "datacenters" << "XdcClusterDock" << QStringList();
    QTest::newRow("Pipeline exact") << "pipeline" << "PipelineDock" << QStringList();
    QTest::newRow("plot") << "plot" << "PlotsDock" << QStringList();
    QTest::newRow("s ambiguous") << "s" << "" << QStringList{"Scenario", "Sweep", "Story", "Switch Tables"};
    QTest::newRow("unknown") << "Nonesuch" << "" << QStringList{"Nonesuch", "Heat", "Hot/Cold Links", "Plots"};
  }
  void showByPrefix() {
    QFETCH(QString, given);
    QFETCH(QString, name);
    QFETCH(QStringList, named);
    auto w = t::makeWindow(false, /*show=*/false);
    const fl::gui::DockShowRequest r = fl::gui::findDocksToShow(*w, {given});
    if (!name.isEmpty()) {
      QCOMPARE(r.error, QString());
      QCOMPARE(r.docks.size(), 1);
      QCOMPARE(r.docks.front()->objectName(), name);
      return;
    }
    QVERIFY(r.docks.isEmpty());
    for (const QString& n : named) QVERIFY2(r.error.contains(n), qPrintable(r.error));
  }

  // Another dock declares when it applies: here, only to wafer-scale inference.
  void registeredRule() {
    fl::gui::registerDockApplicability(QStringLiteral("WaferTestDock"), [](const fl::Scenario& s) {
      return fl::gui::Applicability{s.workload.kind == fl::WorkloadKind::WscInference, QStringLiteral("wafers only")};
    });
    auto w = t::makeWindow();
    auto* extra = new QDockWidget(QStringLiteral("Wafer"), w.get());
    extra->setObjectName(QStringLiteral("WaferTestDock"));
    w->addDockWidget(Qt::BottomDockWidgetArea, extra);
    open(*w, "default.yaml");
    QVERIFY(extra->isHidden());
    QCOMPARE(extra->toggleViewAction()->toolTip(), QStringLiteral("wafers only"));
    open(*w, "wsc-4x4-paper.yaml");
    QVERIFY(!extra->isHidden());
  }
};

QTEST_MAIN(TestDockApplicability)
#include "test_dock_applicability.moc"
