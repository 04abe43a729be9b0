// The PDF report as it prints (gui/report_export's layout of the report HTML on A4 at
// 96 dpi, 2 cm margins): every table and picture within the 628 px text width, the
// Traffic Breakdown chart, the pipeline Gantt and the comparison present, and each
// report within a page budget: the 4-point fusion demo prints 18 pages (20 while the
// comparison drew every point's bandwidth, breakdown and Gantt on pages of their own; it
// is now one table and one figure per measure, the Gantts in the points' sections on one
// time axis), and within a bound derived from its content: the pages its blocks fill
// packed end to end, a fifth more for what cannot split, and the summary's page. Runs
// the bundled demos with fewer tokens (the CAIS one with one layer), so it stays quick; a
// contact sheet of the pages goes to artefacts/.
#include <QAbstractTextDocumentLayout>
#include <QDir>
#include <QFileInfo>
#include <QPainter>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>
#include <QtTest>
#include <cmath>

#include "gui/report_export.h"
#include "report/html_report.h"
#include "scenario/schema.h"
#include "scenario/scenario_io.h"
#include "scenario/sweep.h"
#include "sim/run.h"
#include "topology/topology.h"

using namespace fl;

namespace {

constexpr double kTextWidth = 628.5;       // A4 at 96 dpi less 2 mm printer and 2 cm text margins
const QSizeF kPage(778, 1108);             // A4 at 96 dpi less 2 mm printer margins

std::string reportOf(const QString& file, const std::vector<std::pair<std::string, std::string>>& overrides) {
  Scenario s = loadScenario((QStringLiteral(FABRICLAB_SCENARIOS "/") + file).toStdString());
  for (const auto& [key, value] : overrides) setValue(s, key, value);
  std::vector<SweepPoint> points;
  for (const SweepSettings& p : sweepPoints(s)) points.push_back({p, runScenario(sweepPointScenario(s, p))});
  const auto topology = topo::buildTopology(s.topology);
  report::ReportOptions o;
  o.scenarioFile = (QStringLiteral(FABRICLAB_SCENARIOS "/") + file).toStdString();
  o.date = "2025-01-01";
  o.forPdf = true;
  return report::renderHtmlReport(s, points, *topology, o);
}

}  // namespace

class TestReportPdf : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QDir().mkpath(QCoreApplication::applicationDirPath() + "/../artefacts"); }

  void fitsThePage_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("overrides");  // key=value, applied before the sweep
    QTest::addColumn<int>("maxPages");
    QTest::addColumn<QStringList>("sections");   // ids the report must have
    QTest::newRow("NVL32 fusion demo, 4 points")
        << "nvl32-moe-fusion-demo.yaml" << QStringList{"workload.moe.tokens_per_gpu=128"} << 18
        << QStringList{"compare", "summary", "story", "sweep", "point-4-topology"};
    QTest::newRow("default demo, 2 points") << "default.yaml" << QStringList{"workload.collective.size=16 MiB"}
                                            << 9 << QStringList{"compare", "summary", "point-2-results"};
    // Six schemes: more than four points, so one is shown in detail and none compared.
    QTest::newRow("CAIS schemes, 6 points") << "cais-4gpu.yaml" << QStringList{"workload.tp.layers=1"} << 11
                                            << QStringList{"summary", "sweep"};
  }
  void fitsThePage() {
    QFETCH(QString, file);
    QFETCH(QStringList, overrides);
    QFETCH(int, maxPages);
    QFETCH(QStringList, sections);
    std::vector<std::pair<std::string, std::string>> set;
    for (const QString& o : overrides) set.push_back({o.section('=', 0, 0).toStdString(), o.section('=', 1).toStdString()});
    const std::string html = reportOf(file, set);
    for (const QString& id : sections)
      QVERIFY2(html.find("id=\"" + id.toStdString() + "\"") != std::string::npos, qPrintable(id));
    QTextDocument doc;
    gui::layoutReportDocument(doc, html);
    gui::paginateForPrint(doc, kPage, gui::kPrintMarginPx);
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    int tables = 0;
    std::function<void(QTextFrame*)> walk = [&](QTextFrame* frame) {
      for (QTextFrame* f : frame->childFrames()) {
        if (auto* table = qobject_cast<QTextTable*>(f)) {
          ++tables;
          const QRectF r = layout->frameBoundingRect(table);
          QVERIFY2(r.width() <= kTextWidth,
                   qPrintable(QString("table of %1 columns %2 px wide from %3: '%4'")
                                  .arg(table->columns()).arg(r.width()).arg(r.left())
                                  .arg(table->cellAt(0, 0).firstCursorPosition().block().text())));
        }
        walk(f);
      }
    };
    walk(doc.rootFrame());
    QVERIFY(tables >= 5);
    int pictures = 0;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next())
      for (auto it = b.begin(); !it.atEnd(); ++it)
        if (it.fragment().charFormat().isImageFormat()) {
          ++pictures;
          QVERIFY(it.fragment().charFormat().toImageFormat().width() <= kTextWidth);
        }
    QVERIFY(pictures >= 4);
    qInfo("%s: %d pages, %d tables, %d pictures", qPrintable(file), doc.pageCount(), tables, pictures);
    // The pages at a quarter size, six to a row, for a look (artefacts/).
    const int pages = doc.pageCount(), cols = 6, w = int(kPage.width() / 4), h = int(kPage.height() / 4);
    QImage sheet(cols * w, (pages + cols - 1) / cols * h, QImage::Format_RGB32);
    sheet.fill(Qt::gray);
    QPainter painter(&sheet);
    for (int i = 0; i < pages; ++i) {
      painter.save();
      painter.translate((i % cols) * w, (i / cols) * h);
      painter.scale(0.25, 0.25);
      painter.fillRect(QRectF(QPointF(0, 0), kPage), Qt::white);
      painter.translate(0, -i * kPage.height());
      doc.drawContents(&painter, QRectF(0, i * kPage.height(), kPage.width(), kPage.height()));
      painter.restore();
    }
    painter.end();
    sheet.save(QCoreApplication::applicationDirPath() + "/../artefacts/report_pdf_" + QFileInfo(file).baseName() + ".png");
    QVERIFY2(doc.pageCount() <= maxPages, qPrintable(QString("%1 pages").arg(doc.pageCount())));
    // No near-empty pages: the pages the content needs packed end to end (the sum of its
    // blocks' and tables' heights over a page's text height), plus the summary's page of
    // its own and a fifth for what cannot split (pictures, headings kept with them).
    qreal content = 0;
    for (QTextFrame::iterator it = doc.rootFrame()->begin(); !it.atEnd(); ++it)
      content += it.currentFrame() ? layout->frameBoundingRect(it.currentFrame()).height()
                                   : layout->blockBoundingRect(it.currentBlock()).height();
    const qreal textHeight = kPage.height() - 2 * gui::kPrintMarginPx;
    const int packed = int(std::ceil(content / textHeight));
    const int bound = int(std::ceil(packed * 1.2)) + 1;
    qInfo("%s: content %.0f px = %d pages packed; bound %d", qPrintable(file), content, packed, bound);
    QVERIFY2(doc.pageCount() <= bound,
             qPrintable(QString("%1 pages for %2 pages of content").arg(doc.pageCount()).arg(packed)));
  }
};

QTEST_MAIN(TestReportPdf)
#include "test_report_pdf.moc"
