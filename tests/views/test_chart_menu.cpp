// The charts' context menu (views/chart_menu.h): its actions; PNG, SVG and CSV exports
// that read back (the CSV rows counted against the data put in, written here); the
// Gantt's CSV one row per task; maximise floats the chart's dock and restores it.
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include "pipeline_fixture.h"
#include "views/chart_menu.h"
#include "views/pipeline_gantt.h"
#include "views/traffic_breakdown_bars.h"

using namespace fl;
using namespace fl::views;

namespace {

// Four stacks (dispatch/combine x uplink/downlink) of four classes each, distinct values.
Results breakdownResults() {
  Results r;
  std::int64_t v = 1000;
  for (const char* phase : {"dispatch", "combine"})
    for (const char* dir : {"uplink", "downlink"}) {
      TrafficBreakdownRow row;
      row.phase = phase;
      row.direction = dir;
      row.useful = v;
      row.redundant = v + 1;
      row.useless = v + 2;
      row.overhead = v + 3;
      v += 1000;
      r.breakdown.push_back(row);
    }
  r.moe = MoeResults{};
  return r;
}

}  // namespace

class TestChartMenu : public QObject {
  Q_OBJECT
 private slots:
  void menuActions();
  void exports();
  void ganttCsv();
  void maximise();
};

void TestChartMenu::menuActions() {
  TrafficBreakdownBars bars(nullptr);
  installChartMenu(bars.plot());
  QCOMPARE(bars.plot()->contextMenuPolicy(), Qt::CustomContextMenu);
  std::unique_ptr<QMenu> menu(chartMenu(bars.plot(), nullptr));
  QStringList names;
  for (QAction* a : menu->actions())
    if (!a->isSeparator()) names << a->objectName();
  QCOMPARE(names, (QStringList{"chartSavePng", "chartSaveSvg", "chartCopy", "chartSaveCsv", "chartMaximise"}));
}

void TestChartMenu::exports() {
  TrafficBreakdownBars bars(nullptr);
  const Results r = breakdownResults();
  bars.setResults(&r);
  bars.resize(640, 400);
  bars.show();
  QVERIFY(QTest::qWaitForWindowExposed(&bars));
  QTemporaryDir dir;
  const QString png = dir.filePath("c.png"), svg = dir.filePath("c.svg"), csv = dir.filePath("c.csv");
  QVERIFY(saveChartPng(bars.plot(), png));
  const QImage image(png);
  QVERIFY(!image.isNull());
  QCOMPARE(image.width(), 2 * bars.plot()->width());
  QVERIFY(saveChartSvg(bars.plot(), svg));
  QSvgRenderer renderer(svg);
  QVERIFY(renderer.isValid());
  QFile s(svg);
  QVERIFY(s.open(QIODevice::ReadOnly));
  QVERIFY(s.readAll().contains("<svg"));
  QVERIFY(saveChartCsv(bars.plot(), csv));
  QFile c(csv);
  QVERIFY(c.open(QIODevice::ReadOnly | QIODevice::Text));
  const QStringList lines = QString::fromUtf8(c.readAll()).split('\n', Qt::SkipEmptyParts);
  QVERIFY(lines.front().startsWith("series,"));
  QCOMPARE(lines.size() - 1, 4 * 4);  // four classes over four stacks
  // Every value put in is a row; each row has three fields.
  QSet<double> values;
  static const QRegularExpression row(R"(^("(?:[^"]|"")*"|[^,"]*),([^,]*),([^,]*)$)");  // name (quoted if it has commas), x, y
  for (int i = 1; i < lines.size(); ++i) {
    const auto m = row.match(lines[i]);
    QVERIFY2(m.hasMatch(), qPrintable(lines[i]));
    values.insert(m.captured(3).toDouble());
  }
  for (const auto& row : r.breakdown)
    for (double v : {row.useful, row.redundant, row.useless, row.overhead}) QVERIFY2(values.contains(v), qPrintable(QString::number(v)));
}

void TestChartMenu::ganttCsv() {
  auto run = fl::test::tokenCentricRun(4, 6);
  PipelineGantt gantt(nullptr);
  gantt.setResults(run);
  const QString csv = chartCsv(gantt.plot());
  const QStringList lines = csv.split('\n', Qt::SkipEmptyParts);
  QCOMPARE(lines.front(), QString("kind,gpu,start_us,end_us,tokens"));
  QCOMPARE(qsizetype(lines.size() - 1), qsizetype(run->pipeline->tasks.size()));
}

void TestChartMenu::maximise() {
  QMainWindow window;
  auto* dock = new QDockWidget("Breakdown", &window);
  auto* bars = new TrafficBreakdownBars(nullptr, dock);
  dock->setWidget(bars);
  window.addDockWidget(Qt::BottomDockWidgetArea, dock);
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  QVERIFY(toggleChartMaximised(bars->plot()));
  QVERIFY(dock->isFloating());
  QVERIFY(toggleChartMaximised(bars->plot()));
  QVERIFY(!dock->isFloating());
  TrafficBreakdownBars loose(nullptr);
  QVERIFY(!toggleChartMaximised(loose.plot()));
}

QTEST_MAIN(TestChartMenu)
#include "test_chart_menu.moc"
