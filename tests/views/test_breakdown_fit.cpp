// The Traffic Breakdown in a small window (1024 x 768 gives its dock ~420 x 240 px): the
// title whole (broken after the scheme rather than cut), the totals over the bars never
// running into each other (set a line apart when side by side they would), and the bars
// of a previous run marked stale until the re-run replaces them.
#include <QtTest>
#include <qcustomplot.h>

#include "../common/view_helpers.h"
#include "views/traffic_breakdown_bars.h"

using namespace fl;
using fl::views::TrafficBreakdownBars;

namespace {

// DeepEP-like rows: 2.17 GiB "all" bars, 1.09 GiB per phase (totals of 8 characters).
Results deepEp() {
  Results r;
  const std::int64_t MiB = 1 << 20;
  r.moe = MoeResults{};
  r.moe->communication = "deepep";
  r.moe->fusion = "sequential";
  r.moe->distinct_remote_gpus_per_token = 3.59;
  for (const char* phase : {"dispatch", "combine", "all"})
    for (const char* dir : {"uplink", "downlink"}) {
      const std::int64_t k = std::string(phase) == "all" ? 2 : 1;
      r.breakdown.push_back({phase, dir, k * 120 * MiB, k * 800 * MiB, 0, k * 196 * MiB});
    }
  return r;
}

// Totals' boxes in pixels: text width by the item's font, its padding lifting it.
QList<QRectF> totalBoxes(const TrafficBreakdownBars& view) {
  QList<QRectF> boxes;
  QCustomPlot* p = view.plot();
  for (int i = 0; i < p->itemCount(); ++i) {
    auto* t = qobject_cast<QCPItemText*>(p->item(i));
    if (!t || !t->visible() || !t->text().contains("iB")) continue;
    const QFontMetrics fm(t->font());
    const double x = p->xAxis->coordToPixel(t->position->coords().x());
    const double y = p->yAxis->coordToPixel(t->position->coords().y()) - t->padding().bottom();
    const double w = fm.horizontalAdvance(t->text());
    boxes << QRectF(x - w / 2, y - fm.height(), w, fm.height());
  }
  return boxes;
}

}  // namespace

class TestBreakdownFit : public QObject {
  Q_OBJECT
 private slots:
  void fits_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("narrow");  // title on two lines, totals staggered
    QTest::newRow("1024 x 768 dock") << QSize(420, 240) << true;
    QTest::newRow("1280 x 800 dock") << QSize(560, 260) << false;
    QTest::newRow("1920 x 1080 dock") << QSize(1100, 320) << false;
  }
  void fits() {
    QFETCH(QSize, size);
    QFETCH(bool, narrow);
    TrafficBreakdownBars view(nullptr);
    const Results r = deepEp();
    view.setResults(&r);
    view.resize(size);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.plot()->replot();
    QCoreApplication::processEvents();
    view.plot()->replot();
    // The title: every line within the widget.
    QFont bold = view.font();
    bold.setBold(true);
    for (const QString& line : view.title().split('\n'))
      QVERIFY2(QFontMetrics(bold).horizontalAdvance(line) <= size.width(), qPrintable(line));
    QCOMPARE(view.title().contains('\n'), narrow);
    // Totals: six, none overlapping another, all inside the plot.
    const QList<QRectF> boxes = totalBoxes(view);
    QCOMPARE(boxes.size(), 6);
    for (int i = 0; i < boxes.size(); ++i) {
      QVERIFY2(boxes[i].top() >= view.plot()->axisRect()->top(),
               qPrintable(QString("total %1 at %2 above the axes (%3)").arg(i).arg(boxes[i].top()).arg(view.plot()->axisRect()->top())));
      for (int j = i + 1; j < boxes.size(); ++j)
        QVERIFY2(!boxes[i].intersects(boxes[j]), qPrintable(QString("totals %1 and %2 overlap").arg(i).arg(j)));
    }
    QCOMPARE(view.totalsStaggered(), narrow);
    test::saveArtefact(view, QString("breakdown_fit_%1x%2").arg(size.width()).arg(size.height()), size);
  }

  void staleMarked() {
    TrafficBreakdownBars view(nullptr);
    const Results r = deepEp();
    view.setResults(&r);
    view.resize(800, 320);
    QVERIFY(!view.title().contains("stale"));
    QCOMPARE(view.bars(TrafficBreakdownBars::Useful)->brush().style(), Qt::SolidPattern);
    view.setStale(true);
    QVERIFY(view.title().contains("stale"));
    for (int c = 0; c < TrafficBreakdownBars::ClassCount; ++c)
      QCOMPARE(view.bars(TrafficBreakdownBars::Class(c))->brush().style(), Qt::BDiagPattern);
    view.setStale(false);
    QVERIFY(!view.title().contains("stale"));
    QCOMPARE(view.bars(TrafficBreakdownBars::Useful)->brush().style(), Qt::SolidPattern);
  }
};

QTEST_MAIN(TestBreakdownFit)
#include "test_breakdown_fit.moc"
