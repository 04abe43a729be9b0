// The wafer-scale inference docks in the main window (offscreen; seed 003, issue 20):
// Mapping, Hot/Cold Links and Migrations shown only for wsc_inference (View menu entries
// disabled with the reason otherwise), opening on Hot/Cold Links (on a mapping sweep's ER
// point until the user picks one); a swap on the
// canvas is one undo step through the document (mapping.kind explicit + mapping.groups,
// a mapping sweep axis dropped) and undo restores the scenario and the drawing; the
// rerun after a drop on 8 x 8 is timed (printed, not asserted). Screenshots of every view
// at 1024 x 768, 1280 x 800 and 1920 x 1080 land in <build>/artefacts for a look.
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QSignalSpy>
#include <QtTest>

#include "gui/main_window.h"
#include "gui/run_controller.h"
#include "gui/scenario_document.h"
#include "gui/status_panel.h"
#include "gui_test_util.h"
#include "main_window_fixture.h"
#include "views/hot_cold_overlay.h"
#include "views/hot_cold_panel.h"
#include "views/mapping_panel.h"
#include "views/run_model.h"
#include "views/wafer_mapping_overlay.h"

using fl::gui::MainWindow;
using State = fl::gui::RunController::State;
namespace t = fl::gui::test;
using t::makeWindow;
using DieLists = std::vector<std::vector<std::int64_t>>;

namespace {

QByteArray wafer(const char* preset, int tp, const char* mapping, const char* extra = "") {
  return QByteArray("fabriclab: 1\nname: wsc docks\ntopology: {preset: ") + preset +
         "}\ngpu: {preset: b200}\nnetwork: {model: analytical}\nworkload: {kind: wsc_inference, wsc: {model: "
         "qwen3-235b, tp: " + QByteArray::number(tp) + ", tokens_per_group: 256, gating: uniform_exact}}\nmapping: " +
         mapping + "\nrun: {bin: 100 ns}\n" + extra;
}

QDockWidget* dock(MainWindow& w, const char* name) { return w.findChild<QDockWidget*>(name); }

fl::views::MappingPanel* mappingPanel(MainWindow& w) { return w.findChild<fl::views::MappingPanel*>(); }

// Drags die a onto die b on the canvas overlay.
void drag(fl::views::WaferMappingOverlay* o, int a, int b) {
  QVERIFY(o->pressAt(o->dieSceneRect(a).center()));
  o->moveTo(o->dieSceneRect(b).center());
  o->releaseAt(o->dieSceneRect(b).center());
}

void shots(MainWindow& w, const QString& name) {
  for (const QSize size : {QSize(1024, 768), QSize(1280, 800), QSize(1920, 1080)}) {
    w.resize(size);
    for (const char* d : {"HotColdDock", "MigrationsDock"}) {
      if (dock(w, d)->isHidden()) continue;  // Migrations: only with a balancer
      dock(w, d)->raise();
      QTest::qWait(50);
      QVERIFY(w.grab().save(t::artefactsDir() + QStringLiteral("/%1-%2-%3x%4.png")
                                                    .arg(name, QString(d).remove("Dock").toLower())
                                                    .arg(size.width())
                                                    .arg(size.height())));
    }
  }
}

}  // namespace

class TestWscDocks : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { t::isolateSettings(); }

  void offeredOnlyForWafers() {
    QTemporaryDir dir;
    auto w = makeWindow();
    const char* names[] = {"MappingDock", "HotColdDock", "MigrationsDock"};
    QCOMPARE(w->openFile(t::writeFile(dir, "mesh.yaml", t::meshScenario(2, 2))), QString());
    for (const char* n : names) {
      QVERIFY(dock(*w, n));
      QVERIFY(!dock(*w, n)->isVisible());
      QVERIFY(!dock(*w, n)->toggleViewAction()->isEnabled());  // disabled with the reason
      QVERIFY(dock(*w, n)->toggleViewAction()->toolTip().contains("wsc_inference"));
    }
    // Migrations: a balancer, over more than one iteration.
    const QByteArray balanced = QByteArray(wafer("wsc-4x4", 4, "{kind: er}", "balancer: {kind: greedy}\n"))
                                    .replace("gating: uniform_exact", "gating: uniform_exact, iterations: 12");
    QCOMPARE(w->openFile(t::writeFile(dir, "wsc.yaml", balanced)), QString());
    for (const char* n : names) {
      QVERIFY(dock(*w, n)->isVisible());
      QVERIFY(dock(*w, n)->toggleViewAction()->isEnabled());
    }
    QTest::qWait(50);  // the queued raise: a wafer scenario opens on its hot/cold links
    QVERIFY(!dock(*w, "HotColdDock")->visibleRegion().isEmpty());
    // Without a balancer no expert moves: Migrations hidden, with the reason.
    QCOMPARE(w->openFile(t::writeFile(dir, "still.yaml", wafer("wsc-4x4", 4, "{kind: er}"))), QString());
    QVERIFY(dock(*w, "HotColdDock")->isVisible());
    QVERIFY(!dock(*w, "MigrationsDock")->isVisible());
    QVERIFY(dock(*w, "MigrationsDock")->toggleViewAction()->toolTip().contains("balancer.kind"));
    QCOMPARE(w->openFile(t::writeFile(dir, "mesh2.yaml", t::meshScenario(2, 2))), QString());
    for (const char* n : names) QVERIFY(!dock(*w, n)->isVisible());
  }

  // Baseline on 4 x 4, TP 4: groups are the 2 x 2 tiles in ring order (spec §2.3):
  // [0, 1, 5, 4], [2, 3, 7, 6], [8, 9, 13, 12], [10, 11, 15, 14].
  void swapIsOneUndoStep() {
    QTemporaryDir dir;
    auto w = makeWindow();
    QCOMPARE(w->openFile(t::writeFile(dir, "wsc.yaml", wafer("wsc-4x4", 4, "{kind: baseline}"))), QString());
    QTRY_COMPARE_WITH_TIMEOUT(w->controller()->state(), State::Idle, 60000);
    QCOMPARE(w->statusPanel()->rateText(), QString("no events (closed form)"));  // not "0 events/s"
    auto* panel = mappingPanel(*w);
    panel->showCheck()->setChecked(true);
    auto* o = panel->overlay();
    const DieLists tiles = {{0, 1, 5, 4}, {2, 3, 7, 6}, {8, 9, 13, 12}, {10, 11, 15, 14}};
    QCOMPARE(o->groups(), tiles);
    const int before = w->document()->undoStack()->count();
    drag(o, 5, 2);  // die 5 (group 0, ring position 2) <-> die 2 (group 1, ring position 0)
    const DieLists swapped = {{0, 1, 2, 4}, {5, 3, 7, 6}, {8, 9, 13, 12}, {10, 11, 15, 14}};
    QCOMPARE(w->document()->undoStack()->count(), before + 1);
    QCOMPARE(w->document()->scenario().mapping.kind, fl::MappingKind::Explicit);
    QCOMPARE(w->document()->scenario().mapping.groups, swapped);
    QCOMPARE(o->groups(), swapped);
    QVERIFY(panel->refusalLabel()->isHidden());
    w->document()->undoStack()->undo();
    QCOMPARE(w->document()->scenario().mapping.kind, fl::MappingKind::Baseline);
    QVERIFY(w->document()->scenario().mapping.groups.empty());
    QCOMPARE(o->groups(), tiles);  // drawn from the scenario at once, before the rerun
    w->document()->undoStack()->redo();
    QCOMPARE(o->groups(), swapped);
    // The rerun's results carry the swapped groups.
    QTRY_VERIFY_WITH_TIMEOUT(w->runModel()->results() && w->runModel()->results()->wsc &&
                                 w->runModel()->results()->wsc->mapping == "explicit" && w->controller()->state() == State::Idle,
                             60000);
    QCOMPARE(w->runModel()->results()->wsc->tp_groups[1].members, (std::vector<int>{5, 3, 7, 6}));
  }

  // A sweep over mapping.kind (baseline vs ER): the canvas draws the shown point's mapping;
  // a swap fixes it as explicit and drops the axis; undo brings the sweep back.
  void swapOnASweepDropsTheAxis() {
    QTemporaryDir dir;
    auto w = makeWindow();
    w->resize(1280, 800);
    const QByteArray yaml = wafer("wsc-4x4", 4, "{kind: baseline}", "sweep:\n  - key: mapping.kind\n    values: [baseline, er]\n");
    QCOMPARE(w->openFile(t::writeFile(dir, "sweep.yaml", yaml)), QString());
    QTRY_COMPARE_WITH_TIMEOUT(w->controller()->state(), State::Idle, 60000);
    w->pointSelector()->setCurrentIndex(1);  // er
    auto* panel = mappingPanel(*w);
    panel->showCheck()->setChecked(true);
    auto* o = panel->overlay();
    // ER on 4 x 4 (spec §2.5): FTDs are the 2 x 2 tiles, group j = the j-th die of each.
    std::vector<int> ftdOfDie(16);
    for (int d = 0; d < 16; ++d) ftdOfDie[d] = (d / 8) * 2 + (d % 4) / 2;
    for (int d = 0; d < 16; ++d)
      for (int e = 0; e < 16; ++e)
        if (d != e && o->groupOf(d) == o->groupOf(e)) QVERIFY(ftdOfDie[d] != ftdOfDie[e]);
    // The hot/cold dock offers baseline vs ER.
    auto* hot = w->findChild<fl::views::HotColdPanel*>();
    hot->modeCombo()->setCurrentIndex(1);
    QVERIFY(hot->runACombo()->currentText().contains("baseline", Qt::CaseInsensitive));
    QVERIFY(hot->runBCombo()->currentText().contains("er", Qt::CaseInsensitive));
    shots(*w, "wsc-4x4-sweep");
    hot->modeCombo()->setCurrentIndex(0);

    const DieLists er = o->groups();
    drag(o, 0, 1);
    QCOMPARE(w->document()->scenario().mapping.kind, fl::MappingKind::Explicit);
    QVERIFY(w->document()->scenario().sweep.empty());
    QCOMPARE(w->document()->scenario().mapping.groups, panel->overlay()->groups());
    QVERIFY(o->groups() != er);
    w->document()->undoStack()->undo();
    QCOMPARE(w->document()->scenario().sweep.size(), size_t{1});
    QCOMPARE(w->document()->scenario().mapping.kind, fl::MappingKind::Baseline);
  }

  // HER has no explicit form: the swap is refused, the reason shown, nothing pushed.
  void herSwapRefused() {
    QTemporaryDir dir;
    auto w = makeWindow();
    const QByteArray yaml = QByteArray(wafer("wsc-4x4", 4, "{kind: her}")).replace("preset: wsc-4x4", "preset: wsc-4x4, wafers: {rows: 1, cols: 2}");
    QCOMPARE(w->openFile(t::writeFile(dir, "her.yaml", yaml)), QString());
    QTRY_COMPARE_WITH_TIMEOUT(w->controller()->state(), State::Idle, 60000);
    auto* panel = mappingPanel(*w);
    panel->showCheck()->setChecked(true);
    const int before = w->document()->undoStack()->count();
    drag(panel->overlay(), 0, 1);
    QCOMPARE(w->document()->undoStack()->count(), before);
    QVERIFY(!panel->refusalLabel()->isHidden());
    QVERIFY(panel->refusalLabel()->text().contains("her"));
  }

  // 8 x 8, TP 16 (Qwen3): drop to rerun result, and the preview while dragging.
  void dropLatencyOn8x8() {
    QTemporaryDir dir;
    auto w = makeWindow();
    QCOMPARE(w->openFile(t::writeFile(dir, "w8.yaml", wafer("wsc-8x8", 16, "{kind: er}"))), QString());
    QTRY_COMPARE_WITH_TIMEOUT(w->controller()->state(), State::Idle, 60000);
    auto* panel = mappingPanel(*w);
    panel->showCheck()->setChecked(true);
    auto* o = panel->overlay();
    QVERIFY(o->pressAt(o->dieSceneRect(0).center()));
    o->moveTo(o->dieSceneRect(9).center());
    // Previewed on a worker thread: the hover returns at once, the links recolour after.
    QTRY_VERIFY_WITH_TIMEOUT(panel->previewLabel()->text().contains("communication"), 30000);
    QCOMPARE(o->previewLanes().size(), size_t{2 * 2 * 8 * 7});  // every directed die-to-die link
    QVERIFY(w->findChild<fl::views::HotColdPanel*>()->showsPreview());
    qInfo("8x8 preview of a swap (two analytical runs): %.1f ms", panel->lastPreviewMs());
    QElapsedTimer clock;
    clock.start();
    QSignalSpy results(w->runModel(), &fl::views::RunModel::resultsChanged);
    o->releaseAt(o->dieSceneRect(9).center());
    QTRY_VERIFY_WITH_TIMEOUT(w->runModel()->results() && w->runModel()->results()->wsc &&
                                 w->runModel()->results()->wsc->mapping == "explicit",
                             60000);
    qInfo("8x8 drop to rerun results: %lld ms (analytical: rerun at once, no debounce)", clock.elapsed());
    shots(*w, "wsc-8x8-er");
  }

  // An expert dragged to another die: one undo step writing the explicit placement; the
  // rerun's die loads follow (Qwen3, 128 experts on 16 dies: die 0 with 9 of them is
  // 9 / 8 = 1.125 x the mean under uniform_exact gating); undo restores modulo.
  void expertMoveIsOneUndoStep() {
    QTemporaryDir dir;
    auto w = makeWindow();
    QCOMPARE(w->openFile(t::writeFile(dir, "wsc.yaml", wafer("wsc-4x4", 4, "{kind: er}"))), QString());
    QTRY_COMPARE_WITH_TIMEOUT(w->controller()->state(), State::Idle, 60000);
    auto* panel = mappingPanel(*w);
    panel->showCheck()->setChecked(true);
    panel->dragModeCombo()->setCurrentIndex(1);  // experts
    auto* o = panel->overlay();
    QCOMPARE(o->dragMode(), fl::views::WaferMappingOverlay::DragMode::Experts);
    const int before = w->document()->undoStack()->count();
    const QRectF die0 = o->dieSceneRect(0);
    const QPointF free(die0.center().x(), die0.top() + die0.height() * 0.12);
    QVERIFY(o->pressAt(o->expertChipRect(15).center()));
    o->moveTo(free);
    o->releaseAt(free);
    QCOMPARE(w->document()->undoStack()->count(), before + 1);
    std::vector<int> expected;
    for (int e = 0; e < 128; ++e) expected.push_back(e == 15 ? 0 : e % 16);
    QCOMPARE(w->document()->scenario().workload.wsc.expert_placement, fl::WscExpertPlacement::Explicit);
    QCOMPARE(w->document()->scenario().workload.wsc.expert_dies, expected);
    QTRY_VERIFY_WITH_TIMEOUT(w->runModel()->results() && w->runModel()->results()->wsc &&
                                 !w->runModel()->results()->wsc->load_max_over_mean.empty() &&
                                 w->runModel()->results()->wsc->load_max_over_mean[0] > 1.01 &&
                                 w->controller()->state() == State::Idle,
                             60000);
    QCOMPARE(w->runModel()->results()->wsc->load_max_over_mean[0], 9.0 / 8.0);
    w->document()->undoStack()->undo();
    QCOMPARE(w->document()->scenario().workload.wsc.expert_placement, fl::WscExpertPlacement::Modulo);
    QVERIFY(w->document()->scenario().workload.wsc.expert_dies.empty());
    QCOMPARE(o->experts()[0].size(), size_t{8});
  }

  // A mapping sweep opens on its baseline point, but Hot/Cold's "Two phases" shows the ER
  // point (ER's complementary links, seed 003 §V-A) until the user picks a point: any
  // point in the toolbar's combo (the baseline itself included) or a move off point 0.
  // A newly opened document starts over.
  void twoPhasesOpenOnErPoint() {
    QTemporaryDir dir;
    auto w = makeWindow();
    w->resize(1280, 800);
    const QByteArray yaml = wafer("wsc-4x4", 4, "{kind: baseline}", "sweep:\n  - key: mapping.kind\n    values: [baseline, er]\n");
    const QString file = t::writeFile(dir, "sweep.yaml", yaml);
    QCOMPARE(w->openFile(file), QString());
    QTRY_COMPARE_WITH_TIMEOUT(w->controller()->state(), State::Idle, 60000);
    auto* hot = w->findChild<fl::views::HotColdPanel*>();
    QCOMPARE(w->pointSelector()->currentIndex(), 0);
    QCOMPARE(w->runModel()->results()->wsc->mapping, std::string("baseline"));
    QTRY_COMPARE(hot->overlay()->caption(0), QStringLiteral("All-reduce · er point"));
    QCOMPARE(hot->phasesRun()->wsc->mapping, std::string("er"));
    emit w->pointSelector()->activated(0);  // the user picks the baseline point
    QCOMPARE(hot->overlay()->caption(0), QStringLiteral("All-reduce · baseline"));
    QCOMPARE(w->openFile(file), QString());  // opened again: the ER point again
    QTRY_COMPARE_WITH_TIMEOUT(w->controller()->state(), State::Idle, 60000);
    QTRY_COMPARE(hot->overlay()->caption(0), QStringLiteral("All-reduce · er point"));
    w->pointSelector()->setCurrentIndex(1);  // ER shown: its own caption
    QCOMPARE(hot->overlay()->caption(0), QStringLiteral("All-reduce · er"));
    w->pointSelector()->setCurrentIndex(0);  // back: the user's pick stays
    QCOMPARE(hot->overlay()->caption(0), QStringLiteral("All-reduce · baseline"));
  }

  // The bundled paper example: the Hot/Cold dock's two wafers get dies of at least 20 px
  // (die numbers are drawn from 18 px) and whole titles at the three window sizes (at
  // 1024 x 768 they were 70 px wafers, 11 px dies, with elided titles).
  void hotColdLegibleOnPaperExample() {
    for (const QSize size : {QSize(1024, 768), QSize(1280, 800), QSize(1920, 1080)}) {
      auto w = makeWindow();
      w->resize(size);
      QTest::qWait(50);
      QCOMPARE(w->openFile(QStringLiteral(FABRICLAB_SCENARIOS "/wsc-4x4-paper.yaml")), QString());
      QTRY_COMPARE_WITH_TIMEOUT(w->controller()->state(), State::Idle, 60000);
      auto* hot = w->findChild<fl::views::HotColdPanel*>();
      QTest::qWait(100);
      auto* view = hot->overlay();
      QVERIFY(w->grab().save(t::artefactsDir() + QStringLiteral("/wsc-4x4-paper-hotcold-%1x%2.png").arg(size.width()).arg(size.height())));
      QVERIFY(view->isVisible());
      QCOMPARE(view->panelCount(), 2);
      const auto rects = view->panelRects();
      QFont bold = view->font();
      bold.setBold(true);
      const QFontMetrics fm(bold);
      for (int i = 0; i < 2; ++i)
        QVERIFY2(fm.horizontalAdvance(view->caption(i)) <= rects[static_cast<size_t>(i)].width(),
                 qPrintable(QString("%1x%2: '%3' in %4 px").arg(size.width()).arg(size.height()).arg(view->caption(i)).arg(rects[static_cast<size_t>(i)].width())));
      qInfo("%dx%d: hot/cold view %dx%d, %s, dies %.0f px", size.width(), size.height(), view->width(), view->height(),
            view->stacked() ? "stacked" : "side by side", view->diePixels());
      QVERIFY2(view->diePixels() >= 20, qPrintable(QString("%1 px dies at %2x%3").arg(view->diePixels()).arg(size.width()).arg(size.height())));
    }
  }
};

QTEST_MAIN(TestWscDocks)
#include "test_wsc_docks.moc"
