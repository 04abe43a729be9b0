// The MoE views in the main window (offscreen): the Traffic Breakdown and Switch Tables
// and AL TLB docks tabbed with Plots, the breakdown raised for an MoE
// layer, notices for a collective, and Run > Compare Sweep Points (enabled from two
// finished points; its combos list the finished points, its view shows the chosen pair).
// The Sweep dock (a figure per point; a click picks the point). The Pipeline dock,
// Run > Compare Pipelines (runs a fusion variant in the background) and File > Export
// Trace.
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>
#include <memory>

#include "gui/compare_dialog.h"
#include "gui/main_window.h"
#include "gui/pipeline_compare_dialog.h"
#include "gui/run_controller.h"
#include "gui/sweep_results.h"
#include "gui_test_util.h"
#include "main_window_fixture.h"
#include "report/report_data.h"
#include "../common/view_helpers.h"
#include "../views/pipeline_fixture.h"
#include "topology/topology.h"
#include "views/al_tlb_panel.h"
#include "views/pipeline_compare_view.h"
#include "views/pipeline_gantt.h"
#include "views/run_model.h"
#include "views/scheme_compare_view.h"
#include "views/sweep_chart.h"
#include "views/switch_table_panel.h"
#include "views/traffic_breakdown_bars.h"

using fl::gui::MainWindow;
using State = fl::gui::RunController::State;
namespace t = fl::gui::test;
using t::makeWindow;

namespace {

const QByteArray kMoe = fl::test::kMoeSchemesYaml;

QDockWidget* dock(MainWindow& w, const char* name) { return w.findChild<QDockWidget*>(name); }

// The dock raised, the window painted and saved for a look.
void shot(MainWindow& w, QDockWidget* d, const QString& name) {
  d->raise();
  QTest::qWait(100);
  QVERIFY(w.grab().save(t::artefactsDir() + "/" + name + ".png"));
}

}  // namespace

class TestMoeDocks : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { t::isolateSettings(); }

  // After a switch of sweep point: the bin holding the instant shown when the new point
  // carries traffic there, else its busiest bin. One link direction, 2 us bins:
  // 10, 50, 20, 0 bytes (the last bin idle).
  void binAfterSwitch_data() {
    QTest::addColumn<double>("shownUs");  // negative: nothing shown before
    QTest::addColumn<int>("bin");
    QTest::newRow("nothing shown") << -1.0 << 1;
    QTest::newRow("start") << 0.0 << 0;
    QTest::newRow("inside bin 1") << 2.5 << 1;
    QTest::newRow("bin 2") << 4.0 << 2;
    QTest::newRow("idle last bin") << 6.1 << 1;
    QTest::newRow("past the run") << 20.0 << 1;
  }
  void binAfterSwitch() {
    QFETCH(double, shownUs);
    QFETCH(int, bin);
    fl::Results r;
    r.bin = 2 * fl::kMicrosecond;
    r.bins = 4;
    fl::LinkDirectionResult l;
    l.link = 0;
    l.bytes = 80;
    for (int b = 0; b < 3; ++b) l.bin_bytes.add(b, std::array<std::int64_t, 3>{10, 50, 20}[size_t(b)]);
    r.links.push_back(l);
    const fl::Time shown = shownUs < 0 ? -1 : fl::Time(std::llround(shownUs * double(fl::kMicrosecond)));
    QCOMPARE(fl::gui::binAfterSwitch(r, shown), bin);
  }

  void docksAndCompare() {
    QTemporaryDir dir;
    auto w = makeWindow();
    w->resize(1500, 950);  // the app's default size, for the pictures
    QCOMPARE(w->openFile(t::writeFile(dir, "moe.yaml", kMoe)), QString());
    QTRY_COMPARE_WITH_TIMEOUT(w->controller()->state(), State::Idle, 120000);
    QDockWidget *plots = dock(*w, "PlotsDock"), *breakdown = dock(*w, "BreakdownDock"),
                *tables = dock(*w, "SwitchTablesDock"), *tlb = dock(*w, "AlTlbDock"),
                *inspector = dock(*w, "InspectorDock");
    QVERIFY(plots && breakdown && tables && tlb && inspector);
    QVERIFY(w->tabifiedDockWidgets(plots).contains(breakdown));
    QVERIFY(w->tabifiedDockWidgets(plots).contains(tables));
    QVERIFY(w->tabifiedDockWidgets(plots).contains(tlb));
    QVERIFY(!breakdown->visibleRegion().isEmpty());  // an MoE layer opens on its breakdown
    auto* bars = breakdown->findChild<fl::views::TrafficBreakdownBars*>();
    QVERIFY(!bars->noticeVisible());

    // The canvas selection drives the switch and GPU panels.
    const auto* topo = w->runModel()->topology();
    w->pointSelector()->setCurrentIndex(2);  // dysharp
    QVERIFY(w->runModel()->results() && w->runModel()->results()->moe);
    QCOMPARE(w->runModel()->results()->moe->communication, std::string("dysharp"));
    auto* switches = tables->findChild<fl::views::SwitchTablePanel*>();
    const auto& sw = w->runModel()->results()->switches.at(1);
    QVERIFY(!sw.reduction_ports.empty());
    w->runModel()->select(fl::views::SelectionKind::Node, sw.node);
    QVERIFY(switches->currentSwitch());
    QCOMPARE(switches->currentSwitch()->id, sw.id);
    w->runModel()->setCurrentBin(int(0.85 * w->runModel()->binCount()));  // in the combine
    shot(*w, tables, "moe_window_switch_tables");
    auto* gpus = tlb->findChild<fl::views::AlTlbPanel*>();
    w->runModel()->select(fl::views::SelectionKind::Node, topo->endpointNode(5));
    QCOMPARE(gpus->currentEndpoint(), 5);
    shot(*w, tlb, "moe_window_al_tlb");

    // Sweep: the four schemes' redundant + useless share of payload as bars (from the
    // breakdown's "all" rows); a click on a bar shows that point in the other views.
    QDockWidget* sweepDock = dock(*w, "SweepDock");
    QVERIFY(sweepDock && w->tabifiedDockWidgets(plots).contains(sweepDock));
    auto* chart = sweepDock->findChild<fl::views::SweepChart*>();
    QCOMPARE(chart->metric(), QString("redundant_useless_share"));
    sweepDock->raise();
    QTest::qWait(50);
    chart->plot()->replot();
    auto* shares = qobject_cast<QCPBars*>(chart->plot()->plottable(0));
    QVERIFY(shares);
    QCOMPARE(shares->dataCount(), 4);
    for (int i = 0; i < 4; ++i) {
      std::int64_t payload = 0, removable = 0;
      for (const auto& b : w->sweepResults()->results(i)->breakdown)
        if (b.phase == "all") payload += b.useful + b.redundant + b.useless, removable += b.redundant + b.useless;
      QCOMPARE(shares->data()->at(i)->value, 100.0 * double(removable) / double(payload));
    }
    const fl::Time shown = w->runModel()->currentBin() * w->runModel()->binWidth();
    QTest::mouseClick(chart->plot(), Qt::LeftButton, {}, chart->pointPixel(3).toPoint() + QPoint(0, 4));
    QCOMPARE(w->pointSelector()->currentIndex(), 3);
    // The timeline stays at the instant shown (the explicit scheme has it) or, when the
    // new point is idle there, goes to its busiest bin: never a dark, idle bin.
    const fl::Results& explicitRun = *w->runModel()->results();
    QCOMPARE(w->runModel()->currentBin(), fl::gui::binAfterSwitch(explicitRun, shown));
    QVERIFY(fl::report::totalBytesPerBin(explicitRun).at(size_t(w->runModel()->currentBin())) > 0);
    const fl::Time explicitShown = w->runModel()->currentBin() * w->runModel()->binWidth();
    w->pointSelector()->setCurrentIndex(0);
    QCOMPARE(w->runModel()->currentBin(), fl::gui::binAfterSwitch(*w->runModel()->results(), explicitShown));
    QVERIFY(fl::report::totalBytesPerBin(*w->runModel()->results()).at(size_t(w->runModel()->currentBin())) > 0);
    w->pointSelector()->setCurrentIndex(3);
    shot(*w, sweepDock, "moe_window_sweep");

    // Compare: every point finished, so enabled; the combos list them all.
    QCOMPARE(w->sweepResults()->finishedCount(), 4);
    QVERIFY(w->actions().compare->isEnabled());
    w->actions().compare->trigger();
    auto* compare = w->compareDialog();
    QVERIFY(compare && compare->isVisible());
    QCOMPARE(compare->pointA()->count(), 4);
    QCOMPARE(compare->pointB()->count(), 4);
    compare->pointA()->setCurrentIndex(0);
    compare->pointB()->setCurrentIndex(3);
    QCOMPARE(compare->view()->label(0), w->sweepResults()->labels().at(0));
    QCOMPARE(compare->view()->label(1), w->sweepResults()->labels().at(3));
    QVERIFY(compare->view()->bars(1)->title().contains("explicit"));
    QTest::qWait(100);
    QVERIFY(compare->grab().save(t::artefactsDir() + "/moe_compare_dialog.png"));

    // A re-run makes the points stale: disabled until two have finished again, and the
    // dialog keeps the pair.
    w->runNow();
    QVERIFY(!w->actions().compare->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(w->controller()->state(), State::Idle, 120000);
    QVERIFY(w->actions().compare->isEnabled());
    QCOMPARE(compare->pointB()->currentData().toInt(), 3);

    // Compare Pipelines: the shown point (dysharp, sequential) against a comm_only variant
    // run in the background; the GUI stays responsive meanwhile (the spy waits in the loop).
    w->pointSelector()->setCurrentIndex(2);
    QVERIFY(w->actions().comparePipelines->isEnabled());
    w->actions().comparePipelines->trigger();
    auto* pipelines = w->pipelineCompareDialog();
    QVERIFY(pipelines && pipelines->isVisible());
    pipelines->fusionBox()->setCurrentIndex(pipelines->fusionBox()->findData("comm_only"));
    // Before it runs, the lower pane names the variant the boxes describe.
    QCOMPARE(pipelines->view()->title(1), QString("variant (fusion = comm_only): not run yet"));
    QVERIFY(pipelines->grab().save(t::artefactsDir() + "/moe_compare_pipelines_before.png"));
    QSignalSpy finished(pipelines, &fl::gui::PipelineCompareDialog::variantFinished);
    pipelines->runButton()->click();
    QVERIFY(pipelines->isRunning());
    QVERIFY(finished.wait(120000));
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(pipelines->statusText()));
    QVERIFY(pipelines->view()->title(0).contains("sequential + dysharp"));
    QVERIFY(pipelines->view()->title(1).contains("comm_only + dysharp"));
    QCOMPARE(pipelines->variant()->moe->fusion, std::string("comm_only"));
    QVERIFY(pipelines->grab().save(t::artefactsDir() + "/moe_compare_pipelines.png"));

    // Until the simulation records pipelines: the dock with a hand-made one, for a look.
    w->runModel()->setResults(fl::test::tokenCentricRun(), true);
    w->runModel()->setCurrentBin(w->runModel()->binCount() / 2);
    auto* gantt = dock(*w, "PipelineDock")->findChild<fl::views::PipelineGantt*>();
    QVERIFY(!gantt->noticeVisible());
    QCOMPARE(gantt->rowCount(), 8 * 4);
    shot(*w, dock(*w, "PipelineDock"), "moe_window_pipeline");
  }

  void collectiveShowsNotices() {
    QTemporaryDir dir;
    auto w = makeWindow();
    QCOMPARE(w->openFile(t::writeFile(dir, "c.yaml", t::nvswitchScenario("dgx-h100"))), QString());
    QTRY_COMPARE_WITH_TIMEOUT(w->controller()->state(), State::Idle, 60000);
    QVERIFY(dock(*w, "BreakdownDock")->findChild<fl::views::TrafficBreakdownBars*>()->noticeVisible());
    QVERIFY(dock(*w, "AlTlbDock")->findChild<fl::views::AlTlbPanel*>()->noticeVisible());
    QVERIFY(!w->actions().compare->isEnabled());  // one point
    QVERIFY(dock(*w, "BreakdownDock")->visibleRegion().isEmpty());  // Plots stays in front
    QDockWidget* pipeline = dock(*w, "PipelineDock");
    QVERIFY(pipeline && w->tabifiedDockWidgets(dock(*w, "PlotsDock")).contains(pipeline));
    auto* gantt = pipeline->findChild<fl::views::PipelineGantt*>();
    QVERIFY(gantt && gantt->noticeVisible());
    QVERIFY(!w->actions().comparePipelines->isEnabled());  // not an MoE layer

    // Export Trace writes the file; a path that cannot be written names the problem.
    QVERIFY(w->actions().exportTrace->isEnabled());
    const QString trace = dir.filePath("run.json");
    QCOMPARE(w->exportTraceTo(trace), QString());
    QVERIFY(QFileInfo(trace).size() > 0);
    const QString error = w->exportTraceTo(dir.filePath("missing/dir/run.json"));
    QVERIFY2(error.contains("export") && error.contains("missing/dir"), qPrintable(error));
  }
};

QTEST_MAIN(TestMoeDocks)
#include "test_moe_docks.moc"
