// Guided scenarios end to end (offscreen): the Story dock's steps move the views (sweep
// point, dock, timeline, direction filter), friendly sweep-point names, the Sweep dock's
// point states during a run, the welcome gallery, the Help menu, presentation mode and
// the Compare action on the toolbar. Expected bins come from the run's own phase marks
// (start / bin width), computed here.
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QListWidget>

#include "gui/story_step_delegate.h"
#include <QMenuBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QToolBar>
#include <QtTest>
#include <map>

#include "gui/follow_runner.h"
#include "gui/main_window.h"
#include "gui/run_controller.h"
#include "gui/story_dock.h"
#include "gui/story_step_delegate.h"
#include "gui/sweep_results.h"
#include "gui/welcome_dialog.h"
#include "gui_test_util.h"
#include "main_window_fixture.h"
#include "scenario/scenario_io.h"
#include "views/follow_bar.h"
#include "views/run_model.h"
#include "views/sweep_chart.h"
#include "views/topology_canvas.h"

using fl::gui::MainWindow;
namespace t = fl::gui::test;
using State = fl::gui::SweepResults::PointState;

namespace {

// default.yaml with a 16 MiB all-reduce: the same story, a run of a second or two.
QString smallDefault(const QTemporaryDir& dir) {
  QFile f(QStringLiteral(FABRICLAB_SCENARIOS "/default.yaml"));
  if (!f.open(QIODevice::ReadOnly)) return {};
  QByteArray text = f.readAll();
  text.replace("size: 256 MiB", "size: 16 MiB");
  return t::writeFile(dir, "default-small.yaml", text);
}

QDockWidget* dock(MainWindow& w, const char* name) { return w.findChild<QDockWidget*>(QLatin1String(name)); }

// The bin a phase of the shown results starts in.
int phaseBin(const fl::Results& r, const std::string& name) {
  for (const auto& p : r.phases)
    if (p.name == name) return int(p.start / r.bin);
  return -1;
}

// Every step's text, wrapped at the width its item is drawn, fits the item's height
// inside the delegate's margins (Qt's own delegate elided the last line), at several
// dock widths.
void stepsWhole(QListWidget* list) {
  const int m = fl::gui::StoryStepDelegate::kMargin;
  for (int width : {220, 300, 460}) {
    list->resize(width, list->height());
    QApplication::processEvents();
    for (int i = 0; i < list->count(); ++i) {
      const QRect item = list->visualItemRect(list->item(i));
      const QRect text = list->fontMetrics().boundingRect(QRect(0, 0, item.width() - 2 * m, 1 << 20), Qt::TextWordWrap,
                                                          list->item(i)->text());
      QVERIFY2(text.height() <= item.height() - 2 * m,
               qPrintable(QString("step %1 at %2 px needs %3 px, has %4").arg(i + 1).arg(width).arg(text.height()).arg(item.height() - 2 * m)));
    }
  }
}

}  // namespace

class TestStory : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { t::isolateSettings(); }
  void friendlyLabels_data();
  void friendlyLabels();
  void storyMovesTheView();
  void storyFollowsAList();
  void sweepStatesDuringRun();
  void gallery();
  void helpAndToolbar();
  void presentationMode();
};

void TestStory::friendlyLabels_data() {
  QTest::addColumn<QString>("file");
  QTest::addColumn<QStringList>("labels");
  QTest::newRow("default: sweep labels") << "default.yaml" << QStringList{"Ring", "NVLS"};
  // communication outermost: deepep x (sequential, token_centric), dysharp x (...).
  QTest::newRow("fusion demo: scheme names")
      << "nvl32-moe-fusion-demo.yaml" << QStringList{"DeepEP", "Fusion only", "DySHARP-Basic", "Full DySHARP"};
  QTest::newRow("flashdmoe: names and labels")
      << "flashdmoe-8xh100.yaml"
      << QStringList{"DeepEP, 4K tokens", "DeepEP, 8K tokens", "DeepEP, 16K tokens",
                     "COMET, 4K tokens", "COMET, 8K tokens", "COMET, 16K tokens",
                     "FlashDMoE, 4K tokens", "FlashDMoE, 8K tokens", "FlashDMoE, 16K tokens"};
  QTest::newRow("numeric axis: short name and unit")
      << "nvl32-moe-reduction-buffer-sweep.yaml"
      << QStringList{"Reduction buffer 8 KiB", "Reduction buffer 16 KiB", "Reduction buffer 32 KiB",
                     "Reduction buffer 64 KiB", "Reduction buffer 128 KiB"};
}

void TestStory::friendlyLabels() {
  QFETCH(QString, file);
  QFETCH(QStringList, labels);
  const fl::Scenario s = fl::loadScenario((QStringLiteral(FABRICLAB_SCENARIOS "/") + file).toStdString());
  const QStringList got = fl::gui::RunController::pointLabels(s);
  if (labels.isEmpty()) {  // every part "key = value" with the key's last segment
    QVERIFY(!got.isEmpty());
    const auto& axis = s.sweep.front();
    const QString key = QString::fromStdString(axis.key.substr(axis.key.rfind('.') + 1));
    QVERIFY2(got.front().startsWith(key + " = " + QString::fromStdString(axis.values.front())), qPrintable(got.front()));
    return;
  }
  QCOMPARE(got, labels);
}

// Each step of the default demo's story, played: the point, the dock, the bin and the
// direction filter it names.
void TestStory::storyMovesTheView() {
  QTemporaryDir dir;
  auto w = t::makeWindow();
  QCOMPARE(w->openFile(smallDefault(dir)), QString());
  QVERIFY(t::waitIdle(*w));
  fl::gui::StoryDock* story = w->storyDock();
  QCOMPARE(story->stepCount(), 6);
  QVERIFY2(story->isVisible(), "a scenario with a story raises its dock");
  QCOMPARE(story->list()->count(), 6);
  QVERIFY(story->list()->item(0)->text().startsWith("1. Ring all-reduce"));
  fl::views::RunModel* m = w->runModel();

  story->play(0);
  QCOMPARE(w->sweepResults()->selectedPoint(), 0);
  QCOMPARE(w->pointSelector()->currentText(), QString("Ring"));
  QVERIFY(dock(*w, "PlotsDock")->isVisible());
  QCOMPARE(int(m->directionFilter()), int(fl::views::DirectionFilter::Both));

  story->play(1);  // the ring's reduce-scatter
  QTRY_COMPARE(m->currentBin(), phaseBin(*m->results(), "reduce_scatter"));

  story->play(2);  // NVLS, ld_reduce, uplinks only
  QCOMPARE(w->sweepResults()->selectedPoint(), 1);
  QCOMPARE(w->pointSelector()->currentText(), QString("NVLS"));
  QCOMPARE(int(m->directionFilter()), int(fl::views::DirectionFilter::Up));
  const int ldReduce = phaseBin(*m->results(), "ld_reduce");
  QVERIFY(ldReduce >= 0);
  QTRY_COMPARE(m->currentBin(), ldReduce);
  QCOMPARE(story->problem(), QString());

  // Clicking the next step in the list plays it too.
  QListWidget* list = story->list();
  stepsWhole(list);
  if (QTest::currentTestFailed()) return;
  QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(3)).center());
  QCOMPARE(story->currentStep(), 3);
  QCOMPARE(int(m->directionFilter()), int(fl::views::DirectionFilter::Down));
  QTRY_COMPARE(m->currentBin(), phaseBin(*m->results(), "multimem_st"));

  // Follow one piece of GPU 0's chunk on NVLS: the Follow bar shows and plays its hops,
  // 1 ld_reduce + N reads + N contributions + 1 result + 1 multimem.st + N copies
  // (N = 8 GPUs): 3 N + 3.
  auto* runner = w->findChild<fl::gui::FollowRunner*>();
  QVERIFY(runner);
  QSignalSpy followed(runner, &fl::gui::FollowRunner::followed);
  story->next();
  QCOMPARE(story->currentStep(), 4);
  QVERIFY(runner->action()->isChecked());
  QVERIFY(runner->bar()->isVisible());
  QVERIFY(followed.wait(60000));
  QVERIFY(runner->bar()->follow());
  QCOMPARE(int(runner->bar()->follow()->hops.size()), 3 * 8 + 3);
  QCOMPARE(runner->bar()->gpuBox()->value(), 0);
  QCOMPARE(w->sweepResults()->selectedPoint(), 1);
  QVERIFY(w->grab().save(t::artefactsDir() + "/story-default-follow.png"));

  story->next();
  QCOMPARE(story->currentStep(), 5);
  QVERIFY(dock(*w, "SweepDock")->isVisible());
  QCOMPARE(int(m->directionFilter()), int(fl::views::DirectionFilter::Both));
  QVERIFY(w->grab().save(t::artefactsDir() + "/story-default-step5.png"));
}

// A step whose follow lists two selectors records both at once, each its own selector
// (colour) on the canvas: 3 N + 3 hops for each NVLS chunk piece (N = 8), as run.follow's
// list gives them; the bar's pickers show the first (GPU 2, piece 1).
void TestStory::storyFollowsAList() {
  auto w = t::makeWindow();
  QCOMPARE(w->openFile(QStringLiteral(FABRICLAB_TEST_DATA "/good/story_follow_two.yaml")), QString());
  QVERIFY(t::waitIdle(*w));
  auto* runner = w->findChild<fl::gui::FollowRunner*>();
  QVERIFY(runner);
  for (int step : {0, 1}) {  // the YAML list, then the same on one line
    QSignalSpy followed(runner, &fl::gui::FollowRunner::followed);
    w->storyDock()->play(step);
    QVERIFY(followed.wait(60000));
    const auto f = runner->bar()->follow();
    QVERIFY(f);
    QCOMPARE(int(f->hops.size()), 2 * (3 * 8 + 3));
    QCOMPARE(int(f->parts.size()), 2);
    int per[2] = {};
    for (const auto& h : f->hops) ++per[std::clamp(f->selectorOf(h), 0, 1)];
    QCOMPARE(per[0], 3 * 8 + 3);
    QCOMPARE(per[1], 3 * 8 + 3);
    QCOMPARE(runner->bar()->gpuBox()->value(), 2);
    QCOMPARE(runner->bar()->pieceBox()->value(), 1);
    QVERIFY(w->findChild<fl::views::TopologyCanvas*>()->followItem());
  }
  QVERIFY(w->grab().save(t::artefactsDir() + "/story-follow-two.png"));
}

// While a two-point sweep runs, the Sweep dock says which point runs and which wait, and
// never that the scenario has no sweep; a point is never done before its final results.
void TestStory::sweepStatesDuringRun() {
  QTemporaryDir dir;
  auto w = t::makeWindow();
  fl::gui::SweepResults* sweep = w->sweepResults();
  auto* chart = w->findChild<fl::views::SweepChart*>();
  QVERIFY(chart);
  QStringList seen;
  bool backwards = false, saidNoSweep = false;
  std::map<int, int> last;  // point -> its last state: states only move forward in a run
  connect(sweep, &fl::gui::SweepResults::pointStateChanged, this, [&](int p) {
    const int now = int(sweep->state(p));
    if (last.count(p) && now < last[p] && now != int(State::Pending)) backwards = true;
    last[p] = now;
    auto* states = w->findChild<QLabel*>("sweepStates");
    if (states && states->isVisibleTo(w.get())) seen << states->text();
    saidNoSweep |= chart->noticeVisible() && chart->noticeText().contains("no sweep");
  });
  QCOMPARE(w->openFile(smallDefault(dir)), QString());
  QVERIFY(t::waitIdle(*w));
  QVERIFY(!backwards);
  QVERIFY(!saidNoSweep);
  QVERIFY(!seen.isEmpty());
  bool running = false, pending = false;
  for (const QString& s : seen) {
    running |= s.contains("Ring (running)") || s.contains("NVLS (running)");
    pending |= s.contains("NVLS (pending)");
  }
  QVERIFY2(running, qPrintable(seen.join('\n')));
  QVERIFY2(pending || seen.size() >= 2, qPrintable(seen.join('\n')));
  for (int i = 0; i < sweep->pointCount(); ++i) QCOMPARE(int(sweep->state(i)), int(State::Done));
  QVERIFY(!w->findChild<QLabel*>("sweepStates")->isVisibleTo(w.get()));
  // A re-run: no point is done again before it finishes.
  w->runNow();
  QCOMPARE(int(sweep->state(1)) == int(State::Done), false);
  QVERIFY(t::waitIdle(*w));
}

// The gallery: every bundled scenario that loads, the default demo first, each with its
// system; the fusion demo cites seed 000; the picture shows a fabric (not one colour).
void TestStory::gallery() {
  const QString dir = QStringLiteral(FABRICLAB_SCENARIOS);
  const auto entries = fl::gui::galleryEntries(dir);
  const QStringList files = QDir(dir).entryList({"*.yaml"}, QDir::Files);
  QCOMPARE(entries.size(), files.size());
  QVERIFY(entries.front().path.endsWith("/default.yaml"));
  for (const auto& e : entries) {
    QVERIFY2(!e.system.isEmpty() && !e.name.isEmpty(), qPrintable(e.path));
    if (e.path.endsWith("nvl32-moe-fusion-demo.yaml")) QCOMPARE(e.seed, QString("DySHARP (seed 000)"));
    if (e.path.endsWith("flashdmoe-8xh100.yaml")) QCOMPARE(e.seed, QString("FlashDMoE (seed 001)"));
  }
  fl::gui::WelcomeDialog dialog(entries);
  dialog.show();
  QVERIFY(QTest::qWaitForWindowExposed(&dialog));
  QCOMPARE(dialog.gallery()->count(), entries.size());
  QCOMPARE(dialog.chosenPath(), entries.front().path);
  const QImage picture = dialog.picture()->pixmap().toImage();
  QSet<QRgb> colours;
  for (int y = 0; y < picture.height(); y += 3)
    for (int x = 0; x < picture.width(); x += 3) colours.insert(picture.pixel(x, y));
  QVERIFY2(colours.size() > 20, "a drawn fabric, not a blank box");
  QVERIFY(dialog.grab().save(t::artefactsDir() + "/welcome-gallery.png"));
}

void TestStory::helpAndToolbar() {
  auto w = t::makeWindow();
  QStringList menus;
  for (QAction* a : w->menuBar()->actions()) menus << a->text().remove('&');
  QVERIFY2(menus.contains("Help"), qPrintable(menus.join(',')));
  const auto& a = w->actions();
  QVERIFY(a.helpMenu->actions().contains(a.welcome) && a.helpMenu->actions().contains(a.about) &&
          a.helpMenu->actions().contains(a.shortcuts) && a.helpMenu->actions().contains(a.docs));
  QCOMPARE(a.presentation->shortcut(), QKeySequence(Qt::Key_F11));
  auto* bar = w->findChild<QToolBar*>("MainToolBar");
  QVERIFY(bar->actions().contains(a.compare));
  QVERIFY(bar->actions().contains(a.comparePipelines));
}

// F11: full screen, editing docks hidden, larger type and canvas lanes; off: as before.
void TestStory::presentationMode() {
  QTemporaryDir dir;
  auto w = t::makeWindow();
  QCOMPARE(w->openFile(smallDefault(dir)), QString());
  QVERIFY(t::waitIdle(*w));
  QDockWidget* scenario = dock(*w, "ScenarioDock");
  QVERIFY(scenario->isVisible());
  const double size = w->font().pointSizeF();
  const double lane = w->canvas()->linkItem(0)->geometry().width;
  w->actions().presentation->trigger();
  QVERIFY(w->presentationMode());
  QVERIFY(w->windowState() & Qt::WindowFullScreen);
  QVERIFY(!scenario->isVisible());
  QVERIFY(w->font().pointSizeF() > size * 1.2);
  QVERIFY(w->canvas()->linkItem(0)->geometry().width > lane * 1.4);
  QVERIFY(w->grab().save(t::artefactsDir() + "/presentation-default.png"));
  w->actions().presentation->trigger();
  QVERIFY(!w->presentationMode());
  QVERIFY(!(w->windowState() & Qt::WindowFullScreen));
  QTRY_VERIFY(scenario->isVisible());
  QCOMPARE(w->font().pointSizeF(), size);
  QCOMPARE(w->canvas()->linkItem(0)->geometry().width, lane);
}

QTEST_MAIN(TestStory)
#include "test_story.moc"
