// The CAIS docks in the main window (offscreen): Merge Table and CAIS Compare tabbed with
// Plots and the CAIS controls beside the scenario tree, shown for a tp_layer scenario and
// hidden for a collective; the controls edit scheme, table, timeout and drift with undo,
// reject bad values with the validator's message, and lock swept keys.
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QUndoStack>
#include <QtTest>

#include "gui/cais_controls.h"
#include "gui/main_window.h"
#include "gui/run_controller.h"
#include "gui/scenario_document.h"
#include "gui/sweep_results.h"
#include "gui_test_util.h"
#include "main_window_fixture.h"
#include "views/arrival_skew_histogram.h"
#include "views/merge_table_grid.h"
#include "views/merge_table_inspector.h"
#include "views/run_model.h"

using fl::gui::MainWindow;
using State = fl::gui::RunController::State;
namespace t = fl::gui::test;

namespace {

// A small TP layer pair on 4 GPUs (tests/core/test_tp_layer.cpp's size), CAIS-Base with a
// 4 KiB table, swept against TP-NVLS: runs in seconds.
const QByteArray kTp =
    "fabriclab: 1\nname: tp test\ntopology:\n  kind: nvswitch\n  gpus: 4\n  switches: 4\n  links_per_gpu: 18\n"
    "  switch_ports: 64\nnetwork:\n  packet_payload: 1 KiB\n  switch:\n    merge_table: 4 KiB\n"
    "    merge_timeout: 10 us\nworkload:\n  kind: tp_layer\n  tp:\n    model: custom\n    hidden: 512\n"
    "    ffn_hidden: 2048\n    heads: 8\n    seq_len: 512\n    batch: 1\n    layers: 2\nscheme:\n  tp: cais_base\n"
    "run:\n  bin: 1 us\n";

QDockWidget* dock(MainWindow& w, const char* name) { return w.findChild<QDockWidget*>(name); }

}  // namespace

class TestCaisDocks : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { t::isolateSettings(); }

  void docksFollowWorkload() {
    QTemporaryDir dir;
    auto w = t::makeWindow();
    w->resize(1280, 800);
    QCOMPARE(w->openFile(t::writeFile(dir, "mesh.yaml", t::meshScenario(2, 2))), QString());
    QVERIFY(t::waitIdle(*w));
    QDockWidget *merge = dock(*w, "MergeTableDock"), *compare = dock(*w, "CaisCompareDock"),
                *controls = dock(*w, "CaisControlsDock"), *plots = dock(*w, "PlotsDock");
    QVERIFY(merge && compare && controls && plots);
    QVERIFY(merge->isHidden() && compare->isHidden() && controls->isHidden());

    QCOMPARE(w->openFile(t::writeFile(dir, "tp.yaml", kTp)), QString());
    QVERIFY(t::waitIdle(*w, 120000));
    QVERIFY(!merge->isHidden() && !compare->isHidden() && !controls->isHidden());
    QVERIFY(w->tabifiedDockWidgets(plots).contains(merge));
    QVERIFY(!merge->visibleRegion().isEmpty());  // raised on the first merge results
    auto* inspector = merge->findChild<fl::views::MergeTableInspector*>();
    QVERIFY(!inspector->noticeVisible());
    w->runModel()->setCurrentBin(w->runModel()->binCount() / 4);
    QVERIFY(!inspector->grid()->window().cells.empty());
    auto* skew = compare->findChild<fl::views::ArrivalSkewHistogram*>();
    QCOMPARE(skew->plotted().size(), 1);

    QCOMPARE(w->openFile(t::writeFile(dir, "mesh2.yaml", t::meshScenario(2, 2))), QString());
    QVERIFY(t::waitIdle(*w));
    QVERIFY(merge->isHidden() && controls->isHidden());
  }

  // Each control is one undo step on the document; a bad value is refused with the
  // validator's message and leaves the scenario as it was.
  void controlsEditWithUndo() {
    QTemporaryDir dir;
    auto w = t::makeWindow();
    QCOMPARE(w->openFile(t::writeFile(dir, "tp.yaml", kTp)), QString());
    auto* c = w->findChild<fl::gui::CaisControls*>();
    QVERIFY(c && !c->noticeVisible());
    fl::gui::ScenarioDocument* doc = w->document();
    QStringList names;
    for (int i = 0; i < c->schemeCombo()->count(); ++i) names << c->schemeCombo()->itemText(i);
    for (const char* n : {"TP-NVLS", "SP-NVLS", "CAIS-Base"}) QVERIFY2(names.contains(n), n);
    QCOMPARE(c->schemeCombo()->currentText(), QString("CAIS-Base"));

    const int tpNvls = c->schemeCombo()->findData("tp_nvls");
    c->schemeCombo()->setCurrentIndex(tpNvls);
    emit c->schemeCombo()->activated(tpNvls);
    QCOMPARE(doc->valueText("scheme.tp"), std::string("tp_nvls"));

    for (const std::string path : {"network.switch.merge_table", "network.switch.merge_timeout",
                                   "scheme.stragglers.start_jitter", "scheme.stragglers.task_noise"})
      QVERIFY2(c->field(path), path.c_str());
    QLineEdit* table = c->field("network.switch.merge_table");
    QCOMPARE(table->text(), QString("4 KiB"));
    table->setText("8 KiB");
    table->setModified(true);
    emit table->editingFinished();
    QCOMPARE(doc->valueText("network.switch.merge_table"), std::string("8 KiB"));
    QLineEdit* jitter = c->field("scheme.stragglers.start_jitter");
    jitter->setText("2 µs");
    jitter->setModified(true);
    emit jitter->editingFinished();
    QCOMPARE(doc->valueText("scheme.stragglers.start_jitter"), std::string("2 us"));

    table->setText("eight");  // refused: message shown, value kept
    table->setModified(true);
    emit table->editingFinished();
    QVERIFY(!c->errorText().isEmpty());
    QVERIFY(c->errorText().contains("merge_table"));
    QCOMPARE(doc->valueText("network.switch.merge_table"), std::string("8 KiB"));
    QCOMPARE(table->text(), QString("8 KiB"));

    doc->undoStack()->undo();  // jitter
    doc->undoStack()->undo();  // table
    QCOMPARE(doc->valueText("network.switch.merge_table"), std::string("4 KiB"));
    QCOMPARE(table->text(), QString("4 KiB"));
    doc->undoStack()->undo();  // scheme
    QCOMPARE(c->schemeCombo()->currentText(), QString("CAIS-Base"));
    doc->undoStack()->redo();
    QCOMPARE(c->schemeCombo()->currentText(), QString("TP-NVLS"));
    stopAndWait(*w);
  }

  // workload.tp.row_order: a combo of the schema's two values, one undo step per change;
  // the drift and SM-split keys have their fields.
  void rowOrderWithUndo() {
    QTemporaryDir dir;
    auto w = t::makeWindow();
    QCOMPARE(w->openFile(t::writeFile(dir, "tp.yaml", kTp)), QString());
    auto* c = w->findChild<fl::gui::CaisControls*>();
    fl::gui::ScenarioDocument* doc = w->document();
    for (const std::string path : {"workload.tp.kernel_offset", "workload.tp.tb_noise_cv", "workload.tp.rs_sm_fraction"})
      QVERIFY2(c->field(path), path.c_str());
    QComboBox* order = c->choice("workload.tp.row_order");
    QVERIFY(order);
    QCOMPARE(order->count(), 2);
    QCOMPARE(order->currentData().toString(), QString("home_interleaved"));  // the default
    const int undoBefore = doc->undoStack()->count();
    const int mMajor = order->findData("m_major");
    QVERIFY(mMajor >= 0);
    order->setCurrentIndex(mMajor);
    emit order->activated(mMajor);
    QCOMPARE(doc->valueText("workload.tp.row_order"), std::string("m_major"));
    QCOMPARE(doc->undoStack()->count(), undoBefore + 1);
    doc->undoStack()->undo();
    QCOMPARE(doc->valueText("workload.tp.row_order"), std::string("home_interleaved"));
    QCOMPARE(order->currentData().toString(), QString("home_interleaved"));
    doc->undoStack()->redo();
    QCOMPARE(order->currentData().toString(), QString("m_major"));
    stopAndWait(*w);
  }

  // A swept scheme shows the selected point's value, locked, with a note.
  void sweptSchemeLocked() {
    QTemporaryDir dir;
    auto w = t::makeWindow();
    QCOMPARE(w->openFile(t::writeFile(dir, "tp.yaml", kTp + "sweep:\n  - key: scheme.tp\n    values: [tp_nvls, cais_base]\n")),
             QString());
    auto* c = w->findChild<fl::gui::CaisControls*>();
    c->setSweepPoint(1);
    QVERIFY(!c->schemeCombo()->isEnabled());
    QCOMPARE(c->schemeCombo()->currentText(), QString("CAIS-Base"));
    QVERIFY(c->sweepNoteText().contains("scheme.tp"));
    QVERIFY(c->field("network.switch.merge_table")->isEnabled());
    stopAndWait(*w);
  }

 private:
  static void stopAndWait(MainWindow& w) {
    w.stopRun();
    QVERIFY(t::waitIdle(w));
  }
};

QTEST_MAIN(TestCaisDocks)
#include "test_cais_docks.moc"
