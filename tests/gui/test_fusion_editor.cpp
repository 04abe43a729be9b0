// The Fusion scheme dock (offscreen): SM-partition sliders that keep the sum at gpu.sms
// with the documented proportional rule (expected values worked out by hand from that
// rule: floor shares plus largest remainders), one undo step per gesture, preset buttons,
// inline errors for invalid values, the notice for a collective, swept keys locked to the
// selected sweep point, following undo, and one debounced background re-run per edit in
// the main window.
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QtTest>
#include <memory>

#include "gui/fusion_editor.h"
#include "gui/main_window.h"
#include "gui/run_controller.h"
#include "gui/scenario_document.h"
#include "gui_test_util.h"
#include "scenario/scenario_io.h"
#include "scenario/schema.h"
#include "scenario/validate.h"
#include "sim/run.h"

using fl::gui::FusionEditor;
using fl::gui::ScenarioDocument;
using Groups = fl::views::SmGroups;
namespace t = fl::gui::test;

Q_DECLARE_METATYPE(Groups)

namespace QTest {
template <>
char* toString(const Groups& g) {
  return qstrdup(QByteArray::number(g[0]) + " / " + QByteArray::number(g[1]) + " / " + QByteArray::number(g[2]) +
                 " / " + QByteArray::number(g[3]));
}
}  // namespace QTest

namespace {

const QString kSchemes = QStringLiteral(FABRICLAB_SCENARIOS "/nvl32-moe-schemes.yaml");
const char* const kGroupKeys[] = {"scheme.token_centric.dispatch_sms", "scheme.token_centric.gemm1_sms",
                                  "scheme.token_centric.gemm2_sms", "scheme.token_centric.combine_sms"};

// The bundled scheme scenario, one point, shrunk so that a run takes well under a second.
fl::Scenario smallMoe(const std::vector<std::string>& overrides = {}) {
  fl::Scenario s = fl::loadScenario(kSchemes.toStdString());
  s.sweep.clear();
  for (const char* o : {"workload.moe.tokens_per_gpu=8", "scheme.fusion=token_centric"}) fl::applyOverride(s, o);
  for (const std::string& o : overrides) fl::applyOverride(s, o);
  fl::validateScenario(s);
  return s;
}

Groups groupsOf(const fl::Scenario& s) {
  const auto& t = s.scheme.token_centric;
  return {t.dispatch_sms, t.gemm1_sms, t.gemm2_sms, t.combine_sms};
}

std::vector<std::string> partitionOverrides(int sms, const Groups& g) {
  std::vector<std::string> o = {"gpu.sms=" + std::to_string(sms)};
  for (int i = 0; i < 4; ++i) o.push_back(std::string(kGroupKeys[i]) + "=" + std::to_string(g[i]));
  return o;
}

struct Fixture {
  ScenarioDocument doc;
  FusionEditor editor{&doc};
  explicit Fixture(const fl::Scenario& s) {
    doc.reset(s, QString());
    editor.resize(440, 1000);
    editor.show();
  }
};

// A user's drag: press, move through `via`, release.
void drag(QSlider* slider, std::initializer_list<int> via) {
  slider->setSliderDown(true);
  for (int v : via) slider->setValue(v);
  slider->setSliderDown(false);
}

}  // namespace

class TestFusionEditor : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { t::isolateSettings(); }

  void sliderKeepsSum_data() {
    QTest::addColumn<int>("sms");
    QTest::addColumn<Groups>("start");
    QTest::addColumn<int>("group");
    QTest::addColumn<int>("value");
    QTest::addColumn<Groups>("expected");
    // Taking 10 from spares 55/55/9 (sum 119): floors 4/4/0, remainders 74/74/90 of 119.
    QTest::newRow("132 dispatch up") << 132 << Groups{10, 56, 56, 10} << 0 << 20 << Groups{20, 51, 52, 9};
    // Giving 16 to 10/56/10 (sum 76): floors 2/11/2, the leftover SM to GEMM-2 (60/76).
    QTest::newRow("132 gemm1 down") << 132 << Groups{10, 56, 56, 10} << 1 << 40 << Groups{12, 40, 68, 12};
    // Clamped to 132 - 3 floors = 129: every other group down to 1 SM.
    QTest::newRow("132 gemm2 max") << 132 << Groups{10, 56, 56, 10} << 2 << 131 << Groups{1, 1, 129, 1};
    // Giving 9 to 10/56/56 (sum 122): floors 0/4/4, the leftover to Dispatch (90/122).
    QTest::newRow("132 combine min") << 132 << Groups{10, 56, 56, 10} << 3 << 1 << Groups{11, 60, 60, 1};
    // Giving 6 to 44/44/10 (sum 98): floors 2/2/0, leftovers to the GEMMs (68 > 60).
    QTest::newRow("108 dispatch down") << 108 << Groups{10, 44, 44, 10} << 0 << 4 << Groups{4, 47, 47, 10};
    // Taking 16 from spares 9/43/9 (sum 61): floors 2/11/2, Dispatch wins the tie (22/61).
    QTest::newRow("108 gemm1 up") << 108 << Groups{10, 44, 44, 10} << 1 << 60 << Groups{7, 60, 33, 8};
    // 0 is clamped to 1: giving 43 to 10/44/10 (sum 64): floors 6/29/6, leftovers 46, 46.
    QTest::newRow("108 gemm2 zero") << 108 << Groups{10, 44, 44, 10} << 2 << 0 << Groups{17, 73, 1, 17};
    // Taking 20 from spares 9/43/43 (sum 95): floors 1/9/9, the leftover to Dispatch (85/95).
    QTest::newRow("108 combine up") << 108 << Groups{10, 44, 44, 10} << 3 << 30 << Groups{8, 35, 35, 30};
  }

  void sliderKeepsSum() {
    QFETCH(int, sms);
    QFETCH(Groups, start);
    QFETCH(int, group);
    QFETCH(int, value);
    QFETCH(Groups, expected);
    Fixture f(smallMoe(partitionOverrides(sms, start)));
    QSlider* slider = f.editor.partition()->slider(group);
    QVERIFY(slider->isEnabled());

    // A drag through other positions (one past the end) is previewed from its start and
    // stored once, on release.
    drag(slider, {sms, value / 2 + 1, value});
    QCOMPARE(groupsOf(f.doc.scenario()), expected);
    const Groups g = groupsOf(f.doc.scenario());
    QCOMPARE(g[0] + g[1] + g[2] + g[3], sms);
    QCOMPARE(f.editor.partition()->groups(), expected);  // the sliders show what is stored
    QCOMPARE(f.doc.undoStack()->count(), 1);
    QVERIFY(f.editor.errorText().isEmpty());

    f.doc.undoStack()->undo();  // one undo restores all four keys
    QCOMPARE(groupsOf(f.doc.scenario()), start);
    QCOMPARE(f.editor.partition()->groups(), start);

    // The spin box (typed value) follows the same rule, also one step.
    f.editor.partition()->spinBox(group)->setValue(value);
    QCOMPARE(groupsOf(f.doc.scenario()), expected);
    QCOMPARE(f.doc.undoStack()->count(), 1);  // replaced the undone step
  }

  // While "automatic" is ticked the sliders show, disabled, the split the simulator takes
  // (fusion_layout.h's closed form, worked out here by hand): comm = clamp(comm_sms / 2,
  // 1, (sms - 1) / 3) each for Dispatch and Combine, rest = sms - 2 comm, GEMM-1
  // round(rest * 2 / 3) (GEMM-1's FLOPs are twice GEMM-2's: N * K = 2 ffn * hidden vs
  // hidden * ffn), GEMM-2 the remainder.
  void automaticShowsSimulatorSplit_data() {
    QTest::addColumn<int>("sms");
    QTest::addColumn<int>("commSms");
    QTest::addColumn<Groups>("expected");
    QTest::newRow("132, comm 24") << 132 << 24 << Groups{12, 72, 36, 12};      // rest 108, 72
    QTest::newRow("132, comm 20") << 132 << 20 << Groups{10, 75, 37, 10};      // rest 112, 74.67
    QTest::newRow("108, comm 20") << 108 << 20 << Groups{10, 59, 29, 10};      // rest 88, 58.67
    QTest::newRow("132, comm 1") << 132 << 1 << Groups{1, 87, 43, 1};          // comm at least 1
    QTest::newRow("16, comm 16") << 16 << 16 << Groups{5, 4, 2, 5};            // comm capped at 15 / 3
    QTest::newRow("4, comm 4") << 4 << 4 << Groups{1, 1, 1, 1};                // rest 2: GEMM-1 1.33 -> 1
  }

  void automaticShowsSimulatorSplit() {
    QFETCH(int, sms);
    QFETCH(int, commSms);
    QFETCH(Groups, expected);
    auto overrides = partitionOverrides(sms, {0, 0, 0, 0});
    overrides.push_back("scheme.comm_sms=" + std::to_string(commSms));
    Fixture f(smallMoe(overrides));
    fl::views::SmPartitionSlider* p = f.editor.partition();
    QVERIFY(p->automaticBox()->isChecked());
    QVERIFY(p->isAutomatic());
    QCOMPARE(p->groups(), expected);
    for (int g = 0; g < 4; ++g) {
      QCOMPARE(p->slider(g)->value(), expected[g]);
      QCOMPARE(p->spinBox(g)->value(), expected[g]);
      QVERIFY(!p->slider(g)->isEnabled());  // shown, not editable
      QVERIFY(!p->spinBox(g)->isEnabled());
    }
    QCOMPARE(groupsOf(f.doc.scenario()), (Groups{0, 0, 0, 0}));  // still automatic in the file

    // The simulator does take that split: a run of the same scenario reports it.
    const fl::Results r = fl::runScenario(f.doc.scenario());
    QVERIFY(r.pipeline.has_value());
    QCOMPARE(r.pipeline->group_sms, (std::vector<int>{expected[0], expected[1], expected[2], expected[3]}));

    // Unticking starts from that split (one undo step), sliders enabled.
    p->automaticBox()->click();
    QCOMPARE(groupsOf(f.doc.scenario()), expected);
    QVERIFY(p->slider(0)->isEnabled());
    QCOMPARE(f.doc.undoStack()->count(), 1);
    f.doc.undoStack()->undo();
    QVERIFY(p->automaticBox()->isChecked());
    QCOMPARE(p->groups(), expected);
  }

  void automaticBox() {
    Fixture f(smallMoe(partitionOverrides(132, {10, 56, 56, 10})));
    QCheckBox* automatic = f.editor.partition()->automaticBox();
    QVERIFY(!automatic->isChecked());
    automatic->click();
    QCOMPARE(groupsOf(f.doc.scenario()), (Groups{0, 0, 0, 0}));
    QVERIFY(!f.editor.partition()->slider(0)->isEnabled());
    // Unticking proposes the simulator's split: comm_sms / 2 = 12 for Dispatch and
    // Combine, the other 132 - 24 = 108 split 2 : 1 by GEMM FLOPs.
    QCOMPARE(f.doc.edit("scheme.comm_sms", "24"), QString());
    QCOMPARE(f.editor.partition()->groups(), (Groups{12, 72, 36, 12}));  // followed comm_sms
    automatic->click();
    QCOMPARE(groupsOf(f.doc.scenario()), (Groups{12, 72, 36, 12}));
    QCOMPARE(f.doc.undoStack()->count(), 3);
  }

  void partitionOnlyForTokenCentric() {
    Fixture f(smallMoe({"scheme.fusion=overlap"}));
    QVERIFY(!f.editor.partition()->isEnabled());
    QCOMPARE(f.doc.edit("scheme.fusion", "token_centric"), QString());
    QVERIFY(f.editor.partition()->isEnabled());
  }

  void presets_data() {
    QTest::addColumn<int>("index");
    QTest::addColumn<QString>("communication");
    QTest::addColumn<QString>("fusion");
    QTest::addColumn<QString>("name");
    // seed 000 §VI (Fig. 4, 16) and seed 001.
    QTest::newRow("DySHARP-Basic") << 0 << "dysharp" << "sequential" << "DySHARP-Basic";
    QTest::newRow("DySHARP-COMET") << 1 << "dysharp" << "overlap" << "DySHARP-COMET";
    QTest::newRow("fusion only") << 2 << "deepep" << "token_centric" << "Fusion only";
    QTest::newRow("full DySHARP") << 3 << "dysharp" << "token_centric" << "Full DySHARP";
    QTest::newRow("FlashDMoE") << 4 << "deepep" << "persistent" << "FlashDMoE";
  }

  void presets() {
    QFETCH(int, index);
    QFETCH(QString, communication);
    QFETCH(QString, fusion);
    QFETCH(QString, name);
    // Start from a combination that is none of the five, so every button changes a key.
    Fixture f(smallMoe({"scheme.communication=explicit", "scheme.fusion=comm_only"}));
    const fl::Scenario before = f.doc.scenario();
    auto* button = f.editor.presetButton(index);
    QCOMPARE(button->text(), name);
    QVERIFY(!button->isChecked());
    button->click();
    QCOMPARE(QString::fromStdString(fl::getValue(f.doc.scenario(), "scheme.communication")), communication);
    QCOMPARE(QString::fromStdString(fl::getValue(f.doc.scenario(), "scheme.fusion")), fusion);
    QVERIFY(button->isChecked());
    QVERIFY(f.editor.explanation().contains(name));
    QCOMPARE(qobject_cast<QComboBox*>(f.editor.field("scheme.fusion"))->currentText(), fusion);
    QCOMPARE(f.doc.undoStack()->count(), 1);
    f.doc.undoStack()->undo();
    QVERIFY(f.doc.scenario() == before);
    QVERIFY(!button->isChecked());
  }

  // A swept key shows the selected point's value, locked; the rest stays editable.
  // Points run in cartesian order, first axis outermost (docs/scenario.md, sweep).
  void sweptKeysFollowThePoint_data() {
    QTest::addColumn<int>("point");
    QTest::addColumn<QString>("communication");
    QTest::addColumn<QString>("fusion");
    QTest::newRow("first") << 0 << "deepep" << "sequential";
    QTest::newRow("inner axis varies fastest") << 1 << "deepep" << "token_centric";
    QTest::newRow("outer axis") << 2 << "dysharp" << "sequential";
    QTest::newRow("last") << 3 << "dysharp" << "token_centric";
  }

  void sweptKeysFollowThePoint() {
    QFETCH(int, point);
    QFETCH(QString, communication);
    QFETCH(QString, fusion);
    fl::Scenario s = smallMoe({"scheme.communication=explicit", "scheme.fusion=overlap"});
    s.sweep = {{"scheme.communication", {"deepep", "dysharp"}}, {"scheme.fusion", {"sequential", "token_centric"}}};
    Fixture f(s);
    f.editor.setSweepPoint(point);
    auto* fusionBox = qobject_cast<QComboBox*>(f.editor.field("scheme.fusion"));
    auto* commBox = qobject_cast<QComboBox*>(f.editor.field("scheme.communication"));
    QCOMPARE(fusionBox->currentText(), fusion);
    QCOMPARE(commBox->currentText(), communication);
    QVERIFY(!fusionBox->isEnabled() && !commBox->isEnabled());
    QVERIFY(!f.editor.presetButton(0)->isEnabled());
    QVERIFY(f.editor.field("scheme.comm_sms")->isEnabled());
    QVERIFY(f.editor.sweepNoteText().contains("scheme.fusion = " + fusion));
    QCOMPARE(f.editor.partition()->isEnabled() && f.editor.partition()->parentWidget()->isEnabled(),
             fusion == "token_centric");
    // The base scenario is untouched: only the view follows the point.
    QVERIFY(f.doc.scenario() == s);
    QCOMPARE(f.doc.undoStack()->count(), 0);

    // Without the sweep both combos are the base's again, editable, and the note goes.
    QCOMPARE(f.doc.edit("sweep", "[]"), QString());
    QCOMPARE(fusionBox->currentText(), QString("overlap"));
    QVERIFY(fusionBox->isEnabled() && f.editor.presetButton(0)->isEnabled());
    QCOMPARE(f.editor.sweepNoteText(), QString());
  }

  void invalidValues_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("not a time") << "scheme.launch.overhead" << "5 parsecs" << "scheme.launch.overhead";
    QTest::newRow("no unit") << "scheme.token_centric.overflow_latency" << "500" << "overflow_latency";
    QTest::newRow("negative") << "scheme.stragglers.start_jitter" << "-3 us" << "start_jitter";
  }

  void invalidValues() {
    QFETCH(QString, path);
    QFETCH(QString, text);
    QFETCH(QString, mentions);
    Fixture f(smallMoe());
    const fl::Scenario before = f.doc.scenario();
    auto* edit = qobject_cast<QLineEdit*>(f.editor.field(path.toStdString()));
    QVERIFY(edit);
    edit->setText(text);
    QTest::keyClick(edit, Qt::Key_Return);
    QVERIFY2(f.editor.errorText().contains(mentions), qPrintable(f.editor.errorText()));
    QVERIFY(f.doc.scenario() == before);
    QCOMPARE(f.doc.undoStack()->count(), 0);
    QCOMPARE(edit->text(), text);  // kept for correcting

    // A valid quantity is applied, in any unit, and clears the message.
    edit->setText("7000 ns");
    QTest::keyClick(edit, Qt::Key_Return);
    QVERIFY(f.editor.errorText().isEmpty());
    QCOMPARE(fl::getValue(f.doc.scenario(), path.toStdString()), std::string("7 us"));
    QCOMPARE(edit->text(), QString("7 µs"));  // the GUI's spelling of microseconds
    // Confirming the text as shown is no edit.
    const int edits = f.doc.undoStack()->count();
    QTest::keyClick(edit, Qt::Key_Return);
    QCOMPARE(f.doc.undoStack()->count(), edits);
  }

  void crossFieldError() {
    Fixture f(smallMoe({"gpu.sms=108"}));
    const fl::Scenario before = f.doc.scenario();
    auto* spin = qobject_cast<QSpinBox*>(f.editor.field("scheme.comm_sms"));
    spin->setValue(200);  // more than the GPU has: validateScenario's message
    QVERIFY2(f.editor.errorText().contains("gpu.sms"), qPrintable(f.editor.errorText()));
    QVERIFY(f.doc.scenario() == before);
    QCOMPARE(spin->value(), before.scheme.comm_sms);  // reverted
    QVERIFY(f.editor.grab().save(t::artefactsDir() + "/fusion_editor_error.png"));
  }

  void followsDocument() {
    Fixture f(smallMoe());
    auto* baseline = qobject_cast<QComboBox*>(f.editor.field("scheme.launch.baseline"));
    auto* kernels = qobject_cast<QSpinBox*>(f.editor.field("scheme.launch.kernels"));
    // Picking a baseline fills the kernel count (seed 001 Table 1.1); one undo restores both.
    baseline->setCurrentText("flashdmoe");
    emit baseline->activated(baseline->currentIndex());
    QCOMPARE(f.doc.scenario().scheme.launch.baseline, std::string("flashdmoe"));
    QCOMPARE(kernels->value(), f.doc.scenario().scheme.launch.kernels);
    QVERIFY(kernels->value() > 0);
    f.doc.undoStack()->undo();
    QCOMPARE(baseline->currentText(), QString("custom"));
    QCOMPARE(kernels->value(), 0);
    QCOMPARE(f.doc.scenario().scheme.launch.kernels, 0);

    // Edits from elsewhere (the scenario tree) show up; so does opening another file.
    QCOMPARE(f.doc.edit("scheme.persistent.capacity_factor", "1.5"), QString());
    QCOMPARE(qobject_cast<QDoubleSpinBox*>(f.editor.field("scheme.persistent.capacity_factor"))->value(), 1.5);
    f.doc.reset(smallMoe({"scheme.stragglers.steps=7"}), QString());
    QCOMPARE(qobject_cast<QSpinBox*>(f.editor.field("scheme.stragglers.steps"))->value(), 7);
  }

  void wheelScrollsWithoutEditing() {
    Fixture f(smallMoe());
    f.editor.resize(440, 400);  // the form scrolls
    auto* spin = qobject_cast<QSpinBox*>(f.editor.field("scheme.stragglers.steps"));
    QVERIFY(!spin->hasFocus());
    const QPoint at = spin->rect().center();
    QWheelEvent wheel(at, spin->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(spin, &wheel);
    QCOMPARE(spin->value(), 1);
    QCOMPARE(f.doc.undoStack()->count(), 0);
  }

  void noticeForCollective() {
    QTemporaryDir dir;
    ScenarioDocument doc;
    doc.load(t::writeFile(dir, "c.yaml", t::nvswitchScenario("dgx-h100")));
    FusionEditor editor(&doc);
    QVERIFY(editor.noticeVisible());
    QVERIFY(editor.noticeText().contains("moe_layer"));
    doc.reset(smallMoe(), QString());
    QVERIFY(!editor.noticeVisible());
  }

  void rerunsOnceAfterDebounce() {
    QTemporaryDir dir;
    const QString path = dir.filePath("small.yaml");
    fl::saveScenario(smallMoe(partitionOverrides(132, {10, 56, 56, 10})), path.toStdString());
    fl::gui::MainWindowOptions o;
    o.autosave = false;
    o.restoreLayout = false;
    o.rerunDelayMs = 300;
    fl::gui::MainWindow w(o);
    w.setSavePrompt([] { return QMessageBox::Discard; });
    w.show();
    QCOMPARE(w.openFile(path), QString());
    QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isBusy(), 60000);
    auto* editor = w.findChild<FusionEditor*>();
    QVERIFY(editor);
    QSignalSpy started(w.controller(), &fl::gui::RunController::runStarted);

    drag(editor->partition()->slider(0), {12, 16, 20});  // one gesture, four keys
    QCOMPARE(groupsOf(w.document()->scenario()), (Groups{20, 51, 52, 9}));
    QCOMPARE(started.count(), 0);  // not before the pause
    QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 5000);
    QTest::qWait(600);  // twice the debounce: no second run
    QCOMPARE(started.count(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isBusy(), 60000);
    QCOMPARE(w.controller()->lastScenario().scheme.token_centric.dispatch_sms, 20);

    w.resize(1500, 950);  // the app's default size, for the picture
    editor->raise();      // tabbed behind the scenario tree
    QTest::qWait(100);
    QVERIFY(w.grab().save(t::artefactsDir() + "/fusion_editor_window.png"));
  }

  void screenshot() {
    ScenarioDocument doc;
    doc.load(kSchemes);
    FusionEditor editor(&doc);
    editor.resize(440, 1100);
    editor.show();
    QVERIFY(editor.grab().save(t::artefactsDir() + "/fusion_editor.png"));
    // Full DySHARP with an explicit partition, for the bar.
    editor.presetButton(3)->click();
    QVERIFY(editor.grab().save(t::artefactsDir() + "/fusion_editor_automatic.png"));  // the simulator's split, greyed
    editor.partition()->automaticBox()->click();
    QVERIFY(editor.grab().save(t::artefactsDir() + "/fusion_editor_token_centric.png"));
    editor.resize(340, 700);  // a narrow, short dock: the form scrolls, nothing overlaps
    QVERIFY(editor.grab().save(t::artefactsDir() + "/fusion_editor_narrow.png"));
  }
};

QTEST_MAIN(TestFusionEditor)
#include "test_fusion_editor.moc"
