// What persists between sessions: recent files (QSettings) and the recovery file of
// unsaved edits (written while dirty, offered at start, removed on save and normal exit).
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QLockFile>
#include <QMenu>
#include <QSettings>
#include <QtTest>
#include <memory>

#include "gui/main_window.h"
#include "gui/recovery.h"
#include "gui/run_controller.h"
#include "gui/scenario_document.h"
#include "gui/settings.h"
#include "views/run_model.h"
#include "gui_test_util.h"
#include "main_window_fixture.h"

using fl::gui::MainWindow;
namespace t = fl::gui::test;
using t::waitIdle;

namespace {

// Not shown: what is saved and restored does not need a window on screen.
std::unique_ptr<MainWindow> makeWindow(bool restoreLayout = false) { return t::makeWindow(restoreLayout, false); }

}  // namespace

class TestPersistence : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { t::isolateSettings(); }

  void thresholdsPersist() {
    makeWindow()->runModel()->setThresholds(0.1, 0.6);
    auto w = makeWindow();
    QCOMPARE(w->runModel()->coldThreshold(), 0.1);
    QCOMPARE(w->runModel()->hotThreshold(), 0.6);
  }

  void windowLayoutPersists() {
    // Start from no saved layout: one left by another build (other docks, other
    // minimum sizes) would be restored by the first window and saved again.
    QSettings().remove("window");
    {
      auto w = makeWindow(true);
      w->show();
      w->resize(1234, 901);  // above the window's minimum size
      QTest::qWait(50);
      QVERIFY(w->close());  // saves geometry and dock state
    }
    auto w = makeWindow(true);
    QCOMPARE(w->size(), QSize(1234, 901));
  }

  void recentFiles() {
    QSettings().remove("recentFiles");
    QTemporaryDir dir;
    QStringList paths;
    for (int i = 0; i < 10; ++i) paths << t::writeFile(dir, QString("r%1.yaml").arg(i), t::meshScenario(2, 2));
    for (const QString& p : paths) fl::gui::Settings::addRecentFile(p);
    fl::gui::Settings::addRecentFile(paths[5]);  // again: moves to the front
    const QStringList recent = fl::gui::Settings::recentFiles();
    QCOMPARE(recent.size(), 8);
    QCOMPARE(recent.first(), paths[5]);
    QCOMPARE(recent.at(1), paths[9]);
    QCOMPARE(recent.count(paths[5]), 1);
    QVERIFY(!recent.contains(paths[0]) && !recent.contains(paths[1]));

    auto w = makeWindow();
    QCOMPARE(w->openFile(paths[0]), QString());
    QCOMPARE(fl::gui::Settings::recentFiles().first(), paths[0]);
    QCOMPARE(w->actions().recentMenu->actions().size(), 8);
    QVERIFY(w->actions().recentMenu->actions().first()->text().contains("r0.yaml"));
    QVERIFY(waitIdle(*w));
  }

  void recoveryFile() {
    QTemporaryDir dir;
    fl::gui::ScenarioDocument doc;
    doc.load(t::writeFile(dir, "r.yaml", t::meshScenario(4, 4)));
    auto recovery = std::make_unique<fl::gui::Recovery>(&doc);
    const QString file = recovery->file();
    QVERIFY(!recovery->writeNow());  // nothing unsaved
    QVERIFY(!QFile::exists(file));
    QVERIFY(doc.edit("topology.cols", "5").isEmpty());
    QVERIFY(recovery->writeNow());
    QVERIFY(QFile::exists(file));
    QVERIFY(!fl::gui::Recovery::orphans().contains(file));  // its window is running
    QVERIFY(!fl::gui::Recovery::claim(file));
    QString original;
    QVERIFY(fl::gui::Recovery::load(file, original) == doc.scenario());
    QCOMPARE(original, doc.filePath());
    doc.save(doc.filePath());
    QVERIFY(!QFile::exists(file));  // saving removes it
    QVERIFY(doc.edit("topology.cols", "6").isEmpty());
    QVERIFY(recovery->writeNow());
    recovery.reset();  // the window goes without a normal exit: the file stays, unlocked
    QVERIFY(fl::gui::Recovery::orphans().contains(file));
    QVERIFY(fl::gui::Recovery::load(file, original) == doc.scenario());
    fl::gui::Recovery::remove(file);
    QVERIFY(!fl::gui::Recovery::orphans().contains(file));
  }

  // Two windows open at once keep a file each: one saving or closing normally leaves
  // the other's alone, and neither is offered as left over while both run.
  void recoveryPerWindow() {
    QTemporaryDir dir;
    fl::gui::ScenarioDocument a, b;
    a.load(t::writeFile(dir, "a.yaml", t::meshScenario(4, 4)));
    b.load(t::writeFile(dir, "b.yaml", t::meshScenario(2, 2)));
    fl::gui::Recovery ra(&a), rb(&b);
    QVERIFY(ra.file() != rb.file());
    QVERIFY(a.edit("topology.cols", "5").isEmpty());
    QVERIFY(b.edit("topology.cols", "3").isEmpty());
    QVERIFY(ra.writeNow() && rb.writeNow());
    const QStringList left = fl::gui::Recovery::orphans();
    QVERIFY(!left.contains(ra.file()) && !left.contains(rb.file()));
    ra.discard();  // a's normal exit
    QVERIFY(!QFile::exists(ra.file()));
    QString original;
    QCOMPARE(fl::gui::Recovery::load(rb.file(), original).topology.cols, 3);
    QCOMPARE(original, b.filePath());
    rb.discard();
  }

  void recoveryOfferedAtStart_data() {
    QTest::addColumn<bool>("restore");
    QTest::newRow("restore") << true;
    QTest::newRow("decline") << false;
  }

  void recoveryOfferedAtStart() {
    QFETCH(bool, restore);
    for (const QString& f : fl::gui::Recovery::orphans()) fl::gui::Recovery::remove(f);
    QTemporaryDir dir;
    const QString path = t::writeFile(dir, "crashed.yaml", t::meshScenario(4, 4));
    QString left;
    const auto crash = [&](const QString& cols) {  // a session that edits and "crashes"
      fl::gui::ScenarioDocument doc;
      doc.load(path);
      fl::gui::Recovery recovery(&doc);
      QVERIFY(doc.edit("topology.cols", cols.toStdString()).isEmpty());
      QVERIFY(recovery.writeNow());
      left = recovery.file();
    };
    crash("7");
    const QString older = left;
    QFile(older).setFileTime(QDateTime::currentDateTime().addSecs(-60), QFileDevice::FileModificationTime);
    crash("6");
    auto w = makeWindow();
    bool asked = false;
    w->setRecoveryPrompt([&] { return asked = true, restore; });
    QCOMPARE(w->startup(path, true), QString());
    QVERIFY(asked);
    QCOMPARE(w->document()->filePath(), path);
    QCOMPARE(w->document()->scenario().topology.cols, restore ? 6 : 4);  // the newest
    QCOMPARE(w->document()->isModified(), restore);  // restored changes are unsaved
    QCOMPARE(w->isWindowModified(), restore);
    QVERIFY(!QFile::exists(left));  // restored into the window's own file, or dropped
    QCOMPARE(fl::gui::Recovery::orphans(), QStringList{older});  // kept for the next start
    QCOMPARE(QFile::exists(w->findChild<fl::gui::Recovery*>()->file()), restore);
    QVERIFY(waitIdle(*w));
    QVERIFY(w->close());  // a normal exit removes its own
    QVERIFY(!QFile::exists(w->findChild<fl::gui::Recovery*>()->file()));
    fl::gui::Recovery::remove(older);
  }

};

QTEST_MAIN(TestPersistence)
#include "test_persistence.moc"
