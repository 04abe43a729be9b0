// Every dock tab whole on a laptop screen: on a 1024 x 768 screen (the offscreen platform
// configured with one; the window opens at 95 % of it, as the app does) and resized to
// 95 % of 1280 x 800, every tab of every dock tab bar lies inside its bar, no scroll
// arrows show, and the label it draws fits its tab with the style's padding.
// cais-4gpu's bottom row once scrolled, a tab cut to "…es" at its left edge.
#include <QDockWidget>
#include <QScreen>
#include <QTemporaryDir>
#include <QStyle>
#include <QStyleOptionTab>
#include <QTabBar>
#include <QToolButton>
#include <QtTest>

#include "gui/dock_tab_labels.h"
#include "gui/main_window.h"
#include "gui/run_controller.h"
#include "gui_test_util.h"
#include "main_window_fixture.h"

using fl::gui::MainWindow;
namespace t = fl::gui::test;

class TestDockTabs : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    t::isolateSettings();
    QCOMPARE(QGuiApplication::primaryScreen()->geometry().size(), QSize(1024, 768));
  }

  void tabsWhole_data() {
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QSize>("screen");
    for (const char* s : {"cais-4gpu.yaml", "cais-table1-schemes.yaml", "nvl32-moe-schemes.yaml",
                          "wsc-balancer-single.yaml", "xdc-ablation-24-8.yaml", "default.yaml"})
      for (const QSize screen : {QSize(1024, 768), QSize(1280, 800)})
        QTest::addRow("%s at %dx%d", s, screen.width(), screen.height()) << QString(s) << screen;
  }

  void tabsWhole() {
    QFETCH(QString, scenario);
    QFETCH(QSize, screen);
    auto w = t::makeWindow();
    if (screen != QSize(1024, 768)) w->resize(screen * 0.95);
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QCOMPARE(w->openFile(QStringLiteral(FABRICLAB_SCENARIOS "/") + scenario), QString());
    w->controller()->stop();
    QVERIFY(t::waitIdle(*w));
    QTest::qWait(50);
    QCoreApplication::processEvents();
    int tabs = 0;
    for (QTabBar* bar : w->findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
      if (!bar->isVisible()) continue;
      for (QToolButton* arrow : bar->findChildren<QToolButton*>())
        QVERIFY2(!arrow->isVisible(), qPrintable(QString("scroll arrows on the bar of '%1'").arg(bar->tabText(0))));
      const int pad = bar->style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, bar);
      for (int i = 0; i < bar->count(); ++i) {
        const QRect tab = bar->tabRect(i);
        auto* dock = reinterpret_cast<QDockWidget*>(bar->tabData(i).value<quintptr>());
        QVERIFY(dock);
        const QString label = fl::gui::dockTabLabel(*dock);
        const QString what = QString("tab '%1' (%2) at %3..%4 of a %5 px bar")
                                 .arg(label, bar->tabText(i)).arg(tab.left()).arg(tab.right()).arg(bar->width());
        QVERIFY2(bar->rect().contains(tab), qPrintable(what));
        // A word, not a stub, and drawn whole: its width plus the padding fits the tab.
        QVERIFY2(label.size() >= 4 && !label.contains(QChar(0x2026)), qPrintable(what));
        QVERIFY2(bar->fontMetrics().horizontalAdvance(label) + pad <= tab.width(), qPrintable(what));
        // The full title stays with the tab (tool tip) and the dock (title bar).
        QCOMPARE(bar->tabToolTip(i), dock->windowTitle());
        ++tabs;
      }
    }
    QVERIFY(tabs >= 4);
    QVERIFY(w->grab().save(t::artefactsDir() + "/dock_tabs_" + QString(QTest::currentDataTag()).replace(' ', '_') + ".png"));
  }
};

// One offscreen screen of 1024 x 768 (configured before the application starts).
int main(int argc, char** argv) {
  QTemporaryDir dir;
  if (!fl::gui::test::useOffscreenScreen(dir, QSize(1024, 768))) return 1;
  QApplication app(argc, argv);
  TestDockTabs test;
  QTEST_SET_MAIN_SOURCE_PATH
  return QTest::qExec(&test, argc, argv);
}
#include "test_dock_tabs.moc"
