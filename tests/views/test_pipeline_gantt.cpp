// The token-pipeline Gantt chart and the pipeline compare view, on hand-made pipelines
// (pipeline_fixture.h) whose rows, counts and chains follow from their construction.
// Chains are checked against a brute-force fixpoint walk, SMs busy per bin against
// overlaps worked out by hand. Grabs go to <build>/tests/artefacts/.
#include <QDir>
#include <QFontInfo>
#include <QLabel>
#include <QtTest>
#include <cmath>
#include <qcustomplot.h>
#include <set>

#include "pipeline_fixture.h"
#include "views/format_units.h"
#include "views/pipeline_compare_view.h"
#include "views/pipeline_gantt.h"
#include "views/phase_palette.h"
#include "views/pipeline_rows.h"
#include "views/sm_partition_slider.h"
#include "views/run_model.h"

using fl::PipelineTask;
using fl::views::PipelineGantt;
using K = fl::PipelineTaskKind;
namespace t = fl::test;

namespace {

std::shared_ptr<fl::Results> smallRun(int gpus, int tiles, t::SmallIds* ids = nullptr) {
  auto r = std::make_shared<fl::Results>();
  r->pipeline = t::smallPipeline(gpus, tiles, ids);
  t::fillSummary(*r, "dysharp");
  return r;
}

// Back through `after` to the root, then forward to a fixpoint: every task whose
// predecessor is already in the forward set joins it (no child index, unlike the view).
std::vector<int> bruteForceChain(const fl::PipelineResults& p, int task) {
  std::set<int> back, forward{task};
  for (int x = task; x >= 0; x = p.tasks[size_t(x)].after) back.insert(x);
  for (bool grew = true; grew;) {
    grew = false;
    for (int i = 0; i < int(p.tasks.size()); ++i)
      if (p.tasks[size_t(i)].after >= 0 && forward.count(p.tasks[size_t(i)].after) && forward.insert(i).second) grew = true;
  }
  back.insert(forward.begin(), forward.end());
  return {back.begin(), back.end()};
}

void shot(QWidget& w, const QString& name) {
  QDir().mkpath(QDir::currentPath() + "/artefacts");
  QVERIFY(w.grab().save(QDir::currentPath() + "/artefacts/" + name + ".png"));
}

QPoint pixelOf(PipelineGantt& g, int task) {
  const auto& k = g.results()->pipeline->tasks[size_t(task)];
  const double x = g.plot()->xAxis->coordToPixel(double(k.start + k.end) / 2 / double(fl::kMicrosecond));
  const double y = g.plot()->yAxis->coordToPixel(fl::views::pipelineRows(g.gpuCount(), 4, {}).rowOf(k.gpu, k.group));
  return QPoint(int(std::lround(x)), int(std::lround(y)));
}

}  // namespace

class TestPipelineGantt : public QObject {
  Q_OBJECT
 private slots:
  void rows_data() {
    QTest::addColumn<int>("gpus");
    QTest::addColumn<int>("tiles");
    QTest::newRow("1 GPU") << 1 << 3;
    QTest::newRow("2 GPUs") << 2 << 3;
    QTest::newRow("8 GPUs") << 8 << 5;
  }
  void rows() {
    QFETCH(int, gpus);
    QFETCH(int, tiles);
    PipelineGantt g(nullptr);
    g.setResults(smallRun(gpus, tiles));
    QVERIFY(!g.noticeVisible());
    QCOMPARE(g.rowCount(), gpus * 4);
    QCOMPARE(g.rowLabel(0), QString("gpu0 · dispatch"));
    QCOMPARE(g.rowLabel((gpus - 1) * 4 + 1), QString("gpu%1 · gemm1").arg(gpus - 1));
    g.collapseAll();
    QCOMPARE(g.rowCount(), gpus);
    QCOMPARE(g.rowLabel(gpus - 1), QString("gpu%1 · all").arg(gpus - 1));
    g.expandAll();
    g.setCollapsed(0, true);
    QCOMPARE(g.rowCount(), (gpus - 1) * 4 + 1);
    QCOMPARE(g.rowLabel(1), gpus > 1 ? QString("gpu1 · dispatch") : QString());
  }

  // 32 and 72 GPUs: one row per GPU to start with (grouped), every row on Fit at least
  // 12 px tall (the first rows when not all fit, the rest by dragging), Ctrl + wheel
  // zooms the rows and leaves time alone.
  void manyGpus_data() {
    QTest::addColumn<int>("gpus");
    QTest::newRow("32 GPUs") << 32;
    QTest::newRow("72 GPUs") << 72;
  }
  void manyGpus() {
    QFETCH(int, gpus);
    PipelineGantt g(nullptr);
    g.resize(900, 420);
    g.show();
    QVERIFY(QTest::qWaitForWindowExposed(&g));
    g.setResults(smallRun(gpus, 2));
    QCOMPARE(g.rowCount(), gpus);
    QVERIFY(g.isCollapsed(0) && g.isCollapsed(gpus - 1));
    g.fit();
    g.plot()->replot();
    const double rows = g.plot()->yAxis->range().size();
    const double px = g.plot()->axisRect()->height() / rows;
    QVERIFY2(px >= 12, qPrintable(QString("%1 px per row").arg(px)));
    QVERIFY(rows >= std::min(gpus, 10));
    const QCPRange x = g.plot()->xAxis->range();
    const QPoint centre = g.plot()->axisRect()->rect().center();
    QWheelEvent wheel(centre, g.plot()->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::ControlModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(g.plot(), &wheel);
    QCOMPARE(g.plot()->xAxis->range().lower, x.lower);
    QCOMPARE(g.plot()->xAxis->range().upper, x.upper);
    QVERIFY(g.plot()->yAxis->range().size() < rows - 0.5);
    shot(g, QString("pipeline_gantt_%1_gpus").arg(gpus));
  }

  // One palette: the Gantt bars (and so its legend) and the Fusion scheme dock's SM-group
  // swatches take a phase's colour from phaseColour; expected values are Okabe-Ito by hand.
  void phaseColoursAgree_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("smGroup");  // -1: no SM group of its own
    QTest::addColumn<QString>("colour");
    QTest::newRow("dispatch") << int(K::Dispatch) << 0 << "#0072b2";
    QTest::newRow("GEMM-1") << int(K::Gemm1) << 1 << "#e69f00";
    QTest::newRow("GEMM-2") << int(K::Gemm2) << 2 << "#d55e00";
    QTest::newRow("combine") << int(K::Combine) << 3 << "#009e73";
    QTest::newRow("launch gap") << int(K::LaunchGap) << -1 << "#9a9a9a";
    QTest::newRow("barrier") << int(K::Barrier) << -1 << "#cc79a7";
  }
  void phaseColoursAgree() {
    QFETCH(int, kind);
    QFETCH(int, smGroup);
    QFETCH(QString, colour);
    const K k = K(kind);
    QCOMPARE(fl::views::phaseColour(k).name(), colour);
    PipelineGantt g(nullptr);
    g.setResults(smallRun(2, 3));
    QCOMPARE(g.bars(k)->brush().color().name(), colour);
    if (smGroup >= 0) {
      QCOMPARE(fl::views::SmPartitionBar::groupColour(smGroup).name(), colour);
      fl::views::SmPartitionSlider slider;  // its swatch labels are the bar's legend
      bool found = false;
      for (const QLabel* label : slider.findChildren<QLabel*>())
        if (label->text().contains(colour) && label->text().contains(fl::views::SmPartitionSlider::groupName(smGroup)))
          found = true;
      QVERIFY2(found, qPrintable(colour));
    }
  }

  void barsPerKind_data() {
    QTest::addColumn<int>("gpus");
    QTest::addColumn<int>("tiles");
    QTest::newRow("2x3") << 2 << 3;
    QTest::newRow("8x12") << 8 << 12;
  }
  void barsPerKind() {
    QFETCH(int, gpus);
    QFETCH(int, tiles);
    PipelineGantt g(nullptr);
    const auto r = smallRun(gpus, tiles);
    g.setResults(r);
    for (K k : {K::Dispatch, K::Gemm1, K::Gemm2, K::Combine}) QCOMPARE(int(g.bars(k)->tasks().size()), gpus * tiles);
    QCOMPARE(int(g.bars(K::LaunchGap)->tasks().size()), gpus);
    QCOMPARE(int(g.bars(K::Barrier)->tasks().size()), 0);
    // Culling: what a window draws equals a count of the tasks overlapping it.
    const double lo = 3.2, hi = 4.1;  // µs
    g.plot()->xAxis->setRange(lo, hi);
    for (K k : {K::Dispatch, K::Gemm1, K::Gemm2, K::Combine, K::LaunchGap}) {
      int expected = 0;
      for (const PipelineTask& task : r->pipeline->tasks)
        if (task.kind == k && double(task.end) / 1e6 >= lo && double(task.start) / 1e6 <= hi) ++expected;
      QCOMPARE(g.visibleBarCount(k), expected);
    }
  }

  void chain_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("gpu");
    QTest::addColumn<int>("tile");
    QTest::newRow("gemm1 gpu0 tile1") << "gemm1" << 0 << 1;
    QTest::newRow("dispatch gpu1 tile2") << "dispatch" << 1 << 2;
    QTest::newRow("combine gpu2 tile0") << "combine" << 2 << 0;
  }
  void chain() {
    QFETCH(QString, kind);
    QFETCH(int, gpu);
    QFETCH(int, tile);
    t::SmallIds ids;
    const int gpus = 3, tiles = 3;
    const auto r = smallRun(gpus, tiles, &ids);
    const auto& list = kind == "gemm1" ? ids.gemm1 : kind == "dispatch" ? ids.dispatch : ids.combine;
    const int task = list[size_t(gpu * tiles + tile)];
    const std::vector<int> expected = bruteForceChain(*r->pipeline, task);
    // By construction: dispatch of (g+1, t) -> GEMM-1, GEMM-2, combine of (g, t).
    QCOMPARE(int(expected.size()), 4);
    QCOMPARE(fl::views::dependencyChain(*r->pipeline, task), expected);
    PipelineGantt g(nullptr);
    g.setResults(r);
    g.selectTask(task);
    QCOMPARE(g.chain(), expected);
    QCOMPARE(g.arrowCount(), 3);  // one per link of the chain
    for (int i = 0; i < int(r->pipeline->tasks.size()); ++i)
      QCOMPARE(g.isDimmed(i), !std::binary_search(expected.begin(), expected.end(), i));
    g.selectTask(-1);
    QCOMPARE(g.arrowCount(), 0);
  }

  void tileSelectorAndClick() {
    t::SmallIds ids;
    const auto r = smallRun(2, 3, &ids);
    PipelineGantt g(nullptr);
    g.resize(900, 500);
    g.setResults(r);
    g.show();
    QVERIFY(QTest::qWaitForWindowExposed(&g));
    QVERIFY(g.selectTile(1, 2));
    QCOMPARE(g.selectedTask(), ids.gemm1[size_t(1 * 3 + 2)]);
    QVERIFY(!g.selectTile(1, 99));
    QCOMPARE(g.selectedTask(), -1);
    // A click on a bar's middle selects it; hovering there names it.
    g.plot()->replot();
    const int target = ids.gemm2[size_t(0 * 3 + 1)];
    const QPoint at = pixelOf(g, target);
    QCOMPARE(g.taskAt(at), target);
    QTest::mouseClick(g.plot(), Qt::LeftButton, {}, at);
    QCOMPARE(g.selectedTask(), target);
    QCOMPARE(g.arrowCount(), 3);
    // gpu0's dispatch row is empty after its last tile's dispatch ([4, 5) µs).
    const QPoint empty(int(g.plot()->xAxis->coordToPixel(7.0)), int(g.plot()->yAxis->coordToPixel(0)));
    QCOMPARE(g.taskAt(empty), -1);
    QTest::mouseClick(g.plot(), Qt::LeftButton, {}, empty);
    QCOMPARE(g.selectedTask(), -1);
  }

  // Rows thinner than a line of text: one label per GPU instead of overlapping names.
  void rowLabelsFitTheHeight() {
    PipelineGantt g(nullptr);
    g.setResults(smallRun(8, 2));
    auto labels = [&] {
      g.plot()->replot();
      g.plot()->replot();  // the first one may change the labels for the measured height
      return g.plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>()->ticks().values();
    };
    g.resize(800, 1000);
    g.show();
    QVERIFY(QTest::qWaitForWindowExposed(&g));
    QVERIFY(labels().contains("gpu7 · combine"));
    QCOMPARE(labels().size(), 32);
    g.resize(800, 260);
    QTest::qWait(20);
    const QStringList few = labels();
    QVERIFY2(!few.isEmpty() && few.size() <= 8, qPrintable(few.join(", ")));
    for (const QString& l : few) QVERIFY2(QRegularExpression("^gpu\\d+$").match(l).hasMatch(), qPrintable(l));
  }

  // At every height each label names the GPU whose rows it sits on: a row's own label
  // (all rows labelled, the font shrinking first) or one per GPU at the centre of its
  // rows. Brute force over heights, against the rows' layout (4 groups per GPU).
  // The key under the chart: every entry keeps the width its name needs (entries move to
  // a second row rather than being cut) in wide and narrow docks.
  void keyEntriesWhole() {
    PipelineGantt g(nullptr);
    g.setResults(smallRun(4, 2));
    g.resize(900, 600);
    g.show();
    QVERIFY(QTest::qWaitForWindowExposed(&g));
    for (int w : {900, 560, 380}) {
      g.resize(w, 600);
      QTest::qWait(20);
      g.plot()->replot();
      QCPLegend* key = g.plot()->legend;
      QVERIFY(key->itemCount() > 1);
      for (int i = 0; i < key->itemCount(); ++i) {
        QCPLayoutElement* item = key->item(i);
        if (!item) continue;
        QVERIFY2(item->outerRect().width() >= item->minimumOuterSizeHint().width(),
                 qPrintable(QString("entry %1 at %2 px: %3 of %4 px").arg(i).arg(w).arg(item->outerRect().width()).arg(item->minimumOuterSizeHint().width())));
      }
    }
  }

  void everyLabelOnItsGpu() {
    PipelineGantt g(nullptr);
    g.setResults(smallRun(8, 2));
    g.resize(800, 1000);
    g.show();
    QVERIFY(QTest::qWaitForWindowExposed(&g));
    bool small = false, perGpu = false;
    for (int h : {1000, 700, 500, 420, 360, 300, 260, 220}) {
      g.resize(800, h);
      QTest::qWait(20);
      g.plot()->replot();
      g.plot()->replot();
      const QMap<double, QString> ticks = g.plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>()->ticks();
      QVERIFY(!ticks.isEmpty());
      if (ticks.size() == 32) {  // every row: its own label, gpu of row r = r / 4
        for (auto it = ticks.begin(); it != ticks.end(); ++it)
          QVERIFY2(it.value().startsWith(QStringLiteral("gpu%1 · ").arg(int(it.key()) / 4)), qPrintable(it.value()));
        small = small || g.plot()->yAxis->tickLabelFont().pixelSize() < QFontInfo(g.font()).pixelSize();
      } else {  // per GPU, centred on its 4 rows
        for (auto it = ticks.begin(); it != ticks.end(); ++it)
          QCOMPARE(it.value(), QStringLiteral("gpu%1").arg(int(std::round((it.key() - 1.5) / 4))));
        for (auto it = ticks.begin(); it != ticks.end(); ++it) QCOMPARE(std::fmod(it.key(), 4.0), 1.5);
        perGpu = true;
      }
    }
    QVERIFY(small);   // some height labelled every row in a smaller font
    QVERIFY(perGpu);  // and some only each GPU
  }

  void smBusy_data() {
    QTest::addColumn<int>("sms1");
    QTest::addColumn<int>("sms2");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<double>("bin0");
    QTest::addColumn<double>("bin1");
    // A: [0, 1.5) bins, B: [0.5, 1) bin; 8 SMs per GPU, bins of 1000 ps.
    // bin 0: (sA x 1000 + sB x 500) / (gpus x 8 x 1000); bin 1: sA x 500 / (gpus x 8 x 1000).
    QTest::newRow("4+2 SMs, 1 GPU") << 4 << 2 << 1 << (4000.0 + 1000) / 8000 << 2000.0 / 8000;
    QTest::newRow("8+8 SMs, 2 GPUs") << 8 << 8 << 2 << (8000.0 + 4000) / 16000 << 4000.0 / 16000;
    QTest::newRow("1+6 SMs, 1 GPU") << 1 << 6 << 1 << (1000.0 + 3000) / 8000 << 500.0 / 8000;
  }
  void smBusy() {
    QFETCH(int, sms1);
    QFETCH(int, sms2);
    QFETCH(int, gpus);
    QFETCH(double, bin0);
    QFETCH(double, bin1);
    fl::PipelineResults p;
    p.sms = 8;
    PipelineTask a, b, gap;
    a.start = 0, a.end = 1500, a.sms = std::uint16_t(sms1), a.kind = K::Gemm1;
    b.start = 500, b.end = 1000, b.sms = std::uint16_t(sms2), b.kind = K::Dispatch, b.gpu = gpus - 1;
    gap.start = 0, gap.end = 3000, gap.sms = 8, gap.kind = K::LaunchGap, gap.group = 255;  // waits: not busy
    p.tasks = {a, gap, b};
    const auto busy = fl::views::smBusyFraction(p, gpus, 1000, 3);
    QCOMPARE(int(busy.size()), 3);
    QVERIFY(std::abs(busy[0] - bin0) < 1e-12);
    QVERIFY(std::abs(busy[1] - bin1) < 1e-12);
    QCOMPARE(busy[2], 0.0);
  }

  void cursorFollowsTimeline_data() {
    QTest::addColumn<int>("bin");
    QTest::newRow("bin 0") << 0;
    QTest::newRow("bin 5") << 5;
    QTest::newRow("last bin") << 1000;  // clamped
  }
  void cursorFollowsTimeline() {
    QFETCH(int, bin);
    const auto r = smallRun(2, 4);  // 1 µs bins, makespan 10 µs
    fl::views::RunModel model;
    PipelineGantt g(&model);
    model.setResults(r, true);
    QVERIFY(!g.noticeVisible());
    model.setCurrentBin(bin);
    const int b = std::min(bin, r->bins - 1);
    QCOMPARE(g.cursorUs(), double(b + 1));  // the end of the current bin, in µs
    for (int i = 0; i < int(r->pipeline->tasks.size()); ++i)
      QCOMPARE(g.isDimmed(i), double(r->pipeline->tasks[size_t(i)].start) > (b + 1) * 1e6);
  }

  void toolTip() {
    t::SmallIds ids;
    const auto r = smallRun(2, 3, &ids);
    PipelineGantt g(nullptr);
    g.setResults(r);
    // Dispatch of tile 1 on gpu1: [3, 4) µs, 20 of the group's 20 SMs, 128 tokens.
    const QString tip = g.toolTipFor(ids.dispatch[size_t(1 * 3 + 1)]);
    for (const char* part : {"dispatch on gpu1 · dispatch", "tile 1", "128 tokens", "SMs: 20 of 20", "start 3.00 µs",
                             "end 4.00 µs", "duration 1.00 µs"})
      QVERIFY2(tip.contains(QString::fromUtf8(part)), qPrintable(tip));
    // GEMM-1 of tile 0 on gpu0: made ready by gpu1's dispatch of tile 0, [2, 3) µs; starts 0.5 µs later.
    const QString gemm = g.toolTipFor(ids.gemm1[0]);
    for (const char* part : {"GEMM-1 on gpu0 · gemm1", "SMs: 16 of 48", "start 3.50 µs", "end 5.00 µs",
                             "ready after: dispatch on gpu1 (tile 0), ended 3.00 µs"})
      QVERIFY2(gemm.contains(QString::fromUtf8(part)), qPrintable(gemm));
  }

  void noticeWithoutPipeline() {
    fl::views::RunModel model;
    PipelineGantt g(&model);
    QVERIFY(g.noticeVisible());
    model.setResults(std::make_shared<fl::Results>(), true);  // e.g. a collective
    QVERIFY(g.noticeVisible());
    model.setResults(smallRun(1, 2), true);
    QVERIFY(!g.noticeVisible());
  }

  void compareView() {
    fl::views::PipelineCompareView v;
    v.resize(1300, 1000);
    const auto a = t::tokenCentricRun(), b = t::sequentialRun();
    v.setResults("A", a, "B", b);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    QVERIFY(v.title(0).contains("token_centric + dysharp"));
    QVERIFY(v.title(1).contains("sequential + deepep"));
    QVERIFY(v.title(0).contains(fl::views::formatTime(a->makespan)));
    QVERIFY(v.title(1).contains(fl::views::formatPercent(b->pipeline->sm_utilization)));
    // One time axis: both show the longer run; zooming one zooms the other.
    const double longest = double(std::max(a->makespan, b->makespan)) / 1e6;
    QVERIFY(v.gantt(1)->plot()->xAxis->range().upper >= longest);
    v.gantt(0)->plot()->xAxis->setRange(10, 20);
    QCOMPARE(v.gantt(1)->plot()->xAxis->range().lower, 10.0);
    QCOMPARE(v.gantt(1)->utilisationRect()->axis(QCPAxis::atBottom)->range().upper, 20.0);
    QCOMPARE(v.gantt(0)->currentLeftMargin(), v.gantt(1)->currentLeftMargin());
    v.gantt(0)->fit();  // fits the longer run, on both
    QVERIFY(v.gantt(1)->plot()->xAxis->range().upper >= longest);
    QVERIFY(v.gantt(0)->plot()->xAxis->range().upper >= longest);
    v.gantt(0)->selectTile(3, 4);
    v.gantt(1)->selectTile(3, 4);
    QTest::qWait(50);
    shot(v, "pipeline_compare");
  }

  void screenshot() {
    const auto r = t::tokenCentricRun();
    fl::views::RunModel model;
    PipelineGantt g(&model);
    g.setUtilisationVisible(true);
    g.resize(1300, 800);
    model.setResults(r, true);
    model.setCurrentBin(int(r->bins * 0.7));
    g.show();
    QVERIFY(QTest::qWaitForWindowExposed(&g));
    QTest::qWait(50);
    shot(g, "pipeline_gantt_playing");  // tasks after the cursor dimmed
    QVERIFY(g.selectTile(2, 5));
    QVERIFY(g.arrowCount() >= 3);
    QTest::qWait(50);
    shot(g, "pipeline_gantt");
    g.setCollapsed(1, true);
    g.setCollapsed(4, true);
    QTest::qWait(50);
    shot(g, "pipeline_gantt_collapsed");
  }
};

QTEST_MAIN(TestPipelineGantt)
#include "test_pipeline_gantt.moc"
