// Docks on a point without their data link to the points with it: the Merge Table on a
// TP-NVLS point names the CAIS points, Migrations on "No balancer" the balancers that
// moved experts, AL TLB on DeepEP the DySHARP points; nothing switches by itself (the user's point stands), and a click on a
// link shows that point.
#include <QDockWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "gui/main_window.h"
#include "gui/run_controller.h"
#include "gui/sweep_results.h"
#include "gui_test_util.h"
#include "main_window_fixture.h"
#include "views/al_tlb_panel.h"
#include "views/merge_table_inspector.h"
#include "views/migration_panel.h"
#include "views/point_links.h"
#include "views/run_model.h"

using fl::gui::MainWindow;
namespace t = fl::gui::test;
using Points = std::vector<std::pair<int, QString>>;

namespace {

// tests/gui/test_cais_docks.cpp's small TP layer on 4 GPUs, TP-NVLS against CAIS-Base.
const QByteArray kTp =
    "fabriclab: 1\nname: tp test\ntopology:\n  kind: nvswitch\n  gpus: 4\n  switches: 4\n  links_per_gpu: 18\n"
    "  switch_ports: 64\nnetwork:\n  packet_payload: 1 KiB\n  switch:\n    merge_table: 4 KiB\n"
    "    merge_timeout: 10 us\nworkload:\n  kind: tp_layer\n  tp:\n    model: custom\n    hidden: 512\n"
    "    ffn_hidden: 2048\n    heads: 8\n    seq_len: 512\n    batch: 1\n    layers: 2\nscheme:\n  tp: tp_nvls\n"
    "run:\n  bin: 1 us\nsweep:\n  - key: scheme.tp\n    values: [tp_nvls, cais_base]\n";

// A small MoE layer on NVL32 (tests/common/view_helpers.h's, fewer tokens): DeepEP has
// no AL TLB, DySHARP's multimem addressing looks layouts up in it.
const QByteArray kMoe =
    "fabriclab: 1\nname: al tlb links\ntopology: {preset: gh200-nvl32}\n"
    "network: {packet_payload: 4 KiB, vc_depth_flits: 1024, switch: {reduction_buffer: 64 KiB}}\n"
    "workload: {kind: moe_layer, moe: {model: deepseek-v3, tokens_per_gpu: 32}}\n"
    "scheme: {communication: deepep, fusion: sequential}\n"
    "sweep:\n  - {key: scheme.communication, values: [deepep, dysharp]}\n";

}  // namespace

class TestPointLinks : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { t::isolateSettings(); }

  void mergeTableLinksCaisPoints() {
    QTemporaryDir dir;
    auto w = t::makeWindow();
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QCOMPARE(w->openFile(t::writeFile(dir, "tp.yaml", kTp)), QString());
    QVERIFY(t::waitIdle(*w));
    QTest::qWait(20);
    auto* inspector = w->findChild<fl::views::MergeTableInspector*>();
    QVERIFY(inspector);
    QCOMPARE(w->sweepResults()->selectedPoint(), 0);  // TP-NVLS: no merge units, and left there
    QVERIFY(inspector->noticeVisible());
    fl::views::PointLinks* links = inspector->pointLinks();
    QCOMPARE(links->points(), (Points{{1, "CAIS-Base"}}));
    QVERIFY(links->isVisibleTo(inspector));
    QVERIFY(links->text().contains("CAIS-Base</a>"));
    emit links->linkActivated("1");  // a click on "CAIS-Base"
    QCOMPARE(w->sweepResults()->selectedPoint(), 1);
    QTest::qWait(20);
    QVERIFY(!inspector->noticeVisible());
  }

  void migrationsLinkBalancers() {
    auto w = t::makeWindow();
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QCOMPARE(w->openFile(QStringLiteral(FABRICLAB_SCENARIOS "/wsc-balancer-single.yaml")), QString());
    QVERIFY(t::waitIdle(*w, 120000));
    QTest::qWait(20);
    auto* sweep = w->sweepResults();
    QCOMPARE(sweep->selectedPoint(), 0);  // balancer.kind none, left there
    // The points whose runs moved an expert, counted from their results.
    Points moved;
    for (int i = 1; i < sweep->pointCount(); ++i)
      if (const auto r = sweep->results(i); r && r->wsc && !r->wsc->migrations.empty()) moved.emplace_back(i, sweep->labels().value(i));
    QVERIFY(moved.size() >= 2);
    QVERIFY(w->runModel()->results()->wsc->migrations.empty());
    auto* panel = w->findChild<fl::views::MigrationPanel*>();
    QVERIFY(panel);
    QCOMPARE(panel->pointLinks()->points(), moved);
    QVERIFY(panel->pointLinks()->isVisibleTo(panel));
    emit panel->pointLinks()->linkActivated(QString::number(moved.back().first));
    QCOMPARE(sweep->selectedPoint(), moved.back().first);
    QTest::qWait(20);
    QVERIFY(!w->runModel()->results()->wsc->migrations.empty());
    QVERIFY(!panel->pointLinks()->isVisibleTo(panel));  // the shown point has its own
  }

  void alTlbLinksDysharpPoints() {
    QTemporaryDir dir;
    auto w = t::makeWindow();
    QVERIFY(QTest::qWaitForWindowExposed(w.get()));
    QCOMPARE(w->openFile(t::writeFile(dir, "moe.yaml", kMoe)), QString());
    QVERIFY(t::waitIdle(*w, 120000));
    QTest::qWait(20);
    auto* sweep = w->sweepResults();
    QCOMPARE(sweep->selectedPoint(), 0);  // DeepEP: no AL TLB, and left there
    // The points whose GPUs looked layouts up, counted from their results.
    Points with;
    for (int i = 1; i < sweep->pointCount(); ++i)
      if (const auto r = sweep->results(i); r && r->moe && r->moe->al_tlb_hits + r->moe->al_tlb_misses > 0)
        with.emplace_back(i, sweep->labels().value(i));
    QCOMPARE(with.size(), std::size_t{1});
    auto* panel = w->findChild<fl::views::AlTlbPanel*>();
    QVERIFY(panel && panel->noticeVisible());
    QCOMPARE(panel->pointLinks()->points(), with);
    QVERIFY(panel->pointLinks()->isVisibleTo(panel));
    QVERIFY(panel->pointLinks()->text().contains(with.front().second + "</a>"));
    emit panel->pointLinks()->linkActivated(QString::number(with.front().first));
    QCOMPARE(sweep->selectedPoint(), with.front().first);
    QTest::qWait(20);
    QVERIFY(!panel->noticeVisible());
    QVERIFY(!panel->pointLinks()->isVisibleTo(panel));  // the shown point has its own
  }
};

QTEST_MAIN(TestPointLinks)
#include "test_point_links.moc"
