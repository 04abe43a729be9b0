// The main window end to end (offscreen): opening and running scenarios, the canvas
// holding every device and link of the fabric, Stop, responsiveness during a live run,
// re-running after edits, editors, unsaved-changes handling, screenshots and exports.
// Expected item counts come from closed forms over each scenario's own parameters.
#include <QComboBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QPainter>
#include <QProcess>
#include <QStandardPaths>
#include <QThread>
#include <QTextDocument>
#include <QTreeView>
#include <QSignalSpy>
#include <QAbstractTextDocumentLayout>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextFrame>
#include <QTextTable>
#include <QtTest>
#include <climits>
#include <functional>
#include <memory>

#include "gui/main_window.h"
#include "gui/report_export.h"
#include "gui/run_controller.h"
#include "gui/scenario_dock.h"
#include "gui/scenario_document.h"
#include "gui/scenario_tree_model.h"
#include "gui/status_panel.h"
#include "gui/sweep_results.h"
#include "gui_test_util.h"
#include "main_window_fixture.h"
#include "report/report_style.h"
#include "scenario/scenario_io.h"
#include "views/run_model.h"
#include "views/topology_canvas.h"

using fl::gui::MainWindow;
using State = fl::gui::RunController::State;
namespace t = fl::gui::test;
using t::makeWindow;
using t::waitIdle;

namespace {

const QString kDefault = QStringLiteral(FABRICLAB_SCENARIOS "/default.yaml");

// Distinct colours on a 4-pixel grid and the share of pixels unlike the commonest one.
void pixelStats(const QImage& image, int& colours, double& nonBackground) {
  QHash<QRgb, int> counts;
  int n = 0;
  for (int y = 0; y < image.height(); y += 4)
    for (int x = 0; x < image.width(); x += 4, ++n) ++counts[image.pixel(x, y)];
  int top = 0;
  for (int c : counts) top = std::max(top, c);
  colours = static_cast<int>(counts.size());
  nonBackground = n ? 1.0 - static_cast<double>(top) / n : 0;
}

// Headings (outside tables) whose first substantial follower (a picture, a table, a
// paragraph of more than one line) starts on a later page of `doc`'s layout.
int orphanedHeadings(QTextDocument& doc) {
  QAbstractTextDocumentLayout* layout = doc.documentLayout();
  const qreal pageHeight = doc.pageSize().height();
  int orphans = 0;
  for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
    if (b.blockFormat().headingLevel() == 0 || QTextCursor(b).currentTable()) continue;
    const int page = int(layout->blockBoundingRect(b).top() / pageHeight);
    for (QTextBlock c = b.next(); c.isValid(); c = c.next()) {
      QTextTable* table = QTextCursor(c).currentTable();
      const bool picture = c.text().trimmed() == QString(QChar::ObjectReplacementCharacter);
      const bool paragraph = !table && c.blockFormat().headingLevel() == 0 && c.layout()->lineCount() > 1;
      if (!table && !picture && !paragraph) continue;
      const qreal top = table ? layout->blockBoundingRect(table->cellAt(0, 0).firstCursorPosition().block()).top()
                              : layout->blockBoundingRect(c).top();
      if (int(top / pageHeight) != page) ++orphans;
      break;
    }
  }
  return orphans;
}

}  // namespace

class TestMainWindow : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { t::isolateSettings(); }

  void opensAndRunsDefault() {
    auto w = makeWindow();
    QCOMPARE(w->startup(kDefault, false), QString());
    QVERIFY(w->controller()->isBusy());  // runs at once
    QVERIFY(waitIdle(*w));
    // default.yaml: a DGX-H100 (8 GPUs, 4 NVSwitch chips, 18 links per GPU) swept over
    // two algorithms.
    QCOMPARE(w->pointSelector()->count(), 2);
    QCOMPARE(w->pointSelector()->itemText(1), QString("NVLS"));  // the axis' labels
    QCOMPARE(w->canvas()->deviceItemCount(), 8 + 4);
    QCOMPARE(w->canvas()->linkItemCount(), 8 * 4);  // one bundle per GPU-chip pair
    w->canvas()->setBundlesExpanded(true);
    QCOMPARE(w->canvas()->linkItemCount(), 8 * 18);
    w->canvas()->setBundlesExpanded(false);
    QVERIFY(w->runModel()->isFinal());
    QVERIFY(w->runModel()->binCount() > 0);
    QVERIFY(w->windowTitle().contains("default.yaml"));
    QVERIFY(!w->isWindowModified());
    QVERIFY(w->statusPanel()->timeText().startsWith("t = "));
    QVERIFY(w->statusPanel()->rateText().contains("events/s"));
    QCOMPARE(w->statusPanel()->progressPercent(), 100);

    // The selector switches the views to the other point's results.
    w->pointSelector()->setCurrentIndex(1);
    QCOMPARE(w->runModel()->resultsShared(), w->sweepResults()->results(1));
    QVERIFY(w->runModel()->results()->makespan != w->sweepResults()->results(0)->makespan);
  }

  void canvasItemCounts_data() {
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<int>("devices");
    QTest::addColumn<int>("links");
    // NVSwitch: GPUs + chips; every GPU has links_per_gpu links.
    QTest::newRow("nvswitch dgx-h100") << t::nvswitchScenario("dgx-h100") << 8 + 4 << 8 * 18;
    QTest::newRow("nvswitch gh200-nvl32") << t::nvswitchScenario("gh200-nvl32", "256 KiB") << 32 + 9 << 32 * 18;
    // Mesh: one box per die (its router is drawn as the die); R(C-1) + C(R-1) links.
    for (auto [r, c] : {std::pair{4, 4}, std::pair{3, 5}})
      QTest::addRow("mesh %dx%d", r, c) << t::meshScenario(r, c) << r * c << r * (c - 1) + c * (r - 1);
    // Hierarchy a x b x c: root + a + ab switches + abc GPUs; one uplink per non-root node.
    for (auto [a, b, c] : {std::tuple{2, 2, 2}, std::tuple{3, 2, 4}})
      QTest::addRow("hierarchy %dx%dx%d", a, b, c)
          << t::hierarchyScenario(a, b, c) << 1 + a + a * b + a * b * c << a + a * b + a * b * c;
  }

  void canvasItemCounts() {
    QFETCH(QByteArray, yaml);
    QFETCH(int, devices);
    QFETCH(int, links);
    QTemporaryDir dir;
    auto w = makeWindow();
    QCOMPARE(w->openFile(t::writeFile(dir, "s.yaml", yaml)), QString());
    QTRY_COMPARE_WITH_TIMEOUT(w->controller()->state(), State::Idle, 60000);
    QVERIFY(w->runModel()->isFinal());
    QCOMPARE(w->canvas()->deviceItemCount(), devices);
    w->canvas()->setBundlesExpanded(true);  // each link its own item (closed: one per node pair)
    QCOMPARE(w->canvas()->linkItemCount(), links);
    QVERIFY(!w->pointSelector()->isVisible());  // no sweep, no selector
  }

  void stopMidRunStaysConsistent() {
    QTemporaryDir dir;
    auto w = makeWindow();
    QCOMPARE(w->openFile(t::writeFile(dir, "long.yaml", t::meshScenario(8, 8, "128 MiB"))), QString());
    QTRY_VERIFY_WITH_TIMEOUT(w->runModel()->results() != nullptr, 20000);  // live snapshots
    QVERIFY(!w->runModel()->isFinal());
    QVERIFY(w->actions().stop->isEnabled());
    QTest::qWait(300);
    QVERIFY(w->grab().save(t::artefactsDir() + "/live_run.png"));
    QElapsedTimer timer;
    qint64 ms = -1;
    connect(w->controller(), &fl::gui::RunController::stateChanged, this,
            [&](State s) { if (s == State::Idle) ms = timer.elapsed(); });
    timer.start();
    w->actions().stop->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(w->controller()->state(), State::Idle, 5000);
    qInfo("stop -> idle in the window: %lld ms (issue's target: 200 ms; not asserted)", ms);
    QVERIFY(ms >= 0);

    // Consistent: what was simulated stays on screen, the actions match the state.
    QVERIFY(w->runModel()->results() != nullptr);
    QVERIFY(w->runModel()->results()->cancelled);
    QVERIFY(!w->actions().stop->isEnabled());
    QVERIFY(w->statusPanel()->rateText().contains("stopped"));
    QCOMPARE(w->canvas()->deviceItemCount(), 64);

    // A new, shorter run (an edit re-runs after the debounce) completes.
    QSignalSpy started(w->controller(), &fl::gui::RunController::runStarted);
    auto* model = w->scenarioDock()->model();
    QVERIFY(model->setData(model->indexOfPath("workload.collective.size"), "64 KiB", Qt::EditRole));
    QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 5000);
    QVERIFY(waitIdle(*w));
    QVERIFY(w->runModel()->isFinal());
    QVERIFY(!w->runModel()->results()->cancelled);
    QCOMPARE(w->runModel()->results()->collective_size_bytes, 64 * 1024);
  }

  // Behaviour, not wall time: the engine runs off the GUI thread, and the GUI thread
  // handles its other queued work between any two updates the run hands it. A "tick"
  // re-posts itself through the GUI thread's queue for the whole run, so exactly one tick
  // is always queued; posted events are delivered in order, so an update the worker
  // posts after the previous one was handled finds a tick ahead of it. Were the run done
  // on the GUI thread, no tick would run while busy and updates would not arrive during
  // the run; were updates queued without coalescing, several would pass with no tick.
  void eventLoopNeverStalls() {
    QTemporaryDir dir;
    auto w = makeWindow();
    auto* controller = w->controller();
    QThread* gui = QThread::currentThread();
    int ticks = 0, busyTicks = 0;
    bool ticking = true;
    std::function<void()> tick = [&] {
      ++ticks;
      if (controller->isBusy()) ++busyTicks;
      if (ticking) QMetaObject::invokeMethod(this, tick, Qt::QueuedConnection);
    };
    // Ticks seen since the previous update of each kind; the smallest such count.
    int snapshots = 0, progresses = 0, minTicksBetweenSnapshots = INT_MAX,
        minTicksBetweenProgress = INT_MAX, atSnapshot = -1, atProgress = -1;
    bool offGuiDelivery = false;
    connect(controller, &fl::gui::RunController::snapshotReady, this, [&] {
      offGuiDelivery = offGuiDelivery || QThread::currentThread() != gui;
      if (atSnapshot >= 0) minTicksBetweenSnapshots = std::min(minTicksBetweenSnapshots, ticks - atSnapshot);
      atSnapshot = ticks;
      ++snapshots;
    });
    connect(controller, &fl::gui::RunController::progressChanged, this, [&](double f) {
      if (f <= 0) return;  // the 0 that start() emits synchronously
      offGuiDelivery = offGuiDelivery || QThread::currentThread() != gui;
      if (atProgress >= 0) minTicksBetweenProgress = std::min(minTicksBetweenProgress, ticks - atProgress);
      atProgress = ticks;
      ++progresses;
    });
    QMetaObject::invokeMethod(this, tick, Qt::QueuedConnection);
    QCOMPARE(w->openFile(t::writeFile(dir, "live.yaml", t::meshScenario(8, 8, "24 MiB"))), QString());
    QVERIFY(controller->isBusy());  // start() returned with the run still going: not run inline
    QVERIFY(waitIdle(*w));
    ticking = false;
    QTest::qWait(0);
    qInfo("%d ticks while busy, %d live snapshots (>= %d ticks apart), %d progress updates "
          "(>= %d ticks apart)", busyTicks, snapshots, minTicksBetweenSnapshots, progresses,
          minTicksBetweenProgress);
    QVERIFY(!offGuiDelivery);      // views only ever see results on the GUI thread
    QVERIFY(snapshots >= 5);       // the views were busy with live results meanwhile
    QVERIFY(progresses >= 2);
    QVERIFY(busyTicks > snapshots + progresses);  // the GUI kept turning during the run
    QVERIFY2(minTicksBetweenSnapshots >= 1, "two snapshots handled with no other event between");
    QVERIFY2(minTicksBetweenProgress >= 1, "two progress updates handled with no other event between");
    QVERIFY(w->runModel()->isFinal());
  }

  void editReRunsKeepingResults() {
    auto w = makeWindow();
    QCOMPARE(w->startup(kDefault, false), QString());
    QVERIFY(waitIdle(*w));
    const auto results = w->runModel()->resultsShared();
    const auto topology = w->runModel()->topologyShared();
    auto* model = w->scenarioDock()->model();
    QVERIFY(model->setData(model->indexOfPath("workload.collective.size"), "16 MiB", Qt::EditRole));
    QVERIFY(w->isWindowModified());
    QSignalSpy started(w->controller(), &fl::gui::RunController::runStarted);
    bool keptAtStart = false, blanked = false;
    connect(w->controller(), &fl::gui::RunController::runStarted, this,
            [&] { keptAtStart = w->runModel()->resultsShared() == results; });
    connect(w->runModel(), &fl::views::RunModel::resultsChanged, this,
            [&] { blanked = blanked || !w->runModel()->results(); });
    QTest::qWait(150);
    QCOMPARE(started.count(), 0);  // debounced: typing on does not restart runs
    QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 2000);
    QVERIFY(waitIdle(*w));
    QCOMPARE(w->runModel()->results()->collective_size_bytes, 16 * 1024 * 1024);
    QVERIFY(keptAtStart);  // old results stay on screen until new ones come
    QVERIFY(!blanked);
    QCOMPARE(w->runModel()->topologyShared(), topology);  // same fabric: canvas kept

    // A rejected edit shows the message in the dock and the status bar.
    QVERIFY(!model->setData(model->indexOfPath("topology.link.bandwidth"), "25", Qt::EditRole));
    QVERIFY(w->scenarioDock()->errorText().contains("topology.link.bandwidth"));
    QCOMPARE(w->statusPanel()->message(), w->scenarioDock()->errorText());
    QVERIFY(w->grab().save(t::artefactsDir() + "/rejected_edit.png"));
  }

  void unsavedChanges() {
    QTemporaryDir dir;
    const QString path = t::writeFile(dir, "s.yaml", t::meshScenario(4, 4));
    auto w = makeWindow();
    QCOMPARE(w->openFile(path), QString());
    auto* model = w->scenarioDock()->model();
    QVERIFY(model->setData(model->indexOfPath("topology.rows"), "3", Qt::EditRole));
    QVERIFY(w->isWindowModified());
    QVERIFY(w->windowTitle().contains("[*]"));

    w->setSavePrompt([] { return QMessageBox::Cancel; });
    QVERIFY(!w->close());
    QVERIFY(w->isVisible());

    w->setSavePrompt([] { return QMessageBox::Save; });
    QVERIFY(w->close());
    QCOMPARE(fl::loadScenario(path.toStdString()).topology.rows, 3);  // saved on the way out
    QVERIFY(waitIdle(*w));
  }

  // Through the tree's editors, as a user edits: a line edit committed with Return, a
  // combo box committed on pick.
  void editorsCommit() {
    QTemporaryDir dir;
    auto w = makeWindow();
    QCOMPARE(w->openFile(t::writeFile(dir, "e.yaml", t::meshScenario(4, 4))), QString());
    QTreeView* view = w->scenarioDock()->view();
    auto* model = w->scenarioDock()->model();

    const QModelIndex latency = model->indexOfPath("topology.link.latency");
    view->scrollTo(latency);
    view->edit(latency);
    auto* line = view->findChild<QLineEdit*>();
    QVERIFY(line);
    QCOMPARE(line->text(), QString("5 ns"));
    line->setText("7ns");
    QTest::keyClick(line, Qt::Key_Return);  // the delegate commits in a queued call
    QTRY_COMPARE(w->document()->scenario().topology.link_latency, fl::Time(7000));

    const QModelIndex acked = model->indexOfPath("network.acknowledged_writes");
    view->scrollTo(acked);
    view->edit(acked);
    auto* combo = view->findChild<QComboBox*>();
    QVERIFY(combo);
    QCOMPARE(combo->currentText(), QString("false"));
    combo->setCurrentIndex(combo->findText("true"));
    emit combo->activated(combo->currentIndex());
    QVERIFY(w->document()->scenario().network.acknowledged_writes);
    QCOMPARE(w->document()->undoStack()->count(), 2);
    w->actions().undo->trigger();
    QVERIFY(!w->document()->scenario().network.acknowledged_writes);
    QVERIFY(waitIdle(*w));
  }

  void screenshotNotBlank() {
    auto w = makeWindow();
    QCOMPARE(w->startup(kDefault, false), QString());
    QVERIFY(waitIdle(*w));
    QTest::qWait(200);  // views repaint from the final results
    const QImage shot = w->grab().toImage();
    QVERIFY(!shot.isNull());
    int colours = 0;
    double busy = 0;
    pixelStats(shot, colours, busy);
    const QImage canvas = w->canvas()->grab().toImage();
    int canvasColours = 0;
    double canvasBusy = 0;
    pixelStats(canvas, canvasColours, canvasBusy);
    qInfo("window %dx%d: %d colours, %.0f %% off-background; canvas: %d colours, %.0f %%", shot.width(),
          shot.height(), colours, busy * 100, canvasColours, canvasBusy * 100);
    QVERIFY(colours > 100);
    QVERIFY(busy > 0.2);
    QVERIFY(canvasColours > 20 && canvasBusy > 0.1);
    const QString file = t::artefactsDir() + "/main_window.png";
    QVERIFY(shot.save(file));
    qInfo("saved %s", qPrintable(file));
  }

  // PDF pages: no heading is left at the foot of a page with what it heads on the next.
  // Sections of varied length put some heading near a page's foot; laid out on the same
  // pages without paginateForPrint's breaks, some are orphaned.
  void pdfHeadingsKeepWithNext() {
    std::string html = "<html><body>";
    for (int i = 0; i < 40; ++i) {
      html += "<h2>Section " + std::to_string(i) + "</h2><p>One line under the heading.</p><table>";
      for (int r = 0; r < 8; ++r) html += "<tr><td>row " + std::to_string(r) + "</td><td>value</td></tr>";
      html += "</table><p>";
      for (int w = 0; w < 40 + 37 * (i % 7); ++w) html += "filler ";
      html += "</p>";
    }
    html += "</body></html>";
    const QSizeF page(778, 1108);  // A4 at 96 dpi less 2 mm printer margins
    QTextDocument plain;
    fl::gui::layoutReportDocument(plain, html);
    QTextFrameFormat f = plain.rootFrame()->frameFormat();
    f.setMargin(fl::gui::kPrintMarginPx);
    plain.rootFrame()->setFrameFormat(f);
    plain.setPageSize(page);
    QVERIFY(orphanedHeadings(plain) > 0);
    QTextDocument printed;
    fl::gui::layoutReportDocument(printed, html);
    fl::gui::paginateForPrint(printed, page, fl::gui::kPrintMarginPx);
    QCOMPARE(orphanedHeadings(printed), 0);
    QVERIFY(printed.pageCount() >= plain.pageCount());
  }

  // PDF tables fit the printed text width (628 px: A4 at 96 dpi less 2 mm printer and
  // 2 cm text margins) with the report's own stylesheet: headers wrap at their word
  // boundaries, no cell's word is broken (every line of a cell starts after a space or a
  // '/'). Headers and cells as the MoE breakdown and scheme sweep tables have them.
  void pdfTablesFitTheTextWidth_data() {
    QTest::addColumn<QStringList>("headers");
    QTest::addColumn<QStringList>("cells");
    QTest::newRow("MoE traffic breakdown")
        << QStringList{"phase", "direction", "useful", "redundant", "useless", "overhead", "redundant + useless"}
        << QStringList{"dispatch", "downlink", "224.0 MiB", "1.32 GiB", "0 B", "295.5 MiB", "85.8%"};
    QTest::newRow("scheme sweep")
        << QStringList{"#", "scheme.communication", "makespan", "payload efficiency", "redundant + useless",
                       "uplink/downlink balance", "SM utilisation"}
        << QStringList{"1", "nvls_static", "434.3 \u00b5s", "84.2%", "42.9%", "1.00", "12.5%"};
  }
  void pdfTablesFitTheTextWidth() {
    QFETCH(QStringList, headers);
    QFETCH(QStringList, cells);
    std::string html = std::string("<html><head><style>") + fl::report::kReportCss +
                       "</style></head><body><main><h2>Results</h2><div class=\"scroll\"><table><thead><tr>";
    for (int c = 0; c < headers.size(); ++c)  // numeric columns' headers as html_util writes them
      html += std::string(c >= 2 ? "<th class=\"num\">" : "<th>") + headers[c].toHtmlEscaped().toStdString() + "</th>";
    html += "</tr></thead><tbody>";
    for (int r = 0; r < 4; ++r) {
      html += "<tr>";
      for (int c = 0; c < cells.size(); ++c)
        html += std::string(c >= 2 ? "<td class=\"num\">" : "<td>") + cells[c].toStdString() + "</td>";
      html += "</tr>";
    }
    html += "</tbody></table></div></main></body></html>";
    QTextDocument doc;
    fl::gui::layoutReportDocument(doc, html);
    fl::gui::paginateForPrint(doc, QSizeF(778, 1108), fl::gui::kPrintMarginPx);
    QAbstractTextDocumentLayout* layout = doc.documentLayout();
    int tables = 0;
    for (QTextFrame* f : doc.rootFrame()->childFrames()) {
      auto* table = qobject_cast<QTextTable*>(f);
      if (!table) continue;
      ++tables;
      const QRectF r = layout->frameBoundingRect(table);
      QVERIFY2(r.width() <= 628.5, qPrintable(QString("table %1 px wide from %2, text 628").arg(r.width()).arg(r.left())));
    }
    QCOMPARE(tables, 1);
    int wrappedHeaders = 0;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
      if (!QTextCursor(b).currentTable() || !b.layout()) continue;
      for (int i = 1; i < b.layout()->lineCount(); ++i) {
        const int start = b.layout()->lineAt(i).textStart();
        const QChar before = b.text().at(start - 1);
        QVERIFY2(before.isSpace() || before == '/', qPrintable(b.text() + " broken at " + QString::number(start)));
        ++wrappedHeaders;
      }
    }
    qInfo("%d header line breaks", wrappedHeaders);
  }

  void exports() {
    QTemporaryDir dir;
    auto w = makeWindow();
    fl::gui::ReportInput none;
    QVERIFY(!fl::gui::writeReport(dir.filePath("early.html"), none, w->canvas()).isEmpty());
    QCOMPARE(w->startup(kDefault, false), QString());
    QVERIFY(waitIdle(*w));

    QCOMPARE(fl::gui::exportCanvasImage(w->canvas(), dir.filePath("c.png")), QString());
    QVERIFY(!QImage(dir.filePath("c.png")).isNull());
    QCOMPARE(fl::gui::exportCanvasImage(w->canvas(), dir.filePath("c.svg")), QString());
    QFile svg(dir.filePath("c.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly) && svg.readAll().contains("<svg"));

    fl::gui::ReportInput in;
    in.scenario = &w->sweepResults()->scenario();
    in.points = w->sweepResults()->finishedPoints();
    in.topology = w->sweepResults()->finishedTopology();
    in.scenarioFile = kDefault;
    QCOMPARE(in.points.size(), size_t(2));
    QCOMPARE(fl::gui::writeReport(dir.filePath("r.html"), in, w->canvas()), QString());
    QFile html(dir.filePath("r.html"));
    QVERIFY(html.open(QIODevice::ReadOnly));
    const QByteArray text = html.readAll();
    QVERIFY(text.contains("<html") && text.contains("Topology view") && text.contains("data:image/png;base64,"));
    QVERIFY(text.contains("A self-contained file: inline SVG and CSS"));
    QCOMPARE(fl::gui::writeReport(dir.filePath("r.pdf"), in, w->canvas()), QString());
    QFile pdf(dir.filePath("r.pdf"));
    QVERIFY(pdf.open(QIODevice::ReadOnly) && pdf.read(5) == "%PDF-");
    QVERIFY(pdf.size() > 10000);
    // The PDF says nothing only true of the HTML file, and its Title is the scenario's name.
    const std::string printed = fl::gui::reportHtml(in, {}, true);
    QVERIFY(printed.find("inline SVG") == std::string::npos);
    QVERIFY(printed.find("Generated by FabricLab") != std::string::npos);
    QCOMPARE(fl::gui::reportTitle(in), QString("Ring vs NVLS all-reduce on DGX-H100"));
    const QString pdfinfo = QStandardPaths::findExecutable("pdfinfo");
    if (!pdfinfo.isEmpty()) {
      QProcess info;
      info.start(pdfinfo, {dir.filePath("r.pdf")});
      QVERIFY(info.waitForFinished(30000));
      const QString out = QString::fromUtf8(info.readAllStandardOutput());
      QVERIFY2(out.contains(QRegularExpression("^Title: +Ring vs NVLS all-reduce on DGX-H100$",
                                               QRegularExpression::MultilineOption)),
               qPrintable(out));
    }
    // What the PDF prints: the first page of the laid-out report is not blank.
    QTextDocument doc;
    fl::gui::layoutReportDocument(doc, text.toStdString());
    fl::gui::paginateForPrint(doc, QSizeF(778, 1108), fl::gui::kPrintMarginPx);  // A4 at 96 dpi
    QVERIFY(doc.pageCount() >= 2);
    QCOMPARE(orphanedHeadings(doc), 0);
    // Every picture is a block of its own (on a heading's or paragraph's line it made that
    // line as tall as itself) and fits the printed page's text width (628 px).
    int pictures = 0;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next())
      for (auto it = b.begin(); !it.atEnd(); ++it) {
        const QTextCharFormat f = it.fragment().charFormat();
        if (!f.isImageFormat()) continue;
        ++pictures;
        QVERIFY2(b.text().trimmed() == QString(QChar::ObjectReplacementCharacter), qPrintable(b.text().left(80)));
        QVERIFY2(f.toImageFormat().width() <= 628, qPrintable(QString::number(f.toImageFormat().width())));
      }
    QVERIFY2(pictures >= 5, qPrintable(QString::number(pictures)));  // per point: topology, plots; the canvas view
    QImage page(794, 1123 * 2, QImage::Format_RGB32);
    page.fill(Qt::white);
    QPainter painter(&page);
    doc.drawContents(&painter, QRectF(0, 0, 794, 1123 * 2));
    painter.end();
    int colours = 0;
    double busy = 0;
    pixelStats(page, colours, busy);
    QVERIFY(colours > 20 && busy > 0.05);
    page.save(t::artefactsDir() + "/report_pages.png");
    QCOMPARE(QDir(dir.path()).entryList({"*partial*"}, QDir::Files).size(), 0);  // no leftovers
  }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
