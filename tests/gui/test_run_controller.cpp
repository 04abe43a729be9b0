// The run controller: simulations run in a worker thread, results arrive point by point,
// Stop is honoured quickly, a new run replaces the previous one, snapshots are coalesced.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

#include "gui/run_controller.h"
#include "gui_test_util.h"
#include "../common/test_waits.h"
#include "scenario/scenario_io.h"
#include "scenario/sweep.h"

using fl::gui::RunController;
using State = fl::gui::RunController::State;

Q_DECLARE_METATYPE(std::shared_ptr<const fl::Results>)

namespace {
// An 8 x 8 mesh all-to-all of 128 MiB per die: several seconds of simulation.
fl::Scenario longRun() {
  fl::Scenario s = fl::loadScenario(FABRICLAB_SCENARIOS "/mesh-8x8-all-to-all.yaml");
  fl::applyOverride(s, "workload.collective.size=128 MiB");
  return s;
}
fl::Scenario shortRun() {
  fl::Scenario s = fl::parseScenario(fl::gui::test::meshScenario(4, 4).toStdString(), "short.yaml");
  s.name = "short";
  return s;
}
}  // namespace

class TestRunController : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { qRegisterMetaType<std::shared_ptr<const fl::Results>>(); }

  void sweepPublishesPointByPoint_data() {
    QTest::addColumn<int>("jobs");
    QTest::newRow("one at a time") << 1;
    QTest::newRow("two at once") << 2;
  }

  void sweepPublishesPointByPoint() {
    QFETCH(int, jobs);
    RunController c;
    c.setJobs(jobs);
    QSignalSpy started(&c, &RunController::runStarted);
    QSignalSpy finished(&c, &RunController::pointFinished);
    QSignalSpy done(&c, &RunController::runFinished);
    const fl::Scenario s = fl::loadScenario(FABRICLAB_SCENARIOS "/default.yaml");
    c.start(s);
    QCOMPARE(c.state(), State::Running);
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), State::Idle, fl::test::waitMs(60000));
    QCOMPARE(started.count(), 1);
    // default.yaml sweeps workload.collective.algorithm over [ring, nvls].
    QCOMPARE(started.first().first().toStringList(), (QStringList{"Ring", "NVLS"}));  // its sweep labels
    QCOMPARE(finished.count(), 2);
    QSet<int> points;
    for (int i = 0; i < 2; ++i) {
      // One job: in order; several: as each finishes.
      if (jobs == 1) QCOMPARE(finished.at(i).at(0).toInt(), i);
      points.insert(finished.at(i).at(0).toInt());
      const auto r = finished.at(i).at(1).value<std::shared_ptr<const fl::Results>>();
      QVERIFY(r && !r->cancelled && r->makespan > 0);
    }
    QCOMPARE(points, (QSet<int>{0, 1}));
    QCOMPARE(done.count(), 1);
    QCOMPARE(done.first().first().toBool(), false);
  }

  void stopIsQuick() {
    RunController c;
    QSignalSpy snapshots(&c, &RunController::snapshotReady);
    c.start(longRun());
    // Stop once the engine is running (past building the network).
    QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > 0, fl::test::waitMs(20000));
    QElapsedTimer t;
    qint64 ms = -1;  // taken when the state changes, not when QTRY next polls
    connect(&c, &RunController::stateChanged, this, [&](State s) {
      if (s == State::Idle) ms = t.elapsed();
    });
    t.start();
    c.stop();
    QCOMPARE(c.state(), State::Cancelling);
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), State::Idle, fl::test::waitMs(5000));
    qInfo("stop -> idle: %lld ms (issue's bound: 200 ms)", ms);
    QVERIFY2(ms < 1000, qPrintable(QString::number(ms)));

    // And the controller is usable again.
    QSignalSpy finished(&c, &RunController::pointFinished);
    c.start(shortRun());
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), State::Idle, fl::test::waitMs(20000));
    QCOMPARE(finished.count(), 1);
    QVERIFY(!finished.first().at(1).value<std::shared_ptr<const fl::Results>>()->cancelled);
  }

  void newRunReplacesRunning() {
    RunController c;
    QSignalSpy snapshots(&c, &RunController::snapshotReady);
    QSignalSpy finished(&c, &RunController::pointFinished);
    QSignalSpy states(&c, &RunController::stateChanged);
    c.start(longRun());
    QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > 0, fl::test::waitMs(20000));
    c.start(shortRun());
    QCOMPARE(c.state(), State::Cancelling);  // the old run stops first
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), State::Idle, fl::test::waitMs(20000));
    // The long run ends cancelled, then the short one completes.
    QCOMPARE(finished.count(), 2);
    const auto first = finished.at(0).at(1).value<std::shared_ptr<const fl::Results>>();
    const auto second = finished.at(1).at(1).value<std::shared_ptr<const fl::Results>>();
    QVERIFY(first->cancelled);
    QVERIFY(!second->cancelled);
    QCOMPARE(second->scenario, std::string("short"));
    QCOMPARE(c.lastScenario().name, std::string("short"));
  }

  void snapshotsAreCoalesced() {
    RunController c;
    c.setSnapshotHz(20);
    QSignalSpy snapshots(&c, &RunController::snapshotReady);
    QElapsedTimer t;
    t.start();
    fl::Scenario s = longRun();
    fl::applyOverride(s, "workload.collective.size=32 MiB");
    c.start(s);
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), State::Idle, fl::test::waitMs(60000));
    const double seconds = t.elapsed() / 1000.0;
    qInfo("%lld snapshots in %.2f s", static_cast<long long>(snapshots.count()), seconds);
    QVERIFY(snapshots.count() > 0);
    QVERIFY(snapshots.count() <= 20 * seconds + 2);
    // Live snapshots move forward in simulated time.
    fl::Time last = -1;
    for (const auto& args : snapshots) {
      const auto r = args.at(1).value<std::shared_ptr<const fl::Results>>();
      QVERIFY(r->sim_time >= last);
      last = r->sim_time;
    }
  }

  void invalidSweepPointFails() {
    RunController c;
    QSignalSpy failed(&c, &RunController::failed);
    fl::Scenario s = fl::loadScenario(FABRICLAB_SCENARIOS "/default.yaml");
    s.topology.kind = fl::TopologyKind::Mesh;  // nvls is for NVSwitch fabrics only
    s.topology.preset.clear();
    c.start(s);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(c.state(), State::Idle);
  }

  void destroyWhileRunning() {
    auto* c = new RunController;
    QSignalSpy snapshots(c, &RunController::snapshotReady);
    c->start(longRun());
    QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() > 0, fl::test::waitMs(20000));
    QElapsedTimer t;
    t.start();
    delete c;  // cancels and joins
    qInfo("destroy while running: %lld ms", t.elapsed());
    QVERIFY(t.elapsed() < fl::test::waitMs(2000));
  }
};

QTEST_MAIN(TestRunController)
#include "test_run_controller.moc"
