// Docks that do not apply to the scenario's workload are hidden, their View-menu entries
// disabled with the reason (gui/dock_applicability.h), and shown again for a scenario
// they apply to; the tab the user raised stays raised when a run ends; a dock added by
// another part of the app declares its own rule. Expected sets from each workload's
// results: which docks have something to show (breakdown, pipeline and AL TLB for MoE
// layers only; switch tables where switches reduce: NVLS, DySHARP, tensor parallel).
#include <QAction>
#include <QDockWidget>
#include <QSettings>
#include <QtTest>

#include "gui/dock_applicability.h"
#include "gui/main_window.h"
#include "gui/run_controller.h"
#include "gui_test_util.h"
#include "main_window_fixture.h"

using fl::gui::MainWindow;
namespace t = fl::gui::test;

namespace {

const QStringList kManaged = {"BreakdownDock", "AlTlbDock", "PipelineDock", "FusionDock", "SwitchTablesDock"};

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
    QTest::newRow("collective ring vs NVLS") << "default.yaml"
                                             << QStringList{"BreakdownDock", "AlTlbDock", "PipelineDock", "FusionDock"};
    QTest::newRow("mesh traffic") << "mesh-8x8-uniform-loads.yaml" << kManaged;
    QTest::newRow("MoE layer") << "nvl32-moe-fusion-demo.yaml" << QStringList{};
    QTest::newRow("wafer-scale inference") << "wsc-4x4-paper.yaml" << kManaged;
    QTest::newRow("tensor-parallel CAIS") << "cais-4gpu.yaml"
                                          << QStringList{"BreakdownDock", "AlTlbDock", "FusionDock"};
    QTest::newRow("cross-DC MoE") << "xdc-ablation-24-8.yaml" << kManaged;
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
    // Back to an MoE layer: every dock shown again.
    open(*w, "nvl32-moe-fusion-demo.yaml");
    for (const QString& name : kManaged) QVERIFY2(!dock(*w, name)->isHidden(), qPrintable(name));
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
