// The HTML report in a real browser (headless Chromium, installed by packaging/setup.sh;
// skipped where it is missing): at 1280 px no element is wider than the page (no
// horizontal scrolling) and every figure renders (each SVG and image has a non-zero
// box). A copy of the report gets a script that writes its measurements into the DOM,
// which Chromium dumps; the report itself stays script-free.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

#include "report/html_report.h"
#include "scenario/schema.h"
#include "scenario/scenario_io.h"
#include "scenario/sweep.h"
#include "sim/run.h"
#include "topology/topology.h"

using namespace fl;

namespace {

// Plain (not raw) literals: moc left this file's output empty on the raw strings.
const char* kProbe =
    "<script>\n"
    "const doc = document.documentElement;\n"
    "const figures = [...document.querySelectorAll('svg, img')].filter(e => !(e.parentElement && e.parentElement.closest('svg')));\n"
    "const empty = figures.filter(e => { const r = e.getBoundingClientRect(); return r.width < 2 || r.height < 2; });\n"
    "const wide = [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > doc.clientWidth + 1 && !e.closest('div.scroll'));\n"
    "document.body.setAttribute('data-probe', JSON.stringify({scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth,\n"
    "  figures: figures.length, empty: empty.length, wide: wide.slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className)}));\n"
    "</script>\n";

QString chromium() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    const QString path = QStandardPaths::findExecutable(QLatin1String(name));
    if (!path.isEmpty()) return path;
  }
  return {};
}

}  // namespace

class TestReportBrowser : public QObject {
  Q_OBJECT
 private slots:
  void noOverflowEveryFigure_data() {
    QTest::addColumn<QString>("scenario");
    QTest::newRow("default demo (sweep, story)") << "default.yaml";
    QTest::newRow("mesh all-to-all") << "mesh-8x8-all-to-all.yaml";
    // Four MoE points: the comparison's grid of breakdown charts and Gantts, bundles.
    QTest::newRow("NVL32 fusion demo (compare, breakdown, Gantt)") << "nvl32-moe-fusion-demo.yaml";
  }

  void noOverflowEveryFigure() {
    QFETCH(QString, scenario);
    const QString browser = chromium();
    if (browser.isEmpty()) QSKIP("no Chromium (packaging/setup.sh installs it for the tests)");
    const std::string file = (QStringLiteral(FABRICLAB_SCENARIOS "/") + scenario).toStdString();
    Scenario s = loadScenario(file);
    if (scenario == "default.yaml") s.workload.collective.size = std::int64_t(16) << 20;  // quick
    if (scenario == "nvl32-moe-fusion-demo.yaml") setValue(s, "workload.moe.tokens_per_gpu", "128");
    std::vector<SweepPoint> points;
    for (const SweepSettings& p : sweepPoints(s)) points.push_back({p, runScenario(sweepPointScenario(s, p))});
    const auto topology = topo::buildTopology(s.topology);
    report::ReportOptions o;
    o.scenarioFile = file;
    o.date = "2025-01-01 00:00 UTC";
    QString html = QString::fromStdString(report::renderHtmlReport(s, points, *topology, o));
    QVERIFY(!html.contains("<script"));
    html.replace("</body>", QString::fromLatin1(kProbe) + "</body>");
    QTemporaryDir dir;
    const QString path = dir.filePath("report.html");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(html.toUtf8());
    f.close();
    QProcess p;
    p.start(browser, {"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,900",
                      "--user-data-dir=" + dir.filePath("profile"), "--dump-dom", QUrl::fromLocalFile(path).toString()});
    QVERIFY(p.waitForFinished(120000));
    const QString dom = QString::fromUtf8(p.readAllStandardOutput());
    const auto m = QRegularExpression("data-probe=\"([^\"]*)\"").match(dom);
    QVERIFY2(m.hasMatch(), qPrintable(QString::fromUtf8(p.readAllStandardError()).left(2000)));
    const QJsonObject probe = QJsonDocument::fromJson(m.captured(1).replace("&quot;", "\"").toUtf8()).object();
    qInfo("%s", qPrintable(QJsonDocument(probe).toJson(QJsonDocument::Compact)));
    QVERIFY2(probe["scrollWidth"].toInt() <= probe["clientWidth"].toInt(), qPrintable(QJsonDocument(probe).toJson()));
    QVERIFY(probe["clientWidth"].toInt() >= 1200);
    QVERIFY(probe["figures"].toInt() >= 3);
    // Every figure drawn: the comparison's bandwidth and breakdown, each point's fabric and Gantt.
    if (scenario == "nvl32-moe-fusion-demo.yaml") QVERIFY(probe["figures"].toInt() >= 2 + 4 * 2);
    QCOMPARE(probe["empty"].toInt(), 0);
    QVERIFY2(probe["wide"].toArray().isEmpty(), qPrintable(QJsonDocument(probe).toJson()));
  }
};

QTEST_MAIN(TestReportBrowser)
#include "test_report_browser.moc"
