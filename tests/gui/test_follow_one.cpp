// Follow one and the compare canvases in the main window: View > Follow One re-runs the
// point shown and draws the chosen chunk's hops; Compare Sweep Points' Fabrics tab shows
// both points' canvases at the window's thresholds. The NVLS chunk of one GPU on DGX-H100
// (N = 8) crosses 1 + N + N + 1 links for its ld_reduce and 1 + N for its multimem.st
// (every member gets a copy): 2 + 2N + 1 + N hops. Screenshots of both at 1024 x 768,
// 1280 x 800 and 1920 x 1080 go to <build>/tests/artefacts/.
#include <QAction>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QtTest>

#include "gui/compare_dialog.h"
#include "network/packet.h"
#include "gui/follow_runner.h"
#include "gui/main_window.h"
#include "gui/sweep_results.h"
#include "gui_test_util.h"
#include "main_window_fixture.h"
#include "views/compare_canvases.h"
#include "views/follow_bar.h"
#include "views/follow_item.h"
#include "views/run_model.h"
#include "views/topology_canvas.h"

using fl::Time;
using fl::gui::MainWindow;
namespace t = fl::gui::test;

namespace {

QString smallDefault(const QTemporaryDir& dir) {  // ring vs NVLS, 4 MiB: a short run
  QFile f(QStringLiteral(FABRICLAB_SCENARIOS "/default.yaml"));
  if (!f.open(QIODevice::ReadOnly)) return {};
  QByteArray text = f.readAll();
  text.replace("size: 256 MiB", "size: 4 MiB");
  text.replace("bin: 5 us", "bin: 1 us");
  return t::writeFile(dir, "default-small.yaml", text);
}

void grabAt(QWidget& w, const QString& name, QSize size) {
  w.resize(size);
  QTest::qWait(50);
  QCoreApplication::processEvents();
  const QString dir = QCoreApplication::applicationDirPath() + "/../artefacts";
  QDir().mkpath(dir);
  QVERIFY(w.grab().save(dir + "/" + name + ".png"));
}

}  // namespace

class TestFollowOne : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { t::isolateSettings(); }
  void followsAnNvlsChunk();
  void comparesFabrics();
  void scenarioFollowShows_data();
  void scenarioFollowShows();
};

void TestFollowOne::followsAnNvlsChunk() {
  QTemporaryDir dir;
  auto w = t::makeWindow();
  QCOMPARE(w->openFile(smallDefault(dir)), QString());
  QVERIFY(t::waitIdle(*w));
  w->sweepResults()->selectPoint(1);  // NVLS
  auto* runner = w->findChild<fl::gui::FollowRunner*>();
  QVERIFY(runner);
  QVERIFY(!runner->bar()->isVisible());
  runner->action()->setChecked(true);
  QVERIFY(runner->bar()->isVisible());
  runner->bar()->gpuBox()->setValue(2);
  runner->bar()->pieceBox()->setValue(1);
  QSignalSpy done(runner, &fl::gui::FollowRunner::followed);
  runner->bar()->followButton()->click();
  QVERIFY(done.wait(60000));
  const auto follow = runner->bar()->follow();
  QVERIFY(follow);
  const int n = 8;
  QCOMPARE(int(follow->hops.size()), 2 + 2 * n + 1 + n);
  const fl::views::FollowItem* item = w->canvas()->followItem();
  QVERIFY(item);
  // Half way through the first replica's hop (the copies leave the switch together): the
  // bar's time is the canvas's, and every copy under way is a dot.
  Time at = -1;
  for (const auto& h : follow->hops)
    if (h.op == static_cast<std::uint8_t>(fl::net::Op::Write) && at < 0) at = h.start + (h.arrive - h.start) / 2;
  QVERIFY(at > 0);
  runner->bar()->setTime(at);
  QCOMPARE(item->time(), at);
  const auto* model = w->findChild<fl::views::RunModel*>(QString(), Qt::FindDirectChildrenOnly);
  QCOMPARE(model->currentBin(), int(at / model->binWidth()));  // lanes of the bin the packets are in
  int moving = 0;
  for (const auto& h : follow->hops) moving += h.start <= at && at < h.arrive;
  QVERIFY(moving >= 1);
  QCOMPARE(int(item->dots().size()), moving);
  QVERIFY(runner->bar()->statusText().contains(QString("%1 on links").arg(moving)));
  for (QSize s : {QSize(1024, 768), QSize(1280, 800), QSize(1920, 1080)})
    grabAt(*w, QString("follow_one_%1x%2").arg(s.width()).arg(s.height()), s);
  runner->action()->setChecked(false);
  QVERIFY(!w->canvas()->followItem());
}

// run.follow in the file alone: opening and running it shows the recorded hops as View >
// Follow One does (bar shown, pickers set, overlay on the canvas). A list of two NVLS
// chunks: 2 (3 N + 3) hops, each chunk's dots in its own colour on the canvas.
void TestFollowOne::scenarioFollowShows_data() {
  QTest::addColumn<QByteArray>("follow");
  QTest::addColumn<int>("selectors");
  QTest::newRow("one") << QByteArray("  follow: gpu 2, piece 1\n") << 1;
  QTest::newRow("two") << QByteArray("  follow:\n    - gpu 2, piece 1\n    - gpu 5\n") << 2;
}

void TestFollowOne::scenarioFollowShows() {
  QFETCH(QByteArray, follow);
  QFETCH(int, selectors);
  QTemporaryDir dir;
  const QByteArray yaml = QByteArray(R"(fabriclab: 1
name: follow from the file
topology: {preset: dgx-h100}
network: {packet_payload: 4 KiB, vc_depth_flits: 1024}
workload:
  kind: collective
  collective: {op: all_reduce, algorithm: nvls, size: 256 KiB}
run:
  bin: 1 us
)") + follow;
  auto w = t::makeWindow();
  auto* runner = w->findChild<fl::gui::FollowRunner*>();
  QVERIFY(runner);
  QCOMPARE(w->openFile(t::writeFile(dir, "follow.yaml", yaml)), QString());
  QVERIFY(t::waitIdle(*w));
  QTRY_VERIFY(runner->bar()->follow() != nullptr);
  QVERIFY(runner->bar()->isVisible());
  QVERIFY(runner->action()->isChecked());  // as the menu shows it
  QCOMPARE(runner->bar()->gpuBox()->value(), 2);
  QCOMPARE(runner->bar()->pieceBox()->value(), 1);
  const auto recorded = runner->bar()->follow();
  const int n = 8;
  QCOMPARE(int(recorded->hops.size()), selectors * (3 * n + 3));
  const fl::views::FollowItem* item = w->canvas()->followItem();
  QVERIFY(item);
  QCOMPARE(item->bySelector(), selectors > 1);
  if (selectors == 1) {
    QVERIFY(runner->bar()->statusText().contains("the chunk of GPU 2, piece 1"));
  } else {
    QVERIFY(runner->bar()->statusText().contains("the chunk of GPU 5, piece 0"));
    // A time when a packet of each chunk is on a link: one dot of each, in its colour.
    Time at = -1;
    for (const auto& a : recorded->hops)
      for (const auto& b : recorded->hops)
        if (at < 0 && recorded->selectorOf(a) == 0 && recorded->selectorOf(b) == 1) {
          const Time from = std::max(a.start, b.start), to = std::min(a.arrive, b.arrive);
          if (from < to) at = from + (to - from) / 2;
        }
    QVERIFY(at >= 0);
    runner->bar()->setTime(at);
    int of[2] = {};
    for (const auto& d : item->dots()) ++of[d.selector];
    QVERIFY(of[0] >= 1 && of[1] >= 1);
    QVERIFY(fl::views::FollowItem::selectorColour(0) != fl::views::FollowItem::selectorColour(1));
    w->resize(1280, 800);
    QTest::qWait(50);
    const QImage shot = w->canvas()->grab().toImage();
    int pixels[2] = {};
    for (int y = 0; y < shot.height(); ++y)
      for (int x = 0; x < shot.width(); ++x)
        for (int k = 0; k < 2; ++k) pixels[k] += shot.pixel(x, y) == fl::views::FollowItem::selectorColour(k).rgb();
    QVERIFY2(pixels[0] > 0 && pixels[1] > 0, qPrintable(QString("%1 %2").arg(pixels[0]).arg(pixels[1])));
    for (QSize size : {QSize(1024, 768), QSize(1280, 800), QSize(1920, 1080)})
      grabAt(*w, QString("follow_two_%1x%2").arg(size.width()).arg(size.height()), size);
  }
}

void TestFollowOne::comparesFabrics() {
  QTemporaryDir dir;
  auto w = t::makeWindow();
  QCOMPARE(w->openFile(smallDefault(dir)), QString());
  QVERIFY(t::waitIdle(*w));
  w->showCompare();
  auto* compare = w->compareDialog();
  QVERIFY(compare);
  auto* tabs = compare->findChild<QTabWidget*>(QStringLiteral("compareTabs"));
  QVERIFY(tabs);
  tabs->setCurrentWidget(compare->canvases());
  auto* c = compare->canvases();
  for (int side = 0; side < 2; ++side) {
    QVERIFY(c->model(side)->results());
    QCOMPARE(c->model(side)->hotThreshold(), w->findChild<fl::views::RunModel*>(QString(), Qt::FindDirectChildrenOnly)->hotThreshold());
  }
  QVERIFY(c->header(0).contains("Ring") && c->header(1).contains("NVLS"));
  c->setTime(c->duration() / 3);
  for (QSize s : {QSize(1024, 768), QSize(1280, 800), QSize(1920, 1080)})
    grabAt(*compare, QString("compare_fabrics_%1x%2").arg(s.width()).arg(s.height()), s);
}

QTEST_MAIN(TestFollowOne)
#include "test_follow_one.moc"
