// A re-run of the same sweep points: while it runs, the values still from the previous
// run are marked stale (hatched bars and "(stale)" in the Sweep dock, faded hatched bars
// and a title note in the Traffic Breakdown) and the marks go as the new run replaces
// each point; none remain when it has finished. Counts from the sweep's own point
// states (SweepResults::isStale), read at every change.
#include <QDockWidget>
#include <QtTest>

#include "gui/main_window.h"
#include "gui/run_controller.h"
#include "gui/sweep_results.h"
#include "../common/report_cases.h"
#include "gui_test_util.h"
#include "main_window_fixture.h"
#include "views/sweep_chart.h"
#include "views/traffic_breakdown_bars.h"

using fl::gui::MainWindow;
namespace t = fl::gui::test;

namespace {

// A quick MoE sweep on 8 GPUs (the report tests' MoE layer): two points, both with a
// breakdown.
QByteArray moeSweep() {
  return QByteArray(fl::test::report_cases::kMoe) + "sweep:\n  - key: scheme.communication\n    values: [deepep, dysharp]\n";
}

}  // namespace

class TestStaleMarks : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { t::isolateSettings(); }

  void markedUntilReplaced() {
    QTemporaryDir dir;
    auto w = t::makeWindow();
    QCOMPARE(w->openFile(t::writeFile(dir, "moe.yaml", moeSweep())), QString());
    QVERIFY(t::waitIdle(*w, 120000));
    auto* chart = w->findChild<fl::views::SweepChart*>();
    auto* bars = w->findChild<fl::views::TrafficBreakdownBars*>();
    QVERIFY(chart && bars);
    QCOMPARE(chart->staleMarkCount(), 0);
    QVERIFY(!bars->isStale());
    QVERIFY(chart->setMetric("makespan"));

    // The re-run starts with both points' old values on screen: all marked stale. The
    // first point-state change of the run is checked (queued: after the window's own
    // handlers of that signal have run).
    fl::gui::SweepResults* sweep = w->sweepResults();
    int marksAtStart = -1, stalePoints = -1;
    bool breakdownStale = false;
    connect(sweep, &fl::gui::SweepResults::pointStateChanged, this, [&] {
      if (marksAtStart >= 0) return;
      marksAtStart = chart->staleMarkCount();
      stalePoints = 0;
      for (int i = 0; i < sweep->pointCount(); ++i) stalePoints += sweep->isStale(i) && sweep->isFinal(i);
      breakdownStale = bars->isStale();
    }, Qt::QueuedConnection);
    w->runNow();
    QVERIFY(t::waitIdle(*w, 120000));
    QTRY_VERIFY(marksAtStart >= 0);
    QCOMPARE(stalePoints, 2);
    QCOMPARE(marksAtStart, 2);
    QVERIFY(breakdownStale);
    QCOMPARE(chart->staleMarkCount(), 0);
    QVERIFY(!bars->isStale());
    QVERIFY(!chart->title().contains("stale"));
  }
};

QTEST_MAIN(TestStaleMarks)
#include "test_stale_marks.moc"
